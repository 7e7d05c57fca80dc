#!/bin/sh
# check_exports.sh LIBRARY API_LIST [NM]
#
# Checks the dynamic symbol table of LIBRARY (libmpi.so.12):
#   1. every procedure named in API_LIST (first column) is exported as a weak
#      MPI_X (so tools can interpose it) and a defined PMPI_X;
#   2. the data objects and helpers that programs built against MPICH's mpi.h
#      refer to exist, with MPICH's sizes (executables may hold copy
#      relocations of them);
#   3. nothing outside the public namespaces (MPI_, PMPI_, MPIR_, MPIX_,
#      PMPIX_, tern_) is exported.
set -u

lib=${1:?usage: check_exports.sh LIBRARY API_LIST [NM]}
list=${2:?usage: check_exports.sh LIBRARY API_LIST [NM]}
nm=${3:-nm}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# "TYPE NAME SIZE" for each defined dynamic symbol (SIZE "-" when nm has none).
if ! "$nm" -D -S --defined-only "$lib" > "$tmp/nm.out"; then
    echo "check_exports.sh: cannot read the symbols of $lib" >&2
    exit 1
fi
awk 'NF == 4 { print $3, $4, $2 } NF == 3 { print $2, $3, "-" }' "$tmp/nm.out" |
    sed 's/@.*//' > "$tmp/syms"

fail=0

# 1. Procedures.
awk '!/^#/ && NF { print $1 }' "$list" > "$tmp/procs"
nprocs=$(wc -l < "$tmp/procs")
awk 'NR == FNR { kind[$2] = $1; next }
     {
         if (!($1 in kind))               print "  " $1 ": not exported";
         else if (kind[$1] != "W")        print "  " $1 ": exported as " kind[$1] ", not weak (W)";
         p = "P" $1;
         if (!(p in kind))                print "  " p ": not exported";
         else if (kind[p] !~ /^[TW]$/)    print "  " p ": exported as " kind[p] ", not a function";
     }' "$tmp/syms" "$tmp/procs" > "$tmp/bad_procs"
if [ -s "$tmp/bad_procs" ]; then
    echo "FAIL: $(wc -l < "$tmp/bad_procs") problems with the $nprocs procedures of $list:"
    cat "$tmp/bad_procs"
    fail=1
else
    echo "ok: all $nprocs procedures exported as weak MPI_X and defined PMPI_X"
fi

# 2. Data objects and helpers: NAME KINDS SIZE (bytes, hex as nm prints them,
#    compared numerically; "-" = any size).
cat > "$tmp/objects" <<'LIST'
MPI_F_STATUS_IGNORE              BDR 8
MPI_F_STATUSES_IGNORE            BDR 8
MPI_F08_STATUS_IGNORE            BDR 8
MPI_F08_STATUSES_IGNORE          BDR 8
MPIR_F08_MPI_STATUS_IGNORE_OBJ   BDR 20
MPIR_F08_MPI_STATUSES_IGNORE_OBJ BDR 20
MPIR_F08_MPI_IN_PLACE            BDR 4
MPIR_F08_MPI_BOTTOM              BDR 4
MPI_UNWEIGHTED                   BDR 8
MPI_WEIGHTS_EMPTY                BDR 8
MPIR_C_MPI_UNWEIGHTED            BDR 8
MPIR_C_MPI_WEIGHTS_EMPTY         BDR 8
MPI_T_PVAR_ALL_HANDLES           BDR 8
MPIR_Dup_fn                      T   -
LIST
awk 'NR == FNR { kind[$2] = $1; size[$2] = $3; next }
     {
         if (!($1 in kind)) { print "  " $1 ": not exported"; next }
         if (index($2, kind[$1]) == 0) {
             print "  " $1 ": exported as " kind[$1] ", expected one of " $2; next
         }
         if ($3 != "-") {
             s = size[$1]; n = 0
             for (i = 1; i <= length(s); i++)
                 n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
             if (s == "-" || n != $3 + 0) print "  " $1 ": size " (s == "-" ? "unknown" : n) ", MPICH has " $3
         }
     }' "$tmp/syms" "$tmp/objects" > "$tmp/bad_objects"
if [ -s "$tmp/bad_objects" ]; then
    echo "FAIL: data objects and helpers of the MPICH ABI:"
    cat "$tmp/bad_objects"
    fail=1
else
    echo "ok: $(wc -l < "$tmp/objects") data objects and helpers of the MPICH ABI, with MPICH's sizes"
fi

# 3. Leaks.  The linker's own markers are allowed, and in a sanitized build
#    the sanitizers' exports.
awk '{ print $2 }' "$tmp/syms" |
    grep -Ev '^(P?MPI_|MPIR_|P?MPIX_|tern_)' |
    grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' |
    grep -Ev '^(__odr_asan|__asan_|__ubsan_|__sancov_)' | sort > "$tmp/leaks"
if [ -s "$tmp/leaks" ]; then
    echo "FAIL: $(wc -l < "$tmp/leaks") exported symbols outside the MPI_/PMPI_/MPIR_/MPIX_/tern_ namespaces:"
    sed 's/^/  /' "$tmp/leaks"
    fail=1
else
    echo "ok: no symbol outside the public namespaces is exported"
fi

exit $fail
