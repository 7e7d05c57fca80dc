#!/usr/bin/env bash
# mpit.cvar_list: tern-info and MPI_T show the same parameters with the
# same values, by default and with variables set (TERN_ names, MV2_
# aliases, a string choice).
#   cvar_list.sh TERN_INFO QUERY_PROGRAM
set -u
info=$1
query=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
# No parameters from the caller's environment.
while IFS='=' read -r name _; do
    [[ $name == TERN_* || $name == MV2_* ]] && unset "$name"
done < <(env)

compare() {
    local from_info from_mpit
    # tern-info rows: NAME VALUE SOURCE ...; description lines start with blanks.
    from_info=$(env "$@" "$info" --params | awk '/^TERN_/ { print $1, $2 }' | sort) || fail "tern-info failed"
    from_mpit=$(env "$@" "$query" --list | sort) || fail "query --list failed"
    [[ -n $from_info ]] || fail "tern-info listed no parameters"
    if [[ $from_info != "$from_mpit" ]]; then
        diff <(echo "$from_info") <(echo "$from_mpit") >&2
        fail "tern-info (<) and MPI_T (>) differ with: $*"
    fi
    echo "same $(wc -l <<<"$from_info") parameters with: ${*:-defaults}"
}

compare
compare TERN_SMP_EAGERSIZE=4K MV2_SMP_SEND_BUFFER=7 TERN_WAIT_POLICY=yield TERN_SMP_RNDV_PROTOCOL=pipeline
# A bad value: both fall back to the default.
compare TERN_WAIT_POLICY=sometimes
echo PASS
