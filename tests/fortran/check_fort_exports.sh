#!/bin/sh
# check_fort_exports.sh LIBMPIFORT LIBMPI [MPICH_LIBMPICHFORT] [NM]
# Every name Debian's libmpichfort.so.12 exports must be defined by Tern's
# libmpifort.so.12 or libmpi.so.12 (MPICH defines a few objects in both of
# its libraries; Tern in libmpi alone).  Listed as missing and counted, not
# failed: MPICH's mpi_f08 (the *_f08* procedures and gfortran's module data,
# __*_MOD_*: Tern has no mpi_f08 yet), the MPIX_ extensions (absent from
# Tern's C library too) and mpirinit[cf]_ (MPICH-internal).  Any other
# missing name fails.  Skipped (77) without MPICH's library.
set -u
fort=$1 mpi=$2 ref=${3:-/usr/lib/x86_64-linux-gnu/libmpichfort.so.12} nm=${4:-nm}
[ -r "$ref" ] || { echo "skipped: $ref not found (Debian: libmpich12)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$nm" -D --defined-only "$ref" | awk '{ print $NF }' | sed 's/@.*//' | sort -u > "$tmp/ref"
{ "$nm" -D --defined-only "$fort"; "$nm" -D --defined-only "$mpi"; } |
    awk '{ print $NF }' | sed 's/@.*//' | sort -u > "$tmp/ours"
comm -23 "$tmp/ref" "$tmp/ours" > "$tmp/missing"
grep -E '_f08|^__.*_MOD_' "$tmp/missing" > "$tmp/f08" || true
grep -iE '^p?mpix_' "$tmp/missing" > "$tmp/mpix" || true
grep -E '^mpirinit[cf]_$' "$tmp/missing" > "$tmp/internal" || true
grep -vE '_f08|^__.*_MOD_|^[pP]?[mM][pP][iI][xX]_|^mpirinit[cf]_$' "$tmp/missing" > "$tmp/bad" || true
echo "MPICH's libmpichfort.so.12 exports $(wc -l < "$tmp/ref") names;" \
     "$(($(wc -l < "$tmp/ref") - $(wc -l < "$tmp/missing"))) are defined by Tern"
if [ -s "$tmp/f08" ]; then
    echo "missing (mpi_f08 not built yet): $(wc -l < "$tmp/f08") names:"
    sed 's/^/  /' "$tmp/f08"
fi
if [ -s "$tmp/mpix" ]; then
    echo "missing (MPIX_ extensions, which Tern's C library lacks too): $(wc -l < "$tmp/mpix") names:"
    sed 's/^/  /' "$tmp/mpix"
fi
if [ -s "$tmp/internal" ]; then
    echo "missing (MPICH's own start-up helpers, called by its C library only):"
    sed 's/^/  /' "$tmp/internal"
fi
if [ -s "$tmp/bad" ]; then
    echo "FAIL: $(wc -l < "$tmp/bad") other names missing:"
    sed 's/^/  /' "$tmp/bad"
    exit 1
fi
echo "ok: every Fortran 77 name and sentinel MPICH exports is defined"
