#!/usr/bin/env bash
# tools.abi_mpich: a program compiled with Debian's MPICH (mpicc.mpich)
# runs unchanged on Tern.  The binary asks for libmpich.so.12; our mpiexec
# puts Tern's lib/ (where libmpich.so.12 -> libmpi.so.12) first on
# LD_LIBRARY_PATH, so the same binary loads Tern -- which the program shows
# by printing MPI_Get_library_version.
#   abi_mpich.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
require_library "$build"
command -v mpicc.mpich >/dev/null || skip "mpicc.mpich not found (apt-get install mpich libmpich-dev)"
make_tmp
unset MPICH_CC TERN_CC

note "compile with mpicc.mpich"
run_checked "mpicc.mpich" mpicc.mpich -O2 -o "$tmp/abi_hello" "$src/tests/tools/abi_hello.c"
dyn=$(readelf -d "$tmp/abi_hello")
check_contains "$dyn" "[libmpich.so.12]" "NEEDED of the MPICH-built binary"
check_not_contains "$dyn" "[libmpi.so.12]" "NEEDED of the MPICH-built binary"

note "run the unchanged binary with Tern's mpiexec"
asan_preload "$build"
run_checked "mpiexec" ${asan_env[@]+"${asan_env[@]}"} "$build/bin/mpiexec" --timeout 60 -n 2 "$tmp/abi_hello"
grep -q "^library: .*Tern" <<<"$out" || fail "the binary did not load Tern (library line above)"
check_contains "$out" "abi_hello: all passed" "abi_hello"
check_not_contains "$out" "FAIL" "abi_hello"

note "which file the dynamic loader picked"
lp=$(LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$tmp/abi_hello" | grep libmpich.so.12)
echo "$lp"
[[ $(readlink -f "$(awk '{print $3}' <<<"$lp")") == $(readlink -f "$build/lib/libmpi.so.12") ]] ||
    fail "with Tern's lib first, libmpich.so.12 should resolve to Tern's libmpi.so.12: $lp"
echo "PASS"
