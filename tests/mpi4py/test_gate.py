"""Self-test of the mpi4py gate, without mpi4py: synthetic rank logs and
summaries through gate.py, and suite.py's launch loop under Tern's real
mpiexec with fake ranks that play a run of the suite and then end in a
chosen way (a signal or an exit code after DONE, a hang in what would be
MPI_Finalize, a crash inside a test).

    python3 test_gate.py [--mpiexec PATH]

Without --mpiexec the launch tests are skipped (unittest skips).
"""

import argparse
import os
import pathlib
import sys
import tempfile
import textwrap
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gate  # noqa: E402
import suite  # noqa: E402

MPIEXEC = None

WIN_ERROR = "mpi4py.MPI.Exception: MPI_ERR_WIN: invalid window handle 0x7f3a2c001230"


def summary(end="0", npass=10, nskip=2, nxfail=0, failures=None):
    return gate.Summary(end, {"pass": npass, "skip": nskip, "xfail": nxfail},
                        dict(failures if failures is not None else
                             {"test_a.A.c": ("error", "Exception MPI_ERR_WIN")}))


class KindOf(unittest.TestCase):
    def test_exception_and_error_class(self):
        self.assertEqual(gate.kind_of("error", WIN_ERROR), "Exception MPI_ERR_WIN")

    def test_assertion_drops_values(self):
        self.assertEqual(gate.kind_of("fail", "AssertionError: 3 != 4"), "AssertionError")
        self.assertEqual(gate.kind_of("fail", "AssertionError: 5 != 4"), "AssertionError")

    def test_bare_exception(self):
        self.assertEqual(gate.kind_of("error", "NotImplementedError"), "NotImplementedError")
        self.assertEqual(gate.kind_of("error", ""), "?")

    def test_crash_from_mpiexec(self):
        said = "mpiexec: rank 1 (pid 4242) was killed by signal 11 (Segmentation fault); ending the other rank"
        self.assertEqual(gate.kind_of("crash", said), "signal 11")
        said = "mpiexec: rank 0 (pid 17) exited with code 3 before MPI_Finalize; ending the other 2 ranks"
        self.assertEqual(gate.kind_of("crash", said), "exit 3")
        self.assertEqual(gate.kind_of("crash", "mpiexec: rank 2 called MPI_Abort(comm, 5)"), "MPI_Abort")

    def test_hang(self):
        self.assertEqual(gate.kind_of("hang", "no progress for 60s"), "hang")


class ParseRankLog(unittest.TestCase):
    def test_outcomes_reasons_and_done(self):
        reasons = {}
        log = textwrap.dedent(f"""\
            START test_a.A.a
            ok test_a.A.a
            START test_a.A.b
            skip test_a.A.b
            START test_a.A.c
            fail test_a.A.c
            WHY test_a.A.c :: AssertionError: 1 != 2
            error test_a.A.c
            WHY test_a.A.c :: {WIN_ERROR}
            DONE
            """)
        outcomes, current, hung, done = gate.parse_rank_log(log, reasons)
        self.assertEqual(outcomes, {"test_a.A.a": "ok", "test_a.A.b": "skip", "test_a.A.c": "error"})
        self.assertIsNone(current)
        self.assertFalse(hung)
        self.assertTrue(done)
        # The reason goes with the worst outcome (the error), not the first.
        self.assertEqual(reasons["test_a.A.c"], ("error", WIN_ERROR))

    def test_unfinished_and_watchdog(self):
        outcomes, current, hung, done = gate.parse_rank_log(
            "START test_a.A.a\nok test_a.A.a\nSTART test_a.A.b\nTimeout (0:01:00)!\n", {})
        self.assertEqual(current, "test_a.A.b")
        self.assertTrue(hung)
        self.assertFalse(done)


class Baseline(unittest.TestCase):
    def test_round_trip(self):
        s = {1: summary(),
             2: summary("hang", 20, 3, 1, {"setUpClass (test_b.B)": ("error", "RuntimeError"),
                                           "test_a.A.d": ("crash", "signal 11")})}
        text = gate.write_baseline(s, "header")
        back = gate.read_baseline(text)
        self.assertEqual(sorted(back), [1, 2])
        for np in s:
            self.assertEqual(back[np].end, s[np].end)
            self.assertEqual(back[np].counts, s[np].counts)
            self.assertEqual(back[np].failures, s[np].failures)
        self.assertEqual(gate.write_baseline(back, "header"), text)

    def test_unreadable_lines_are_errors(self):
        for text in ("np 1 end 0 pass 3\n",  # a count missing
                     "np 1 end 0 pass 3 skip 0 xfail 0\n1 error test_a.A.a\n",  # no kind
                     "np 1 end 0 pass 3 skip 0 xfail 0\n1 ok test_a.A.a :: x\n",  # not a failure
                     "1 error test_a.A.a :: x\n",  # no np line
                     "count 1 23\n"):
            with self.subTest(text=text), self.assertRaises(ValueError):
                gate.read_baseline(text)

    def test_committed_baseline_reads(self):
        base = gate.read_baseline((HERE / "baseline.txt").read_text(encoding="utf-8"))
        self.assertEqual(sorted(base), [1, 2, 3])
        for np, s in base.items():
            self.assertGreater(s.counts["pass"], 1000, np)


class Compare(unittest.TestCase):
    def check(self, now, worse=(), better=()):
        bad, good = gate.compare(summary(), now)
        self.assertEqual(len(bad), len(worse), bad)
        for want, got in zip(worse, bad):
            self.assertIn(want, got)
        self.assertEqual(len(good), len(better), good)
        for want, got in zip(better, good):
            self.assertIn(want, got)

    def test_same(self):
        self.check(summary())

    def test_end_of_job(self):
        self.check(summary(end="139"), worse=["exit 139"])
        self.check(summary(end="hang"), worse=["hang"])
        self.assertEqual(gate.compare(summary(end="1"), summary())[0], [])

    def test_counts(self):
        self.check(summary(npass=9), worse=["pass 9, baseline 10"])
        self.check(summary(nskip=3), worse=["skip 3, baseline 2"])
        self.check(summary(nxfail=1), worse=["xfail 1, baseline 0"])
        self.check(summary(npass=11), better=["pass 11, baseline 10"])
        self.check(summary(nskip=1), better=["skip 1, baseline 2"])

    def test_a_class_turned_into_skips(self):
        # Four passing tests of a class skipped since its probe raised.
        self.check(summary(npass=6, nskip=6), worse=["pass 6", "skip 6"])

    def test_failures(self):
        base = summary().failures
        self.check(summary(failures={**base, "test_b.B.x": ("fail", "AssertionError")}),
                   worse=["new failure: fail test_b.B.x"])
        self.check(summary(failures={"test_a.A.c": ("error", "Exception MPI_ERR_OTHER")}),
                   worse=["failure changed: test_a.A.c"])
        self.check(summary(failures={"test_a.A.c": ("crash", "signal 11")}),
                   worse=["failure changed: test_a.A.c: crash signal 11"])
        self.check(summary(npass=11, failures={}), better=["pass 11", "listed failure gone: test_a.A.c"])


# A fake rank: plays a run of the suite into the driver's log format, then
# ends as FAKE_END says on the rank FAKE_RANK (default the last).  Called as
# suite.py calls python: PYTHON driver.py LOGDIR TESTDIR [options] MODULE...
FAKE_RANK = r'''#!/usr/bin/env python3
import os, signal, sys, time
logdir = sys.argv[2]
excluded = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "-x"]
rank, size = int(os.environ["TERN_RANK"]), int(os.environ["TERN_SIZE"])
end = os.environ.get("FAKE_END", "")
victim = int(os.environ.get("FAKE_RANK", size - 1))
log = open(os.path.join(logdir, f"rank{rank}.log"), "a", buffering=1)
tests = [("test_a.A.a", "ok", ""), ("test_a.A.b", "skip", ""),
         ("test_a.A.c", "error", os.environ.get("FAKE_WHY", "")),
         ("test_a.A.d", "ok", "")]
if end == "skip-class":
    tests = [(t, "skip" if o == "ok" else o, w) for t, o, w in tests]
for test, outcome, why in tests:
    if test in excluded:
        continue
    log.write(f"START {test}\n")
    if end == "crash-in-test" and test == "test_a.A.d" and rank == victim:
        log.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    log.write(f"{outcome} {test}\n")
    if why:
        log.write(f"WHY {test} :: {why}\n")
log.write("DONE\n")
log.close()


def all_done():
    logs = [os.path.join(logdir, f"rank{r}.log") for r in range(size)]
    return all(os.path.exists(p) and open(p).read().endswith("DONE\n") for p in logs)


if rank == victim and (end in ("segv", "hang") or end.startswith("exit")):
    # As in MPI_Finalize, which waits for every rank: all are past DONE.
    while not all_done():
        time.sleep(0.05)
    if end == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif end == "hang":
        time.sleep(120)
    else:
        sys.exit(int(end[4:]))
'''


class Launch(unittest.TestCase):
    """suite.run_np on fake ranks under the real mpiexec."""

    @classmethod
    def setUpClass(cls):
        if MPIEXEC is None:
            raise unittest.SkipTest("no --mpiexec given")
        cls.tmp = tempfile.TemporaryDirectory(prefix="mpi4py-gate-")
        root = pathlib.Path(cls.tmp.name)
        fake = root / "fake_rank"
        fake.write_text(FAKE_RANK, encoding="utf-8")
        fake.chmod(0o755)
        cls.args = argparse.Namespace(
            mpiexec=MPIEXEC, python=str(fake), testdir=str(root), workdir=str(root / "results"),
            launch_timeout=30, skew_timeout=10, end_timeout=2)
        cls.base = cls.run_np(2, "")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def run_np(cls, np, end, why=WIN_ERROR):
        os.environ["FAKE_END"] = end
        os.environ["FAKE_WHY"] = why
        try:
            s, _ = suite.run_np(cls.args, np, ["test_a"])
        finally:
            del os.environ["FAKE_END"], os.environ["FAKE_WHY"]
        return s

    def worse(self, now):
        bad, _ = gate.compare(self.base, now)
        self.assertTrue(bad, "the gate passed a worse run")
        return "\n".join(bad)

    def test_clean_run(self):
        self.assertEqual(self.base.end, "0")
        self.assertEqual(self.base.counts, {"pass": 2, "skip": 1, "xfail": 0})
        self.assertEqual(self.base.failures, {"test_a.A.c": ("error", "Exception MPI_ERR_WIN")})
        self.assertEqual(gate.compare(self.base, self.run_np(2, "")), ([], []))

    def test_signal_after_done(self):
        # What a crash in MPI_Finalize looks like: every test ran, then the
        # rank died.  The counts are all as before.
        now = self.run_np(2, "segv")
        self.assertEqual(now.end, "139")
        self.assertEqual(now.counts, self.base.counts)
        self.assertIn("exit 139", self.worse(now))

    def test_exit_code_after_done(self):
        now = self.run_np(2, "exit3")
        self.assertEqual(now.end, "3")
        self.assertIn("exit 3", self.worse(now))

    def test_hang_after_done(self):
        now = self.run_np(2, "hang")
        self.assertEqual(now.end, "hang")
        self.assertIn("hang", self.worse(now))

    def test_crash_in_a_test(self):
        now = self.run_np(2, "crash-in-test")
        self.assertEqual(now.failures.get("test_a.A.d"), ("crash", "signal 11"))
        self.assertEqual(now.end, "0")  # the relaunch without it ended cleanly
        self.assertIn("new failure: crash test_a.A.d", self.worse(now))

    def test_skipped_class(self):
        text = self.worse(self.run_np(2, "skip-class"))
        self.assertIn("pass 0, baseline 2", text)
        self.assertIn("skip 3, baseline 1", text)

    def test_changed_failure_kind(self):
        now = self.run_np(2, "", why="mpi4py.MPI.Exception: MPI_ERR_OTHER: unknown error")
        self.assertIn("failure changed: test_a.A.c: error Exception MPI_ERR_OTHER, "
                      "baseline error Exception MPI_ERR_WIN", self.worse(now))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec")
    opts, rest = ap.parse_known_args()
    MPIEXEC = opts.mpiexec
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
