#!/bin/sh
# use_mpi_reject.sh FC MODDIR SOURCE
# The checking `use mpi` owes (MPI-4.1 19.1.3): SOURCE passes a REAL as
# MPI_COMM_RANK's INTEGER rank and must fail to compile, for that reason;
# the same program with an INTEGER rank must compile, so that the failure is
# the interface's and not the build's.
set -u
fc=$1 moddir=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
sed 's/^  real :: r$/  integer :: r/' "$src" > "$tmp/good.f90"
grep -q '^  integer :: r$' "$tmp/good.f90" || { echo "FAIL: no 'real :: r' line in $src"; exit 1; }
if ! LC_ALL=C "$fc" -fsyntax-only -I"$moddir" "$tmp/good.f90" -J "$tmp"; then
    echo "FAIL: the control program (INTEGER rank) does not compile"; exit 1
fi
if LC_ALL=C "$fc" -fsyntax-only -I"$moddir" "$src" -J "$tmp" > "$tmp/out" 2>&1; then
    echo "FAIL: a REAL rank compiled: use mpi has no interface for MPI_Comm_rank"; exit 1
fi
cat "$tmp/out"
grep -q "Type mismatch in argument 'rank'" "$tmp/out" || {
    echo "FAIL: the compiler refused the program, but not for the rank's type"; exit 1; }
echo "ok: the REAL rank is refused"
