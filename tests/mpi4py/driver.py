"""Runs mpi4py's own test suite (test/main.py) on one rank of an MPI job and
records every test's outcome, one line at a time, in a per-rank log.

    python driver.py LOGDIR TESTDIR [main.py options...] MODULE...

Each rank appends to LOGDIR/rank<R>.log:
    START <id>              before a test runs
    <OUTCOME> <id>          after it: ok, fail, error, skip, xfail, xpass
    WHY <id> :: <text>      after fail/error: the exception, on one line,
                            with the MPI error class named after its type
    SLOW <seconds> <id>     after a test that took a second or more
    DONE                    when the run finished normally
After DONE the rank exits with code 0 whatever the outcomes were: MPI is
finalized at interpreter exit, and a non-zero exit code or a signal from
there on is a fault of its own (suite.py reads it from mpiexec).
A START line without an outcome line after it means the test never finished
on that rank: the process crashed or the watchdog ended it.  The log is
flushed line by line so that such a run still tells which test it was in.

The watchdog (faulthandler) ends the rank when one test runs longer than
MPI4PY_TEST_TIMEOUT seconds (default 60): it writes "Timeout (" and the
Python stacks into the same log, which run.sh reads as a hang.
"""

import faulthandler
import importlib
import os
import sys
import time
import traceback
import unittest


def main():
    logdir, testdir = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    sys.path.insert(0, testdir)
    # Processes the tests spawn (mpi4py.futures, mpi4py.util.pool) unpickle
    # functions of the test modules: they find them through the environment.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (testdir, os.environ.get("PYTHONPATH")) if p)
    os.chdir(testdir)  # some tests open files relative to the test dir
    timeout = float(os.environ.get("MPI4PY_TEST_TIMEOUT", "60"))

    import main as mpi4py_main  # mpi4py's test/main.py

    # The rank is known only once mpi4py.MPI is imported, which main.py
    # does while creating the tests; the log is opened lazily.
    state = {"log": None}

    def log(line):
        if state["log"] is None:
            from mpi4py import MPI

            rank = MPI.COMM_WORLD.Get_rank()
            path = os.path.join(logdir, f"rank{rank}.log")
            state["log"] = open(path, "a", buffering=1, encoding="utf-8")
        state["log"].write(line + "\n")
        state["log"].flush()

    def log_bad(kind, test_id, err):
        # The outcome, then the exception on one line to group causes by.
        text = " ".join("".join(traceback.format_exception_only(err[0], err[1])).split())
        name = error_class_name(err[1])
        if name:
            text = text.replace(": ", f": {name}: ", 1) if ": " in text else f"{text}: {name}"
        log(f"{kind} {test_id}")
        log(f"WHY {test_id} :: {text[:300]}")

    def error_class_name(exc):
        # An MPI exception's text is the library's error string, which need
        # not name the error class; the class is what the baseline keeps
        # (gate.kind_of), so it goes first: "mpi4py.MPI.Exception:
        # MPI_ERR_UNSUPPORTED_OPERATION: MPI_File_open is not implemented".
        from mpi4py import MPI

        if not isinstance(exc, MPI.Exception):
            return None
        try:
            code = exc.Get_error_class()
        except Exception:  # noqa: BLE001 - MPI finalized, or a bad code
            return None
        names = sorted(n for n in dir(MPI)
                       if n.startswith("ERR_") and n != "ERR_LASTCODE" and getattr(MPI, n) == code)
        return f"MPI_{names[0]}" if names else None

    class RecordingResult(unittest.TextTestResult):
        def startTest(self, test):
            self.t0 = time.monotonic()
            log(f"START {test.id()}")
            faulthandler.dump_traceback_later(timeout, exit=True, file=state["log"])
            super().startTest(test)

        def stopTest(self, test):
            faulthandler.cancel_dump_traceback_later()
            # Slow tests, to check the watchdog's margin.
            took = time.monotonic() - self.t0
            if took >= 1.0:
                log(f"SLOW {took:.1f} {test.id()}")
            super().stopTest(test)

        def addSuccess(self, test):
            log(f"ok {test.id()}")
            super().addSuccess(test)

        def addFailure(self, test, err):
            log_bad("fail", test.id(), err)
            super().addFailure(test, err)

        def addError(self, test, err):
            # setUpClass/module import errors arrive without a startTest.
            log_bad("error", test.id(), err)
            super().addError(test, err)

        def addSkip(self, test, reason):
            log(f"skip {test.id()}")
            super().addSkip(test, reason)

        def addExpectedFailure(self, test, err):
            log(f"xfail {test.id()}")
            super().addExpectedFailure(test, err)

        def addUnexpectedSuccess(self, test):
            log(f"xpass {test.id()}")
            super().addUnexpectedSuccess(test)

        def addSubTest(self, test, subtest, err):
            # A failing subtest fails its test; report it under the test's id.
            if err is not None:
                kind = "fail" if issubclass(err[0], test.failureException) else "error"
                log_bad(kind, test.id(), err)
            super().addSubTest(test, subtest, err)

    class Program(mpi4py_main.TestProgram):
        def createTests(self, from_discovery=False, Loader=None):
            # unittest imports every module before running any test, and
            # only an ImportError becomes a test error: a module that calls
            # an unimplemented MPI function at import time would end the
            # whole run.  Import each one here; a failure is one error.
            mpi4py_main.setup_modules(self)
            keep = []
            for name in self.testNames or []:
                try:
                    importlib.import_module(name)
                except Exception:  # noqa: BLE001 - any failure is reported
                    log_bad("error", f"{name}.<import>", sys.exc_info())
                    traceback.print_exc()
                else:
                    keep.append(name)
            if self.testNames is not None:
                self.testNames = keep
            super().createTests(from_discovery, Loader)

        def runTests(self):
            self.testRunner = unittest.TextTestRunner(
                resultclass=RecordingResult, verbosity=self.verbosity
            )
            # mpi4py's runTests ends with sys.exit(1) when a test failed.
            # The outcomes are in the log; the exit code is kept for what
            # comes after DONE (MPI_Finalize at interpreter exit), so that
            # any exit other than 0 means the job did not end cleanly.
            try:
                super().runTests()
            except SystemExit:
                pass
            finally:
                log("DONE")

    Program(module=None)


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    main()
