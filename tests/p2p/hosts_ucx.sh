#!/bin/sh
# hosts_ucx.sh MPIEXEC PROGRAM: 4 ranks on 2 simulated hosts
# (TERN_RANKS_PER_HOST=2) in a build with the UCX transport.  MPI_Init
# must succeed across the hosts: the job runs to its own fatal error
# (MPI_Send to rank 99), ends with a non-zero code, not a hang, and leaves
# nothing in /dev/shm.
mpiexec=$1
prog=$2
before=$(ls /dev/shm 2>/dev/null | grep '^tern-' | sort)
out=$("$mpiexec" --timeout 20 -n 4 TERN_RANKS_PER_HOST=2 UCX_TLS=tcp,self "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
fail() { echo "hosts_ucx.sh: $*"; exit 1; }
[ "$rc" -ne 0 ] || fail "the job exited 0"
[ "$rc" -ne 124 ] || fail "the job hung until mpiexec's timeout"
case "$out" in *"no transport between hosts"*) fail "MPI_Init found no transport between the hosts" ;; esac
case "$out" in *dest=99*) ;; *) fail "the job did not get past MPI_Init to its MPI_Send to rank 99" ;; esac
after=$(ls /dev/shm 2>/dev/null | grep '^tern-' | sort)
[ "$before" = "$after" ] || fail "left in /dev/shm: $(echo "$after" | tr '\n' ' ')"
echo "hosts_ucx.sh: exit code $rc, past MPI_Init across 2 hosts: ok"
