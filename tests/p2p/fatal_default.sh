#!/bin/sh
# fatal_default.sh MPIEXEC PROGRAM: the job must end with a non-zero code
# (not mpiexec's timeout, 124) and a message naming MPI_Send and dest=99.
mpiexec=$1
prog=$2
out=$("$mpiexec" --timeout 20 -n 2 "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
fail() { echo "fatal_default.sh: $*"; exit 1; }
[ "$rc" -ne 0 ] || fail "the job exited 0"
[ "$rc" -ne 124 ] || fail "the job hung until mpiexec's timeout"
case "$out" in *"returned"*) fail "MPI_Send to rank 99 returned under MPI_ERRORS_ARE_FATAL" ;; esac
case "$out" in *MPI_Send*) ;; *) fail "the output does not name MPI_Send" ;; esac
case "$out" in *dest=99*) ;; *) fail "the output does not name dest=99" ;; esac
echo "fatal_default.sh: exit code $rc, message names MPI_Send and dest=99: ok"
