#!/bin/sh
# Start-up of mpiexec's launch tree over many simulated hosts.
#
#   bench/launch/tree.sh [-m MPIEXEC] [-r RUNS] [-n "16 64 256 1024"] [-k "4 32 1024"]
#
# For each number of hosts N and each fan-out K (TERN_LAUNCH_FANOUT), runs
#   mpiexec -launcher fork -hosts fake1,...,fakeN /bin/true
# RUNS times: one proxy per host, all forked on this machine, each proxy
# starting its K children of the tree and its one rank (/bin/true, so 1,024
# hosts fit anywhere).  Prints a Markdown table: the depth of the tree (levels
# of proxies below mpiexec) and the median, lowest and highest wall time
# from mpiexec's start to its exit.  K >= N is a flat tree: mpiexec starts
# every proxy itself.
#
# Every proxy runs on this one machine, so the work (N proxies and N ranks
# forked, N connections to mpiexec) grows with N whatever the tree, and on a
# machine with few cores so does the wall time.  What the tree changes is how
# many proxies wait on one parent: compare the rows of one N.
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
mpiexec=$here/build/bin/mpiexec
runs=5
sizes="16 64 256 1024"
fanouts="4 32 1024"
while getopts m:r:n:k: o; do
    case $o in
    m) mpiexec=$OPTARG ;;
    r) runs=$OPTARG ;;
    n) sizes=$OPTARG ;;
    k) fanouts=$OPTARG ;;
    *) echo "usage: $0 [-m MPIEXEC] [-r RUNS] [-n SIZES] [-k FANOUTS]" >&2; exit 2 ;;
    esac
done
[ -x "$mpiexec" ] || { echo "$0: no mpiexec at $mpiexec (build first, or -m)" >&2; exit 2; }

# The levels of proxies under mpiexec (node 0): node i's parent is (i-1)/K,
# and node N is the deepest.
depth() {
    node=$1 d=0
    while [ "$node" -gt 0 ]; do
        node=$(((node - 1) / $2))
        d=$((d + 1))
    done
    echo $d
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| hosts | fan-out | depth | median (s) | min (s) | max (s) | runs |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    hosts=$(seq -f "fake%g" 1 "$n" | paste -sd, -)
    for k in $fanouts; do
        : >"$tmp/t"
        i=0
        while [ $i -lt "$runs" ]; do
            t0=$(date +%s%N)
            if ! TERN_LAUNCH_FANOUT=$k "$mpiexec" --timeout 120 -launcher fork -hosts "$hosts" \
                /bin/true >"$tmp/out" 2>&1; then
                echo "$0: $n hosts at fan-out $k failed:" >&2
                tail -5 "$tmp/out" >&2
                exit 1
            fi
            t1=$(date +%s%N)
            awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' >>"$tmp/t"
            i=$((i + 1))
        done
        wall=$(median <"$tmp/t")
        lo=$(sort -n "$tmp/t" | head -1)
        hi=$(sort -n "$tmp/t" | tail -1)
        echo "| $n | $k | $(depth "$n" "$k") | $wall | $lo | $hi | $runs |"
    done
done
