#!/bin/sh
# mpich_binary.sh MPIEXEC LIBDIR SOURCE
# Binary compatibility: SOURCE built by Debian's MPICH wrapper (MPICH's own
# mpif.h, linked to libmpichfort.so.12 and libmpich.so.12) runs unchanged on
# Tern when the loader finds Tern's libraries first (LIBDIR holds them under
# MPICH's names).  Skipped (77) without mpif90.mpich.
set -u
mpiexec=$1 libdir=$2 src=$3
fc=$(command -v mpif90.mpich || command -v mpifort.mpich) || {
    echo "skipped: mpif90.mpich not found (Debian: libmpich-dev, gfortran)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# MPICH's wrapper adds an rpath only when configured to; LD_LIBRARY_PATH wins
# over RUNPATH either way.
"$fc" -o "$tmp/prog" "$src" || { echo "FAIL: $fc could not build $src"; exit 1; }
resolved=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/prog")
echo "$resolved" | grep -E 'libmpi(ch)?(fort)?\.so'
# The program asks for libmpichfort.so.12 (Tern's libmpifort under that
# name), which brings Tern's libmpi.so.12; MPICH's libmpich must not load.
echo "$resolved" | grep -q "libmpichfort.so.12 => $libdir/libmpichfort.so.12" || {
    echo "FAIL: libmpichfort.so.12 does not resolve to $libdir"; exit 1; }
if echo "$resolved" | grep -E 'libmpi(ch)?\.so\.12 =>' | grep -qv "$libdir/"; then
    echo "FAIL: MPICH's own C library would be loaded"; exit 1
fi
# Tern built with the sanitizers (TERN_SANITIZE) needs the ASan runtime
# loaded first, which the program MPICH's wrapper built does not link.
asan=$(ldd "$libdir/libmpi.so.12" | awk '/libasan/ { print $3 }')
if [ -n "$asan" ]; then
    LD_PRELOAD=$asan LD_LIBRARY_PATH=$libdir "$mpiexec" --timeout 60 -n 2 "$tmp/prog"
else
    LD_LIBRARY_PATH=$libdir "$mpiexec" --timeout 60 -n 2 "$tmp/prog"
fi
