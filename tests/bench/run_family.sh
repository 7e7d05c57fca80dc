#!/usr/bin/env bash
# run_family.sh MPIEXEC TERN_BENCH NP FAMILY [ALLOWED_UNSUPPORTED...]
#
# Runs every benchmark of FAMILY once, briefly and with validation, on NP
# ranks: sizes 1 B to 256 B, 3 timed iterations, unless BENCH_RUN_ARGS says
# otherwise (the sizes and iterations, e.g. "-m 0:4M -i 1 -x 0"); BENCH_FILES=1
# gives the I/O family a temporary directory and checks it is left empty.  Each must end with "# NAME: ok" after at least one row of
# numbers; a benchmark named in ALLOWED_UNSUPPORTED may instead end with
# "# NAME: not supported by this MPI: ...".  tern-bench's exit status must
# agree: 0 when all ran, 3 when some were not supported.
set -u
mpiexec=$1 bench=$2 np=$3 family=$4
shift 4
allowed=" $* "

names=$("$bench" --list "$family" | awk '{ print $1 }')
if [[ -z $names ]]; then
    echo "FAIL: tern-bench --list $family names no benchmark"
    exit 1
fi

# BENCH_FILES=1 (the I/O family): the files go to a fresh temporary
# directory, which must be empty again when tern-bench ends.
dirargs=()
if [[ -n ${BENCH_FILES:-} ]]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/tern-bench-test.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    dirargs=(--dir "$tmp")
fi

# BENCH_RUN_ARGS, BENCH_EXTRA_ARGS (more options, e.g. -T float): split on spaces
# shellcheck disable=SC2086
out=$("$mpiexec" --timeout "${BENCH_TIMEOUT:-100}" -n "$np" "$bench" "$family" ${BENCH_RUN_ARGS:--m 1:256 -i 3 -x 1} -c \
      ${BENCH_EXTRA_ARGS:-} "${dirargs[@]}" 2>&1)
rc=$?
printf '%s\n' "$out"

bad=0 unsupported=0
if [[ -n ${BENCH_FILES:-} ]] && [[ -n $(ls -A "$tmp") ]]; then
    echo "FAIL: files left behind in the I/O directory:" $(ls -A "$tmp")
    bad=1
fi
for n in $names; do
    # data rows between the benchmark's header and its status line
    rows=$(awk -v n="$n" '$0 == "# tern-bench " n ":" || index($0, "# tern-bench " n ": ") == 1 { on = 1; next }
                          on && /^[0-9]/ { r++ } on && index($0, "# " n ": ") == 1 { on = 0 }
                          END { print r + 0 }' <<<"$out")
    if grep -qxF "# $n: ok" <<<"$out"; then
        if ((rows == 0)); then
            echo "FAIL: $n printed no results"
            bad=1
        fi
    elif grep -qF "# $n: not supported by this MPI" <<<"$out"; then
        unsupported=1
        if [[ $allowed == *" $n "* ]]; then
            echo "note: $n is not supported by Tern yet (allowed by TERN_BENCH_ALLOWED_UNSUPPORTED)"
        else
            echo "FAIL: $n is not supported, and not in TERN_BENCH_ALLOWED_UNSUPPORTED"
            bad=1
        fi
    else
        echo "FAIL: $n did not finish with ok"
        bad=1
    fi
done

want=0
((unsupported)) && want=3
if ((rc != want)); then
    echo "FAIL: tern-bench exited with $rc, expected $want"
    bad=1
fi
exit $bad
