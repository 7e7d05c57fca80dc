#!/usr/bin/env bash
# Issue 14's speed targets across two simulated hosts, in one sitting:
# Tern against the UCX floor (ucx_perftest) and against MPICH and Open MPI
# run with their own launchers over the same two hosts, UCX over TCP only.
#
#   bench/hosts/run.sh [-r R] [--build DIR] [--out FILE]
#
#   -r R         repetitions (default 5, or $R); medians of R are reported
#   --build DIR  Tern's build directory (default build; configured Release
#                when new)
#   --out FILE   also write the report to FILE
#   --coll       instead: collectives on 4 ranks, 2 per host (allreduce,
#                bcast and allgather at 8 B and 64 KiB, alltoall at 8 B and
#                1 KiB, barrier, gather and scatter at 8 B and 64 KiB,
#                reduce_scatter of 64 B and 64 KiB in all, scan and exscan
#                at 8 B and 64 KiB, allgatherv of 8 B and 16 KiB), Tern as it chooses (by host:
#                coll/coll_hier*.c), Tern with the flat algorithms forced,
#                MPICH and Open MPI (COLL_WHO: a subset of tern ternflat
#                mpich ompi; COLL_SET: a subset of allreduce bcast barrier
#                allgather alltoall gather scatter reduce_scatter scan
#                exscan allgatherv; COLL_NP: another even number of ranks, half on
#                each host)
#   --bcast      instead: bcast of 1 and 4 MiB on 4 ranks, 2 per host: Tern
#                as it chooses (by host, in pieces of TERN_HIER_CHUNK),
#                Tern by host with the buffer whole (TERN_HIER_CHUNK=0),
#                Tern with the flat algorithms forced, MPICH and Open MPI
#                (BCAST_WHO: a subset of tern ternwhole ternflat mpich ompi)
#   --rma        instead: one-sided between 2 ranks, one per host, Tern,
#                MPICH and Open MPI: put, get and fetch_and_op latency (8 B,
#                allocated window, lock/flush), put latency in fence and
#                post-start-complete-wait epochs, put and get bandwidth at
#                1 MiB (OMB's windows of 64)
#
# Environment: NETNS_HOSTS_PREFIX and NETNS_HOSTS_NET (default hb and
# 10.200.32) name the two hosts this script brings up with
# tools/hosts/netns.sh (and takes down at the end, also on failure), so that
# it runs beside the test suite's hosts.  LAT_ITERS (default 10000, as
# tern-bench's) sets the ping-pong iterations of every latency run.
#
# Each repetition runs, in this order, so slow drifts of the machine hit all
# alike: the 8 B latency of ucx_perftest (tag_lat), Tern, MPICH, Open MPI;
# the 1 MiB bandwidth of the same four (tag_bw); the launch time of 4 ranks
# on 2 hosts with Tern's mpiexec, MPICH's Hydra and Open MPI's mpiexec, over
# ssh and then with `ip netns exec` as every launcher's agent (no ssh
# connection: what each launcher costs by itself).  One
# rank (or perftest peer) per host, the MPI ranks launched over ssh, as the
# peers launch.  The bytes that crossed the second host's eth0 during every
# run are counted: a run that moved fewer than its payload did not go through
# the bridge (UCX shared memory, say) and is marked so in the table.
#
# Needs root (network namespaces), sshd, ucx_perftest (ucx-utils: installed
# with apt when missing), mpicc.mpich/mpiexec.mpich and
# mpicc.openmpi/mpiexec.openmpi.  Exit 77 where the machine cannot make the
# hosts.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command="${COLL_NP:+COLL_NP=$COLL_NP }${COLL_WHO:+COLL_WHO=\"$COLL_WHO\" }${COLL_SET:+COLL_SET=\"$COLL_SET\" }NETNS_HOSTS_PREFIX=${NETNS_HOSTS_PREFIX:-hb} NETNS_HOSTS_NET=${NETNS_HOSTS_NET:-10.200.32} LAT_ITERS=${LAT_ITERS:-10000} bench/hosts/run.sh $*"
reps=${R:-5}
build=$src/build
out=
coll=0
coll_np=${COLL_NP:-4}
rma=0
bcast=0
while [ $# -gt 0 ]; do
    case $1 in
        --coll) coll=1; shift ;;
        --rma) rma=1; shift ;;
        --bcast) bcast=1; shift ;;
        -r) reps=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//; /^set -e/d'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: -r needs a positive number, not '$reps'" >&2; exit 2; }
lat_iters=${LAT_ITERS:-10000}
# Seconds one run may take: a loaded machine stretches 10000 round trips far.
limit=600
# One-sided runs: fewer iterations than tern-bench's, the same for every
# library (Open MPI's osc/ucx over TCP takes milliseconds per operation
# here), and a shorter limit.
rma_lat="-i ${RMA_LAT_ITERS:-1000} -x 100"
rma_bw="-i 10 -x 2"
[ $rma = 1 ] && limit=180
[[ $lat_iters =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: LAT_ITERS must be a positive number" >&2; exit 2; }

export NETNS_HOSTS_PREFIX=${NETNS_HOSTS_PREFIX:-hb}
export NETNS_HOSTS_NET=${NETNS_HOSTS_NET:-10.200.32}
prefix=$NETNS_HOSTS_PREFIX
net=$NETNS_HOSTS_NET
h1=$net.1
h2=$net.2
netns=$src/tools/hosts/netns.sh

say() { echo "run.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# ---- what is needed -------------------------------------------------------------------
[ "$(id -u)" = 0 ] || { say "SKIP: needs root (network namespaces)"; exit 77; }
if ! command -v ucx_perftest > /dev/null; then
    say "ucx_perftest is missing; installing ucx-utils"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ucx-utils > /dev/null ||
        die "apt-get install ucx-utils failed"
fi
for t in mpicc.mpich mpiexec.mpich mpicc.openmpi mpiexec.openmpi; do
    command -v $t > /dev/null || die "$t is missing (apt-get install -y mpich libmpich-dev openmpi-bin libopenmpi-dev)"
done

work=$(mktemp -d /tmp/tern-hostbench.XXXXXX)
hosts_up=0
cleanup() {
    local rc=$?
    [ $hosts_up = 1 ] && "$netns" down || true
    rm -rf "$work"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build: Tern, and tern-bench and the launch probe against every library -----------
if [ ! -f "$build/CMakeCache.txt" ]; then
    say "configuring a Release build of Tern in $build"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
fi
"$src/bench/compare" --build-only "$work/bin" --build "$build" \
    --extra "$here/launch_probe.c" > "$work/built" || die "building the benchmarks failed"
# (grep -q would leave ldd writing into a closed pipe, which pipefail counts.)
grep -q libucp <<< "$(ldd "$build/lib/libmpi.so.12")" ||
    die "$build has no UCX transport (libucx-dev, TERN_WITH_UCX): Tern cannot reach another host"
bin=$work/bin
mpiexec=$build/bin/mpiexec

# ---- the hosts ------------------------------------------------------------------------
"$netns" up 2 >&2 || exit $?
hosts_up=1

export UCX_TLS=tcp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Hydra's proxies call back to the address of the interface named here: the
# bridge, the root namespace's only address the hosts reach.
hydra=(mpiexec.mpich -iface "tern-$prefix")
# Open MPI's pml ucx declines plain TCP unless told any transport will do.
ompi=(mpiexec.openmpi --mca oob_tcp_if_include "$net.0/24"
    --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any -x UCX_TLS)
# Its one-sided component for UCX must be named: the default choice finds
# none that reaches the other host over TCP.
[ $rma = 1 ] && ompi+=(--mca osc ucx)

# Bytes through host 2's link to the bridge, both ways (its veth's root end).
bridge_bytes() {
    local d=/sys/class/net/tern-$prefix-2/statistics
    echo $(($(cat $d/rx_bytes) + $(cat $d/tx_bytes)))
}

# record REP METRIC WHO VALUE BYTES
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$work/raw.tsv"; }

# tern-bench's main figure from its JSON line, or nothing.
tb_value() {
    python3 -c '
import json, sys
for line in sys.stdin:
    if line.startswith("{"):
        r = json.loads(line)
        if r.get("status") == "ok":
            i = [k for k, c in enumerate(r["columns"]) if c.get("better")][0]
            print(r["rows"][0][i])'
}

port=13337
# perftest REP METRIC TEST SIZE ITERS WARMUP
perftest() {
    local rep=$1 metric=$2 test=$3 size=$4 iters=$5 warm=$6 b0 b1 line
    port=$((port + 1))
    b0=$(bridge_bytes)
    timeout $limit "$netns" exec "${prefix}2" ucx_perftest -p $port > "$work/server.out" 2>&1 &
    local spid=$!
    for _ in $(seq 100); do
        nsenter --net=/run/netns/${prefix}2 ss -ltnH "sport = :$port" | grep -q . && break
        sleep 0.05
    done
    line=$(timeout $limit "$netns" exec "${prefix}1" ucx_perftest "$h2" -p $port -t "$test" -s "$size" \
        -n "$iters" -w "$warm" -f 2> "$work/client.err" | awk '$1 ~ /^[0-9]+$/ {l = $0} END {print l}') || true
    # A client that failed leaves the server waiting for it.
    [ -n "$line" ] || kill $spid 2> /dev/null || true
    wait $spid || true
    b1=$(bridge_bytes)
    # -f prints: iterations, latency 50%ile/average/overall (us), bandwidth
    # average/overall (MiB/s), message rate average/overall.
    if [ -z "$line" ]; then
        say "ucx_perftest $test failed: $(tail -1 "$work/client.err")"
        return
    fi
    set -- $line
    if [ "$test" = tag_lat ]; then
        record "$rep" "$metric" perftest "$4" $((b1 - b0))
        record "$rep" lat_p50 perftest "$2" $((b1 - b0))
    else
        record "$rep" "$metric" perftest "$(python3 -c "print($6 * 1048576 / 1e6)")" $((b1 - b0))
    fi
}

# Agents that enter a host's namespace instead of connecting with ssh, so
# that the launch time is each launcher's own.  Tern's exec agent gets the
# host and the proxy's words; Hydra's and Open MPI's ssh-style agents get
# ssh options, the host and a command line for a shell.
cat > "$work/agent-tern" << 'EOF'
#!/bin/sh
exec ip netns exec "$@"
EOF
cat > "$work/agent-ssh-style" << 'EOF'
#!/bin/sh
while [ "${1#-}" != "$1" ]; do shift; done
h=$1
shift
exec ip netns exec "$h" sh -c "$*"
EOF
chmod +x "$work/agent-tern" "$work/agent-ssh-style"

# launch_cmd WHO NP [exec]: the launch line of WHO for NP ranks, half on
# each host; over ssh, or through the namespace agents above.
launch_cmd() {
    local who=$1 np=$2 per=$(($2 / 2)) agent=${3:-ssh}
    if [ "$agent" = exec ]; then
        case $who in
            tern) echo "$mpiexec --timeout $((limit - 10)) -launcher exec -launcher-exec $work/agent-tern -hosts ${prefix}1:$per,${prefix}2:$per -n $np" ;;
            mpich) echo "${hydra[*]} -launcher ssh -launcher-exec $work/agent-ssh-style -hosts ${prefix}1:$per,${prefix}2:$per -n $np" ;;
            ompi) echo "${ompi[*]} --mca plm_rsh_agent $work/agent-ssh-style --host ${prefix}1:$per,${prefix}2:$per -np $np" ;;
        esac
        return
    fi
    case $who in
        tern) echo "$mpiexec --timeout $((limit - 10)) -hosts ${prefix}1:$per,${prefix}2:$per -n $np" ;;
        mpich) echo "${hydra[*]} -hosts $h1:$per,$h2:$per -n $np" ;;
        ompi) echo "${ompi[*]} --mca plm_rsh_agent ssh --host $h1:$per,$h2:$per -np $np" ;;
    esac
}

# Tern with the algorithms that ignore hosts, as a parameter word per collective.
# allgather's and alltoall's are what auto takes without the hosts: bruck
# for small messages (flat_more in a call names another: ring for
# allgather above 64 KiB in all, pairwise for alltoall above 256 bytes).
flat_words="TERN_BARRIER_ALGORITHM=dissemination TERN_BCAST_ALGORITHM=binomial TERN_ALLREDUCE_ALGORITHM=recursive_doubling TERN_GATHER_ALGORITHM=binomial TERN_SCATTER_ALGORITHM=binomial TERN_REDUCE_SCATTER_ALGORITHM=reduce_scatterv TERN_SCAN_ALGORITHM=recursive_doubling TERN_EXSCAN_ALGORITHM=recursive_doubling"

# coll_two COLL METRIC1 SIZE1 METRIC2 SIZE2 [FLAT2]: COLL at two sizes for
# $who in repetition $rep, when COLL_SET names it; FLAT2: ternflat's
# algorithm word at the second size (flat_more).
coll_two() {
    coll_on "$1" || return 0
    bench_np "$rep" "$2" "$who" "$coll_np" "$1" -m "$3"
    flat_more=${6:-} bench_np "$rep" "$4" "$who" "$coll_np" "$1" -m "$5"
}

# coll_on NAME: whether COLL_SET (default: every collective) names it.
coll_on() {
    case " ${COLL_SET:-allreduce bcast barrier allgather alltoall gather scatter reduce_scatter scan exscan allgatherv} " in
        *" $1 "*) return 0 ;;
    esac
    return 1
}

# bench_np REP METRIC WHO NP ARGS...: tern-bench across the hosts, NP / 2
# ranks each; WHO ternflat is Tern with $flat_words.
bench_np() {
    local rep=$1 metric=$2 who=$3 np=$4 b0 b1 val lib=$3 words=
    shift 4
    [ "$who" = ternflat ] && lib=tern words="$flat_words ${flat_more:-TERN_ALLGATHER_ALGORITHM=bruck TERN_ALLGATHERV_ALGORITHM=bruck TERN_ALLTOALL_ALGORITHM=bruck}"
    [ "$who" = ternwhole ] && lib=tern words=TERN_HIER_CHUNK=0
    b0=$(bridge_bytes)
    val=$(timeout $limit $(launch_cmd "$lib" "$np") $words "$bin/tern-bench.$lib" "$@" -f json 2> "$work/bench.err" | tb_value) || true
    b1=$(bridge_bytes)
    if [ -z "$val" ]; then
        say "$who tern-bench $* failed: $(tail -1 "$work/bench.err")"
        return
    fi
    record "$rep" "$metric" "$who" "$val" $((b1 - b0))
}
bench() {
    local rep=$1 metric=$2 who=$3
    shift 3
    bench_np "$rep" "$metric" "$who" 2 "$@"
}

# launch REP WHO [exec]: 4 ranks on 2 hosts, launcher start to every rank past
# MPI_Init.  The figure counts even when the job then hangs (MPICH's
# MPI_Finalize over UCX's TCP does, now and then): the job is killed after
# 60 s and the hang is noted in the report.
launch() {
    local rep=$1 who=$2 agent=${3:-ssh} cmd t0 line rc=0 metric=launch
    [ "$agent" = exec ] && metric=launch_exec
    cmd=$(launch_cmd "$who" 4 "$agent")
    t0=${EPOCHREALTIME/./}
    timeout -k 5 60 $cmd "$bin/launch_probe.$who" "$t0" > "$work/launch.out" 2> "$work/launch.err" || rc=$?
    line=$(grep '^launch_us' "$work/launch.out") || true
    [ $rc = 0 ] || echo "$who, repetition $rep: the 4-rank launch job did not end by itself (exit $rc${line:+ after every rank passed MPI_Init})" >> "$work/notes"
    if [ -z "$line" ]; then
        say "$who launch ($agent) failed: $(grep -v "^---" "$work/launch.err" | grep . | head -3 | tr "\n" " ")"
        return
    fi
    set -- $line
    record "$rep" $metric "$who" "$(python3 -c "print($2 / 1000)")" 0
}

# ---- the sitting ----------------------------------------------------------------------
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
: > "$work/raw.tsv"
for rep in $(seq 1 "$reps"); do
    if [ $coll = 1 ]; then
        say "repetition $rep/$reps: collectives"
        for who in ${COLL_WHO:-tern ternflat mpich ompi}; do
            coll_two allreduce allreduce_8 8 allreduce_64k 64K
            coll_two bcast bcast_8 8 bcast_64k 64K
            coll_on barrier && bench_np "$rep" barrier $who $coll_np barrier
            coll_two allgather allgather_8 8 allgather_64k 64K TERN_ALLGATHER_ALGORITHM=ring
            coll_two allgatherv allgatherv_8 8 allgatherv_16k 16K TERN_ALLGATHERV_ALGORITHM=ring
            coll_two alltoall alltoall_8 8 alltoall_1k 1K TERN_ALLTOALL_ALGORITHM=pairwise
            coll_two gather gather_8 8 gather_64k 64K
            coll_two scatter scatter_8 8 scatter_64k 64K
            coll_two reduce_scatter reduce_scatter_64 64 reduce_scatter_64k 64K
            coll_two scan scan_8 8 scan_64k 64K
            coll_two exscan exscan_8 8 exscan_64k 64K
        done
        continue
    fi
    if [ $bcast = 1 ]; then
        say "repetition $rep/$reps: large broadcasts"
        for who in ${BCAST_WHO:-tern ternwhole ternflat mpich ompi}; do
            bench_np "$rep" bcast_1m $who 4 bcast -m 1M
            bench_np "$rep" bcast_4m $who 4 bcast -m 4M
        done
        continue
    fi
    if [ $rma = 1 ]; then
        say "repetition $rep/$reps: one-sided"
        for who in tern mpich ompi; do
            bench "$rep" put_lat $who put-latency -m 8 $rma_lat
            bench "$rep" get_lat $who get-latency -m 8 $rma_lat
            bench "$rep" fop_lat $who fop-latency -m 8 $rma_lat
            bench "$rep" put_fence $who put-latency -m 8 --sync fence $rma_lat
            bench "$rep" put_pscw $who put-latency -m 8 --sync pscw $rma_lat
            bench "$rep" put_bw $who put-bw -m 1M $rma_bw
            bench "$rep" get_bw $who get-bw -m 1M $rma_bw
        done
        continue
    fi
    say "repetition $rep/$reps: latency"
    perftest "$rep" lat tag_lat 8 "$lat_iters" 100
    for who in tern mpich ompi; do bench "$rep" lat $who latency -m 8 -i "$lat_iters" -x 100; done
    say "repetition $rep/$reps: bandwidth"
    # tern-bench's bw at 1 MiB: 20 timed windows of 64 messages after 2 warm-up ones.
    perftest "$rep" bw tag_bw 1048576 1280 128
    for who in tern mpich ompi; do bench "$rep" bw $who bw -m 1M; done
    say "repetition $rep/$reps: launch"
    for who in tern mpich ompi; do launch "$rep" $who; done
    for who in tern mpich ompi; do launch "$rep" $who exec; done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cacheline=$(timeout 300 "$bin/cacheline" -r 11 | sed -n 's/^cacheline_ns //p') || cacheline=

mpich_device=$(mpichversion | sed -n 's/^MPICH Device:[[:space:]]*//p')
{
    echo "command: $command"
    echo "started $started; load average before $load_before, after $load_after"
    echo "machine $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, $(uname -r)"
    echo "Tern $(git -C "$src" rev-parse --short HEAD 2> /dev/null || echo '?'), $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt") build"
    echo "MPICH $(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p') device $mpich_device, Hydra over ssh: ${hydra[*]}"
    echo "Open MPI $(ompi_info --parsable | sed -n 's/^ompi:version:full://p') pml ucx: ${ompi[*]} (agent: --mca plm_rsh_agent ssh)"
    echo "UCX $(ucx_info -v | sed -n 's/^# Version //p'), UCX_TLS=$UCX_TLS; ucx_perftest server on ${prefix}2, client on ${prefix}1"
    echo "Tern: $mpiexec -hosts ${prefix}1,${prefix}2 (ssh)"
    if [ $rma = 1 ]; then
        echo "one-sided: latency $rma_lat, bandwidth 1 MiB x 64 per window $rma_bw; windows made by MPI_Win_allocate; buffers reused"
    else
        echo "latency iterations $lat_iters (warm-up 100); bandwidth 1 MiB x 64 per window, 20 windows (+2 warm-up); buffers reused"
    fi
    [ -f "$work/notes" ] && cat "$work/notes"
    echo "one-way cache-line latency between cores 0 and 1 (bench/machine/cacheline.c, median of 11): ${cacheline:-n/a} ns"
    awk '$1 > 0.5 {print "WARNING: the machine was loaded (load average " $1 " when the sitting began): figures are noisy"}' <<< "$load_before"
} > "$work/meta"
python3 "$here/report.py" "$work/raw.tsv" "$work/meta" "$reps" "$lat_iters" | if [ -n "$out" ]; then tee "$out"; else cat; fi
