#!/bin/sh
# format_files.sh: list the C sources that follow .clang-format, one per line.
# Generated files are left out: their generators own their layout, and
# tools/gen/check.sh already holds them to the generators' output.
cd "$(dirname "$0")/.." || exit 1
git ls-files '*.c' '*.h' |
    grep -v -E '^(include/mpi\.h|src/api/unimplemented\.c|src/api/gen/|src/fortran/gen/|tests/unimpl/unimpl_gen\.c)'
