#!/usr/bin/env bash
# tools.install: `cmake --install` into a temporary prefix gives the
# documented layout; the installed mpicc builds a program that the installed
# mpiexec runs; then the prefix is moved and everything still works there
# (the wrappers, pkg-config and tern-info are relocatable).  Ends skipped
# where pkg-config is not installed.
#   install.sh SOURCE_DIR BUILD_DIR [CMAKE]
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
cmake=${3:-cmake}
require_library "$build"
make_tmp
unset TERN_CC MPICH_CC TERN_CXX MPICH_CXX

prefix=$tmp/prefix
note "cmake --install $build --prefix $prefix"
run_checked "install" "$cmake" --install "$build" --prefix "$prefix" >/dev/null

note "layout"
for f in bin/mpicc bin/mpicxx bin/mpiexec bin/mpirun bin/tern-info; do
    [[ -x $prefix/$f ]] || fail "$f is missing or not executable"
done
for f in lib/libmpi.so.12 lib/libmpi.so lib/libmpich.so.12 lib/libmpich.so \
    lib/pkgconfig/tern.pc lib/pkgconfig/mpi.pc include/mpi.h; do
    [[ -e $prefix/$f ]] || fail "$f is missing"
done
for l in libmpi.so libmpich.so.12 libmpich.so; do
    [[ $(readlink -f "$prefix/lib/$l") == $(readlink -f "$prefix/lib/libmpi.so.12") ]] ||
        fail "lib/$l does not lead to libmpi.so.12"
done
# Symlinks inside the prefix must be relative, or moving the prefix breaks them.
abs=$(find "$prefix" -type l -lname '/*' -printf '%p -> %l\n')
[[ -z $abs ]] || fail "absolute symlinks in the prefix: $abs"
# Nothing installed may point back into the build tree: no text file (the
# wrappers, .pc files) and no run path.  (Debug info may name it; harmless.)
for f in "$prefix"/bin/* "$prefix"/lib/*.so* "$prefix"/lib/pkgconfig/*; do
    [[ -f $f ]] || continue
    if [[ $(head -c 4 "$f") == $'\x7fELF' ]]; then
        rp=$(readelf -d "$f" | grep -E 'RPATH|RUNPATH' || true)
        [[ $rp != *"$build"* ]] || fail "$f has a run path into the build tree: $rp"
    elif grep -q -F "$build" "$f"; then
        fail "$f mentions the build tree $build"
    fi
done

# hello_test PREFIX: compile examples/hello.c with PREFIX's mpicc, run it on
# 2 ranks with PREFIX's mpiexec, check what it prints.
hello_test() {
    local p=$1
    local show
    show=$("$p/bin/mpicc" -show)
    check_contains "$show" "-I$p/include" "$p/bin/mpicc -show"
    check_contains "$show" "-Wl,-rpath,$p/lib" "$p/bin/mpicc -show"
    run_checked "mpicc" "$p/bin/mpicc" -o "$p/hello" "$src/examples/hello.c"
    readelf -d "$p/hello" | grep -q "$p/lib" || fail "hello built in $p lacks the rpath $p/lib"
    run_checked "mpiexec" "$p/bin/mpiexec" -n 2 "$p/hello"
    check_contains "$out" "Hello from rank 0 of 2" "hello output"
    check_contains "$out" "Hello from rank 1 of 2" "hello output"
    check_contains "$out" "Tern" "hello's library version"
    # Without mpiexec's LD_LIBRARY_PATH the rpath alone must find libmpi.
    local ldd_out
    ldd_out=$(env -u LD_LIBRARY_PATH ldd "$p/hello")
    grep -q "libmpi.so.12 => $p/lib/libmpi.so.12" <<<"$ldd_out" ||
        fail "hello from $p does not resolve libmpi.so.12 in $p/lib: $ldd_out"
    run_checked "mpirun" "$p/bin/mpirun" -n 2 "$p/hello"
    check_contains "$out" "Hello from rank 1 of 2" "mpirun hello output"
    run_checked "tern-info" env -u LD_LIBRARY_PATH "$p/bin/tern-info" --version
    check_contains "$out" "Tern" "tern-info --version"
    if ((have_pkgconfig)); then
        local cf
        cf=$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --cflags tern)
        cf=${cf//\\ / }                        # pkg-config escapes spaces in paths
        cf=${cf%"${cf##*[![:space:]]}"}          # and ends with a space
        [[ $(cd "${cf#-I}" && pwd -P) == $(cd "$p/include" && pwd -P) ]] ||
            fail "tern.pc in $p points at ${cf#-I}"
    fi
}

# Without pkg-config the rest still runs, and the test ends skipped, not passed.
have_pkgconfig=1
command -v pkg-config >/dev/null || have_pkgconfig=0

note "build and run with the installed prefix"
hello_test "$prefix"

note "move the prefix: the wrappers must follow"
moved="$tmp/moved prefix"
mv "$prefix" "$moved"
[[ ! -e $prefix ]] || fail "the old prefix still exists"
rm -f "$moved/hello"
hello_test "$moved"

note "copy the prefix too: both copies stand alone"
cp -a "$moved" "$tmp/copy"
rm -f "$tmp/copy/hello"
hello_test "$tmp/copy"
((have_pkgconfig)) || skip "pkg-config not found: the installed and moved tern.pc were not checked (the rest passed)"
echo "PASS"
