#!/bin/sh
# Windows leave nothing in /dev/shm: not after MPI_Win_free, not when the
# job is killed with windows still open.  $1: mpiexec, $2: rma_objects,
# $3: rma_passive (killed while its target sleeps with windows open).
mpiexec=$1 objects=$2 passive=$3
[ -d /dev/shm ] || { echo "skipped: no /dev/shm here"; exit 77; }
before=$(ls -A /dev/shm | sort)
"$mpiexec" --timeout 60 -n 4 "$objects" || { echo "FAIL: rma_objects failed"; exit 1; }
"$mpiexec" --timeout 1 -n 2 "$passive" >/dev/null 2>&1
after=$(ls -A /dev/shm | sort)
if [ "$before" != "$after" ]; then
    echo "FAIL: /dev/shm changed:"
    echo "$before" > /tmp/rma_devshm_before.$$; echo "$after" > /tmp/rma_devshm_after.$$
    diff /tmp/rma_devshm_before.$$ /tmp/rma_devshm_after.$$; rm -f /tmp/rma_devshm_*.$$
    exit 1
fi
echo "rma_devshm: /dev/shm unchanged after freed and killed windows"
