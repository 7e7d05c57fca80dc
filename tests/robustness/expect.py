#!/usr/bin/env python3
"""expect.py [--code N | --nonzero] [--within S] [--stderr REGEX] [--no-stderr REGEX]
            [--stdout REGEX] -- COMMAND...

Runs COMMAND and checks how it ended: the exit code, that it took at most S
seconds, what it printed, and that it left nothing new in /dev/shm (Tern
names no file there, so whatever appears and stays is a leak)."""
import argparse, os, re, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--code", type=int)
ap.add_argument("--nonzero", action="store_true")
ap.add_argument("--within", type=float, default=30.0)
ap.add_argument("--stderr", action="append", default=[])
ap.add_argument("--no-stderr", action="append", default=[])
ap.add_argument("--stdout", action="append", default=[])
ap.add_argument("cmd", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd

def shm():
    return set(os.listdir("/dev/shm"))

before = shm()
t0 = time.monotonic()
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.within + 30)
except subprocess.TimeoutExpired:
    print(f"FAIL: {cmd} hung for more than {a.within + 30} s")
    sys.exit(1)
took = time.monotonic() - t0
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
fails = []
if a.code is not None and p.returncode != a.code:
    fails.append(f"exit code {p.returncode}, expected {a.code}")
if a.nonzero and p.returncode == 0:
    fails.append("exit code 0, expected non-zero")
if took > a.within:
    fails.append(f"took {took:.2f} s, limit {a.within} s")
for r in a.stderr:
    if not re.search(r, p.stderr):
        fails.append(f"stderr lacks /{r}/")
for r in a.no_stderr:
    if re.search(r, p.stderr):
        fails.append(f"stderr has /{r}/")
for r in a.stdout:
    if not re.search(r, p.stdout):
        fails.append(f"stdout lacks /{r}/")
left = shm() - before
if left:
    # Another program's file of a few milliseconds is not ours; a leftover
    # is one that stays.
    time.sleep(1.0)
    left &= shm()
if left:
    fails.append(f"left in /dev/shm: {sorted(left)}")
if fails:
    print("FAIL: " + "; ".join(fails))
    sys.exit(1)
print(f"ok: exit {p.returncode} in {took:.2f} s")
