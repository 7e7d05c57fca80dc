#!/bin/sh
# run.sh BUILD [REPS]: what a call through mpif.h/use mpi and use mpi_f08
# costs over the same call from C.  Builds the three 8-byte ping-pongs with
# BUILD's mpicc and mpifort, then runs them interleaved REPS times (5) at 2
# ranks, printing before each repetition the one-way cache-line latency
# between the two cores (bench-cacheline), which says where the host placed
# them.  Run it on an idle machine and compare medians.
set -eu
build=$(cd "${1:?usage: run.sh BUILD [REPS]}" && pwd) reps=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
"$build/bin/mpicc" -O2 -o "$out/c" "$here/pingpong.c"
for f in f90 f08; do
    (cd "$out" && "$build/bin/mpifort" -O2 -o "$out/$f" "$here/pingpong_$f.f90")
done
i=1
while [ $i -le "$reps" ]; do
    echo "rep $i: cache line $("$build/bin/bench-cacheline" | awk '/^cacheline_ns/ { print $2 }') ns"
    for p in c f90 f08; do "$build/bin/mpiexec" -n 2 "$out/$p"; done
    i=$((i + 1))
done
