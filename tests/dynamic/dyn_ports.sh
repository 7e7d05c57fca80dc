#!/bin/sh
# Two jobs, each started by its own mpiexec, meet through a published name
# in a name-service folder of their own: dyn_ports.sh MPIEXEC PROGRAM NP_SERVER NP_CLIENT
set -u
mpiexec=$1 prog=$2 ns=$3 nc=$4
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
export TERN_NAMESERVER_DIR=$dir
service="svc-$$"
"$mpiexec" --timeout 100 -n "$ns" "$prog" server "$service" &
spid=$!
"$mpiexec" --timeout 100 -n "$nc" "$prog" client "$service"
crc=$?
wait $spid
src=$?
echo "server exit $src, client exit $crc"
[ "$src" -eq 0 ] && [ "$crc" -eq 0 ] || exit 1
# The server unpublished its name.
left=$(ls "$dir")
[ -z "$left" ] || { echo "left in the name service: $left"; exit 1; }
exit 0
