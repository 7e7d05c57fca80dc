#!/usr/bin/env bash
# tools.mpicc_show: the wrappers' -show, -compile-info, -link-info output,
# compiler overrides, -c, symlinks, and one real C compile.  pkg-config and
# a real C++ compile are tools.pkgconfig and tools.mpicxx_compile, each
# skipped on its own where its tool is missing.
#   mpicc_show.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
mpicc=$build/bin/mpicc
mpicxx=$build/bin/mpicxx
inc=$build/include
lib=$build/lib
make_tmp

[[ -x $mpicc && -x $mpicxx ]] || fail "wrappers missing in $build/bin"
[[ -f $inc/mpi.h ]] || fail "$inc/mpi.h is missing (the build stages include/*.h there)"
cmp -s "$inc/mpi.h" "$src/include/mpi.h" || fail "$inc/mpi.h differs from $src/include/mpi.h"

# Keep the caller's overrides out of the way.
unset TERN_CC MPICH_CC TERN_CXX MPICH_CXX

note "-show"
show=$("$mpicc" -show)
echo "$show"
read -r -a w <<<"$show"
[[ ${w[0]} != -* ]] || fail "-show: first word should be the compiler: $show"
command -v "${w[0]}" >/dev/null || fail "-show: compiler '${w[0]}' is not runnable"
check_contains "$show" "-I$inc" "-show"
check_contains "$show" "-L$lib" "-show"
check_contains "$show" "-Wl,-rpath,$lib" "-show"
[[ ${w[-1]} == -lmpi ]] || fail "-show: should end with -lmpi: $show"

note "-compile-info / -link-info"
ci=$("$mpicc" -compile-info)
echo "$ci"
check_contains "$ci" "-I$inc" "-compile-info"
check_not_contains "$ci" "-lmpi" "-compile-info"
li=$("$mpicc" -link-info)
echo "$li"
check_contains "$li" "-L$lib" "-link-info"
check_contains "$li" "-Wl,-rpath,$lib" "-link-info"
check_contains "$li" "-lmpi" "-link-info"
[[ $ci == "${w[0]} "* && $li == "${w[0]} "* ]] || fail "-compile-info/-link-info should start with the compiler"

note "-c compiles only; user arguments kept in order"
c=$("$mpicc" -show -c -O2 foo.c -o foo.o)
echo "$c"
check_contains "$c" "-c -O2 foo.c -o foo.o" "-c -show"
check_contains "$c" "-I$inc" "-c -show"
check_not_contains "$c" "-lmpi" "-c -show"
check_not_contains "$c" "-L" "-c -show"
l=$("$mpicc" -show -O2 foo.c -o foo -lm)
check_contains "$l" "-O2 foo.c -o foo -lm" "link -show"
check_contains "$l" "-lmpi" "link -show"
q=$("$mpicc" -show -DGREETING='"a b"' x.c)
echo "$q"
check_contains "$q" "'-DGREETING=\"a b\"'" "-show quoting"

note "compiler overrides"
[[ $("$mpicc" -show | cut -d' ' -f1) == "${w[0]}" ]] || fail "default compiler changed"
[[ $(MPICH_CC=mpich-cc "$mpicc" -show | cut -d' ' -f1) == mpich-cc ]] || fail "MPICH_CC ignored"
[[ $(TERN_CC=tern-cc "$mpicc" -show | cut -d' ' -f1) == tern-cc ]] || fail "TERN_CC ignored"
[[ $(TERN_CC=tern-cc MPICH_CC=mpich-cc "$mpicc" -show | cut -d' ' -f1) == tern-cc ]] ||
    fail "TERN_CC should win over MPICH_CC"
[[ $(TERN_CC=tern-cc "$mpicc" -cc=opt-cc -show | cut -d' ' -f1) == opt-cc ]] || fail "-cc= should win"
[[ $(TERN_CC="ccache gcc" "$mpicc" -show | cut -d' ' -f1-2) == "ccache gcc" ]] || fail "multi-word TERN_CC"

note "mpicxx"
cxx=$("$mpicxx" -show)
echo "$cxx"
check_contains "$cxx" "-I$inc" "mpicxx -show"
check_contains "$cxx" "-lmpi" "mpicxx -show"
[[ $(MPICH_CXX=mpich-cxx "$mpicxx" -show | cut -d' ' -f1) == mpich-cxx ]] || fail "MPICH_CXX ignored"
[[ $(TERN_CXX=tern-cxx MPICH_CXX=mpich-cxx "$mpicxx" -show | cut -d' ' -f1) == tern-cxx ]] || fail "TERN_CXX ignored"
[[ $("$mpicxx" -cxx=opt-cxx -show | cut -d' ' -f1) == opt-cxx ]] || fail "-cxx= ignored"

note "options that are not ours"
if "$mpicc" -showme:compile >/dev/null 2>&1; then fail "-showme:compile should fail (Open MPI option)"; fi
"$mpicc" -help | grep -q -- -show || fail "-help should describe -show"

note "a symlink to the wrapper still finds the real prefix"
mkdir -p "$tmp/elsewhere/bin"
ln -s "$mpicc" "$tmp/elsewhere/bin/mpicc"
s=$("$tmp/elsewhere/bin/mpicc" -show)
check_contains "$s" "-I$inc" "symlinked mpicc"
s=$(PATH="$tmp/elsewhere/bin:$PATH" mpicc -show)
check_contains "$s" "-I$inc" "symlinked mpicc found on PATH"

note "compile and link a program (no run)"
require_library "$build"
run_checked "mpicc -c" "$mpicc" -Wall -Werror -c -o "$tmp/hello.o" "$src/examples/hello.c"
run_checked "mpicc link" "$mpicc" -o "$tmp/hello" "$tmp/hello.o"
dyn=$(readelf -d "$tmp/hello")
check_contains "$dyn" "[libmpi.so.12]" "NEEDED of a program linked by mpicc"
check_contains "$dyn" "$lib" "RUNPATH of a program linked by mpicc"
echo "PASS"
