#!/usr/bin/env python3
"""shm_kill.py --mpiexec PATH --prog PATH [--iterations N] [--budget S] [--seed N]

Ends small jobs with SIGTERM or SIGKILL at random moments of start-up, of
the exchange and of MPI_Finalize -- sent to mpiexec, to one rank, to every
rank at once (each rank's process group), or to all of them together -- and
checks after each job that /dev/shm holds nothing new and that no process of
the job is left.  Exits 1 on the first job that leaves something behind.

/dev/shm is a tmpfs of its own in a private mount namespace (unshare -m, or
unshare -rm without root) when the kernel allows it, so jobs of other tests
running at the same time cannot be mistaken for this job's leftovers.
Without it the real /dev/shm is compared before and after, and only a file
still there a second later counts (another job's file is gone by then)."""
import argparse, os, random, signal, subprocess, sys, tempfile, time

# Not TERN_*: Tern warns about variables of its prefix it does not know.
PRIVATE = "SHM_KILL_PRIVATE"

ap = argparse.ArgumentParser()
ap.add_argument("--mpiexec", required=True)
ap.add_argument("--prog", required=True)
ap.add_argument("--iterations", type=int, default=60)
ap.add_argument("--budget", type=float, default=75.0, help="stop starting jobs after this many seconds")
ap.add_argument("--seed", type=int)
a = ap.parse_args()



def where_stuck(pids):
    """State, kernel wait channel and syscall of each pid: enough to tell a
    process blocked in the kernel from one spinning in user space."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            with open(f"/proc/{pid}/wchan") as f:
                wchan = f.read().strip() or "-"
            with open(f"/proc/{pid}/syscall") as f:
                sysc = f.read().split()[0]
            out.append(f"{pid} {state} wchan={wchan} syscall={sysc}")
        except OSError:
            out.append(f"{pid} gone")
    return "; ".join(out)

def private_shm():
    """Re-runs this script with a private /dev/shm; returns its exit code,
    or None where no mount namespace can be had."""
    mount = "mount -t tmpfs -o size=512M,mode=1777 tmpfs /dev/shm"
    for unshare in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            probe = subprocess.run(unshare + ["sh", "-c", mount], capture_output=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            env = dict(os.environ, **{PRIVATE: "1"})
            cmd = unshare + ["sh", "-c", mount + ' && exec "$0" "$@"', sys.executable] + sys.argv
            return subprocess.run(cmd, env=env).returncode
    return None


if not os.environ.get(PRIVATE):
    rc = private_shm()
    if rc is not None:
        sys.exit(rc)
    print("note: no private mount namespace here; comparing the shared /dev/shm")
isolated = bool(os.environ.get(PRIVATE))


def shm():
    return set(os.listdir("/dev/shm"))


def children(ppid):
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
        except OSError:
            continue
        # The fields after the command name (which may hold spaces).
        fields = st[st.rfind(")") + 2:].split()
        if int(fields[1]) == ppid and fields[0] != "Z":
            out.append(int(d))
    return out


def tagged(tag):
    """Live processes whose environment carries this job's tag."""
    needle = tag.encode()
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if needle in f.read():
                    out.append(int(d))
        except OSError:
            continue
    return out


def send(pid, sig, group):
    try:
        if group:
            os.killpg(pid, sig)
            return
    except OSError:
        pass  # not a group leader yet: the process alone
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def run_job(args, tag, log):
    env = dict(os.environ, SHM_KILL_TAG=tag)
    # Under AddressSanitizer, LeakSanitizer's check at exit stops every
    # thread of the process through a tracer; with ranks dying around it
    # that tracer was seen to never report back, and mpiexec spun in
    # sched_yield inside exit() for good (gdb: __lsan::DoLeakCheck ->
    # StopTheWorld, after main returned).  This test is about how jobs end,
    # not about leaks, which every other test checks.
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    return subprocess.Popen([a.mpiexec, "--timeout", "30"] + args, env=env, stdout=log, stderr=log,
                            start_new_session=True)


seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
print(f"seed {seed}; /dev/shm {'private' if isolated else 'shared'}")
log = tempfile.TemporaryFile()

# How long an undisturbed job takes here, with and without its pause: kill
# moments are spread over that, so MPI_Finalize is hit as often as start-up.
span = {}
for variant in ([], ["sleep"]):
    t0 = time.monotonic()
    p = run_job(["-n", "4", a.prog] + variant, "shm-kill-calibrate", log)
    if p.wait(timeout=60) != 0:
        log.seek(0)
        sys.stdout.write(log.read().decode(errors="replace"))
        print(f"FAIL: the undisturbed job {variant} exited with {p.returncode}")
        sys.exit(1)
    took = time.monotonic() - t0
    span[bool(variant)] = took * 0.75
    print(f"an undisturbed 4-rank job {' '.join(variant)} takes {took * 1000:.0f} ms")
if isolated and shm():
    print(f"FAIL: undisturbed jobs left {sorted(shm())} in /dev/shm")
    sys.exit(1)

targets = ["mpiexec", "one rank", "all ranks", "everything"]
start = time.monotonic()
done = 0
early = 0
failures = []
for it in range(a.iterations):
    if time.monotonic() - start > a.budget:
        break
    np = rng.choice([2, 3, 4])
    pause = rng.random() < 0.3
    args = ["-n", str(np), a.prog] + (["sleep"] if pause else [])
    sig = rng.choice([signal.SIGTERM, signal.SIGKILL])
    target = rng.choice(targets)
    delay = rng.uniform(0, span[pause])
    what = f"job {it}: -n {np} {'with' if pause else 'without'} pause, {sig.name} to {target} at {delay * 1000:.0f} ms"
    tag = f"shm-kill-{os.getpid()}-{it}"
    before = shm()
    log.seek(0)
    log.truncate()
    p = run_job(args, tag, log)
    time.sleep(delay)
    ranks = children(p.pid)
    if p.poll() is not None:
        early += 1
    if target in ("mpiexec", "everything"):
        send(p.pid, sig, False)
    if target == "one rank" and ranks:
        send(rng.choice(ranks), sig, True)
    if target in ("all ranks", "everything"):
        for r in ranks:
            send(r, sig, True)
    problems = []
    try:
        p.wait(timeout=45)
    except subprocess.TimeoutExpired:
        problems.append("mpiexec did not end within 45 s; where it and its ranks wait: "
                        + where_stuck([p.pid] + tagged(tag)))
        send(p.pid, signal.SIGKILL, False)
        p.wait()
    # Ranks orphaned by a SIGKILLed mpiexec must notice and go.
    deadline = time.monotonic() + 10
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.02)
    strays = tagged(tag)
    if strays:
        problems.append(f"processes of the job still running 10 s after mpiexec ended: {strays}")
        for s in strays:
            send(s, signal.SIGKILL, False)
    left = shm() - before
    if left and not isolated:
        time.sleep(1.0)
        left &= shm()
    if left:
        problems.append(f"left in /dev/shm: {sorted(left)}")
        for f in left:
            try:
                os.unlink(os.path.join("/dev/shm", f))
            except OSError:
                pass
    done += 1
    if problems:
        log.seek(0)
        out = log.read().decode(errors="replace")
        failures.append(f"{what} (mpiexec exit {p.returncode}): " + "; ".join(problems))
        print("FAIL " + failures[-1])
        if out:
            print("  its output:\n    " + "\n    ".join(out.rstrip().splitlines()[-10:]))
    else:
        print(f"ok   {what}: mpiexec exit {p.returncode}")

print(f"{done} jobs in {time.monotonic() - start:.1f} s ({early} had ended before their kill), "
      f"{len(failures)} left something behind; seed {seed}")
if done < 10:
    print("FAIL: too few jobs ran to mean anything (the machine is too slow for the budget?)")
    sys.exit(1)
sys.exit(1 if failures else 0)
