"""Runs mpi4py's test suite under an mpiexec at several rank counts, counts
the outcomes, and checks them against the baseline.  Called by run.sh.

    python3 suite.py --mpiexec M --python P --testdir D --workdir W
                     --baseline B [--update-baseline] [--np 1,2,3]

A test that crashes or hangs kills its job; the suite is then started again
from that test's module with the culprit excluded (mpi4py's -x option), so
one crash costs one test, not the rest of the suite.  The per-rank logs of
every launch stay under W/np<N>/ for reading.
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import time

# Worst outcome on any rank wins; "crash"/"hang" come from a START line
# that no outcome line followed.
RANK = {"ok": 0, "skip": 1, "xfail": 1, "fail": 2, "xpass": 2, "error": 3, "crash": 4, "hang": 4}
BAD = {"fail", "xpass", "error", "crash", "hang"}
HERE = pathlib.Path(__file__).resolve().parent


def worse(a, b):
    return a if a is not None and RANK[a] >= RANK.get(b, -1) else b


def parse_rank_log(path, reasons):
    """-> (outcomes {id: outcome}, unfinished id or None, hung?, done?);
    the first reason given for each failing id goes into reasons."""
    outcomes, current, hung, done = {}, None, False, False
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        word, _, rest = line.partition(" ")
        if word == "WHY":
            test_id, _, text = rest.partition(" :: ")
            reasons.setdefault(test_id, text)
        elif word == "START":
            current = rest
        elif word in RANK:
            outcomes[rest] = worse(outcomes.get(rest), word)
            if rest == current:
                current = None
        elif word == "DONE":
            done = True
        elif line.startswith("Timeout ("):
            hung = True
    return outcomes, current, hung, done


def module_of(test_id):
    # "test_x.Class.method", "setUpClass (test_x.Class)",
    # "unittest.loader._FailedTest.test_x" (import error)
    if "(" in test_id:
        test_id = test_id[test_id.index("(") + 1 :]
    if test_id.startswith("unittest.loader._FailedTest."):
        return test_id.rsplit(".", 1)[1]
    return test_id.split(".", 1)[0]


def run_np(args, np, modules):
    """Runs the whole suite at np ranks; -> {id: outcome}, {id: why}, notes."""
    outdir = pathlib.Path(args.workdir) / f"np{np}"
    if outdir.exists():
        for p in sorted(outdir.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
    outdir.mkdir(parents=True, exist_ok=True)
    results, reasons, excluded, notes = {}, {}, [], []
    pending = list(modules)
    launch = 0
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
            stuck = watch(proc, logdir, np, args.skew_timeout)
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
            outcomes, current, hung, done = parse_rank_log(log, reasons)
            for k, v in outcomes.items():
                results[k] = worse(results.get(k), v)
            done_ranks += done
            if current is None:
                continue
            unfinished[current] = worse(unfinished.get(current), "hang" if hung else "crash")
            if hung or (named and int(named.group(1)) == r):
                culprits[current] = worse(culprits.get(current), unfinished[current])
        if stuck is not None:
            culprits = {stuck[1]: "hang"}
            there = reasons.get(stuck[1])
            reasons[stuck[1]] = (f"rank {stuck[0]} still in it {args.skew_timeout:g}s after another "
                                 "rank had finished it" + (f"; that rank: {there}" if there else ""))
        elif not culprits:
            culprits = unfinished
        if done_ranks == np:
            break
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
            reasons[pseudo] = last_words
            notes.append(f"launch {launch}: job died outside a test after module {last} (exit {rc})")
            pending = pending[pending.index(last) + 1 :]
            continue
        for c in new:
            results[c] = worse(results.get(c), culprits[c])
            if culprits[c] != "hang":
                reasons[c] = last_words
            else:
                reasons.setdefault(c, f"no progress for {os.environ.get('MPI4PY_TEST_TIMEOUT', '60')}s")
            excluded.append(c)
            notes.append(f"launch {launch}: {culprits[c]} in {c} (exit {rc})")
        # Start again from the earliest module a rank was cut off in, so
        # that the ranks cut off as bystanders run the rest of it too.
        first = min(pending.index(module_of(c)) if module_of(c) in pending else 0
                    for c in unfinished)
        pending = pending[first:]
    (outdir / "failures.txt").write_text(
        "".join(f"{v} {k} :: {reasons.get(k, '')}\n"
                for k, v in sorted(results.items()) if v in BAD), encoding="utf-8")
    return results, reasons, notes


def watch(proc, logdir, np, skew):
    """Waits for the job; ends it early when a rank has been in a test for
    skew seconds that another rank has already finished: the usual hang,
    where one rank left a test on an error and its peer waits for a message
    that will never come.  -> (rank, test id) it ended the job for, or None.
    (Every rank stuck in the same test is left to the driver's watchdog.)"""
    offset = [0] * np
    current = [None] * np  # (test id, when this rank was seen starting it)
    finished = set()
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
                elif word in RANK:
                    finished.add(rest)
                    if current[r] and current[r][0] == rest:
                        current[r] = None
        for r in range(np):
            if current[r] and current[r][0] in finished and now - current[r][1] > skew:
                proc.terminate()
                return r, current[r][0]
    return None


def mpiexec_message(path):
    """The launcher's own last line (why it ended the job), else the last line."""
    lines = [ln for ln in path.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
    said = [ln for ln in lines if ln.startswith("mpiexec:")]
    return (said or lines or ["(no output)"])[-1][:300]


def read_baseline(path):
    counts, ids = {}, {}
    if not path.exists():
        return counts, ids
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        # Test ids may hold spaces: "setUpClass (test_x.Class)".
        words = line.split(None, 2)
        if words[0] == "count":
            counts[int(words[1])] = int(words[2])
        else:
            ids.setdefault(int(words[0]), {})[words[2].strip()] = words[1]
    return counts, ids


def write_baseline(path, all_results, header):
    lines = [f"# {header}",
             "# Tests of mpi4py's own suite that fail or error on Tern, per rank count.",
             "# Written by tests/mpi4py/run.sh --update-baseline; run.sh fails when a",
             "# count grows or a test not listed here fails.  Each run writes the",
             "# exception of every failing test to <build>/mpi4py/results/np<N>/failures.txt.",
             "# count NP FAILURES+ERRORS",
             "# NP OUTCOME TEST-ID"]
    for np, res in sorted(all_results.items()):
        bad = sorted((k, v) for k, v in res.items() if v in BAD)
        lines.append(f"count {np} {len(bad)}")
    for np, res in sorted(all_results.items()):
        for k, v in sorted(res.items()):
            if v in BAD:
                lines.append(f"{np} {v} {k}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


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
    ap.add_argument("--update-baseline", action="store_true")
    ap.add_argument("--header", default="mpi4py")
    args = ap.parse_args()
    modules = sorted(p.stem for p in pathlib.Path(args.testdir).glob("test_*.py"))
    base_counts, base_ids = read_baseline(pathlib.Path(args.baseline))

    all_results, status = {}, 0
    for np in map(int, args.np.split(",")):
        t0 = time.time()
        res, why, notes = run_np(args, np, modules)
        all_results[np] = res
        n = {k: sum(1 for v in res.values() if v == k) for k in RANK}
        bad = {k: v for k, v in res.items() if v in BAD}
        print(f"np={np}: {len(res)} tests in {time.time() - t0:.0f}s: "
              f"{n['ok']} passed, {n['fail'] + n['xpass']} failed, "
              f"{n['error'] + n['crash'] + n['hang']} errors "
              f"({n['crash']} crashed, {n['hang']} hung), "
              f"{n['skip'] + n['xfail']} skipped; failures+errors {len(bad)}", flush=True)
        for note in notes:
            print(f"  {note}")
        if args.update_baseline:
            continue
        known = base_ids.get(np, {})
        limit = base_counts.get(np)
        if limit is None:
            print(f"  FAIL: no baseline for np={np}")
            status = 1
        elif len(bad) > limit:
            print(f"  FAIL: failures+errors {len(bad)} > baseline {limit}")
            status = 1
        for k in sorted(set(bad) - set(known)):
            print(f"  FAIL: not in the baseline: {bad[k]} {k} :: {why.get(k, '')}")
            status = 1
        for k in sorted(set(known) - set(bad)):
            state = res.get(k, "not run")
            print(f"  now passing: update the baseline: {k} ({state})")
    if args.update_baseline:
        write_baseline(pathlib.Path(args.baseline), all_results, args.header)
        print(f"baseline written: {args.baseline}")
    return status


if __name__ == "__main__":
    sys.exit(main())
