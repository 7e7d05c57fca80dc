#!/usr/bin/env bash
# mpi4py's own test suite on Tern, with failure accounting against a baseline.
#
#   tests/mpi4py/run.sh [--update-baseline] [TERN_DIR]
#
# The gate: exit 1 when the suite does worse than tests/mpi4py/baseline.txt
# at any rank count (gate.py says what "worse" is); to accept a change, run
# it with --update-baseline and commit the rewritten baseline with it.
#
# TERN_DIR is a Tern build tree or install prefix (bin/mpicc, bin/mpiexec,
# include/mpi.h); default $TERN_DIR, else build/ of this checkout.
#
# 1. a venv with Cython (mpi4py's sdist ships .pyx, not C) in WORK/venv
# 2. mpi4py's sdist from PyPI (pinned version and hash) into WORK/download
# 3. mpi4py built with Tern's mpicc into WORK/site, rebuilt only when the
#    key (mpi4py version, Python, mpicc -show, mpi.h) changes
# 4. its test/ suite under Tern's mpiexec at 1, 2 and 3 ranks (suite.py):
#    per rank count how the job ended (mpiexec's exit code once every rank
#    finished its tests, or a hang in MPI_Finalize) and how many tests
#    passed, were skipped or xfailed; per-rank logs in WORK/results/np<N>/,
#    one line per failing test with its exception in .../failures.txt
# 5. the check against tests/mpi4py/baseline.txt (gate.py): exit 1 on
#    another end of the job, fewer passes, more skips or xfails, a failure
#    not listed, or a listed failure of another outcome or exception kind.
#    Better results pass with a note to update the baseline.
#    --update-baseline rewrites the baseline from this run instead (rank
#    counts not run keep their lines).
#
# WORK is TERN_DIR/mpi4py unless MPI4PY_WORK says otherwise: nothing is
# installed outside it.  Environment:
#   MPI4PY_NP            rank counts, default 1,2,3
#   MPI4PY_SKEW_TIMEOUT  a rank still in a test this many seconds after
#                        another rank finished it counts as hung (default 10):
#                        how most hangs look (one rank left the test on an
#                        error, its peer waits for a message)
#   MPI4PY_TEST_TIMEOUT  seconds one test may run on a rank at all before it
#                        counts as hung (default 60; the slowest passing
#                        tests take ~3 s on 2 cores shared by 8 jobs)
#   MPI4PY_TEST_SPAWN    default 1: mpi4py's spawn tests (and mpi4py.futures'
#                        process pools) run; 0 leaves them out
#   MPI4PY_END_TIMEOUT   seconds the job may take to end after every rank
#                        finished its tests (MPI_Finalize, exit); past it
#                        the job is ended and counts as hung (default 60)
#   MPI4PY_RUN_TIMEOUT   seconds for one mpiexec launch (default 600)
#
# The gate's own logic is tested without mpi4py by ctest (mpi4py.gate:
# tests/mpi4py/test_gate.py).
set -euo pipefail

MPI4PY_VERSION=4.1.1
MPI4PY_SHA256=eb2c8489bdbc47fdc6b26ca7576e927a11b070b6de196a443132766b3d0a2a22
CYTHON_VERSION=3.1.8

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
update=()
tern=${TERN_DIR:-}
for arg in "$@"; do
    case $arg in
        --update-baseline) update=(--update-baseline) ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
        *) tern=$arg ;;
    esac
done
tern=$(cd "${tern:-$root/build}" && pwd)
for f in bin/mpicc bin/mpiexec include/mpi.h; do
    [[ -e $tern/$f ]] || { echo "run.sh: $tern/$f missing: build Tern first" >&2; exit 2; }
done
work=${MPI4PY_WORK:-$tern/mpi4py}
mkdir -p "$work"
log() { printf '[mpi4py] %s\n' "$*"; }
t0=$(date +%s)

# --- 1. venv with the build tools -------------------------------------------
venv=$work/venv
if [[ ! -f $venv/.tools-$CYTHON_VERSION ]]; then
    log "venv with Cython $CYTHON_VERSION in $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || {
        echo "run.sh: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2
        exit 1
    }
    "$venv/bin/python" -m pip install -q setuptools wheel "cython==$CYTHON_VERSION"
    touch "$venv/.tools-$CYTHON_VERSION"
fi
py=$venv/bin/python

# --- 2. the sdist ----------------------------------------------------------------
sdist=$work/download/mpi4py-$MPI4PY_VERSION.tar.gz
if [[ ! -f $sdist ]]; then
    log "downloading mpi4py $MPI4PY_VERSION (sdist)"
    mkdir -p "$work/download"
    req=$work/download/requirements.txt
    echo "mpi4py==$MPI4PY_VERSION --hash=sha256:$MPI4PY_SHA256" >"$req"
    # pip prepares the sdist's metadata: the venv's setuptools, no isolation.
    "$py" -m pip download -q --no-binary :all: --no-deps --no-build-isolation \
        --require-hashes -r "$req" -d "$work/download"
fi
src=$work/src/mpi4py-$MPI4PY_VERSION
if [[ ! -d $src/test ]]; then
    mkdir -p "$work/src"
    tar -xzf "$sdist" -C "$work/src"
fi

# --- 3. build against Tern ------------------------------------------------------
key=$({
    echo "$MPI4PY_VERSION $CYTHON_VERSION"
    "$py" -c 'import sys; print(sys.version)'
    "$tern/bin/mpicc" -show
    cat "$tern/include/mpi.h"
} | sha256sum | cut -c1-16)
site=$work/site
if [[ $(cat "$site/.key" 2>/dev/null) != "$key" ]]; then
    log "building mpi4py with $tern/bin/mpicc (log: $work/build.log)"
    rm -rf "$site" "$site.tmp"
    # -O0: the extension's speed does not matter here, its build time does.
    # No pip cache: a wheel cached from a build against another MPI would
    # be taken for this one.
    if ! MPICC=$tern/bin/mpicc CFLAGS="-O0 -g0" "$py" -m pip install -v --no-cache-dir \
        --no-build-isolation --no-deps --target "$site.tmp" "$sdist" >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log"
        echo "run.sh: building mpi4py against Tern failed" >&2
        exit 1
    fi
    mv "$site.tmp" "$site"
    echo "$key" >"$site/.key"
    log "built in $(($(date +%s) - t0))s"
fi

# --- 4 and 5. the suite, counted and checked -----------------------------------
log "running mpi4py's tests at ${MPI4PY_NP:-1,2,3} ranks (logs: $work/results)"
export MPI4PY_TEST_SPAWN=${MPI4PY_TEST_SPAWN:-1}
export MPI4PY_TEST_TIMEOUT=${MPI4PY_TEST_TIMEOUT:-60}
rc=0
PYTHONPATH=$site "$py" "$here/suite.py" \
    --mpiexec "$tern/bin/mpiexec" --python "$py" --testdir "$src/test" \
    --workdir "$work/results" --baseline "$here/baseline.txt" \
    --np "${MPI4PY_NP:-1,2,3}" --launch-timeout "${MPI4PY_RUN_TIMEOUT:-600}" \
    --skew-timeout "${MPI4PY_SKEW_TIMEOUT:-10}" --end-timeout "${MPI4PY_END_TIMEOUT:-60}" \
    --header "mpi4py $MPI4PY_VERSION, MPI4PY_TEST_SPAWN=$MPI4PY_TEST_SPAWN" \
    "${update[@]}" || rc=$?
log "total $(($(date +%s) - t0))s"
exit "$rc"
