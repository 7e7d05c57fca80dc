#!/bin/sh
# calibrate_mpich.sh: run the sweep against Debian's MPICH, the behaviour
# reference, and print one tab-separated row per case:
#   rank verdict function argument value expected got message
# Rows whose verdict is FAIL are where MPICH disagrees with the expectation;
# then lists those that MPICH_NOTES in tools/gen/gen_errsweep.py does not
# explain, and exits 1 if there are any.  Procedures that MPICH does not
# export are left out.  Usage: calibrate_mpich.sh [NP] [SUBSTRING...]
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$here/../.." && pwd)
np=${1:-1}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

lib=$(mpicc.mpich -show | tr ' ' '\n' | sed -n 's/^-L//p' | head -n 1)
nm -D --defined-only "$lib"/libmpich.so* 2>/dev/null | awk '{print $3}' | grep '^MPI_' | sort -u > "$tmp/have"
awk '$2 == "implemented" {print $1}' "$root/tools/gen/api_list.txt" | sort -u > "$tmp/want"
exclude=$(comm -23 "$tmp/want" "$tmp/have" | paste -sd, -)

python3 "$root/tools/gen/gen_errsweep.py" --outdir "$tmp" --exclude "$exclude"
mpicc.mpich -O1 -w -o "$tmp/errsweep" "$here/errsweep_main.c" "$tmp/tests/errsweep/errsweep_gen.c" -I"$here"
mpiexec.mpich -n "$np" "$tmp/errsweep" -t "$@" > "$tmp/rows" || true
cat "$tmp/rows"
python3 "$root/tools/gen/gen_errsweep.py" --check-mpich "$tmp/rows"
