#!/usr/bin/env bash
# tools.tern_info: tern-info lists every parameter of src/core/params.def
# (with the lists it includes)
# with a value and a source; a TERN_ variable and an MV2_ alias show up as
# such.  Options --version, --params, --help.
#   tern_info.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
src=$1
build=$(cd "$2" && pwd -P)
info=$build/bin/tern-info
[[ -x $info ]] || fail "$info is missing"
# Start from a clean slate: no parameters from the caller's environment.
while IFS='=' read -r name _; do
    [[ $name == TERN_* || $name == MV2_* ]] && unset "$name"
done < <(env)

# params.def and the components' lists it includes (#include "coll/coll_params.def").
defs=("$src/src/core/params.def")
while read -r inc; do defs+=("$src/src/$inc"); done < <(sed -n 's/^#include "\(.*\.def\)"$/\1/p' "${defs[0]}")
names=$(sed -n 's/^[[:space:]]*TERN_PARAM(\([A-Z0-9_]*\),.*/\1/p' "${defs[@]}")
[[ -n $names ]] || fail "no TERN_PARAM lines found in params.def"

# line_of TEXT NAME: the table row of TERN_NAME, which starts with the name
# (descriptions, indented, may mention it too).  grep -m1 rather than a pipe
# into head: head leaving early would kill grep with SIGPIPE under pipefail.
line_of() { grep -m1 -E "^TERN_$2([[:space:]]|$)" <<<"$1" || true; }

note "default run"
run_checked "tern-info" "$info"
all=$out
grep -q "Tern" <<<"$(head -1 <<<"$all")" || fail "the first line should name Tern and its version"
for n in $names; do
    row=$(line_of "$all" "$n")
    [[ -n $row ]] || fail "parameter $n is missing"
    read -r -a f <<<"$row"
    ((${#f[@]} >= 3)) || fail "row of $n has no value and source: $row"
    [[ $row == *default* ]] || fail "$n should come from the default: $row"
done
echo "all $(wc -w <<<"$names") parameters listed"

note "--version and --params"
run_checked "--version" "$info" --version
[[ $(wc -l <<<"$out") == 1 && $out == *Tern* ]] || fail "--version should print one line naming Tern: $out"
run_checked "--params" "$info" --params
params=$out
for n in $names; do
    [[ -n $(line_of "$params" "$n") ]] || fail "--params misses $n"
done
[[ $params != *"$(head -1 <<<"$all")"* ]] || fail "--params should not print the version line"
run_checked "--help" "$info" --help
check_contains "$out" "--params" "--help"
if "$info" --bogus >/dev/null 2>&1; then fail "an unknown option should fail"; fi

note "TERN_SMP_EAGERSIZE=32K"
run_checked "tern-info" env TERN_SMP_EAGERSIZE=32K "$info" --params
row=$(line_of "$out" SMP_EAGERSIZE)
echo "$row"
[[ $row =~ [[:space:]]32768[[:space:]] ]] || fail "value should be 32768: $row"
check_contains "$row" "environment" "source of TERN_SMP_EAGERSIZE"

note "MV2_SMP_EAGERSIZE=4096 (MVAPICH2 alias)"
run_checked "tern-info" env MV2_SMP_EAGERSIZE=4096 "$info" --params
row=$(line_of "$out" SMP_EAGERSIZE)
echo "$row"
[[ $row =~ [[:space:]]4096[[:space:]] ]] || fail "value should be 4096: $row"
check_contains "$row" "MV2" "source of MV2_SMP_EAGERSIZE"
check_contains "$row" "alias" "source of MV2_SMP_EAGERSIZE"

note "TERN_ wins over the MV2_ alias"
run_checked "tern-info" env TERN_SMP_EAGERSIZE=8K MV2_SMP_EAGERSIZE=4096 "$info" --params
row=$(line_of "$out" SMP_EAGERSIZE)
[[ $row =~ [[:space:]]8192[[:space:]] ]] || fail "TERN_SMP_EAGERSIZE should win: $row"
echo "PASS"
