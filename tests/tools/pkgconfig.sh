#!/usr/bin/env bash
# tools.pkgconfig: tern.pc and mpi.pc of the build tree give its include
# directory, -lmpi and an rpath.  Skipped where pkg-config is not installed.
#   pkgconfig.sh SOURCE_DIR BUILD_DIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
build=$(cd "$2" && pwd -P)
inc=$build/include
lib=$build/lib
command -v pkg-config >/dev/null || skip "pkg-config not found (apt-get install pkg-config)"

for pc in tern mpi; do
    [[ -f $lib/pkgconfig/$pc.pc ]] || fail "$lib/pkgconfig/$pc.pc is missing"
    cf=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags "$pc")
    lf=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --libs "$pc")
    echo "$pc.pc: $cf $lf"
    d=${cf#-I}
    d=${d%"${d##*[![:space:]]}"}   # pkg-config ends the line with a space
    [[ $(cd "$d" 2>/dev/null && pwd -P) == "$inc" ]] || fail "$pc.pc: include dir $d is not $inc"
    check_contains "$lf" "-lmpi" "$pc.pc --libs"
    check_contains "$lf" "-Wl,-rpath," "$pc.pc --libs"
done
echo "PASS"
