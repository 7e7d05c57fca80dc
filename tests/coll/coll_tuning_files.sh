#!/usr/bin/env bash
# coll_tuning_files: the tuning table (TERN_COLL_TUNING_FILE, src/coll/tuning.h)
# as tern-info --coll shows its choices, the errors of malformed files (named
# by file and line, at tern-info and at MPI_Init, where the job stops), and
# the check at MPI_Init that every rank loaded the same rows.
#   coll_tuning_files.sh SOURCE_DIR BUILD_DIR
# shellcheck source=../tools/lib.sh
. "$1/tests/tools/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
info=$build/bin/tern-info
mpiexec=$build/bin/mpiexec
prog=$build/tests/bin/coll_tuning
for f in "$info" "$mpiexec" "$prog"; do [[ -x $f ]] || fail "$f is missing"; done
while IFS='=' read -r name _; do
    [[ $name == TERN_* || $name == MV2_* ]] && unset "$name"
done < <(env)
make_tmp
tables=$src/tests/coll/tuning

# row TEXT COLLECTIVE BYTES: the line of tern-info --coll for that
# collective (label up to the size column) and bucket range.
row() { grep -m1 -E "^$2 +$3 " <<<"$1" || true; }
expect_row() { # TEXT LABEL BYTES ALGORITHM DECIDED-BY
    local r
    r=$(row "$1" "$2" "$3")
    [[ -n $r ]] || fail "no row '$2 $3' in: $1"
    [[ $r =~ ^$2\ +$3\ +$4\ +$5$ ]] || fail "row '$2 $3': expected $4 by $5, got: $r"
}
line_of() { grep -n -E "$2" "$1" | head -1 | cut -d: -f1; }

note "built-in table"
run_checked "tern-info --coll" "$info" --coll --np 4 >/dev/null
check_contains "$out" "tuning table: (built-in), 0 rows" "built-in"
expect_row "$out" "bcast" "0-256K" "shm" "conditions"
expect_row "$out" "reduce" "0-4K" "shm" "conditions"
# A slot carries less for bcast on a host of many ranks (the areas' budget).
run_checked "tern-info --coll --np 128" "$info" --coll --np 128 >/dev/null
expect_row "$out" "bcast" "0-8K" "shm" "conditions"
run_checked "tern-info --coll --np 4" "$info" --coll --np 4 >/dev/null
expect_row "$out" "allreduce \(non-commutative\)" "8K-" "recursive_doubling" "conditions"
TERN_COLL_TUNING_FILE= run_checked "tern-info --coll (empty)" "$info" --coll --np 4 >/dev/null
check_contains "$out" "tuning table: (built-in)" "empty value"

note "the example table of docs/tuning parses"
for t in "$src"/docs/tuning/*.txt; do
    TERN_COLL_TUNING_FILE=$t run_checked "tern-info --coll with $t" "$info" --coll --np 2 >/dev/null
    check_contains "$out" "table line" "$t: rows in effect"
done

note "mixed.txt at 4 ranks on one host"
mixed=$tables/mixed.txt
export TERN_COLL_TUNING_FILE=$mixed
run_checked "tern-info --coll" "$info" --coll --np 4 >/dev/null
check_contains "$out" "tuning table: $mixed, 20 rows" "header"
l_small=$(line_of "$mixed" '^allreduce +\* +\* +\* +0-64 ')
l_mid=$(line_of "$mixed" '^allreduce +\* +\* +\* +128-8K ')
l_part=$(line_of "$mixed" '^allreduce .*shm_partition')
l_rd=$(line_of "$mixed" '^allreduce +\* +\* +\* +16K- +recursive_doubling')
expect_row "$out" "allreduce" "0-64" "shm" "table line $l_small"
expect_row "$out" "allreduce" "128-8K" "recursive_doubling" "table line $l_mid"
expect_row "$out" "allreduce" "16K-" "shm_partition" "table line $l_part"
# shm_partition cannot serve a non-commutative operation: the next row does.
expect_row "$out" "allreduce \(non-commutative\)" "16K-" "recursive_doubling" "table line $l_rd"
expect_row "$out" "bcast" "0-16" "binomial" "table line $(line_of "$mixed" '^bcast .*binomial')"
expect_row "$out" "scatter" "0" "shm" "table line $(line_of "$mixed" '^scatter +.* 0 +shm')"
expect_row "$out" "scatter" "1-" "binomial" "table line $(line_of "$mixed" '^scatter .*binomial')"
expect_row "$out" "alltoall" "\*" "exchange" "table line $(line_of "$mixed" '^alltoall ')"
# Rows for other collectives leave these to the conditions.
expect_row "$out" "alltoallv" "0-4K" "shm" "conditions"
note "mixed.txt at 2 ranks, and at 4 on two hosts"
run_checked "tern-info --coll --np 2" "$info" --coll --np 2 >/dev/null
expect_row "$out" "allreduce" "\*" "recursive_doubling" "table line $(line_of "$mixed" '^allreduce +1-2 ')"
run_checked "tern-info --coll --np 4 --ppn 2" "$info" --coll --np 4 --ppn 2 >/dev/null
check_contains "$out" "4 ranks, 2 per host (2 hosts)" "header"
expect_row "$out" "allreduce" "\*" "recursive_doubling" "table line $(line_of "$mixed" '^allreduce +\* +2- ')"
# hosts 1 rows do not match; shm cannot span hosts, the hosts' hierarchy can.
expect_row "$out" "bcast" "\*" "hier" "conditions"
expect_row "$out" "allgatherv" "0-512" "bruck" "table line $(line_of "$mixed" '^allgatherv .*bruck')"
expect_row "$out" "allgatherv" "1K-128K" "hier" "conditions"
expect_row "$out" "allgatherv" "256K-" "ring" "conditions"
note "a forced TERN_<COLL>_ALGORITHM comes before the table"
TERN_ALLREDUCE_ALGORITHM=shm run_checked "tern-info --coll forced" "$info" --coll --np 4 >/dev/null
expect_row "$out" "allreduce" "\*" "shm" "TERN_ALLREDUCE_ALGORITHM"
unset TERN_COLL_TUNING_FILE

note "malformed files: tern-info and MPI_Init name the file and line"
bad=(
    "foo * * * * shm|2|unknown collective 'foo'"
    "bcast * * * * ring|2|bcast has no algorithm 'ring'"
    "bcast * * * * inter_leader|2|bcast has no algorithm 'inter_leader' for intracommunicators"
    "bcast * * * *|2|5 fields where a row has 6"
    "bcast * * * * shm extra|2|7 fields where a row has 6"
    "bcast 0 * * * shm|2|ranks '0' is out of range"
    "bcast 4-2 * * * shm|2|ranks '4-2': the upper bound is below the lower one"
    "bcast x * * * shm|2|ranks 'x' is not a range"
    "bcast * * * 3K-8K shm|2|bytes '3K-8K': the bounds must be 0 or powers of two"
    "bcast * * * 8G shm|2|bytes '8G' is out of range"
    "bcast * * 0-2 * shm|2|ppn '0-2' is out of range"
    "bcast * * * 1Q shm|2|bytes '1Q' is not a range"
)
for case in "${bad[@]}"; do
    IFS='|' read -r text line msg <<<"$case"
    printf '# a comment line\n%s\nbarrier * * * * shm\n' "$text" >"$tmp/bad.txt"
    rc=0
    err=$(TERN_COLL_TUNING_FILE=$tmp/bad.txt "$info" --coll 2>&1 >/dev/null) || rc=$?
    ((rc == 1)) || fail "tern-info --coll with '$text': exit $rc, expected 1"
    check_contains "$err" "$tmp/bad.txt:$line: $msg" "tern-info with '$text'"
    echo "ok: $err"
done
rc=0
err=$(TERN_COLL_TUNING_FILE=$tmp/bad.txt "$mpiexec" --timeout 60 -n 2 "$prog" shm shm shm 2>&1) || rc=$?
((rc != 0)) || fail "MPI_Init with a malformed table: the job should stop"
check_contains "$err" "MPI_Init: TERN_COLL_TUNING_FILE: $tmp/bad.txt:2: bytes '1Q' is not a range" \
    "MPI_Init with a malformed table"
rc=0
err=$(TERN_COLL_TUNING_FILE=$tmp/missing.txt "$mpiexec" --timeout 60 -n 2 "$prog" shm shm shm 2>&1) || rc=$?
((rc != 0)) || fail "MPI_Init with a missing table: the job should stop"
check_contains "$err" "$tmp/missing.txt: cannot open it" "MPI_Init with a missing table"
echo "ok: the job stops at MPI_Init"

note "every rank must load the same rows"
# The same rows spelled differently (comments, spacing, MPI_ names, 64 as 64) agree.
sed -e 's/^bcast /MPI_Bcast /' -e 's/  */\t/g' -e '1i # another copy' "$tables/p2p.txt" >"$tmp/same.txt"
run_checked "same rows, other spelling" "$mpiexec" --timeout 60 -n 3 sh -c \
    'if [ "$TERN_RANK" = 1 ]; then f=$1; else f=$2; fi; TERN_COLL_TUNING_FILE=$f exec "$3" p2p p2p shm' \
    sh "$tmp/same.txt" "$tables/p2p.txt" "$prog" >/dev/null
for other in "$tables/mixed.txt" auto; do
    rc=0
    err=$("$mpiexec" --timeout 60 -n 3 sh -c \
        'if [ "$TERN_RANK" = 2 ]; then f=$1; else f=$2; fi; TERN_COLL_TUNING_FILE=$f exec "$3" p2p p2p shm' \
        sh "$other" "$tables/p2p.txt" "$prog" 2>&1) || rc=$?
    ((rc != 0)) || fail "rank 2 with table $other, the others p2p.txt: the job should stop"
    check_contains "$err" "differs from rank 0's" "rank 2 with table $other"
    echo "ok: rank 2 with $other: stopped"
done
echo "PASS"
