#!/usr/bin/env bash
# How Tern scales on one host against MPICH 4.0.2 and Open MPI 4.1.4, with
# more ranks than cores (binding off in every library):
#
#   bench/scale/run.sh [-n LIST] [-r R] [--lib LIST] [--lat-n LIST]
#                      [--lat-seconds S] [--timeout S] [--build DIR] [--out FILE]
#
#   -n LIST         rank counts of the start-up and memory runs (default "8 64 128")
#   -r R            repetitions (default 3); medians of R are reported
#   --lib LIST      libraries among tern, mpich, ompi (default all three)
#   --lat-n LIST    rank counts of the latency runs (default "2 4 8")
#   --lat-seconds S about how long each latency figure is timed (default 0.5)
#   --timeout S     one run's limit, after which it counts as "timeout" (default 300)
#   --build DIR     Tern's build directory (default build)
#   --out FILE      also write the report to FILE, and every run's JSON to FILE.jsonl
#   LISTs are separated by spaces or commas.
#
# For each repetition, rank count and library in turn (so slow drifts of the
# machine hit all alike), scale_probe.c, built with each library's wrapper:
#   startup  the wall time of the launcher for MPI_Init, one barrier,
#            MPI_Finalize; and the time inside MPI_Init and inside
#            MPI_Finalize, the slowest rank's;
#   hold     every rank held (asleep) after MPI_Init and one allreduce,
#            while this script reads: the bytes in use on /dev/shm's tmpfs
#            (statvfs, before and during), the Shmem line of /proc/meminfo
#            (before and during: counts every tmpfs file, memfds and shared
#            anonymous memory too, so it sees a segment wherever it lives),
#            and each rank's RSS and PSS from /proc/PID/smaps_rollup.  PSS
#            splits each shared page among the processes mapping it: the
#            fair per-rank figure; RSS counts a shared segment whole in
#            every rank.  Both deltas are machine-wide: another job's files
#            in the same seconds would show in them.
#   lat      MPI_Barrier and an 8-byte MPI_Allreduce, at each --lat-n count.
# The report compares each latency with the library's fair share: its own
# 2-rank time stretched by how oversubscribed the run is, t(2) * max(1, p / C)
# on C cores.  The issue's target is within 2x of that.
#
# Launch lines (binding off):
#   tern   BUILD/bin/mpiexec -bind-to none -n N
#   mpich  mpiexec.mpich -bind-to none -n N
#   ompi   mpiexec.openmpi --oversubscribe --bind-to none -n N  (OMPI_ALLOW_RUN_AS_ROOT=1)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command="bench/scale/run.sh $*"
counts="8 64 128" reps=3 libs="tern mpich ompi" lat_counts="2 4 8" lat_seconds=0.5 limit=300
build=$src/build out=
while [ $# -gt 0 ]; do
    case $1 in
        -n) counts=${2//,/ }; shift 2 ;;
        -r) reps=$2; shift 2 ;;
        --lib) libs=${2//,/ }; shift 2 ;;
        --lat-n) lat_counts=${2//,/ }; shift 2 ;;
        --lat-seconds) lat_seconds=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//; /^set -e/d'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
say() { echo "run.sh: $*" >&2; }
die() { say "$*"; exit 2; }
posint() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
posint "$reps" || die "-r needs a positive number, not '$reps'"
posint "$limit" || die "--timeout needs a positive number of seconds, not '$limit'"
for n in $counts $lat_counts; do posint "$n" || die "rank counts must be positive numbers, not '$n'"; done
for lib in $libs; do
    case $lib in tern | mpich | ompi) ;; *) die "unknown library '$lib' (tern, mpich, ompi)" ;; esac
done
build=$(cd "$build" 2> /dev/null && pwd) || die "no build directory '$build' (--build)"

work=$(mktemp -d /tmp/tern-scale.XXXXXX)
cleanup() {
    local rc=$?
    reap
    rm -rf "$work"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the probe, built by every library's wrapper --------------------------------------
declare -A cc=([tern]="$build/bin/mpicc" [mpich]=mpicc.mpich [ompi]=mpicc.openmpi)
for lib in $libs; do
    command -v "${cc[$lib]}" > /dev/null || die "${cc[$lib]} is missing"
    "${cc[$lib]}" -O2 -o "$work/probe.$lib" "$here/scale_probe.c" || die "building the probe with ${cc[$lib]} failed"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

launch() { # LIB N: the launch line
    case $1 in
        tern) echo "$build/bin/mpiexec -bind-to none -n $2" ;;
        mpich) echo "mpiexec.mpich -bind-to none -n $2" ;;
        ompi) echo "mpiexec.openmpi --oversubscribe --bind-to none -n $2" ;;
    esac
}

# Probes a timed-out launcher left behind: found by their executable, ended by pid.
reap() {
    local p exe
    for p in /proc/[0-9]*; do
        exe=$(readlink "$p/exe" 2> /dev/null) || continue
        case $exe in "$work"/probe.*) kill -9 "${p#/proc/}" 2> /dev/null || true ;; esac
    done
}

shm_used() { # bytes in use on /dev/shm's file system
    stat -f -c '%b %f %S' /dev/shm | awk '{ printf "%.0f\n", ($1 - $2) * $3 }'
}
meminfo_shmem() { awk '/^Shmem:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }

json=$work/runs.jsonl
: > "$json"
emit() { echo "$1" | tee -a "$json" >&2; }
num() { [[ ${1:-} =~ ^-?[0-9.]+$ ]] && echo "$1" || echo null; }

# A run's status from the exit code of timeout(1).
status_of() { case $1 in 0) echo ok ;; 124 | 137) echo timeout ;; *) echo "failed" ;; esac; }
why() { grep -v '^\(init_us\|finalize_us\|lat_us\)' "$1" | grep . | head -2 | tr '\n"\\' '  /' | cut -c1-300; }

startup_run() { # REP LIB N
    local rep=$1 lib=$2 n=$3 rc=0 t0 t1
    t0=${EPOCHREALTIME/./}
    timeout -k 5 "$limit" $(launch "$lib" "$n") "$work/probe.$lib" startup > "$work/out" 2>&1 || rc=$?
    t1=${EPOCHREALTIME/./}
    reap
    local st init fin ranks
    st=$(status_of $rc)
    init=$(awk '/^init_us/ { print $2 }' "$work/out" | head -1)
    fin=$(awk '/^finalize_us/ { if ($3 > m) m = $3; k++ } END { if (k) print m }' "$work/out")
    ranks=$(grep -c '^finalize_us' "$work/out" || true)
    [ "$st" = ok ] && [ "$ranks" != "$n" ] && st=failed
    emit "{\"kind\":\"startup\",\"lib\":\"$lib\",\"n\":$n,\"rep\":$rep,\"status\":\"$st\",\"exit\":$rc,\"wall_s\":$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }'),\"init_us_max\":$(num "$init"),\"finalize_us_max\":$(num "$fin"),\"finalize_ranks\":$ranks,\"note\":\"$([ "$st" = ok ] || why "$work/out")\"}"
}

hold_run() { # REP LIB N
    local rep=$1 lib=$2 n=$3 rc=0 pid d=$work/hold
    rm -rf "$d" && mkdir "$d"
    local df0 mi0 df1=null mi1=null rss=0 pss=0 seen=0 t0
    df0=$(shm_used)
    mi0=$(meminfo_shmem)
    timeout -k 5 "$limit" $(launch "$lib" "$n") "$work/probe.$lib" hold "$d" > "$work/out" 2>&1 &
    pid=$!
    t0=$SECONDS
    while kill -0 $pid 2> /dev/null; do
        [ "$(find "$d" -name 'pid.*' ! -name '*.tmp' | wc -l)" -ge "$n" ] && break
        [ $((SECONDS - t0)) -ge "$limit" ] && break
        sleep 0.2
    done
    if [ "$(find "$d" -name 'pid.*' ! -name '*.tmp' | wc -l)" -ge "$n" ]; then
        sleep 1 # a launcher's last pages after the ranks' reports
        df1=$(shm_used)
        mi1=$(meminfo_shmem)
        local f r p
        for f in "$d"/pid.*; do
            case $f in *.tmp) continue ;; esac
            read -r p < "$f"
            r=$(awk '/^Rss:/ { r = $2 } /^Pss:/ { p = $2 } END { if (r != "") print r, p }' "/proc/$p/smaps_rollup" 2> /dev/null) || continue
            [ -n "$r" ] || continue
            set -- $r
            rss=$((rss + $1))
            pss=$((pss + $2))
            seen=$((seen + 1))
        done
    fi
    touch "$d/go"
    wait $pid || rc=$?
    reap
    local st
    st=$(status_of $rc)
    [ "$seen" = "$n" ] || { [ "$st" = ok ] && st=failed; }
    local dd=null dm=null
    [ "$df1" = null ] || dd=$((df1 - df0))
    [ "$mi1" = null ] || dm=$((mi1 - mi0))
    emit "{\"kind\":\"memory\",\"lib\":\"$lib\",\"n\":$n,\"rep\":$rep,\"status\":\"$st\",\"exit\":$rc,\"shm_df_bytes\":$dd,\"shmem_meminfo_bytes\":$dm,\"ranks_read\":$seen,\"rss_kib_total\":$rss,\"pss_kib_total\":$pss,\"note\":\"$([ "$st" = ok ] || why "$work/out")\"}"
}

lat_run() { # REP LIB N
    local rep=$1 lib=$2 n=$3 rc=0
    timeout -k 5 "$limit" $(launch "$lib" "$n") "$work/probe.$lib" lat "$lat_seconds" > "$work/out" 2>&1 || rc=$?
    reap
    local st b a bi ai
    st=$(status_of $rc)
    read -r b bi < <(awk '$1 == "lat_us" && $2 == "barrier" { print $3, $4 }' "$work/out") || true
    read -r a ai < <(awk '$1 == "lat_us" && $2 == "allreduce" { print $3, $4 }' "$work/out") || true
    emit "{\"kind\":\"lat\",\"lib\":\"$lib\",\"n\":$n,\"rep\":$rep,\"status\":\"$st\",\"exit\":$rc,\"barrier_us\":$(num "${b:-}"),\"barrier_iters\":$(num "${bi:-}"),\"allreduce_us\":$(num "${a:-}"),\"allreduce_iters\":$(num "${ai:-}"),\"note\":\"$([ "$st" = ok ] || why "$work/out")\"}"
}

# ---- the sitting ----------------------------------------------------------------------
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for rep in $(seq 1 "$reps"); do
    for n in $counts; do
        for lib in $libs; do
            say "repetition $rep/$reps: $lib, $n ranks: start-up, then memory"
            startup_run "$rep" "$lib" "$n"
            hold_run "$rep" "$lib" "$n"
        done
    done
    for n in $lat_counts; do
        for lib in $libs; do
            say "repetition $rep/$reps: $lib, $n ranks: latency"
            lat_run "$rep" "$lib" "$n"
        done
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "command: $command"
    echo "started $started; load average before $load_before, after $load_after"
    echo "machine $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r)"
    echo "/dev/shm: $(df -h --output=fstype,size /dev/shm | tail -1 | tr -s ' ')"
    echo "Tern $(git -C "$src" rev-parse --short HEAD 2> /dev/null || echo '?'), $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt") build"
    echo "MPICH $(mpichversion 2> /dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p') device $(mpichversion 2> /dev/null | sed -n 's/^MPICH Device:[[:space:]]*//p'); Open MPI $(ompi_info --parsable 2> /dev/null | sed -n 's/^ompi:version:full://p')"
    for lib in $libs; do echo "$lib: $(launch "$lib" N)"; done
    echo "one run's limit $limit s; latency timed over about $lat_seconds s per figure"
    awk '$1 > 0.5 { print "WARNING: the machine was loaded (load average " $1 " when the sitting began): figures are noisy" }' <<< "$load_before"
} > "$work/meta"
python3 "$here/report.py" "$json" "$work/meta" "$(nproc)" | if [ -n "$out" ]; then tee "$out"; else cat; fi
[ -z "$out" ] || cp "$json" "$out.jsonl"
