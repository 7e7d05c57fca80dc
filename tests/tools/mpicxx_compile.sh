#!/usr/bin/env bash
# tools.mpicxx_compile: mpicxx compiles and links a C++ program against
# libmpi.so.12 (no run).  Skipped where the C++ compiler mpicxx names is
# not installed.
#   mpicxx_compile.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
build=$(cd "$2" && pwd -P)
mpicxx=$build/bin/mpicxx
[[ -x $mpicxx ]] || fail "$mpicxx is missing"
require_library "$build"
unset TERN_CXX MPICH_CXX
cxx=$("$mpicxx" -show | cut -d' ' -f1)
command -v "$cxx" >/dev/null || skip "the C++ compiler '$cxx' (mpicxx's default) is not installed"
make_tmp

cat >"$tmp/hello.cxx" <<'CXX'
#include <mpi.h>
#include <cstdio>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::printf("C++ rank %d\n", rank);
    MPI_Finalize();
    return 0;
}
CXX
run_checked "mpicxx" "$mpicxx" -Wall -Werror -o "$tmp/hellocxx" "$tmp/hello.cxx"
readelf -d "$tmp/hellocxx" | grep -q 'libmpi.so.12' || fail "mpicxx program does not need libmpi.so.12"
echo "PASS"
