#!/usr/bin/env python3
"""Driver for the launcher tests: runs mpiexec on boot_helper (a rank linked
against the bootstrap client) and checks exit codes, reports, output, timing
and that no rank survives.

    launcher_test.py --mpiexec PATH --helper PATH TEST

Exit status 0 when TEST passes; otherwise the reason is printed."""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

MPIEXEC = HELPER = None


class Fail(Exception):
    pass


def check(cond, msg, res=None):
    if not cond:
        if res is not None:
            msg += "\n--- exit code: %s, %.2f s\n--- stdout:\n%s\n--- stderr:\n%s" % (
                res.rc, res.wall, res.out[-3000:], res.err[-3000:])
        raise Fail(msg)


class Result:
    def __init__(self, rc, out, err, wall):
        self.rc, self.out, self.err, self.wall = rc, out, err, wall
        self.end_ns = time.monotonic_ns()

    def teardown(self):
        """Seconds from the victim's "dying" line to mpiexec's exit."""
        m = re.search(r"^dying (\d+)$", self.out, re.M)
        return (self.end_ns - int(m.group(1))) / 1e9 if m else self.wall


def run(args, env=None, stdin=subprocess.DEVNULL, timeout=30):
    full_env = dict(os.environ)
    full_env.pop("MPIEXEC_TIMEOUT", None)
    if env:
        full_env.update(env)
    t0 = time.monotonic()
    p = subprocess.run([MPIEXEC] + args, env=full_env, stdin=stdin, capture_output=True,
                       timeout=timeout)
    wall = time.monotonic() - t0
    return Result(p.returncode, p.stdout.decode(errors="replace"),
                  p.stderr.decode(errors="replace"), wall)


def pids_of(out):
    return {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^pid (\d+) (\d+)$", out, re.M)}


def alive(pid):
    """True if pid is a live boot_helper (zombies and reused pids count as gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    comm = stat[stat.index("(") + 1:stat.rindex(")")]
    state = stat[stat.rindex(")") + 2]
    return comm.startswith("boot_helper") and state not in "ZX"


def check_gone(pids, res):
    deadline = time.monotonic() + 0.5
    while True:
        left = [p for p in pids.values() if alive(p)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    for p in left:
        os.kill(p, signal.SIGKILL)
    check(not left, "ranks survived mpiexec: %s" % left, res)


def kvs(n, rounds="3"):
    res = run(["-n", str(n), HELPER, "kvs", rounds])
    check(res.rc == 0, "kvs on %d ranks failed" % n, res)
    oks = sorted(int(x) for x in re.findall(r"^ok (\d+)$", res.out, re.M))
    check(oks == list(range(n)), "not every rank reported ok", res)
    check(res.err == "", "unexpected stderr", res)


def t_kvs_1(): kvs(1)
def t_kvs_3(): kvs(3)
def t_kvs_8(): kvs(8)
def t_kvs_64(): kvs(64, "2")
def t_kvs_256(): kvs(256, "1")


def t_singleton():
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("TERN_"):
            del env[k]
    p = subprocess.run([HELPER, "kvs", "2"], env=env, capture_output=True, timeout=30)
    check(p.returncode == 0 and b"ok 0" in p.stdout, "singleton kvs failed: %r %r" % (p.stdout, p.stderr))


# The launcher must end a job within about a second of a rank dying; the
# limits leave room for a loaded machine.
def victim(mode, n, extra, want_rc, want_err, limit=2.5, helper_mode=None):
    res = run(["-n", str(n), HELPER, helper_mode or mode] + extra)
    check(res.rc == want_rc, "%s: want exit code %d" % (mode, want_rc), res)
    for w in want_err:
        check(re.search(w, res.err), "%s: stderr lacks /%s/" % (mode, w), res)
    check(res.err.count("mpiexec:") == 1, "%s: want exactly one report from mpiexec" % mode, res)
    pids = pids_of(res.out)
    check(len(pids) == n, "%s: not every rank announced its pid" % mode, res)
    check(res.teardown() < limit, "%s: teardown took %.2f s" % (mode, res.teardown()), res)
    check_gone(pids, res)
    return res


def t_segv():
    victim("segv", 4, ["1"], 139,
           [r"rank 1 \(pid \d+\) was killed by signal 11 \(Segmentation fault\)",
            r"ending the other 3 ranks"])


def t_kill9():
    victim("kill9", 3, ["2"], 137, [r"rank 2 \(pid \d+\) was killed by signal 9"])


def t_abort():
    victim("abort", 4, ["3", "7"], 7,
           [r"^mpiexec: rank 3 called MPI_Abort with code 7: test abort message$"])


def t_abort_zero():
    victim("abort", 2, ["0", "0"], 1, [r"rank 0 called MPI_Abort with code 0"])


def t_exit3():
    victim("exit", 3, ["1", "3"], 3, [r"rank 1 \(pid \d+\) exited with code 3 before MPI_Finalize"])


def t_exit0_before_finalize():
    res = victim("exit", 3, ["2", "0"], 1,
                 [r"rank 2 \(pid \d+\) exited with code 0 before MPI_Finalize"])
    check(res.rc != 0, "exit 0 before finalize must fail", res)


def t_stubborn():
    # ranks that ignore SIGTERM are killed 0.5 s later
    res = run(["-n", "4", HELPER, "stubborn", ":", "-n", "1", HELPER, "exit", "4", "5"])
    check(res.rc == 5, "want exit code 5", res)
    check(res.teardown() < 2.5, "teardown of stubborn ranks took %.2f s" % res.teardown(), res)
    check_gone(pids_of(res.out), res)


def t_timeout():
    res = run(["--timeout", "1", "-n", "2", HELPER, "sleep", "30"])
    check(res.rc == 124, "want exit code 124", res)
    check("mpiexec: job exceeded the timeout of 1 s; ending it" in res.err, "no timeout report", res)
    check(res.wall < 3.0, "took %.2f s" % res.wall, res)
    check_gone(pids_of(res.out), res)
    res = run(["-n", "2", HELPER, "sleep", "30"], env={"MPIEXEC_TIMEOUT": "1"})
    check(res.rc == 124 and res.wall < 3.0, "MPIEXEC_TIMEOUT not honoured", res)
    res = run(["-timeout", "1", "-n", "1", HELPER, "stubborn"])
    check(res.rc == 124 and res.wall < 3.5, "-timeout with a stubborn rank", res)


def t_label():
    res = run(["-l", "-n", "3", HELPER, "info"])
    check(res.rc == 0, "failed", res)
    lines = res.out.splitlines()
    check(len(lines) == 3, "want 3 lines", res)
    for line in lines:
        m = re.match(r"^\[(\d+)\] rank=(\d+) size=3 ", line)
        check(m and m.group(1) == m.group(2), "bad line %r" % line, res)


def t_env():
    res = run(["-genv", "TERN_T_G", "g1", "-bind-to", "none", "-n", "2", "TERN_T_W=w1",
               "-env", "TERN_T_E", "e1", HELPER, "env", "TERN_T_G", "TERN_T_W", "TERN_T_E",
               "MV2_ENABLE_AFFINITY", "TERN_T_X", "LD_LIBRARY_PATH"],
              env={"TERN_T_X": "inherited"})
    check(res.rc == 0, "failed", res)
    for r in range(2):
        for want in ("TERN_T_G=g1", "TERN_T_W=w1", "TERN_T_E=e1", "MV2_ENABLE_AFFINITY=0",
                     "TERN_T_X=inherited"):
            check("%d %s\n" % (r, want) in res.out, "rank %d lacks %s" % (r, want), res)
    libdir = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(MPIEXEC)), "..", "lib"))
    if os.path.isdir(libdir):
        check(re.search(r"^0 LD_LIBRARY_PATH=%s(:|$)" % re.escape(libdir), res.out, re.M),
              "LD_LIBRARY_PATH does not start with %s" % libdir, res)
    # -genv NAME=VALUE form, -bind-to core, mpirun_rsh style words
    res = run(["-genv", "TERN_T_G=g2", "-bind-to", "core", "-np", "1", "MV2_SMP_EAGERSIZE=16K",
               HELPER, "env", "TERN_T_G", "MV2_ENABLE_AFFINITY", "MV2_SMP_EAGERSIZE"])
    check(res.rc == 0 and "0 TERN_T_G=g2\n" in res.out and "0 MV2_ENABLE_AFFINITY=1\n" in res.out
          and "0 MV2_SMP_EAGERSIZE=16K\n" in res.out, "second form", res)


def t_mpmd():
    res = run(["-n", "2", HELPER, "info", ":", "-n", "3", "-env", "TERN_T_B", "b", HELPER, "info",
               ":", HELPER, "env", "TERN_T_B", "TERN_APPNUM"])
    check(res.rc == 0, "failed", res)
    infos = re.findall(r"^rank=(\d+) size=(\d+) local_rank=(\d+) local_size=(\d+) appnum=(\d+) "
                       r"singleton=0 job=(\S+)$", res.out, re.M)
    check(len(infos) == 5, "want 5 info lines", res)
    check(len({i[5] for i in infos}) == 1, "job ids differ", res)
    for rank, size, lrank, lsize, appnum, _ in infos:
        check(size == "6" and lsize == "6" and lrank == rank, "bad sizes", res)
        check(int(appnum) == (0 if int(rank) < 2 else 1), "bad appnum for rank %s" % rank, res)
    check("5 TERN_T_B=(unset)\n" in res.out and "5 TERN_APPNUM=2\n" in res.out,
          "block 2's environment", res)
    # -nargs: a block's arguments taken as they are, ':' among them.
    res = run(["-n", "1", "-nargs", "3", HELPER, "env", ":", "TERN_APPNUM", ":", "-n", "1", HELPER,
               "env", "TERN_APPNUM"])
    check(res.rc == 0 and "0 :=(unset)\n" in res.out and "0 TERN_APPNUM=0\n" in res.out
          and "1 TERN_APPNUM=1\n" in res.out, "-nargs with ':' as an argument", res)
    res = run(["-nargs", "3", HELPER, "env", "X"])
    check(res.rc == 2 and "only 2 arguments follow" in res.err, "-nargs beyond the end", res)
    res = run(["-nargs", "0", HELPER, "env", "X"])
    check(res.rc == 2 and "'env' follows the arguments" in res.err, "-nargs too small", res)


def t_unknown_option():
    res = run(["--nn", "2", HELPER, "info"])
    check(res.rc == 2, "want exit code 2", res)
    check(res.err.count("\n") == 1 and "'--nn'" in res.err and "'-n'" in res.err,
          "want one line naming --nn and suggesting -n", res)
    res = run(["-genvv", "A", "b", HELPER, "info"])
    check(res.rc == 2 and "'-genv'" in res.err, "want a suggestion of -genv", res)
    res = run(["--time", "3", HELPER, "info"])
    check(res.rc == 2 and "'--timeout'" in res.err, "want a suggestion of --timeout", res)


def t_missing_program():
    res = run(["-n", "2", "./no-such-program"])
    check(res.rc == 2, "want exit code 2", res)
    check(res.err == "mpiexec: cannot run './no-such-program': No such file or directory\n",
          "message", res)
    res = run(["-n", "2", "no-such-command-tern"])
    check(res.rc == 2 and "cannot run 'no-such-command-tern'" in res.err, "PATH lookup", res)
    with tempfile.NamedTemporaryFile(suffix=".dat") as f:
        res = run(["-n", "1", f.name])
        check(res.rc == 2 and "Permission denied" in res.err, "not executable", res)
    res = run(["-n", "1", HELPER, "info", ":", "-n", "1", "/nonexistent/x"])
    check(res.rc == 2 and res.out == "", "second block's program is checked before any start", res)


def t_hosts():
    host = os.uname().nodename
    res = run(["-hosts", "localhost:2,127.0.0.1,%s" % host, HELPER, "info"])
    check(res.rc == 0 and len(res.out.splitlines()) == 4, "4 ranks from the host list", res)
    # Only this machine: no proxy, which would set TERN_HOST_ID.
    res = run(["-hosts", "localhost:2", HELPER, "env", "TERN_HOST_ID"])
    check(res.rc == 0 and res.out.count("TERN_HOST_ID=(unset)") == 2, "local list, no proxy", res)
    res = run(["-hosts", "no-such-host-7", "-n", "1", HELPER, "info"])
    check(res.rc == 1 and "cannot reach no-such-host-7: ssh exited" in res.err, "remote host", res)
    with tempfile.NamedTemporaryFile("w", suffix=".hosts") as f:
        f.write("# comment\nlocalhost:3\n")
        f.flush()
        res = run(["-f", f.name, HELPER, "info"])
        check(res.rc == 0 and len(res.out.splitlines()) == 3, "host file", res)
    res = run(["-ppn", "4", "-n", "2", HELPER, "info"])
    check(res.rc == 0 and res.err.count("-ppn") == 1, "one -ppn note", res)


def t_version_help():
    res = run(["--version"])
    check(res.rc == 0 and res.out.startswith("mpiexec (Tern) "), "--version", res)
    res = run(["--help"])
    check(res.rc == 0 and "-genv" in res.out and "--timeout" in res.out, "--help", res)
    res = run([])
    check(res.rc == 2 and res.err, "no arguments", res)
    mpirun = os.path.join(os.path.dirname(MPIEXEC), "mpirun")
    if os.path.exists(mpirun):
        p = subprocess.run([mpirun, "-n", "1", "/bin/echo", "x"], capture_output=True, timeout=30)
        check(p.returncode == 0 and p.stdout == b"x\n", "mpirun symlink")


def interrupt(sig, want_rc, mode="sleep", extra=("30",)):
    env = dict(os.environ)
    env.pop("MPIEXEC_TIMEOUT", None)
    p = subprocess.Popen([MPIEXEC, "-n", "3", HELPER, mode] + list(extra), env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = {}
    deadline = time.monotonic() + 10
    while len(pids) < 3 and time.monotonic() < deadline:
        line = p.stdout.readline().decode()
        if not line:
            break
        m = re.match(r"^pid (\d+) (\d+)$", line)
        if m:
            pids[int(m.group(1))] = int(m.group(2))
    t0 = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=20)
    res = Result(p.returncode, out.decode(), err.decode(), time.monotonic() - t0)
    check(len(pids) == 3, "ranks did not start", res)
    check(res.rc == want_rc, "want exit code %d" % want_rc, res)
    return res, pids


def t_sigterm():
    res, pids = interrupt(signal.SIGTERM, 143)
    check(res.wall < 2.5, "SIGTERM teardown took %.2f s" % res.wall, res)
    check_gone(pids, res)


def t_sigint():
    res, pids = interrupt(signal.SIGINT, 130)
    check(res.wall < 2.5, "SIGINT teardown took %.2f s" % res.wall, res)
    check_gone(pids, res)
    # ranks that ignore SIGINT and SIGTERM: SIGKILL after 1 s
    res, pids = interrupt(signal.SIGINT, 130, "stubborn", ())
    check(1.0 <= res.wall < 3.0, "stubborn SIGINT teardown took %.2f s" % res.wall, res)
    check_gone(pids, res)


def t_echo():
    res = run(["-n", "2", "/bin/echo", "hi"])
    check(res.rc == 0 and res.out == "hi\nhi\n" and res.err == "", "echo", res)
    res = run(["-n", "2", "sh", "-c", "exit 0"])
    check(res.rc == 0 and res.err == "", "non-MPI programs exiting 0", res)
    res = run(["-n", "1", "printf", "no-newline"])
    check(res.rc == 0 and res.out == "no-newline", "partial last line, one rank", res)
    res = run(["-n", "2", "printf", "x"])
    check(res.rc == 0 and res.out == "x\nx\n", "partial last lines, two ranks", res)
    res = run(["-n", "1", "sh", "-c", "echo err >&2; exit 4"])
    check(res.rc == 4 and res.err.startswith("err\nmpiexec: rank 0 (pid ") and
          "exited with code 4" in res.err, "stderr and exit code of a non-MPI program", res)


def t_chatty():
    n, lines = 16, 2000
    res = run(["-l", "-n", str(n), HELPER, "chatty", str(lines)], timeout=50)
    check(res.rc == 0, "failed", res)
    seen = [0] * n
    pat = re.compile(r"^\[(\d+)\] r(\d+) l(\d+) (x*) end$")
    for line in res.out.split("\n")[:-1]:
        m = pat.match(line)
        check(m is not None, "mangled line %r" % line[:200], res)
        r, i = int(m.group(2)), int(m.group(3))
        check(int(m.group(1)) == r, "label %s on rank %d's line" % (m.group(1), r), res)
        check(len(m.group(4)) == (i * 7 + r * 13) % 240, "line %d of rank %d cut" % (i, r), res)
        check(i == seen[r], "rank %d: line %d out of order (want %d)" % (r, i, seen[r]), res)
        seen[r] += 1
    check(seen == [lines] * n, "missing lines: %s" % seen, res)
    check(res.out.endswith(" end\n"), "output does not end with a whole line", res)


def t_long_lines():
    n, count, length = 4, 3, 3000000
    res = run(["-l", "-n", str(n), HELPER, "longlines", str(count), str(length)], timeout=50)
    check(res.rc == 0, "failed", res)
    lines = res.out.split("\n")
    check(lines[-1] == "" and len(lines) == n * count + 1, "want %d lines" % (n * count), res)
    for line in lines[:-1]:
        m = re.match(r"^\[(\d+)\] (\d+):", line)
        check(m and m.group(1) == m.group(2), "bad start of line %r" % line[:40], res)
        r = int(m.group(1))
        body = line[m.end():]
        check(len(body) == length and body == chr(ord("a") + r) * length,
              "rank %d's long line is cut or mixed (length %d)" % (r, len(body)), res)


def t_stdin():
    p = subprocess.run([MPIEXEC, "-n", "3", HELPER, "stdin"], input=b"hello\nworld\n",
                       capture_output=True, timeout=30)
    out = p.stdout.decode()
    res = Result(p.returncode, out, p.stderr.decode(), 0)
    check(p.returncode == 0, "failed", res)
    check("rank 0 read 12 bytes: hello\n" in out, "rank 0 gets stdin", res)
    check("rank 1 read 0 bytes: \n" in out and "rank 2 read 0 bytes: \n" in out,
          "other ranks read /dev/null", res)


def pty_run(args, feed, limit=10):
    """Runs mpiexec on a new terminal; writes each of feed once its trigger
    (a regular expression over the output so far) matches."""
    import pty
    import select
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.pop("MPIEXEC_TIMEOUT", None)
        os.execv(MPIEXEC, [MPIEXEC] + args)
    out = b""
    pending = list(feed)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if pending and re.search(pending[0][0], out.decode(errors="replace")):
            os.write(fd, pending.pop(0)[1])
            continue
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
    else:
        os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
    os.close(fd)
    text = out.decode(errors="replace").replace("\r\n", "\n")
    return Result(os.waitstatus_to_exitcode(st), text, "", 0)


def t_tty():
    """On a terminal: rank 0 reads what is typed; one Ctrl-C reaches each
    rank exactly once (mpiexec forwards it; the ranks are not in the
    terminal's foreground process group)."""
    three = r"(?s)(pid \d+ \d+\r?\n.*){3}"
    res = pty_run(["-n", "2", HELPER, "stdin"], [(r"", b"hello tty\n"), (r"hello tty", b"\x04")])
    check(res.rc == 0 and "rank 0 read 10 bytes: hello tty\n" in res.out
          and "rank 1 read 0 bytes: \n" in res.out, "stdin from a terminal", res)
    res = pty_run(["-n", "3", HELPER, "sigcount"], [(three, b"\x03")])
    check(res.rc == 130, "Ctrl-C: want exit code 130", res)
    for r in range(3):
        check("sigint %d 1\n" % r in res.out, "rank %d did not get exactly one SIGINT" % r, res)


def t_fence_cannot_complete():
    res = run(["-n", "2", HELPER, "fence", ":", "-n", "1", "/bin/true"])
    check(res.rc == 1, "want exit code 1", res)
    check(re.search(r"rank 2 \(pid \d+\) exited without joining the fence", res.err),
          "no report of the impossible fence", res)
    check(res.wall < 4.0, "took %.2f s" % res.wall, res)


def t_launcher_killed():
    """kill -9 of mpiexec takes the ranks with it (PR_SET_PDEATHSIG)."""
    p = subprocess.Popen([MPIEXEC, "-n", "3", HELPER, "sleep", "30"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = {}
    while len(pids) < 3:
        line = p.stdout.readline().decode()
        if not line:
            break
        m = re.match(r"^pid (\d+) (\d+)$", line)
        if m:
            pids[int(m.group(1))] = int(m.group(2))
    p.kill()
    p.communicate(timeout=10)
    check(len(pids) == 3, "ranks did not start")
    check_gone(pids, Result(p.returncode, "", "", 0))


def t_boot_unit(unit):
    p = subprocess.run([unit], capture_output=True, timeout=30)
    check(p.returncode == 0, "boot_unit failed:\n%s%s" % (p.stdout.decode(), p.stderr.decode()))


def main():
    global MPIEXEC, HELPER
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--helper", required=True)
    ap.add_argument("--unit")
    ap.add_argument("test")
    a = ap.parse_args()
    MPIEXEC, HELPER = os.path.abspath(a.mpiexec), os.path.abspath(a.helper)
    if a.test == "boot_unit":
        fn = lambda: t_boot_unit(a.unit)
    else:
        fn = globals().get("t_" + a.test)
    if fn is None:
        print("no such test: %s" % a.test)
        return 2
    try:
        fn()
    except Fail as e:
        print("FAIL %s: %s" % (a.test, e))
        return 1
    except subprocess.TimeoutExpired as e:
        print("FAIL %s: hung: %s" % (a.test, e))
        return 1
    print("PASS %s" % a.test)
    return 0


if __name__ == "__main__":
    sys.exit(main())
