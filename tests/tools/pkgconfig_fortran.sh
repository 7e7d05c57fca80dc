#!/usr/bin/env bash
# tools.pkgconfig_fortran: a Fortran program compiled and linked with nothing
# but `pkg-config --cflags/--libs` of tern-fort.pc (and of mpi-fort.pc, the
# generic name) finds mpif.h and the mpi and mpi_f08 modules, links
# libmpifort and runs under mpiexec.  Skipped without pkg-config.
#   pkgconfig_fortran.sh SOURCE_DIR BUILD_DIR FC
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
fc=$3
lib=$build/lib
command -v pkg-config >/dev/null || skip "pkg-config not found (apt-get install pkg-config)"
require_library "$build"
make_tmp
asan_preload "$build"

for pc in tern-fort mpi-fort; do
    [[ -f $lib/pkgconfig/$pc.pc ]] || fail "$lib/pkgconfig/$pc.pc is missing"
    read -ra cf <<<"$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags "$pc")"
    read -ra lf <<<"$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --libs "$pc")"
    echo "$pc.pc: ${cf[*]} ${lf[*]}"
    check_contains "${lf[*]}" "-lmpifort" "$pc.pc --libs"
    run_checked "compile with $pc.pc" "$fc" "${cf[@]}" -o "$tmp/hello_$pc" \
        "$src/tests/tools/findmpi/main.f90" "${lf[@]}"
    run_checked "run" ${asan_env[@]+"${asan_env[@]}"} "$build/bin/mpiexec" --timeout 60 -n 2 "$tmp/hello_$pc"
    for r in 0 1; do
        grep -q "^findmpi rank $r of 2 sum 1 library .*Tern" <<<"$out" || fail "rank $r's line is wrong or missing"
    done
done
echo "PASS"
