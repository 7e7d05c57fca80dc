#!/bin/sh
# check_header.sh CC CXX INCLUDE_DIR SOURCE_DIR
#
# CXX "-" means there is no C++ compiler: the C++ step cannot run, and a
# run that passes everything else exits 77 (skipped), saying so.
#
# Compiles programs that include INCLUDE_DIR/mpi.h: as strict C11 and C++11
# with every warning an error, and one that pins the MPICH ABI values (at
# compile time with static assertions, and for the pointer-valued constants,
# which a static assertion cannot see, by running it).
set -u

cc=${1:?usage: check_header.sh CC CXX INCLUDE_DIR SOURCE_DIR}
cxx=${2:?usage: check_header.sh CC CXX INCLUDE_DIR SOURCE_DIR}
inc=${3:?usage: check_header.sh CC CXX INCLUDE_DIR SOURCE_DIR}
src=${4:?usage: check_header.sh CC CXX INCLUDE_DIR SOURCE_DIR}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

fail=0
step() {
    what=$1; shift
    if "$@" > "$tmp/out" 2>&1; then
        echo "ok: $what"
    else
        echo "FAIL: $what"
        echo "  command: $*"
        sed 's/^/  /' "$tmp/out"
        fail=1
    fi
}

step "mpi.h compiles as C11 (-Wall -Wextra -Werror -pedantic)" \
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -Wstrict-prototypes -Wshadow \
    -I"$inc" -c "$src/header_c.c" -o "$tmp/header_c.o"
if [ "$cxx" != - ]; then
    step "mpi.h compiles as C++11 (-Wall -Wextra -Werror -pedantic)" \
        "$cxx" -std=c++11 -Wall -Wextra -Werror -pedantic -Wshadow \
        -I"$inc" -c "$src/header_cxx.cpp" -o "$tmp/header_cxx.o"
fi
step "MPICH ABI values, type sizes and MPI_Status layout (compile time)" \
    "$cc" -std=c11 -Wall -Wextra -Werror -pedantic \
    -I"$inc" "$src/header_values.c" -o "$tmp/header_values"
if [ -x "$tmp/header_values" ]; then
    step "MPICH ABI pointer-valued constants (run time)" "$tmp/header_values"
fi

if [ $fail = 0 ] && [ "$cxx" = - ]; then
    echo "SKIP: no C++ compiler (CMake found none): mpi.h was not compiled as C++ (the rest passed)"
    exit 77
fi
exit $fail
