#!/bin/sh
# hosts_unreachable.sh MPIEXEC PROGRAM: 4 ranks on 2 simulated hosts
# (TERN_RANKS_PER_HOST=2) with no transport between hosts built in.  The job
# must fail at MPI_Init, not hang, with a message that names the host split
# (from whichever rank stops first: rank 2 runs on host 1 of 2, or rank 0 on
# host 0 of 2), and leave nothing in /dev/shm.  MV2_USE_SHARED_MEM=0 fails
# the same way, since it sends every peer to the UCX transport.
mpiexec=$1
prog=$2
before=$(ls /dev/shm 2>/dev/null | grep '^tern-' | sort)
out=$("$mpiexec" --timeout 20 -n 4 TERN_RANKS_PER_HOST=2 "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
fail() { echo "hosts_unreachable.sh: $*"; exit 1; }
[ "$rc" -ne 0 ] || fail "the job exited 0"
[ "$rc" -ne 124 ] || fail "the job hung until mpiexec's timeout"
case "$out" in *"rank 2 runs on host 1 of 2"* | *"rank 0 runs on host 0 of 2"*) ;; *) fail "no message names the host split (rank 2 on host 1 of 2, or rank 0 on host 0 of 2)" ;; esac
case "$out" in *"no transport between hosts"*) ;; *) fail "the message does not say that no transport reaches the other host" ;; esac
after=$(ls /dev/shm 2>/dev/null | grep '^tern-' | sort)
[ "$before" = "$after" ] || fail "left in /dev/shm: $(echo "$after" | tr '\n' ' ')"
# The same host named explicitly on every rank is one host: the job runs
# until its own fatal error (MPI_Send to rank 99), past MPI_Init.
out=$("$mpiexec" --timeout 20 -n 2 TERN_HOST_ID=nodeA "$prog" 2>&1)
case "$out" in *dest=99*) ;; *) printf '%s\n' "$out"; fail "TERN_HOST_ID=nodeA on every rank did not get past MPI_Init" ;; esac
# MV2_USE_SHARED_MEM=0 asks for UCX on every pair, which this build lacks.
out=$("$mpiexec" --timeout 20 -n 2 MV2_USE_SHARED_MEM=0 "$prog" 2>&1)
rc2=$?
[ "$rc2" -ne 0 ] && [ "$rc2" -ne 124 ] || { printf '%s\n' "$out"; fail "MV2_USE_SHARED_MEM=0 without UCX: exit code $rc2"; }
case "$out" in *"no UCX transport"*) ;; *) printf '%s\n' "$out"; fail "MV2_USE_SHARED_MEM=0 without UCX: no message says UCX is missing" ;; esac
echo "hosts_unreachable.sh: exit code $rc, the host split is named: ok"
