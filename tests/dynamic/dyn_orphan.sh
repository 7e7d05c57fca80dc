#!/bin/sh
# A parent that dies ends its children: dyn_orphan.sh MPIEXEC PROGRAM
set -u
mpiexec=$1 prog=$2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
"$mpiexec" --timeout 60 -n 1 "$prog" "$dir"
rc=$?
[ "$rc" -ne 0 ] || { echo "FAIL: the parent job exited 0; it should have reported the parent's exit"; exit 1; }
for f in "$dir"/child0.pid "$dir"/child1.pid; do
    [ -s "$f" ] || { echo "FAIL: no $f"; exit 1; }
done
# The children end within a few seconds of their parent.
for i in $(seq 1 100); do
    alive=
    for f in "$dir"/child*.pid; do
        kill -0 "$(cat "$f")" 2>/dev/null && alive="$alive $(cat "$f")"
    done
    [ -z "$alive" ] && { echo "orphans: none left (parent job exit $rc)"; exit 0; }
    sleep 0.1
done
echo "FAIL: children still running 10 s after their parent died:$alive"
for p in $alive; do kill -9 "$p" 2>/dev/null; done
exit 1
