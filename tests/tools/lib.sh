# shellcheck shell=bash
# Helpers for the tools.* tests (sourced by bash scripts).
#   fail MSG...   print "FAIL: MSG" and exit 1
#   skip MSG...   print "SKIP: MSG" and exit 77 (ctest SKIP_RETURN_CODE)
#   check_contains HAYSTACK NEEDLE WHAT
#   check_not_contains HAYSTACK NEEDLE WHAT
#   make_tmp      sets $tmp to a fresh directory removed at exit
#                 (kept when TERN_KEEP_TMP=1, for debugging)
set -euo pipefail

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
skip() {
    echo "SKIP: $*"
    exit 77
}
note() { echo "-- $*"; }

check_contains() {
    [[ $1 == *"$2"* ]] || fail "$3: expected '$2' in: $1"
}
check_not_contains() {
    [[ $1 != *"$2"* ]] || fail "$3: did not expect '$2' in: $1"
}

make_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/tern-tools-test.XXXXXX")
    if [[ ${TERN_KEEP_TMP:-0} == 1 ]]; then
        echo "-- keeping $tmp"
    else
        trap 'rm -rf "$tmp"' EXIT
    fi
}

# run_checked WHAT CMD...: runs CMD, prints its output, fails with WHAT if
# it exits non-zero.  The output is left in $out.
run_checked() {
    local what=$1
    shift
    local rc=0
    out=$("$@" 2>&1) || rc=$?
    printf '%s\n' "$out"
    ((rc == 0)) || fail "$what: '$*' exited with $rc"
}

# The library must have been built for the tests that compile and run.
require_library() {
    [[ -e $1/lib/libmpi.so.12 ]] || fail "$1/lib/libmpi.so.12 is missing: build first"
}

# When libmpi was built with AddressSanitizer (TERN_SANITIZE=ON), programs
# not linked with the ASan runtime (an MPICH-built binary, a program built
# through FindMPI, which does not carry -fsanitize) need it preloaded.
# Sets the array asan_env: prefix a command with "${asan_env[@]}".
asan_env=()
asan_preload() {
    local rt
    rt=$(ldd "$1/lib/libmpi.so.12" 2>/dev/null | awk '/libasan/ { print $3 }')
    if [[ -n $rt ]]; then
        # shellcheck disable=SC2034  # used by the scripts that source this file
        asan_env=(env "LD_PRELOAD=$rt${LD_PRELOAD:+:$LD_PRELOAD}")
        note "libmpi is built with AddressSanitizer: preloading $rt"
    fi
}
