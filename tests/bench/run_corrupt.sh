#!/usr/bin/env bash
# run_corrupt.sh MPIEXEC TERN_BENCH NP
#
# The validation gate itself: with --corrupt-for-test every check of
# tern-bench flips one byte of the data it is about to examine, as a
# library that delivered one wrong byte would.  Every benchmark that moves
# data must then fail with a validation message naming the size, and
# tern-bench must exit 1.  barrier and ibarrier move none and must pass.
set -u
mpiexec=$1 bench=$2 np=$3
size=1280   # a whole number of every benchmark's elements (8-byte doubles, 32-byte structs, 64-byte halo3d rows)
nodata=" barrier ibarrier "

names=$("$bench" --list | awk '{ print $1 }')
if [[ -z $names ]]; then
    echo "FAIL: tern-bench --list names no benchmark"
    exit 1
fi

# the atomics move one 8-byte element whatever -m says
fixed=" fop-latency cas-latency "
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tern-bench-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

out=$("$mpiexec" --timeout 100 -n "$np" "$bench" all -m "$size" -i 1 -x 0 --corrupt-for-test \
      --dir "$tmp" 2>&1)
rc=$?
printf '%s\n' "$out"

bad=0
for n in $names; do
    want=$size
    [[ $fixed == *" $n "* ]] && want=8
    if [[ $nodata == *" $n "* ]]; then
        grep -qxF "# $n: ok" <<<"$out" || { echo "FAIL: $n moves no data and should pass"; bad=1; }
    elif ! grep -qF "# $n: failed at size $want B: validation: " <<<"$out"; then
        echo "FAIL: $n did not fail validation on a corrupted byte"
        bad=1
    fi
done
if [[ -n $(ls -A "$tmp") ]]; then
    echo "FAIL: the I/O benchmarks left files behind:" $(ls -A "$tmp")
    bad=1
fi
if ((rc != 1)); then
    echo "FAIL: tern-bench exited with $rc, expected 1 (a benchmark failed)"
    bad=1
fi
exit $bad
