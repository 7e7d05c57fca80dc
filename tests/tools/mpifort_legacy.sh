#!/usr/bin/env bash
# tools.mpifort_legacy: mpifort and mpif77 compile the Fortran that MPI
# programs and test suites are written in (one buffer argument given several
# types in one file, BOZ constants), as MPICH's mpif90 does, and the program
# runs with the values it sent.
#   mpifort_legacy.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
require_library "$build"
make_tmp
asan_preload "$build"
for w in mpifort mpif77; do
    [[ -x $build/bin/$w ]] || fail "$build/bin/$w is missing"
    run_checked "compile with $w" "$build/bin/$w" -o "$tmp/mixed_$w" "$src/tests/tools/legacy_fortran/mixed.f"
    run_checked "run" ${asan_env[@]+"${asan_env[@]}"} "$build/bin/mpiexec" --timeout 60 -n 2 "$tmp/mixed_$w"
    # List-directed output (a format string literal trips ASan's strndup
    # interceptor inside libgfortran).
    grep -q "legacy fortran ok" <<<"$out" || fail "rank 1 did not receive the values: $out"
done
echo "PASS"
