#!/bin/sh
# check_fort_exports.sh LIBMPIFORT LIBMPI [MPICH_LIBMPICHFORT] [NM]
# Every name Debian's libmpichfort.so.12 exports must be defined by Tern's
# libmpifort.so.12 or libmpi.so.12 (MPICH defines a few objects in both of
# its libraries; Tern in libmpi alone): the Fortran 77 procedures, the
# sentinels, and the mpi_f08 procedures (mpi_x_f08_, mpi_x_f08ts_, their
# _large_ forms and pmpir_ names) and the data and procedures of MPICH's
# module names that Tern's mpi_f08 modules share.  The names below may be
# missing, each group listed with its reason; any other missing name fails.
set -u
fort=$1 mpi=$2 ref=${3:-/usr/lib/x86_64-linux-gnu/libmpichfort.so.12} nm=${4:-nm}
[ -r "$ref" ] || { echo "skipped: $ref not found (Debian: libmpich12)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$nm" -D --defined-only "$ref" | awk '{ print $NF }' | sed 's/@.*//' | sort -u > "$tmp/ref"
{ "$nm" -D --defined-only "$fort"; "$nm" -D --defined-only "$mpi"; } |
    awk '{ print $NF }' | sed 's/@.*//' | sort -u > "$tmp/ours"
comm -23 "$tmp/ref" "$tmp/ours" > "$tmp/missing"

# reason|pattern (grep -E, matched against the whole name)
cat > "$tmp/allowed" <<'LIST'
the MPIX_ extensions, which Tern's C library lacks too|[pP]?[mM][pP][iI][xX]r?_.*
MPICH's own start-up helpers, called by its C library only|mpirinit[cf]_
gfortran's internals for MPICH's extensible handle types (Tern's are BIND(C), which have none)|__.*_MOD___(copy|def_init|vtab)_.*
modules internal to MPICH's bindings (its C glue, and the types of its own use mpi)|__mpi_c_interface_(glue|types)_MOD_.*|__mpi_constants_MOD_.*
MPICH's module procedures converting handles and statuses to its internal C types|__mpi_f08_types_MOD_mpi_[a-z]+_(c2f|f2c)|__mpi_f08_types_MOD_mpi_status_(c_assign_f08|f08_assign_c)
LIST
cp "$tmp/missing" "$tmp/bad"
echo "MPICH's libmpichfort.so.12 exports $(wc -l < "$tmp/ref") names;" \
     "$(($(wc -l < "$tmp/ref") - $(wc -l < "$tmp/missing"))) are defined by Tern"
while IFS='|' read -r reason pattern; do
    grep -xE "$pattern" "$tmp/bad" > "$tmp/group" || continue
    grep -vxE "$pattern" "$tmp/bad" > "$tmp/rest"
    mv "$tmp/rest" "$tmp/bad"
    echo "missing ($reason): $(wc -l < "$tmp/group") names:"
    sed 's/^/  /' "$tmp/group"
done < "$tmp/allowed"
nf08=$(grep -cE '_f08|^__mpi_f08' "$tmp/ref")
echo "mpi_f08: $(grep -E '_f08|^__mpi_f08' "$tmp/ref" | comm -12 - "$tmp/ours" | wc -l) of MPICH's $nf08 names defined"
if [ -s "$tmp/bad" ]; then
    echo "FAIL: $(wc -l < "$tmp/bad") other names missing:"
    sed 's/^/  /' "$tmp/bad"
    exit 1
fi
echo "ok: every Fortran 77 and mpi_f08 name and sentinel MPICH exports is defined, but those listed"
