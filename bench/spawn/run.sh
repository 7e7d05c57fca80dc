#!/bin/sh
# run.sh BUILD [REPS] [N]: MPI_Comm_spawn of N children (4) to a usable
# intercommunicator, Tern (BUILD's mpicc and mpiexec) against MPICH 4.0.2
# and Open MPI 4.1.4, interleaved: REPS rounds (5), each starting every
# library's parent once for 3 spawns in a row, with the one-way cache-line
# latency between the two cores (bench-cacheline) before each round.  The
# medians, over every spawn of every round, follow at the end.  A library
# whose spawn fails says why in its lines, and has no median.
set -eu
build=$(cd "${1:?usage: run.sh BUILD [REPS] [N]}" && pwd) reps=${2:-5} n=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
"$build/bin/mpicc" -O2 -o "$out/tern" "$here/spawn_time.c"
mpicc.mpich -O2 -o "$out/mpich" "$here/spawn_time.c"
mpicc.openmpi -O2 -o "$out/ompi" "$here/spawn_time.c"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {
    case $1 in
    tern) timeout 120 "$build/bin/mpiexec" -n 1 "$out/tern" 3 "$n" ;;
    mpich) timeout 120 mpiexec.mpich -n 1 "$out/mpich" 3 "$n" ;;
    ompi) timeout 120 mpiexec.openmpi --oversubscribe -n 1 "$out/ompi" 3 "$n" ;;
    esac 2>&1 | sed "s/^/$1 /" | tee -a "$out/all"
}
i=1
while [ "$i" -le "$reps" ]; do
    echo "round $i: cache line $("$build/bin/bench-cacheline" | awk '/^cacheline_ns/ { print $2 }') ns, load $(cut -d' ' -f1 /proc/loadavg)"
    for lib in tern mpich ompi; do run $lib || true; done
    i=$((i + 1))
done
echo "median seconds per spawn of $n children:"
for lib in tern mpich ompi; do
    grep "^$lib spawn $n children:" "$out/all" | awk '{ print $5 }' | sort -n |
        awk -v lib=$lib '{ v[NR] = $1 } END { if (NR) printf "  %-5s %.4f (%d spawns)\n", lib, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), NR; else printf "  %-5s none succeeded\n", lib }'
done
