#!/usr/bin/env python3
"""OpenCoarrays' own tests, run on an MPI library.

  tools/coarrays/run.py [--mpiexec CMD] [--np 2,4] [--timeout S] [--only NAMES]
                        [--expected FILE] [--out FILE]

Debian's libcoarrays-mpich-dev ships OpenCoarrays 2.10.1 (gfortran's
coarray runtime, every coindexed access an MPI one-sided operation on a
window of MPI_Win_allocate or MPI_Win_create_dynamic, with lock_all, flush,
accumulate, fetch_and_op and compare_and_swap) and its test programs, built
against MPICH.  Tern runs them unchanged: its mpiexec puts Tern's
libmpich.so.12 first.  Each test runs at each rank count; it passes when it
exits 0 and prints "Test passed" (the one test that prints nothing,
coarray_distributed_transpose: when it exits 0), as OpenCoarrays' own
ctest judges.

Prints one line per run ("PASS name np", "FAIL name np: why") and a
summary.  With --expected, the runs listed there (name np  reason) are
the known failures: the exit status is 1 when another run fails, or when a
listed one passes (so the list stays true).  --mpiexec defaults to Tern's
mpiexec of the build in ./build; "mpiexec.mpich" gives the reference.
Exit status 77 when the tests are not installed
(apt-get install libcoarrays-mpich-dev).
"""

import argparse
import os
import subprocess
import sys
import time

TESTS = "/usr/lib/x86_64-linux-gnu/open-coarrays/mpich/bin/OpenCoarrays-2.10.1-tests"
SILENT = {"coarray_distributed_transpose"}  # prints no verdict of its own


def read_expected(path):
    known = {}
    if not path:
        return known
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, np_, *why = line.split(None, 2)
            known[(name, int(np_))] = why[0] if why else ""
    return known


def run_one(mpiexec, name, np_, timeout):
    cmd = mpiexec + ["-n", str(np_), os.path.join(TESTS, name)]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "no end after %d s" % timeout, time.monotonic() - t0
    out = p.stdout + p.stderr
    wall = time.monotonic() - t0
    if p.returncode != 0:
        last = [l for l in out.strip().splitlines() if l.strip()][-1:] or [""]
        return False, "exit %d: %s" % (p.returncode, last[0][:160]), wall
    if name not in SILENT and "Test passed" not in out:
        return False, "exit 0 without 'Test passed'", wall
    return True, "", wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mpiexec", default=os.path.join("build", "bin", "mpiexec"))
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--only", help="comma-separated test names")
    ap.add_argument("--expected")
    ap.add_argument("--out")
    a = ap.parse_args()
    if not os.path.isdir(TESTS):
        print("coarrays: %s is missing (apt-get install libcoarrays-mpich-dev)" % TESTS)
        return 77
    names = sorted(os.listdir(TESTS))
    if a.only:
        want = a.only.split(",")
        missing = [n for n in want if n not in names]
        if missing:
            print("coarrays: no such test: %s" % ", ".join(missing))
            return 2
        names = want
    mpiexec = a.mpiexec.split()
    known = read_expected(a.expected)
    nps = [int(x) for x in a.np.split(",")]
    lines, bad, passed, failed = [], [], 0, 0
    for name in names:
        for np_ in nps:
            ok, why, wall = run_one(mpiexec, name, np_, a.timeout)
            line = ("PASS %s %d" % (name, np_)) if ok else ("FAIL %s %d: %s" % (name, np_, why))
            print("%s (%.1f s)" % (line, wall), flush=True)
            lines.append(line)
            passed += ok
            failed += not ok
            listed = (name, np_) in known
            if not ok and not listed:
                bad.append("unexpected failure: " + line)
            elif ok and listed:
                bad.append("listed as failing but passed: %s %d" % (name, np_))
    summary = "coarrays: %d passed, %d failed (%s, np %s)" % (passed, failed, " ".join(mpiexec),
                                                             a.np)
    print(summary)
    for b in bad:
        print(b)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines + [summary]) + "\n")
    return 1 if (a.expected and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
