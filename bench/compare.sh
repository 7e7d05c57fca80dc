#!/usr/bin/env bash
# Tern against Debian's MPICH and Open MPI, in one sitting, as ratios.
#
#   bench/compare.sh [-r ROUNDS] [-b BUILD_DIR] [-k]
#
# Builds bench/osu_style/{latency,bandwidth}.c three times (Tern's
# build/bin/mpicc, mpicc.mpich, mpicc.openmpi) and the two machine probes,
# then runs ROUNDS rounds (default 5) of: Tern, MPICH, Open MPI, cache-line
# probe, CMA/memcpy probe -- interleaved, so slow drifts of the host hit all
# of them alike.  2 ranks, one per core (launch lines as in
# BENCHMARKING.md; Tern's mpiexec binds by default).  Buffers are reused
# (cache-warm), as in the OSU benchmarks.  Prints a Markdown table of
# medians.  Installs nothing; says which apt packages are missing.
#   -k  keep the work directory (binaries and raw results)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
rounds=5
build=$src/build
keep=no
while getopts "r:b:kh" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        b) build=$(cd "$OPTARG" && pwd) ;;
        k) keep=yes ;;
        *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
    esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: -r needs a positive number" >&2; exit 2; }

# --- what is there -----------------------------------------------------------
for f in bin/mpicc bin/mpiexec lib/libmpi.so.12; do
    if [[ ! -e $build/$f ]]; then
        echo "compare.sh: $build/$f is missing; build Tern first:" >&2
        echo "  cmake -S $src -B $build && cmake --build $build -j2" >&2
        exit 1
    fi
done

have_pkg() {
    if command -v dpkg-query >/dev/null 2>&1; then
        [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
    else
        return 1
    fi
}
missing=()
for p in mpich libmpich-dev openmpi-bin libopenmpi-dev; do
    have_pkg "$p" || missing+=("$p")
done
libs=(tern)
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then libs+=(mpich); fi
if command -v mpicc.openmpi >/dev/null && command -v mpiexec.openmpi >/dev/null; then libs+=(ompi); fi
if ((${#missing[@]})); then
    echo "compare.sh: missing apt packages: ${missing[*]}" >&2
    echo "  install them with: sudo apt-get install -y ${missing[*]}" >&2
    if ((${#libs[@]} == 1)); then
        echo "compare.sh: no peer MPI to compare with" >&2
        exit 1
    fi
    echo "compare.sh: going on with: ${libs[*]}" >&2
fi

cc=${CC:-cc}
ncpu=$(getconf _NPROCESSORS_ONLN)
((ncpu >= 2)) || echo "compare.sh: warning: only $ncpu CPU online; 2 ranks share it" >&2
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
    echo "compare.sh: warning: load average is $load; something else is running, timings will be noisy" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tern-compare.XXXXXX")
if [[ $keep == no ]]; then trap 'rm -rf "$work"' EXIT; else echo "compare.sh: work directory $work" >&2; fi

# --- build -------------------------------------------------------------------
wrapper() {
    case $1 in
        tern) echo "$build/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
        ompi) echo mpicc.openmpi ;;
    esac
}
for lib in "${libs[@]}"; do
    for b in latency bandwidth; do
        "$(wrapper "$lib")" -O2 -o "$work/$b.$lib" "$here/osu_style/$b.c"
    done
done
$cc -O2 -std=gnu11 -pthread -o "$work/cacheline" "$here/machine/cacheline.c"
$cc -O2 -std=gnu11 -o "$work/cma_bw" "$here/machine/cma_bw.c"

launch() {
    local lib=$1
    shift
    case $lib in
        tern) timeout 300 "$build/bin/mpiexec" -n 2 "$@" ;;
        mpich) timeout 300 mpiexec.mpich -n 2 -bind-to core -map-by core "$@" ;;
        ompi) OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
              timeout 300 mpiexec.openmpi -n 2 --bind-to core --map-by core "$@" ;;
    esac
}

# --- run ---------------------------------------------------------------------
# Raw results: one "key value" line per measurement.
raw=$work/results
: >"$raw"
failed=()
record() { # LIB PROGRAM COLUMN ARGS...: runs, appends "program.size.lib value" lines
    local lib=$1 prog=$2 col=$3
    shift 3
    local out
    if ! out=$(launch "$lib" "$work/$prog.$lib" "$@" 2>"$work/err"); then
        failed+=("$prog.$lib")
        echo "compare.sh: $prog with $lib failed:" >&2
        tail -5 "$work/err" >&2
        return 0
    fi
    awk -v p="$prog" -v l="$lib" -v c="$col" '/^[0-9]/ { print p "." $1 "." l, $c }' <<<"$out" >>"$raw"
}
start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    echo "compare.sh: round $r of $rounds" >&2
    for lib in "${libs[@]}"; do
        record "$lib" latency 2 -m 8:8
        record "$lib" bandwidth 3 -m 64K:4M
    done
    "$work/cacheline" -r 21 | awk '/^cacheline_ns/ { print "machine.cacheline", $2 }' >>"$raw" ||
        failed+=(cacheline)
    "$work/cma_bw" | awk '/^[0-9]/ { print "machine.cma." $1, $2; print "machine.memcpy." $1, $3 }' >>"$raw" ||
        failed+=(cma_bw)
done
elapsed=$(($(date +%s) - start))

# --- report ------------------------------------------------------------------
med() { # median of the values recorded under key $1, or "-"
    awk -v k="$1" '$1 == k && $2 != "n/a" { print $2 }' "$raw" | sort -g |
        awk '{ a[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
fmt() { [[ $1 == - ]] && echo - || printf "%.${2}f" "$1"; }
# ratio of Tern to the better peer; mode min (latency) or max (bandwidth)
ratio() {
    local mode=$1 t=$2
    shift 2
    awk -v m="$mode" -v t="$t" 'BEGIN { best = "" }
        { for (i = 1; i <= NF; i++) if ($i != "-" && (best == "" || (m == "min" ? $i < best : $i > best))) best = $i }
        END { if (t == "-" || best == "" || best == 0) print "-"; else printf "%.2f", t / best }' <<<"$*"
}
col() { # median for lib $1 key suffix $2 ("-" when the lib was not run)
    local lib=$1 key=$2
    [[ " ${libs[*]} " == *" $lib "* ]] || { echo -; return; }
    med "$key.$lib"
}

lt=$(col tern latency.8); lm=$(col mpich latency.8); lo=$(col ompi latency.8)
cl=$(med machine.cacheline)
echo
echo "Tern vs MPICH vs Open MPI: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $ncpu CPUs,"
echo "median of $rounds interleaved rounds, 2 ranks one per core, cache-warm buffers (OSU-style), load before start $load."
echo "Latency: lower is better, ratio = Tern / faster peer (< 1: Tern faster). Bandwidth: ratio = Tern / faster peer (> 1: Tern faster)."
echo
echo "| | Tern | MPICH | Open MPI | Tern / better peer | machine |"
echo "|---|---|---|---|---|---|"
cl_us=-
[[ $cl != - ]] && cl_us=$(awk -v n="$cl" 'BEGIN { printf "%.3f", n / 1000 }')
echo "| 8 B latency (us) | $(fmt "$lt" 2) | $(fmt "$lm" 2) | $(fmt "$lo" 2) | $(ratio min "$lt" "$lm" "$lo") | one-way cache line $cl_us us |"
for s in 65536:64\ KiB 1048576:1\ MiB 4194304:4\ MiB; do
    n=${s%%:*} label=${s#*:}
    bt=$(col tern "bandwidth.$n"); bm=$(col mpich "bandwidth.$n"); bo=$(col ompi "bandwidth.$n")
    cma=$(med "machine.cma.$n"); cpy=$(med "machine.memcpy.$n")
    echo "| bandwidth $label (GB/s) | $(fmt "$bt" 1) | $(fmt "$bm" 1) | $(fmt "$bo" 1) | $(ratio max "$bt" "$bm" "$bo") | one process_vm_readv $(fmt "$cma" 1), memcpy $(fmt "$cpy" 1) |"
done
echo
echo "Command: bench/compare.sh -r $rounds ($elapsed s of runs)."
if ((${#failed[@]})); then
    echo "Failed runs (left out of the medians): ${failed[*]}"
    exit 1
fi
