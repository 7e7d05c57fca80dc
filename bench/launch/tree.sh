#!/bin/sh
# Start-up of mpiexec's launch tree over many simulated hosts.
#
#   bench/launch/tree.sh [-m MPIEXEC] [-r RUNS] [-n "256 1024"] [-k "2 4 32 1024"] [-d MS]
#
# For each number of hosts N and each fan-out K (TERN_LAUNCH_FANOUT), runs
#   mpiexec -v -launcher fork -hosts fake1,...,fakeN /bin/true
# RUNS times: one proxy per host, all on this machine, each proxy starting
# its K children of the tree, relaying for them, and running its one rank
# (/bin/true, so 1,024 hosts fit anywhere).  Prints a Markdown table: the
# depth of the tree (levels of proxies below mpiexec), the median, lowest
# and highest wall time from mpiexec's start to its exit, and the median of
# mpiexec's own CPU time (user + system, from its -v report: the proxies and
# ranks are not in it) and of the whole job's (mpiexec, every proxy and rank:
# the job runs in a cgroup of its own, cgroup v1 cpuacct, which needs root;
# "-" without).  K >= N is a flat tree: mpiexec starts every proxy
# itself.
#
# -d MS starts each proxy through an agent that waits MS milliseconds first
# (-launcher exec with a script: sleep, then the proxy, here), standing for
# the time ssh takes to reach a host.  Each level of the tree pays it once,
# in parallel across the level, so it shows what the tree's depth costs.
#
# Every proxy runs on this one machine, so the work (N proxies and N ranks
# forked and exec'd) grows with N whatever the tree, and on a machine with
# few cores so does the wall time.  Compare the rows of one N, and
# mpiexec's CPU time across N at one fan-out.
set -eu

here=$(cd "$(dirname "$0")/../.." && pwd)
mpiexec=$here/build/bin/mpiexec
runs=5
sizes="256 1024"
fanouts="2 4 32 1024"
delay=0
while getopts m:r:n:k:d: o; do
    case $o in
    m) mpiexec=$OPTARG ;;
    r) runs=$OPTARG ;;
    n) sizes=$OPTARG ;;
    k) fanouts=$OPTARG ;;
    d) delay=$OPTARG ;;
    *) echo "usage: $0 [-m MPIEXEC] [-r RUNS] [-n SIZES] [-k FANOUTS] [-d MS]" >&2; exit 2 ;;
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
cg=/sys/fs/cgroup/cpuacct/tern-tree-$$
mkdir "$cg" 2>/dev/null || cg=
trap 'rm -rf "$tmp"; [ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true' EXIT

# The command, in the cgroup when there is one.
in_cg() {
    if [ -n "$cg" ]; then
        echo 0 >"$cg/cpuacct.usage"
        sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
    else
        "$@"
    fi
}
agent="-launcher fork"
if [ "$delay" != 0 ]; then
    # CMD HOST PROXY-ARGS...: the host is dropped, the proxy runs here.
    printf '#!/bin/sh\nshift\nsleep %s\nexec "$@"\n' \
        "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')" >"$tmp/agent"
    chmod +x "$tmp/agent"
    agent="-launcher exec -launcher-exec $tmp/agent"
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); agent: ${delay} ms per hop"
echo
echo "| hosts | fan-out | depth | median (s) | min (s) | max (s) | mpiexec CPU (s) | job CPU (s) | runs |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    hosts=$(seq -f "fake%g" 1 "$n" | paste -sd, -)
    for k in $fanouts; do
        : >"$tmp/t"
        : >"$tmp/cpu"
        : >"$tmp/all"
        i=0
        while [ $i -lt "$runs" ]; do
            t0=$(date +%s%N)
            # shellcheck disable=SC2086
            if ! in_cg env TERN_LAUNCH_FANOUT="$k" "$mpiexec" --timeout 120 -v $agent -hosts "$hosts" \
                /bin/true >"$tmp/out" 2>&1; then
                echo "$0: $n hosts at fan-out $k failed:" >&2
                tail -5 "$tmp/out" >&2
                exit 1
            fi
            t1=$(date +%s%N)
            awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' >>"$tmp/t"
            sed -n 's/^mpiexec: CPU time \([0-9.]*\) s user, \([0-9.]*\) s system$/\1 \2/p' \
                "$tmp/out" | awk '{ printf "%.3f\n", $1 + $2 }' >>"$tmp/cpu"
            if [ -n "$cg" ]; then
                awk '{ printf "%.3f\n", $1 / 1e9 }' "$cg/cpuacct.usage" >>"$tmp/all"
            else
                echo - >>"$tmp/all"
            fi
            i=$((i + 1))
        done
        wall=$(median <"$tmp/t")
        lo=$(sort -n "$tmp/t" | head -1)
        hi=$(sort -n "$tmp/t" | tail -1)
        cpu=$(median <"$tmp/cpu")
        all=$(median <"$tmp/all")
        echo "| $n | $k | $(depth "$n" "$k") | $wall | $lo | $hi | $cpu | $all | $runs |"
    done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
