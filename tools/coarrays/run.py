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
ctest judges.  A test that stops saying it needs more images than it was
given is skipped at that count.

Prints one line per run ("PASS name np", "FAIL name np: why", "SKIP name
np: why") and a summary.  With --expected, each line there reads
"NAME NP|* fail|race REASON": a "fail" run is a known failure, and the exit
status is 1 when another run fails or a listed one passes (so the list
stays true); a "race" run is not made, its result being up to timing (a
data race in the test program itself).  --mpiexec defaults to Tern's
mpiexec of the build in ./build; "mpiexec.mpich" gives the reference.
Exit status 77 when the tests are not installed
(apt-get install libcoarrays-mpich-dev).
"""

import argparse
import os
import re
import subprocess
import sys
import time

TESTS = "/usr/lib/x86_64-linux-gnu/open-coarrays/mpich/bin/OpenCoarrays-2.10.1-tests"
SILENT = {"coarray_distributed_transpose"}  # prints no verdict of its own
# How the tests say that they need more images than they were given.
TOO_FEW = re.compile(r"(at least|less than)\s+(\d+|two|three|four)\s+images"
                     r"|num_images\(\)\s*>=\s*\d+\s+required", re.I)


def read_expected(path):
    """{(name, np or '*'): ('fail' or 'race', reason)}"""
    known = {}
    if not path:
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[2] not in ("fail", "race"):
                sys.exit("%s:%d: want NAME NP|* fail|race REASON" % (path, n))
            np_ = parts[1] if parts[1] == "*" else int(parts[1])
            known[(parts[0], np_)] = (parts[2], parts[3])
    return known


def listed(known, name, np_):
    return known.get((name, np_)) or known.get((name, "*"))


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
    if p.returncode != 0 and TOO_FEW.search(out):
        return None, "needs more images", wall
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
    lines, bad, passed, failed, skipped = [], [], 0, 0, 0
    for name in names:
        for np_ in nps:
            entry = listed(known, name, np_)
            if entry and entry[0] == "race":
                line = "SKIP %s %d: a race in the test program (%s)" % (name, np_, a.expected)
                print(line, flush=True)
                lines.append(line)
                skipped += 1
                continue
            ok, why, wall = run_one(mpiexec, name, np_, a.timeout)
            if ok is None:
                line = "SKIP %s %d: %s" % (name, np_, why)
                skipped += 1
            elif ok:
                line = "PASS %s %d" % (name, np_)
            else:
                line = "FAIL %s %d: %s" % (name, np_, why)
            print("%s (%.1f s)" % (line, wall), flush=True)
            lines.append(line)
            if ok is None:
                continue
            passed += ok
            failed += not ok
            if not ok and not entry:
                bad.append("unexpected failure: " + line)
            elif ok and entry:
                bad.append("listed as failing but passed: %s %d" % (name, np_))
    summary = "coarrays: %d passed, %d failed, %d skipped (%s, np %s)" % (
        passed, failed, skipped, " ".join(mpiexec), a.np)
    print(summary)
    for b in bad:
        print(b)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines + [summary]) + "\n")
    return 1 if (a.expected and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
