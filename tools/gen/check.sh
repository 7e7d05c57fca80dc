#!/bin/sh
# check.sh: fail when the committed outputs of genapi.py and
# gen_unimpl_test.py are stale.
#
# Regenerates include/mpi.h, src/api/unimplemented.c, tools/gen/api_list.txt
# and (from that fresh list) tests/unimpl/unimpl_gen.c into a temporary
# directory and compares them with the committed files; prints a diff and
# exits 1 when they differ.  Also runs gen_errsweep.py on the fresh list,
# whose output is not committed (the build generates it, tests/errsweep), so
# that a change the sweep's data does not cover fails here too.  Exits 77
# (ctest's "skipped") when the generator's Python package is not installed.
set -u

here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}

if ! "$python" -c 'import pympistandard' 2>/dev/null; then
    echo "check.sh: $python cannot import pympistandard (pip install pympistandard); skipped" >&2
    exit 77
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! "$python" "$here/genapi.py" --outdir "$tmp"; then
    echo "check.sh: genapi.py failed" >&2
    exit 1
fi

if ! "$python" "$here/gen_errsweep.py" --api-list "$tmp/tools/gen/api_list.txt" --outdir "$tmp"; then
    echo "check.sh: gen_errsweep.py failed" >&2
    exit 1
fi

if ! "$python" "$here/gen_unimpl_test.py" --api-list "$tmp/tools/gen/api_list.txt" --outdir "$tmp"; then
    echo "check.sh: gen_unimpl_test.py failed" >&2
    exit 1
fi

status=0
for f in include/mpi.h src/api/unimplemented.c tools/gen/api_list.txt tests/unimpl/unimpl_gen.c; do
    if ! diff -u "$root/$f" "$tmp/$f"; then
        status=1
    fi
done
if [ $status -ne 0 ]; then
    echo "check.sh: the committed generated files are stale; run: python3 tools/gen/genapi.py && python3 tools/gen/gen_unimpl_test.py" >&2
else
    echo "check.sh: generated files are up to date"
fi
exit $status
