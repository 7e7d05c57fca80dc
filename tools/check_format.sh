#!/bin/sh
# check_format.sh: fail when a C source differs from what clang-format makes of
# it under .clang-format; print the offending files and lines.  Exits 77
# (ctest's "skipped") without clang-format 14, the version the style was
# written for: other versions break some lines differently, which would fail
# a tree that is in fact formatted.  Fix a failure with
#     tools/format_files.sh | xargs clang-format -i
set -u
cd "$(dirname "$0")/.." || exit 1
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "check_format.sh: no $cf (apt-get install clang-format); skipped"
    exit 77
fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != 14 ]; then
    echo "check_format.sh: $cf is version $major, the style is checked with 14; skipped"
    exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check_format.sh: not a git checkout, no list of sources to check; skipped"
    exit 77
fi
tools/format_files.sh | xargs "$cf" --dry-run --Werror
