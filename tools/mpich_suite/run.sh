#!/bin/bash
# MPICH's own test suite (test/mpi of the Debian source package mpich
# 4.0.2) built against an installed Tern and run with Tern's mpiexec, the
# way MPICH's runtests reads its testlists: np, arg=, env=, timeLimit=
# (as MPIEXEC_TIMEOUT), resultTest=TestStatus/TestErrFatal (a non-zero exit
# passes), xfail= (reported apart).  Needs deb-src in apt's sources (the
# script adds one for bookworm when there is none) and network access to
# the package mirror.
#
#   tools/mpich_suite/run.sh PREFIX WORKDIR [DIR ...]
#
# PREFIX: a Tern install (cmake --install BUILD --prefix PREFIX).  DIRs
# default to rma coll pt2pt datatype comm topo attr group info init errhan
# mpi_t part io threads.  Prints one line per failure, a tally per
# directory, and the output of each failure into WORKDIR/fail-DIR.txt
# (subdirectories joined with '-').
# Exit status: the number of directories with an unexpected failure, beyond
# those listed in expected.txt beside this script.
set -u
prefix=$(cd "${1:?usage: run.sh PREFIX WORKDIR [DIR ...]}" && pwd)
work=$(mkdir -p "${2:?usage: run.sh PREFIX WORKDIR [DIR ...]}" && cd "$2" && pwd)
shift 2
dirs=${*:-rma coll pt2pt datatype comm topo attr group info init errhan mpi_t part io threads}
here=$(cd "$(dirname "$0")" && pwd)
src=$work/mpich-4.0.2/test/mpi

if [ ! -d "$src" ]; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            > /etc/apt/sources.list.d/tern-mpich-src.sources
        apt-get update -q > /dev/null
    fi
    (cd "$work" && apt-get source --download-only mpich=4.0.2-3 > /dev/null 2>&1) || {
        echo "run.sh: cannot fetch the source of mpich 4.0.2 (apt-get source)" >&2
        exit 100
    }
    tar -C "$work" -xf "$work"/mpich_4.0.2.orig.tar.xz mpich-4.0.2/test/mpi
fi
if [ ! -f "$src/Makefile" ]; then
    (cd "$src" && ./configure CC="$prefix/bin/mpicc" --with-mpi="$prefix" --disable-fortran \
        --disable-cxx --disable-spawn --disable-ft-tests --without-cuda --without-ze --without-hip \
        MPIEXEC="$prefix/bin/mpiexec" > "$work/configure.log" 2>&1) || {
        echo "run.sh: configure failed, see $work/configure.log" >&2
        exit 100
    }
    make -C "$src/util" > /dev/null 2>&1
    make -C "$src/dtpools" > /dev/null 2>&1
fi

# A testlist line naming a directory (threads/) stands for that
# directory's own testlist.
expand() {
    local d=$1 name rest
    echo "$d"
    while read -r name rest; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        [ -d "$src/$d/$name" ] && expand "$d/$name"
    done < "$src/$d/testlist"
}

bad_dirs=0
for d in $(for t in $dirs; do expand "$t"; done); do
    make -C "$src/$d" -k -j"$(nproc)" > "$work/build-${d//\//-}.log" 2>&1
    pass=0 fail=0 xf=0 known=0
    : > "$work/fail-${d//\//-}.txt"
    while read -r name np rest; do
        [[ -z "$name" || "$name" == \#* || -d "$src/$d/$name" ]] && continue
        [[ -x "$src/$d/$name" ]] || { echo "$d/$name: not built (see $work/build-${d//\//-}.log)"; continue; }
        args="" env="" rt="" tl=180 xfail=""
        for kv in $rest; do
            case $kv in
            arg=*) args="$args ${kv#arg=}" ;;
            env=*) env="$env ${kv#env=}" ;;
            resultTest=*) rt=${kv#resultTest=} ;;
            timeLimit=*) tl=${kv#timeLimit=} ;;
            xfail=*) xfail=${kv#xfail=} ;;
            esac
        done
        # shellcheck disable=SC2086
        out=$(cd "$src/$d" && env MPIEXEC_TIMEOUT="$tl" $env timeout $((tl + 30)) \
            "$prefix/bin/mpiexec" -n "$np" "./$name" $args 2>&1)
        rc=$?
        ok=""
        case $rt in
        TestStatus | TestErrFatal) [ $rc -ne 0 ] && ok=1 ;;
        *) [ $rc -eq 0 ] && grep -qiE '^\s*No Errors\s*$' <<<"$out" && ok=1 ;;
        esac
        if [ -n "$ok" ]; then
            pass=$((pass + 1))
        elif [ -n "$xfail" ]; then
            xf=$((xf + 1))
            echo "$d/$name np=$np: fails, as MPICH expects of itself ($xfail)"
        elif grep -qx "$d/$name" "$here/expected.txt"; then
            known=$((known + 1))
            echo "$d/$name np=$np: fails, as expected.txt says why"
        else
            fail=$((fail + 1))
            echo "$d/$name np=$np$args: FAILED (exit $rc)"
            { echo "== $name np=$np$args exit $rc"; head -30 <<<"$out"; } >> "$work/fail-${d//\//-}.txt"
        fi
    done < "$src/$d/testlist"
    echo "$d: $pass passed, $fail failed, $known known deviations, $xf expected failures"
    [ $fail -eq 0 ] || bad_dirs=$((bad_dirs + 1))
done
exit $bad_dirs
