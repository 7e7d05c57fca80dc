"""Runs mpi4py's test suite under an mpiexec at several rank counts, counts
the outcomes, and checks them against the baseline (gate.py).  Called by
run.sh.

    python3 suite.py --mpiexec M --python P --testdir D --workdir W
                     --baseline B [--update-baseline] [--np 1,2,3]

A test that crashes or hangs kills its job; the suite is then started again
from that test's module with the culprit excluded (mpi4py's -x option), so
one crash costs one test, not the rest of the suite.  Once every rank has
written DONE the job must still end, with exit code 0, within
--end-timeout seconds: MPI_Finalize runs after the last test.  The per-rank
logs of every launch stay under W/np<N>/ for reading.
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import time

import gate
from gate import BAD, RANK, worse

HERE = pathlib.Path(__file__).resolve().parent


def module_of(test_id):
    # "test_x.Class.method", "setUpClass (test_x.Class)",
    # "unittest.loader._FailedTest.test_x" (import error)
    if "(" in test_id:
        test_id = test_id[test_id.index("(") + 1 :]
    if test_id.startswith("unittest.loader._FailedTest."):
        return test_id.rsplit(".", 1)[1]
    return test_id.split(".", 1)[0]


def run_np(args, np, modules):
    """Runs the whole suite at np ranks; -> gate.Summary, notes."""
    outdir = pathlib.Path(args.workdir) / f"np{np}"
    if outdir.exists():
        for p in sorted(outdir.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
    outdir.mkdir(parents=True, exist_ok=True)
    results, reasons, excluded, notes = {}, {}, [], []
    pending = list(modules)
    launch, end = 0, "0"
    while pending:
        launch += 1
        logdir = outdir / f"launch{launch}"
        logdir.mkdir()
        cmd = [args.mpiexec, "-n", str(np), "-bind-to", "none",
               "--timeout", str(args.launch_timeout),
               args.python, str(HERE / "driver.py"), str(logdir), args.testdir,
               "--no-builddir", "--no-numpy"]
        for test_id in excluded:
            if module_of(test_id) in pending:
                cmd += ["-x", test_id]
        cmd += pending
        with open(logdir / "output.txt", "wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL)
            stuck = watch(proc, logdir, np, args.skew_timeout, args.end_timeout)
            rc = proc.wait()
        last_words = mpiexec_message(logdir / "output.txt")
        # The job ends when one rank dies; the others are then cut off in
        # whatever test they had reached, which may be a later one (ranks
        # drift apart between collective tests).  The culprits are the test
        # of the rank mpiexec names and those where a watchdog fired.
        named = re.match(r"mpiexec: rank (\d+) ", last_words)
        culprits, unfinished, done_ranks = {}, {}, 0
        for r in range(np):
            log = logdir / f"rank{r}.log"
            if not log.exists():
                continue
            outcomes, current, hung, done = gate.parse_rank_log(
                log.read_text(encoding="utf-8", errors="replace"), reasons)
            for k, v in outcomes.items():
                results[k] = worse(results.get(k), v)
            done_ranks += done
            if current is None:
                continue
            unfinished[current] = worse(unfinished.get(current), "hang" if hung else "crash")
            if hung or (named and int(named.group(1)) == r):
                culprits[current] = worse(culprits.get(current), unfinished[current])
        end = str(rc)
        if done_ranks == np:
            # Every test has run; what is left is MPI_Finalize and the exit.
            if stuck == "end":
                end = "hang"
                notes.append(f"launch {launch}: every rank finished its tests, then the job "
                             f"did not end within {args.end_timeout:g}s (MPI_Finalize?)")
            elif rc != 0:
                notes.append(f"launch {launch}: every rank finished its tests, then the job "
                             f"ended with exit {rc}: {last_words}")
            break
        if stuck is not None:
            culprits = {stuck[1]: "hang"}
            there = reasons.get(stuck[1], ("", ""))[1]
            reasons[stuck[1]] = ("hang", f"rank {stuck[0]} still in it {args.skew_timeout:g}s after "
                                 "another rank had finished it" + (f"; that rank: {there}" if there else ""))
        elif not culprits:
            culprits = unfinished
        if rc == 124:
            notes.append(f"launch {launch}: mpiexec timeout ({args.launch_timeout}s)")
        new = [c for c in culprits if c not in excluded]
        if not new:
            # Died outside any test (import, class set-up, MPI_Finalize):
            # record it under a pseudo id and go on after the last module seen.
            seen = [m for m in pending if any(module_of(t) == m for t in results)]
            last = seen[-1] if seen else pending[0]
            pseudo = f"{last}.<outside a test>"
            results[pseudo] = "crash"
            reasons[pseudo] = ("crash", last_words)
            notes.append(f"launch {launch}: job died outside a test after module {last} (exit {rc})")
            pending = pending[pending.index(last) + 1 :]
            continue
        for c in new:
            results[c] = worse(results.get(c), culprits[c])
            if culprits[c] != "hang":
                reasons[c] = ("crash", last_words)
            elif reasons.get(c, ("",))[0] != "hang":
                reasons[c] = ("hang", f"no progress for {os.environ.get('MPI4PY_TEST_TIMEOUT', '60')}s")
            excluded.append(c)
            notes.append(f"launch {launch}: {culprits[c]} in {c} (exit {rc})")
        # Start again from the earliest module a rank was cut off in, so
        # that the ranks cut off as bystanders run the rest of it too.
        first = min(pending.index(module_of(c)) if module_of(c) in pending else 0
                    for c in unfinished)
        pending = pending[first:]
    (outdir / "failures.txt").write_text(
        "".join(f"{v} {k} :: {reasons.get(k, ('', ''))[1]}\n"
                for k, v in sorted(results.items()) if v in BAD), encoding="utf-8")
    return gate.Summary.of_run(end, results, reasons), notes


def watch(proc, logdir, np, skew, end_timeout):
    """Waits for the job; ends it early
    - when a rank has been in a test for skew seconds that another rank has
      already finished: the usual hang, where one rank left a test on an
      error and its peer waits for a message that will never come;
      -> (rank, test id).  (Every rank stuck in the same test is left to the
      driver's watchdog.)
    - when the job is still there end_timeout seconds after every rank
      wrote DONE: a hang in MPI_Finalize or at exit; -> "end".
    -> None when the job ended by itself."""
    offset = [0] * np
    current = [None] * np  # (test id, when this rank was seen starting it)
    finished = set()
    done, all_done_at = set(), None
    while proc.poll() is None:
        time.sleep(0.5)
        now = time.monotonic()
        for r in range(np):
            try:
                with open(logdir / f"rank{r}.log", "rb") as f:
                    f.seek(offset[r])
                    data = f.read()
            except FileNotFoundError:
                continue
            data = data[: data.rfind(b"\n") + 1]  # whole lines only
            offset[r] += len(data)
            for line in data.decode("utf-8", "replace").splitlines():
                word, _, rest = line.partition(" ")
                if word == "START":
                    current[r] = (rest, now)
                elif word == "DONE":
                    done.add(r)
                elif word in RANK:
                    finished.add(rest)
                    if current[r] and current[r][0] == rest:
                        current[r] = None
        for r in range(np):
            if current[r] and current[r][0] in finished and now - current[r][1] > skew:
                proc.terminate()
                return r, current[r][0]
        if len(done) == np and all_done_at is None:
            all_done_at = now
        if all_done_at is not None and now - all_done_at > end_timeout:
            proc.terminate()
            return "end"
    return None


def mpiexec_message(path):
    """The launcher's own last line (why it ended the job), else the last line."""
    lines = [ln for ln in path.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
    said = [ln for ln in lines if ln.startswith("mpiexec:")]
    return (said or lines or ["(no output)"])[-1][:300]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--testdir", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--np", default="1,2,3")
    ap.add_argument("--launch-timeout", type=int, default=600)
    ap.add_argument("--skew-timeout", type=float, default=10)
    ap.add_argument("--end-timeout", type=float, default=60)
    ap.add_argument("--update-baseline", action="store_true")
    ap.add_argument("--header", default="mpi4py")
    args = ap.parse_args()
    modules = sorted(p.stem for p in pathlib.Path(args.testdir).glob("test_*.py"))
    baseline_path = pathlib.Path(args.baseline)
    try:
        base = gate.read_baseline(baseline_path.read_text(encoding="utf-8")
                                  if baseline_path.exists() else "")
    except ValueError as e:
        print(f"suite.py: {e}", file=sys.stderr)
        if not args.update_baseline:
            return 2
        base = {}  # rewritten from this run alone

    now, worse_found, better_found = {}, False, False
    for np in map(int, args.np.split(",")):
        t0 = time.time()
        summary, notes = run_np(args, np, modules)
        now[np] = summary
        kinds = {}
        for outcome, _ in summary.failures.values():
            kinds[outcome] = kinds.get(outcome, 0) + 1
        print(f"np={np}: {time.time() - t0:.0f}s: {summary.line(np)}; failures: "
              + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"), flush=True)
        for note in notes:
            print(f"  {note}")
        if args.update_baseline:
            continue
        if np not in base:
            print(f"  WORSE: no baseline for np={np}")
            worse_found = True
            continue
        bad, good = gate.compare(base[np], summary)
        for line in bad:
            print(f"  WORSE: {line}")
        for line in good:
            print(f"  better: {line}")
        worse_found |= bool(bad)
        better_found |= bool(good)
    if args.update_baseline:
        # Rank counts not run this time keep their lines.
        baseline_path.write_text(gate.write_baseline({**base, **now}, args.header), encoding="utf-8")
        print(f"baseline written: {args.baseline}")
        return 0
    if worse_found:
        print("mpi4py gate: FAILED: worse than tests/mpi4py/baseline.txt (see WORSE above). "
              f"If this is intended, rewrite the baseline with {gate.UPDATE} "
              "and commit it with the change.")
        return 1
    if better_found:
        print("mpi4py gate: passed, and better than the baseline: rewrite it with "
              f"{gate.UPDATE} and commit it, so that a later regression is measured from here.")
    else:
        print("mpi4py gate: passed: as the baseline.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
