"""The mpi4py gate's judgement: what one run at one rank count amounts to,
the baseline file that holds the expected amounts, and the comparison.
No MPI, no mpi4py: suite.py feeds it real runs, test_gate.py synthetic ones.

A run at NP ranks is summarised as
  end       how the last launch ended, after every rank wrote DONE:
            "0" (mpiexec exited 0), "N" (mpiexec's exit code: the highest
            code of the ranks that failed, 128+S for signal S, 124 for its
            --timeout) or "hang" (the job outlived the finalize timeout)
  counts    tests per outcome: pass, skip (unittest skips, including whole
            classes that mpi4py disables when a feature probe raises),
            xfail (expected failures)
  failures  {test id: (outcome, kind)} for fail, error, xpass, crash, hang;
            the kind is what went wrong in words that stay the same from
            run to run (see kind_of)

The gate fails on anything worse than the baseline at the same rank count:
another end, fewer passes, more skips or xfails, a failure not listed, a
listed failure of another outcome or kind.  Anything better (more passes,
fewer skips, a listed failure gone) passes with a note that says to update
the baseline, so that the next regression is measured from there.
"""

import re

# Worst outcome on any rank wins; "crash"/"hang" come from a START line
# that no outcome line followed.
RANK = {"ok": 0, "skip": 1, "xfail": 1, "fail": 2, "xpass": 2, "error": 3, "crash": 4, "hang": 4}
BAD = ("fail", "xpass", "error", "crash", "hang")
COUNTED = (("pass", "ok"), ("skip", "skip"), ("xfail", "xfail"))
UPDATE = "tests/mpi4py/run.sh --update-baseline [TERN_DIR]"


def worse(a, b):
    return a if a is not None and RANK[a] >= RANK.get(b, -1) else b


def parse_rank_log(text, reasons):
    """One rank's driver log -> (outcomes {id: outcome}, unfinished id or
    None, hung?, done?).  reasons {id: (outcome, text)} keeps, per id, the
    exception given with its worst outcome (on ties, the first)."""
    outcomes, last, current, hung, done = {}, {}, None, False, False
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word == "WHY":
            test_id, _, why = rest.partition(" :: ")
            note_reason(reasons, test_id, last.get(test_id, "error"), why)
        elif word == "START":
            current = rest
        elif word in RANK:
            outcomes[rest] = worse(outcomes.get(rest), word)
            last[rest] = word
            if rest == current:
                current = None
        elif word == "DONE":
            done = True
        elif line.startswith("Timeout ("):
            hung = True
    return outcomes, current, hung, done


def note_reason(reasons, test_id, outcome, text):
    had = reasons.get(test_id)
    if had is None or RANK[outcome] > RANK[had[0]]:
        reasons[test_id] = (outcome, text)


def kind_of(outcome, why):
    """What went wrong, without the parts that change between runs
    (addresses, pids, values in assertion messages).
      fail/error/xpass  the exception type, and the first MPI error class
                        named in its message: "Exception MPI_ERR_WIN"
      crash             how mpiexec says the job died: "signal 11",
                        "exit 1", "MPI_Abort", "timeout"
      hang              "hang"
    """
    why = why or ""
    if outcome == "hang":
        return "hang"
    if outcome == "crash":
        m = re.search(r"killed by signal (\d+)", why)
        if m:
            return f"signal {m.group(1)}"
        if "MPI_Abort" in why or "aborted" in why:
            return "MPI_Abort"
        m = re.search(r"exited with code (\d+)", why)
        if m:
            return f"exit {m.group(1)}"
        if "timeout" in why:
            return "timeout"
        return "crash"
    m = re.match(r"([A-Za-z_][\w.]*)(?::|$)", why)
    kind = m.group(1).rsplit(".", 1)[-1] if m else "?"
    err = re.search(r"\bMPI_(?:ERR_[A-Z_]+|SUCCESS)\b", why)
    return f"{kind} {err.group(0)}" if err else kind


class Summary:
    def __init__(self, end, counts, failures):
        self.end = end
        self.counts = counts
        self.failures = failures

    @classmethod
    def of_run(cls, end, results, reasons):
        """results {id: outcome}, reasons {id: (outcome, text)}."""
        counts = {name: sum(1 for v in results.values() if v == outcome) for name, outcome in COUNTED}
        failures = {k: (v, kind_of(v, reasons.get(k, ("", ""))[1]))
                    for k, v in results.items() if v in BAD}
        return cls(str(end), counts, failures)

    def line(self, np):
        return f"np {np} end {self.end} " + " ".join(f"{n} {self.counts[n]}" for n, _ in COUNTED)


def read_baseline(text):
    """-> {np: Summary}.  Lines:
         np NP end END pass P skip S xfail X
         NP OUTCOME TEST-ID :: KIND
    (test ids may hold spaces: "setUpClass (test_x.Class)")."""
    base = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        try:
            if words[0] == "np":
                fields = dict(zip(words[2::2], words[3::2]))
                counts = {n: int(fields[n]) for n, _ in COUNTED}
                base.setdefault(int(words[1]), Summary(None, {}, {}))
                base[int(words[1])].end = fields["end"]
                base[int(words[1])].counts = counts
            else:
                head, sep, kind = line.partition(" :: ")
                np, outcome, test_id = head.split(None, 2)
                if not sep or outcome not in BAD:
                    raise ValueError(line)
                base.setdefault(int(np), Summary(None, {}, {})).failures[test_id] = (outcome, kind.strip())
        except (KeyError, ValueError, IndexError) as e:
            raise ValueError(f"baseline line {number}: cannot read {line!r}") from e
    for np, s in base.items():
        if s.end is None:
            raise ValueError(f"baseline: failures listed for np={np} but no 'np {np} ...' line")
    return base


def write_baseline(summaries, header):
    """{np: Summary} -> the baseline file's text."""
    lines = [f"# {header}",
             "# mpi4py's own test suite on Tern: what each rank count is expected to give.",
             f"# Written by {UPDATE}; the gate fails on anything",
             "# worse: another end of the job, fewer passes, more skips or xfails, a",
             "# failure not listed here, or a listed failure of another outcome or kind.",
             "# Each run writes every failing test's exception to",
             "# <build>/mpi4py/results/np<N>/failures.txt.",
             "#   np NP end END pass P skip S xfail X",
             "#       END: mpiexec's exit code after every rank finished its tests,",
             "#       or 'hang' when the job did not end in time (MPI_Finalize)",
             "#   NP OUTCOME TEST-ID :: KIND"]
    for np in sorted(summaries):
        lines.append(summaries[np].line(np))
    for np in sorted(summaries):
        for k, (outcome, kind) in sorted(summaries[np].failures.items()):
            lines.append(f"{np} {outcome} {k} :: {kind}")
    return "\n".join(lines) + "\n"


def compare(base, now):
    """Baseline and this run at one rank count -> (worse, better): lists of
    sentences; any entry in worse fails the gate."""
    bad, good = [], []
    if now.end != base.end:
        (good if now.end == "0" else bad).append(f"job ended with {describe_end(now.end)}, "
                                                 f"baseline {describe_end(base.end)}")
    for name, _ in COUNTED:
        n, b = now.counts[name], base.counts[name]
        if n == b:
            continue
        fewer_is_worse = name == "pass"
        (bad if (n < b) == fewer_is_worse else good).append(f"{name} {n}, baseline {b}")
    for k, (outcome, kind) in sorted(now.failures.items()):
        if k not in base.failures:
            bad.append(f"new failure: {outcome} {k} :: {kind}")
        elif base.failures[k] != (outcome, kind):
            b_outcome, b_kind = base.failures[k]
            bad.append(f"failure changed: {k}: {outcome} {kind}, baseline {b_outcome} {b_kind}")
    for k in sorted(set(base.failures) - set(now.failures)):
        good.append(f"listed failure gone: {k}")
    return bad, good


def describe_end(end):
    if end == "0":
        return "exit 0"
    if end == "hang":
        return "a hang after the last test"
    return f"exit {end}"
