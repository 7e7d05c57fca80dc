#!/usr/bin/env bash
# tools.findmpi: a CMake project doing find_package(MPI) finds Tern when the
# install prefix's bin/ is first on PATH -- even though Debian's MPICH and
# Open MPI are installed in /usr -- and the program runs under our mpiexec.
#   findmpi.sh SOURCE_DIR BUILD_DIR [CMAKE [LANG]]
# LANG is the FindMPI component: C (default) or Fortran.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
cmake=${3:-cmake}
lang=${4:-C}
require_library "$build"
make_tmp
unset TERN_CC MPICH_CC TERN_CXX MPICH_CXX TERN_FC MPICH_FC MPI_HOME MPI_ROOT CC FC

prefix=$tmp/prefix
run_checked "install" "$cmake" --install "$build" --prefix "$prefix" >/dev/null

# Only our bin ahead of the system's; cmake itself is called by full path.
cmake_abs=$(command -v "$cmake")
export PATH="$prefix/bin:/usr/bin:/bin"
note "configure with PATH=$PATH"
run_checked "configure" "$cmake_abs" -S "$src/tests/tools/findmpi" -B "$tmp/b" \
    -DTERN_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -DFINDMPI_LANG="$lang"
check_contains "$out" "FindMPI found Tern in" "configure"
run_checked "build" "$cmake_abs" --build "$tmp/b"
mpiexec=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$tmp/b/CMakeCache.txt")
[[ $(readlink -f "$mpiexec") == $(readlink -f "$prefix/bin/mpiexec") ]] ||
    fail "cache has MPIEXEC_EXECUTABLE=$mpiexec"
asan_preload "$prefix"
run_checked "run" ${asan_env[@]+"${asan_env[@]}"} "$mpiexec" -n 2 "$tmp/b/findmpi_hello"
for r in 0 1; do
    grep -q "^findmpi rank $r of 2 sum 1 library .*Tern" <<<"$out" || fail "rank $r's line is wrong or missing"
done
echo "PASS"
