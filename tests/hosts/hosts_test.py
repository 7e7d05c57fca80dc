#!/usr/bin/env python3
"""Jobs across hosts: mpiexec -hosts over simulated hosts (network namespaces
with sshd each: tools/hosts/netns.sh, brought up by the ctest fixture
hosts_up), and the launch tree with a local-fork agent.

    hosts_test.py --mpiexec P --helper P --check P --ucx 0|1 --netns P TEST

Exit 0 when TEST passes, 77 (with the reason) when it cannot run here, 1
with the reason otherwise."""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

A = None


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def check(cond, msg, p=None):
    if not cond:
        if p is not None:
            msg += "\n--- exit code %s, %.2f s\n--- stdout:\n%s\n--- stderr:\n%s" % (
                p.returncode, p.wall, p.stdout[-3000:], p.stderr[-3000:])
        raise Fail(msg)


def run(args, env=None, timeout=60):
    e = dict(os.environ)
    e.pop("MPIEXEC_TIMEOUT", None)
    e.update(env or {})
    t0 = time.monotonic()
    p = subprocess.run([A.mpiexec, "--timeout", str(timeout - 10)] + args, env=e,
                       capture_output=True, text=True, timeout=timeout)
    p.wall = time.monotonic() - t0
    return p


def prefix():
    return os.environ.get("NETNS_HOSTS_PREFIX", "h")


def hosts(n):
    """The first n simulated hosts; skips where they are not up."""
    st = subprocess.run([A.netns, "status"], capture_output=True, text=True)
    if st.returncode != 0:
        raise Skip("the simulated hosts are not up (see test hosts_up: it needs root, network "
                   "namespaces and sshd): " + st.stdout.strip())
    return ["%s%d" % (prefix(), k) for k in range(1, n + 1)]


def agent(kind):
    return [] if kind == "ssh" else ["-launcher", "exec", "-launcher-exec", "ip netns exec"]


def need_ucx():
    if A.ucx != "1":
        raise Skip("Tern is built without UCX (TERN_WITH_UCX): nothing reaches another host")


def no_survivors(program):
    """No process of 'program' left: matched from the start of the command
    line, so this driver (which names it in its arguments) does not count."""
    time.sleep(0.3)
    left = subprocess.run(["pgrep", "-f", "^" + re.escape(program)], capture_output=True,
                          text=True).stdout.split()
    check(not left, "processes left running after the job: %s" % left)


def hello(kind, nhosts, n, env=None):
    hs = hosts(nhosts)
    p = run(agent(kind) + ["-l", "-hosts", ",".join(hs), "-n", str(n), "sh", "-c",
                           'echo "host=$(hostname) id=$TERN_HOST_ID"'], env=env)
    check(p.returncode == 0, "hello failed", p)
    lines = sorted(p.stdout.splitlines())
    check(len(lines) == n, "%d lines expected" % n, p)
    for line in lines:
        m = re.match(r"\[(\d+)\] host=(\S+) id=(\S+)$", line)
        check(m is not None, "bad line %r" % line, p)
        want = hs[int(m.group(1)) % nhosts]  # -hosts a,b,c: ranks go round the hosts
        check(m.group(3) == want, "rank %s has host id %s, not %s" % (m.group(1), m.group(3), want), p)
        if kind == "ssh":  # sshd runs in the host's UTS namespace
            check(m.group(2) == want, "rank %s runs on %s, not %s" % (m.group(1), m.group(2), want), p)


def mpi(kind, spec, n):
    need_ucx()
    p = run(agent(kind) + ["-hosts", spec, "-n", str(n), A.check], env={"UCX_TLS": "tcp,self"})
    check(p.returncode == 0, "MPI job across hosts failed", p)
    oks = re.findall(r"^rank (\d+) of %d on \S+: node (\d+) ranks: ok$" % n, p.stdout, re.M)
    check(len(oks) == n, "%d ranks should say ok" % n, p)
    return {int(r): int(s) for r, s in oks}


def t_job(spec, n, program, *args):
    """An MPI program of the one-host suite, which checks its own values,
    across the simulated hosts: SPEC is "1,2" (host th1 and th2 in turn) or
    "1:2,2:2,3" (blocks of equal counts, the last may be smaller), N the
    number of ranks.  UCX over TCP only between
    hosts: UCX would use its own shared memory and CMA within one kernel.
    SPEC "ssh:..." starts the proxies through ssh instead of ip netns exec,
    so each host has its own host name (a UTS namespace)."""
    need_ucx()
    kind = "exec"
    if spec.startswith("ssh:"):
        kind, spec = "ssh", spec[4:]
    hosts(max(int(e.split(":")[0]) for e in spec.split(",")))
    hostspec = ",".join(prefix() + e for e in spec.split(","))
    env = {"UCX_TLS": "tcp,self"}
    if ":" in spec:
        # Blocks of k ranks per host: the programs that read
        # tests/common/tern_hosts.h learn that placement from
        # TERN_RANKS_PER_HOST, which groups ranks as the hosts already do.
        env["TERN_RANKS_PER_HOST"] = spec.split(",")[0].split(":")[1]
    p = run(agent(kind) + ["-l", "-hosts", hostspec, "-n", n, program] + list(args),
            env=env, timeout=140)
    check(p.returncode == 0, "%s with %s ranks on %s failed" % (os.path.basename(program), n,
                                                                 hostspec), p)
    print(p.stdout[-2000:])


def t_hello_ssh2(): hello("ssh", 2, 4)
def t_hello_exec3(): hello("exec", 3, 5)


def t_hello_ssh_deep():
    """Fan-out 1 over ssh: each host's proxy starts the next one over ssh
    from inside its own namespace, and relays for it."""
    hello("ssh", 3, 5, env={"TERN_LAUNCH_FANOUT": "1"})


def t_mpi_ssh2():
    hs = hosts(2)
    sizes = mpi("ssh", "%s:2,%s:2" % tuple(hs), 4)
    check(all(v == 2 for v in sizes.values()), "2 ranks per host expected: %s" % sizes)


def t_mpi_ssh3():  # 5 ranks on 3 hosts: 2, 2, 1
    hs = hosts(3)
    sizes = mpi("ssh", ",".join(hs), 5)
    check(sizes == {0: 2, 1: 2, 2: 1, 3: 2, 4: 2}, "uneven placement wrong: %s" % sizes)


def t_mpi_exec3():
    hs = hosts(3)
    sizes = mpi("exec", "%s:3,%s,%s" % tuple(hs), 5)
    check(sizes == {0: 3, 1: 3, 2: 3, 3: 1, 4: 1}, "placement by slots wrong: %s" % sizes)


def t_kill9():
    hs = hosts(3)
    p = run(["-hosts", ",".join(hs), "-n", "5", A.helper, "kill9", "4"])
    check(p.returncode == 137, "exit code 137 expected", p)
    check(re.search(r"rank 4 \(pid \d+ on %s\) was killed by signal 9" % hs[1], p.stderr),
          "the report must name rank 4, its host and the signal", p)
    m = re.search(r"^dying (\d+)$", p.stdout, re.M)
    check(m is not None, "no dying line", p)
    took = (time.monotonic_ns() - int(m.group(1))) / 1e9
    check(took < 3.0, "the job took %.2f s to end after the kill" % took, p)
    no_survivors(A.helper)


def my_proxy(node):
    """The pid of this build's proxy of tree node 'node' (its path is
    absolute: other trees may run jobs too), or None."""
    mine = "^" + re.escape(os.path.join(os.path.dirname(os.path.realpath(A.mpiexec)),
                                        "tern-proxy")) + " %d " % node
    out = subprocess.run(["pgrep", "-f", mine], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def kill_proxy(args, node, host, ranks, fanout=None):
    """Starts 'args' (sleeping ranks), kills the proxy of tree node 'node'
    with -9 once the ranks are up, and checks that the job ends within 3 s,
    naming 'host' and the ranks lost with it ("1, 3")."""
    e = dict(os.environ)
    if fanout:
        e["TERN_LAUNCH_FANOUT"] = str(fanout)
    proc = subprocess.Popen([A.mpiexec, "--timeout", "50"] + args + [A.helper, "sleep", "40"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
    deadline = time.monotonic() + 20
    pid = None
    while time.monotonic() < deadline and not pid:
        pid = my_proxy(node)
        time.sleep(0.1)
    check(pid is not None, "the proxy of node %d never ran" % node)
    time.sleep(1.0)  # the ranks are up
    os.kill(pid, signal.SIGKILL)
    t0 = time.monotonic()
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - t0
    check(proc.returncode == 1 and ("lost host %s" % host) in err and ("ranks %s gone" % ranks) in err,
          "exit 1 and a report naming the lost host and its ranks expected (exit %s):\n%s"
          % (proc.returncode, err))
    check(took < 3.0, "the job took %.2f s to end after the proxy died" % took)
    no_survivors(A.helper)
    return err


def t_proxy_kill9():
    hs = hosts(2)
    kill_proxy(["-hosts", ",".join(hs), "-n", "4"], 2, hs[1], "1, 3")


def t_proxy_kill9_deep():
    """Fan-out 1: rl1 starts rl2, rl2 starts rl3, each relaying for the one
    below.  Killing rl2's proxy loses rl3 with it."""
    hs = hosts(3)
    err = kill_proxy(["-hosts", ",".join(hs), "-n", "3"], 2, hs[1], "1, 2", fanout=1)
    check("the 1 host below it" in err, "the report must say that a host below was lost:\n" + err)


def t_tree_kill9():
    """Proxies forked here, fan-out 2 over 7 hosts: node 2 (fake2) relays for
    nodes 5 and 6; killing it ends the job, naming fake2, and its ranks and
    those of fake5 and fake6 (ranks 1, 4, 5, 8, 11, 12 of 14)."""
    names = ",".join("fake%d" % i for i in range(1, 8))
    err = kill_proxy(["-launcher", "fork", "-hosts", names, "-n", "14"], 2, "fake2",
                     "1, 4, 5, 8, 11, 12", fanout=2)
    check("the 2 hosts below it" in err, "the report must say that hosts below were lost:\n" + err)


def unreachable_agent(d, bad):
    """A -launcher-exec agent (CMD HOST PROXY-ARGS...) that cannot reach
    'bad', as ssh says it, and runs the proxy here for every other host."""
    path = os.path.join(d, "agent")
    with open(path, "w") as f:
        f.write('#!/bin/sh\nh=$1; shift\nif [ "$h" = %s ]; then\n'
                '  echo "ssh: connect to host %s port 22: Connection refused" >&2; exit 255\nfi\n'
                'exec "$@"\n' % (bad, bad))
    os.chmod(path, 0o755)
    return path


def t_tree_unreachable():
    """A host deep in the tree cannot be reached: its parent proxy, not
    mpiexec, starts it, and the job still ends at once naming the host and
    the agent's words.  Fan-out 1 over 4 hosts (fake3 is 3 levels deep) and
    fan-out 2 over 7 (fake6, 2 levels)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for k, n, bad in ((1, 4, "fake3"), (2, 7, "fake6")):
            agent = unreachable_agent(d, bad)
            names = ",".join("fake%d" % i for i in range(1, n + 1))
            p = run(["-launcher", "exec", "-launcher-exec", agent, "-hosts", names, A.helper,
                     "kvs"], env={"TERN_LAUNCH_FANOUT": str(k)})
            check(p.returncode == 1, "an unreachable host must fail the job with 1", p)
            check(("cannot reach %s: %s exited 255: ssh: connect to host %s port 22: Connection "
                   "refused" % (bad, agent, bad)) in p.stderr, "the host and cause must be named", p)
            check(p.wall < 5.0, "took %.2f s to give up" % p.wall, p)
    no_survivors(A.helper)


def t_tree_relay():
    """The tree relays: mpiexec holds a connection to each of its k children
    only, and each proxy with children one to its parent and one to each
    child (fan-out 2, 7 hosts: mpiexec 2; nodes 1 and 2 three; node 3, whose
    one child is node 7, two; node 4, a leaf, one)."""
    names = ",".join("fake%d" % i for i in range(1, 8))
    e = dict(os.environ, TERN_LAUNCH_FANOUT="2")
    proc = subprocess.Popen([A.mpiexec, "--timeout", "50", "-launcher", "fork", "-hosts", names,
                             A.helper, "sleep", "3"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=e)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not my_proxy(7):
        time.sleep(0.1)
    time.sleep(0.5)

    def conns(pid):
        out = subprocess.run(["ss", "-Htnp", "state", "established"], capture_output=True,
                             text=True).stdout
        return len(re.findall(r"pid=%d," % pid, out))

    counts = {"mpiexec": conns(proc.pid)}
    for node in (1, 2, 3, 4):
        counts[node] = conns(my_proxy(node) or -1)
    out, err = proc.communicate(timeout=30)
    check(proc.returncode == 0, "the job failed (exit %s):\n%s" % (proc.returncode, err))
    check(counts == {"mpiexec": 2, 1: 3, 2: 3, 3: 2, 4: 1},
          "TCP connections held (mpiexec 2, nodes 1 and 2 three, 3 two, 4 one): %s" % counts)


def t_unreachable():
    hs = hosts(1)
    bad = "%s99" % prefix()
    for kind, cause in (("ssh", "ssh exited 255: ssh: Could not resolve hostname"),
                        ("exec", "ip netns exec exited 255: Cannot open network namespace")):
        p = run(agent(kind) + ["-hosts", "%s,%s" % (hs[0], bad), "-n", "2", A.helper, "kvs"])
        check(p.returncode != 0, "an unreachable host must fail the job", p)
        check(("cannot reach %s: %s" % (bad, cause)) in p.stderr, "the cause must be named", p)
        check(p.wall < 5.0, "took %.2f s to give up" % p.wall, p)
    no_survivors(A.helper)


def t_unreachable_deep():
    """Fan-out 1: the proxy of rl2, inside its namespace, fails to reach the
    third host; the job ends naming it and ssh's words."""
    hs = hosts(2)
    bad = "%s99" % prefix()
    p = run(["-hosts", "%s,%s,%s" % (hs[0], hs[1], bad), "-n", "3", A.helper, "kvs"],
            env={"TERN_LAUNCH_FANOUT": "1"})
    check(p.returncode == 1, "an unreachable host must fail the job with 1", p)
    check(("cannot reach %s: ssh exited 255: ssh: Could not resolve hostname" % bad) in p.stderr,
          "the host and cause must be named", p)
    check(p.wall < 5.0, "took %.2f s to give up" % p.wall, p)
    no_survivors(A.helper)


def sigint(args, n, env=None):
    """Ctrl-C to mpiexec reaches each of the n ranks exactly once."""
    proc = subprocess.Popen([A.mpiexec, "--timeout", "50", "-l"] + args + ["-n", str(n), A.helper,
                            "sigcount"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, **(env or {})))
    deadline = time.monotonic() + 20
    seen = ""
    while time.monotonic() < deadline and seen.count("pid ") < n:
        seen += proc.stdout.readline()
    check(seen.count("pid ") == n, "the ranks did not start: %r" % seen)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    counts = re.findall(r"^\[(\d+)\] sigint \d+ (\d+)$", out, re.M)
    check(proc.returncode == 130, "exit 130 expected, got %s\n%s%s" % (proc.returncode, out, err))
    check(sorted(counts, key=lambda c: int(c[0])) == [(str(r), "1") for r in range(n)],
          "every rank on every host must get exactly one SIGINT: %s\n%s" % (counts, err))
    no_survivors(A.helper)


def t_sigint():
    sigint(["-hosts", ",".join(hosts(2))], 4)


def t_tree_sigint():
    """Through two levels of relays: fan-out 1 over 3 forked hosts."""
    sigint(["-launcher", "fork", "-hosts", "fake1,fake2,fake3"], 6, {"TERN_LAUNCH_FANOUT": "1"})


def shm_sizes(args, n, prog=None):
    """Runs hosts_check shmsize: {rank: (file bytes, mapped bytes)}."""
    p = run(args + (prog or ["-n", str(n), A.check, "shmsize"]), env={"UCX_TLS": "tcp,self"})
    check(p.returncode == 0, "the job failed", p)
    got = {int(r): (int(f), int(m)) for r, f, m in
           re.findall(r"^shm (\d+) (\d+) (\d+)$", p.stdout, re.M)}
    check(sorted(got) == list(range(n)), "every rank should report its shared memory", p)
    return got


def t_shm_size():
    """Each host's shared-memory file is sized for the pairs of that host's
    ranks alone: in a job of 5 ranks on 2 hosts (3 + 2), each rank maps a
    file of the size a one-host job of 3 (or 2) ranks gets, smaller than the
    5-rank one; simulated hosts sharing one mpiexec's file each get their
    own part of it, the file being the sum."""
    need_ucx()
    hs = hosts(2)
    one = {k: shm_sizes([], k)[0] for k in (2, 3, 5)}  # one host: k ranks
    check(one[2][0] < one[3][0] < one[5][0], "one-host sizes should grow with the ranks: %s" % one)
    got = shm_sizes(agent("exec") + ["-hosts", "%s:3,%s:2" % tuple(hs)], 5)
    for r in range(5):
        k = 3 if r < 3 else 2
        check(got[r] == one[k], "rank %d on a host of %d ranks maps %s bytes (file, mapping), "
              "not the %s of a %d-rank host" % (r, k, got[r], one[k], k))
    print("file bytes: 5 ranks on one host %d; on 2 hosts %d + %d" % (one[5][0], one[3][0],
                                                                     one[2][0]))
    # Two hosts by id (an MPMD job: one -env per block) under one mpiexec.
    got = shm_sizes([], 5, ["-n", "3", "-env", "TERN_HOST_ID", "simA", A.check, "shmsize", ":",
                            "-n", "2", "-env", "TERN_HOST_ID", "simB", A.check, "shmsize"])
    for r in range(5):
        k = 3 if r < 3 else 2
        check(got[r] == (one[3][0] + one[2][0], one[k][1]),
              "simulated hosts of 3 and 2 ranks: rank %d has %s (file, mapping), not (%d, %d)"
              % (r, got[r], one[3][0] + one[2][0], one[k][1]))


# Rank 0 reads its stdin; with "slow" it first says so and sleeps 2 s.
STDIN_PROG = (
    "import hashlib, os, sys, time\n"
    "r = os.environ['TERN_RANK']\n"
    "if r == '0' and sys.argv[1:] == ['slow']:\n"
    "    print('sleeping', flush=True)\n"
    "    time.sleep(2)\n"
    "d = sys.stdin.buffer.read()\n"
    "print('rank', r, os.uname().nodename, len(d), hashlib.sha256(d).hexdigest(), flush=True)\n")


def stdin_rows(out, nhosts_order):
    rows = {int(m.group(1)): m.groups()[1:] for m in
            re.finditer(r"^rank (\d+) (\S+) (\d+) ([0-9a-f]{64})$", out, re.M)}
    check(sorted(rows) == [0, 1], "two ranks should report what they read:\n%s" % out)
    for r, h in enumerate(nhosts_order):
        check(rows[r][0] == h, "rank %d runs on %s, not %s" % (r, rows[r][0], h))
    return rows


def t_stdin_ssh2():
    """mpiexec's stdin reaches rank 0 on another host (-hosts th2,th1: rank
    0 on the second host) whole and in order, the other rank reads nothing;
    and while rank 0 does not read, mpiexec stops taking stdin instead of
    buffering it (its writer is held back)."""
    import hashlib
    import threading
    hs = hosts(2)
    data = os.urandom(8 << 20)
    proc = subprocess.Popen([A.mpiexec, "--timeout", "50", "-hosts", "%s,%s" % (hs[1], hs[0]),
                             "-n", "2", sys.executable, "-c", STDIN_PROG, "slow"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    written = [0]
    def writer():
        try:
            for i in range(0, len(data), 65536):
                proc.stdin.write(data[i:i + 65536])
                proc.stdin.flush()
                written[0] = i + 65536
            proc.stdin.close()
        except BrokenPipeError:
            pass
    err = []
    threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()
    w = threading.Thread(target=writer, daemon=True)
    w.start()
    before = b""  # rank 1 may report before rank 0 says it sleeps
    while True:
        line = proc.stdout.readline()
        if line in (b"sleeping\n", b""):
            break
        before += line
    check(line == b"sleeping\n", "rank 0 never said 'sleeping': %r" % before)
    time.sleep(1.5)
    held = written[0]
    print("stdin taken while rank 0 slept: %d bytes" % held)
    out = (before + proc.stdout.read()).decode()
    proc.wait(timeout=30)
    w.join(5)
    check(proc.returncode == 0, "the job failed (exit %s): %s%s" % (proc.returncode, out,
                                                                  b"".join(err).decode()))
    rows = stdin_rows(out, [hs[1], hs[0]])
    check(rows[0][1:] == (str(len(data)), hashlib.sha256(data).hexdigest()),
          "rank 0 read %s bytes with sha256 %s, not all %d bytes" % (rows[0][1], rows[0][2],
                                                                      len(data)))
    check(rows[1][1] == "0", "rank 1 must read nothing (/dev/null), read %s bytes" % rows[1][1])
    check(held <= (1 << 20), "while rank 0 slept mpiexec took %d bytes of stdin (at most 1 MiB: "
          "a 256 KiB window and the pipes)" % held)


def t_stdin_empty():
    """Rank 0 on another host sees end of file at once when mpiexec's stdin
    is empty, closed, or a terminal on which the user types a line then
    Ctrl-D."""
    import fcntl
    import hashlib
    import pty
    import termios
    hs = hosts(2)
    args = ["--timeout", "30", "-hosts", "%s,%s" % (hs[1], hs[0]), "-n", "2", sys.executable,
            "-c", STDIN_PROG]
    empty = hashlib.sha256(b"").hexdigest()
    for how, cmd in (("empty", [A.mpiexec] + args),
                     ("closed", ["sh", "-c", 'exec "$0" "$@" <&-', A.mpiexec] + args)):
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=40)
        check(p.returncode == 0, "stdin %s: the job failed (exit %s): %s%s" % (
            how, p.returncode, p.stdout, p.stderr))
        rows = stdin_rows(p.stdout, [hs[1], hs[0]])
        check(rows[0][1:] == ("0", empty) and rows[1][1] == "0",
              "stdin %s: the ranks should read nothing: %s" % (how, p.stdout))
    master, slave = pty.openpty()
    def tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    proc = subprocess.Popen([A.mpiexec] + args, stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=tty)
    os.close(slave)
    os.write(master, b"typed line\n")
    time.sleep(0.5)
    os.write(master, b"\x04")
    try:
        out, err = proc.communicate(timeout=40)
    finally:
        os.close(master)
    check(proc.returncode == 0, "stdin a terminal: the job failed (exit %s): %s%s" % (
        proc.returncode, out.decode(), err.decode()))
    rows = stdin_rows(out.decode(), [hs[1], hs[0]])
    check(rows[0][1:] == ("11", hashlib.sha256(b"typed line\n").hexdigest()),
          "stdin a terminal: rank 0 should read the typed line then end of file: %s" % out)


def host_ids(args, n):
    p = run(["-launcher", "fork", "-l"] + args + [A.helper, "env", "TERN_HOST_ID"])
    check(p.returncode == 0, "fork launch failed", p)
    ids = dict(re.findall(r"^\[(\d+)\] \d+ TERN_HOST_ID=(\S+)$", p.stdout, re.M))
    check(len(ids) == n, "%d ranks expected" % n, p)
    return [ids[str(r)] for r in range(n)]


def t_hostfile():
    """Hydra's host:slots and mpirun_rsh's one host per line, placement by
    slots and by -ppn; proxies forked here (no namespaces needed)."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".hosts") as f:
        f.write("# two hosts\nfakeA\nfakeB:2\n\nfakeA\n")
        f.flush()
        got = host_ids(["-f", f.name], 4)  # fakeA twice: one host of 2 slots
        check(got == ["fakeA", "fakeA", "fakeB", "fakeB"], "slots from the file: %s" % got)
        got = host_ids(["-f", f.name, "-ppn", "1", "-n", "5"], 5)
        check(got == ["fakeA", "fakeB", "fakeA", "fakeB", "fakeA"], "-ppn 1: %s" % got)
    got = host_ids(["-hosts", "fakeA:2,fakeB:3"], 5)
    check(got == ["fakeA"] * 2 + ["fakeB"] * 3, "-hosts a:2,b:3: %s" % got)


def t_slurm_env():
    """Inside a Slurm allocation (its variables faked here) mpiexec takes the
    hosts from SLURM_JOB_NODELIST, slots from SLURM_TASKS_PER_NODE, and srun
    as the agent; proxies forked here (a fake srun runs them)."""
    import tempfile
    slurm = {"SLURM_JOB_NODELIST": "fakeA,fakeB[1-2]", "SLURM_TASKS_PER_NODE": "2,1(x2)"}
    def ids(args, n, extra=None):
        e = dict(slurm, **(extra or {}))
        p = run(["-l"] + args + [A.helper, "env", "TERN_HOST_ID"], env=e)
        check(p.returncode == 0, "job in a (fake) allocation failed", p)
        got = dict(re.findall(r"^\[(\d+)\] \d+ TERN_HOST_ID=(\S+)$", p.stdout, re.M))
        check(len(got) == n, "%d ranks expected" % n, p)
        return [got[str(r)] for r in range(n)]
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "srun.log")
        with open(os.path.join(d, "srun"), "w") as f:
            f.write('#!/bin/sh\necho "$*" >>"%s"\n'
                    'while [ "$1" != -w ]; do shift; done\nshift 2\nexec "$@"\n' % log)
        os.chmod(os.path.join(d, "srun"), 0o755)
        path = {"PATH": d + ":" + os.environ.get("PATH", "")}
        got = ids([], 4, path)
        check(got == ["fakeA", "fakeA", "fakeB1", "fakeB2"], "slots from Slurm: %s" % got)
        with open(log) as f:
            calls = sorted(l.split(" -w ")[1].split()[0] for l in f.read().splitlines()
                           if l.startswith("--nodes=1 --ntasks=1 --overlap --mpi=none "
                                           "--input=none -w "))
        check(calls == ["fakeA", "fakeB1", "fakeB2"],
              "srun should start one proxy per host with -w HOST: %s" % open(log).read())
    got = ids(["-launcher", "fork", "-ppn", "1", "-n", "4"], 4)
    check(got == ["fakeA", "fakeB1", "fakeB2", "fakeA"], "-ppn 1 in an allocation: %s" % got)
    got = ids(["-launcher", "fork", "-hosts", "fakeC:2"], 2)
    check(got == ["fakeC", "fakeC"], "-hosts must win over the allocation: %s" % got)
    for var, value, msg in (
            ("SLURM_JOB_NODELIST", "n[1-3", "cannot read Slurm host list 'n[1-3': '[' without ']'"),
            ("SLURM_TASKS_PER_NODE", "2(x5)", "SLURM_TASKS_PER_NODE '2(x5)' names more than the 3 "
                                              "hosts")):
        p = run(["-launcher", "fork", A.helper, "env", "TERN_HOST_ID"], env=dict(slurm, **{var: value}))
        check(p.returncode == 2 and msg in p.stderr, "a malformed %s must be a usage error" % var, p)


def t_genv_ssh():
    """-genvall (default), -genvlist, -genvnone and -genv reach ranks on
    hosts started through ssh, whose own environment is sshd's."""
    hs = hosts(2)
    env = {"TERN_T_FOO": "foo value", "TERN_T_BAR": "bar"}
    def seen(args):
        p = run(["-hosts", ",".join(hs), "-n", "2"] + args +
                [A.helper, "env", "TERN_T_FOO", "TERN_T_BAR", "TERN_T_BAZ"], env=env)
        check(p.returncode == 0, "job failed", p)
        return sorted(set(l.split(" ", 1)[1] for l in p.stdout.splitlines()))
    check(seen([]) == ["TERN_T_BAR=bar", "TERN_T_BAZ=(unset)", "TERN_T_FOO=foo value"],
          "-genvall: %s" % seen([]))
    got = seen(["-genvlist", "TERN_T_FOO", "-genv", "TERN_T_BAZ", "z"])
    check(got == ["TERN_T_BAR=(unset)", "TERN_T_BAZ=z", "TERN_T_FOO=foo value"], "-genvlist: %s" % got)
    got = seen(["-genvnone"])
    check(got == ["TERN_T_BAR=(unset)", "TERN_T_BAZ=(unset)", "TERN_T_FOO=(unset)"], "-genvnone: %s" % got)


def t_tree64():
    """64 hosts, all proxies forked here, fan-out 4: mpiexec starts 4, each of
    those 4 more, and so on: the parent of every proxy is mpiexec or the
    proxy of the node above it, and the tree is 3 levels deep."""
    names = ",".join("fake%d" % i for i in range(1, 65))
    prog = 'echo "node $TERN_RANK $PPID $(cut -d" " -f4 /proc/$PPID/stat) $TERN_HOST_ID"'
    p = run(["-launcher", "fork", "-hosts", names, "sh", "-c", prog],
            env={"TERN_LAUNCH_FANOUT": "4"})
    check(p.returncode == 0, "64-host fork launch failed", p)
    rows = [l.split() for l in p.stdout.splitlines() if l.startswith("node ")]
    check(len(rows) == 64, "64 ranks expected", p)
    proxy_of = {int(r[1]): int(r[2]) for r in rows}     # rank -> its proxy's pid
    parent_of = {int(r[1]): int(r[3]) for r in rows}    # rank -> the proxy's parent
    for r in rows:
        check(r[4] == "fake%d" % (int(r[1]) + 1), "rank %s has host id %s" % (r[1], r[4]), p)
    by_pid = {v: k for k, v in proxy_of.items()}
    depth = {}
    for rank in range(64):
        node, d = rank + 1, 1
        parent = parent_of[rank]
        while parent in by_pid:  # climb the tree of proxies
            up = by_pid[parent] + 1
            check(node in range(up * 4 + 1, up * 4 + 5),
                  "node %d was started by node %d, not its tree parent" % (node, up))
            node, d, parent = up, d + 1, parent_of[up - 1]
        check(node <= 4, "node %d has no proxy parent but is not a child of mpiexec" % node)
        depth[rank] = d
    check(max(depth.values()) == 3, "a 64-host tree at fan-out 4 is 3 deep, not %d" % max(depth.values()))
    # the bootstrap works across the tree too
    p = run(["-launcher", "fork", "-hosts", names, A.helper, "kvs", "2"], env={"MV2_MT_DEGREE": "4"})
    check(p.returncode == 0 and len(re.findall(r"^ok \d+$", p.stdout, re.M)) == 64,
          "kvs over 64 proxies failed", p)


def t_fd_limits():
    """Open-file limits, proxies forked or exec'd here (no namespaces): a
    proxy raises its soft limit for its ranks (over ssh it has the host's
    limits, not mpiexec's), and says what it needs when the hard limit is
    too low; mpiexec needs descriptors per host, not per rank, across hosts
    (401 hosts and 2 ranks under a soft limit of 1,024 ran into poll's
    EINVAL)."""
    import resource
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        def agent_with(opt):
            path = os.path.join(d, "agent" + opt)
            with open(path, "w") as f:  # CMD HOST PROXY-ARGS...: drop HOST
                f.write('#!/bin/sh\nshift\nulimit -Sn 64\n%sexec "$@"\n'
                        % ("ulimit -Hn 100\n" if opt == "H" else ""))
            os.chmod(path, 0o755)
            return ["-launcher", "exec", "-launcher-exec", path, "-hosts", "fakeA:100,fakeB"]
        p = run(agent_with("S") + ["sh", "-c", "ulimit -n"])
        check(p.returncode == 0, "100 ranks under a soft limit of 64 should run", p)
        check(sorted(set(p.stdout.split())) == ["396", "99"],
              "the proxies should raise their soft limit to 3 per rank + 2 * 32 + 32", p)
        p = run(agent_with("H") + ["true"])  # fakeB's 99 fit, fakeA's 396 do not
        check(p.returncode != 0 and "on fakeA: 100 ranks and up to 32 proxies below it need 396 "
              "open files; the limit is 100" in p.stderr, "a hard limit too low must be named", p)
    hosts401 = ",".join("fake%d" % i for i in range(401))
    def limited(soft, hard):
        return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    for soft, hard, ok in ((1024, resource.RLIM_INFINITY, True), (1000, 1000, False)):
        if hard == resource.RLIM_INFINITY:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if hard != resource.RLIM_INFINITY and ok and hard < 1300:
            raise Skip("the hard limit on open files (%d) is below what 401 hosts need" % hard)
        t0 = time.monotonic()
        p = subprocess.run([A.mpiexec, "--timeout", "50", "-launcher", "fork", "-hosts", hosts401,
                            "-n", "2", "true"], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, TERN_LAUNCH_FANOUT="401"),
                           preexec_fn=limited(soft, hard))
        p.wall = time.monotonic() - t0
        if ok:
            check(p.returncode == 0, "401 hosts under a soft limit of 1,024 should run", p)
        else:
            check(p.returncode != 0 and "401 hosts need 1235 open files; the limit is 1000"
                  in p.stderr, "a hard limit too low for the hosts must be named", p)


def main():
    global A
    ap = argparse.ArgumentParser()
    for o in ("--mpiexec", "--helper", "--check", "--ucx", "--netns"):
        ap.add_argument(o, required=True)
    ap.add_argument("test")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    A = ap.parse_args()
    fn = globals().get("t_" + A.test)
    if not fn:
        print("unknown test " + A.test)
        return 2
    try:
        fn(*A.args)
    except Skip as e:
        print("skipped: %s" % e)
        return 77
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
