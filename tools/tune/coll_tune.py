#!/usr/bin/env python3
"""Measures Tern's collective algorithms on this machine and writes a tuning
table for TERN_COLL_TUNING_FILE (format: src/coll/tuning.h, README
"Collective tuning").

For each rank count and collective it runs tern-bench once per algorithm,
forced through TERN_<COLL>_ALGORITHM, over every power-of-two size from
--min-size to --max-size, --reps times (the repetitions interleaved, so
that a slow moment of the machine hits every algorithm alike), and takes
the median of each size's time (tern-bench's average over the ranks).  The
fastest algorithm at each size wins; adjacent sizes with the same winner
become one row.  The first row of a collective reaches down to 0 bytes and
its last one is open above, so that every size has a row.

    tools/tune/coll_tune.py --np 2 4 --reps 5 --out my-table.txt
    TERN_COLL_TUNING_FILE=my-table.txt mpiexec -n 4 ./app

Standard library only.  Exit status 0, 1 when a run failed (the table is
then written from the runs that worked), 2 for bad usage.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys

DEFAULT_COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "gather",
                 "scatter", "reduce_scatter"]
# Collectives whose selection size is not tern-bench's size: allgather
# selects on all blocks together, tern-bench counts one rank's block.
TIMES_NP = {"allgather", "allgatherv"}
# Collectives that select on no size: their rows cover every size.
NO_SIZE = {"barrier"}


def size_value(text):
    text = text.strip().upper().rstrip("B").rstrip("I")
    mult = 1
    if text and text[-1] in "KMG":
        mult = 1024 ** ("KMG".index(text[-1]) + 1)
        text = text[:-1]
    value = int(text) * mult
    if value < 1 or value & (value - 1):
        raise argparse.ArgumentTypeError("%s is not a power of two of 1 or more" % text)
    return value


def size_text(b):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return "%d%s" % (b >> shift, unit)
    return str(b)


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %s, %d cores, Linux %s" % (platform.node(), cpu, os.cpu_count() or 0,
                                           platform.release())


def clean_env(extra):
    """The environment of a run: no forced algorithm, no table but the
    run's own setting."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("TERN_") and k.endswith("_ALGORITHM"))
           and k != "TERN_COLL_TUNING_FILE" and not k.startswith("MV2_")}
    env.update(extra)
    return env


def algorithms(build):
    out = subprocess.run([os.path.join(build, "bin", "tern-info"), "--algorithms"],
                         check=True, capture_output=True, text=True, env=clean_env({})).stdout
    return {w[0]: w[1:] for w in (line.split() for line in out.splitlines()) if w}


def run_bench(args, np, coll, algo):
    """{size: seconds-per-call average over ranks} of one run, or None."""
    env = clean_env({"TERN_%s_ALGORITHM" % coll.upper(): algo})
    if args.ppn:
        env["TERN_RANKS_PER_HOST"] = str(args.ppn)
    cmd = [os.path.join(args.build, "bin", "mpiexec"), "--timeout", str(args.timeout), "-n",
           str(np), os.path.join(args.build, "bin", "tern-bench"), coll, "-f", "json", "-m",
           "%d:%d" % (args.min_size, args.max_size)]
    if args.iters:
        cmd += ["-i", str(args.iters)]
    if args.warmup is not None:
        cmd += ["-x", str(args.warmup)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=args.timeout + 30)
    except subprocess.TimeoutExpired:
        print("coll_tune: %s timed out" % " ".join(cmd), file=sys.stderr)
        return None
    if "cannot run here" in p.stderr:
        return "refused"
    if p.returncode != 0:
        print("coll_tune: np %d %s=%s failed (exit %d): %s" %
              (np, coll, algo, p.returncode, p.stderr.strip()[-500:]), file=sys.stderr)
        return None
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if obj.get("benchmark") != coll or obj.get("status") != "ok":
            continue
        names = [c["name"] for c in obj["columns"]]
        si, ai = names.index("size"), names.index("avg")
        return {int(r[si]): float(r[ai]) for r in obj["rows"]}
    print("coll_tune: np %d %s=%s: no result in the output" % (np, coll, algo), file=sys.stderr)
    return None


def winners(medians, margin):
    """[(size, algorithm)] by size: the fastest, except that the previous
    size's winner stays while it is within 'margin' of the fastest (noise
    should not cut ranges into pieces)."""
    out, prev = [], None
    for size in sorted({s for per in medians.values() for s in per}):
        times = {a: per[size] for a, per in medians.items() if size in per}
        best = min(times, key=lambda a: (times[a], a))
        if prev in times and times[prev] <= times[best] * (1 + margin):
            best = prev
        out.append((size, best))
        prev = best
    return out


def rows_for(coll, np, hosts, ppn, picks):
    """Table rows for one collective and rank count from [(sel_size, algo)]."""
    if not picks:
        return []
    if coll in NO_SIZE:
        return [(coll, np, hosts, ppn, "*", picks[0][1])]
    runs = []
    for size, algo in picks:
        if runs and runs[-1][2] == algo:
            runs[-1][1] = size
        else:
            runs.append([size, size, algo])
    rows = []
    for i, (lo, hi, algo) in enumerate(runs):
        lo_t = "0" if i == 0 else size_text(lo)
        hi_t = "" if i == len(runs) - 1 else size_text(hi)
        rows.append((coll, np, hosts, ppn, "%s-%s" % (lo_t, hi_t), algo))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--np", type=int, nargs="+", default=[2, 4, 8], help="rank counts (2 4 8)")
    ap.add_argument("--ppn", type=int, default=0,
                    help="ranks per simulated host (TERN_RANKS_PER_HOST); default: one host")
    ap.add_argument("--colls", nargs="+", default=DEFAULT_COLLS,
                    help="collectives, as tern-bench names them (default: %s)" %
                    " ".join(DEFAULT_COLLS))
    ap.add_argument("--reps", type=int, default=5, help="repetitions of each run (5)")
    ap.add_argument("--build", default="build", help="Tern's build folder (build)")
    ap.add_argument("--out", default="-", help="the table's file (default: standard output)")
    ap.add_argument("--raw", help="also write every median as JSON to this file")
    ap.add_argument("--min-size", type=size_value, default=1, help="smallest size (1)")
    ap.add_argument("--max-size", type=size_value, default=4 << 20, help="largest size (4M)")
    ap.add_argument("--iters", type=int, help="tern-bench -i (timed iterations per size)")
    ap.add_argument("--warmup", type=int, help="tern-bench -x (warm-up iterations per size)")
    ap.add_argument("--margin", type=float, default=0.05,
                    help="the previous size's winner stays while within this share of the "
                    "fastest (0.05)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per tern-bench run (300)")
    args = ap.parse_args()
    if args.reps < 1 or any(n < 1 for n in args.np) or args.min_size > args.max_size:
        ap.error("--reps and --np need 1 or more, --min-size at most --max-size")

    algos = algorithms(args.build)
    unknown = [c for c in args.colls if c not in algos]
    if unknown:
        ap.error("unknown collectives: %s (known: %s)" % (" ".join(unknown), " ".join(algos)))

    # results[np][coll][algo] = [ {size: t}, ... ] one per repetition
    results = {n: {c: {a: [] for a in algos[c]} for c in args.colls} for n in args.np}
    refused = set()
    failed = 0
    total = len(args.np) * sum(len(algos[c]) for c in args.colls) * args.reps
    done = 0
    for rep in range(args.reps):
        for n in args.np:
            for c in args.colls:
                for a in algos[c]:
                    done += 1
                    if (n, c, a) in refused:
                        continue
                    r = run_bench(args, n, c, a)
                    print("coll_tune: [%d/%d] rep %d np %d %s %s: %s" %
                          (done, total, rep + 1, n, c, a,
                           "cannot run here" if r == "refused" else "ok" if r else "failed"),
                          file=sys.stderr)
                    if r == "refused":
                        refused.add((n, c, a))
                    elif r:
                        results[n][c][a].append(r)
                    else:
                        failed += 1

    lines, raw = [], {}
    for n in args.np:
        ppn = min(args.ppn, n) if args.ppn else n
        hosts = -(-n // ppn)
        for c in args.colls:
            medians = {}
            for a, reps in results[n][c].items():
                if not reps:
                    continue
                sizes = set.intersection(*(set(r) for r in reps))
                scale = n if c in TIMES_NP else 1
                medians[a] = {(0 if c in NO_SIZE else s * scale): statistics.median(r[s] for r in reps)
                              for s in sizes}
            raw.setdefault(str(n), {})[c] = {a: {str(s): t for s, t in sorted(m.items())}
                                            for a, m in medians.items()}
            lines.extend(rows_for(c, n, hosts, ppn, winners(medians, args.margin)))

    cmd = " ".join(shlex.quote(w) for w in [os.path.relpath(sys.argv[0])] + sys.argv[1:])
    version = subprocess.run([os.path.join(args.build, "bin", "tern-info"), "--version"],
                             capture_output=True, text=True).stdout.strip()
    head = ["# Tern collective tuning table (TERN_COLL_TUNING_FILE; format: README, "
            "\"Collective tuning\")",
            "# machine: %s" % machine(),
            "# date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %z"),
            "# library: %s" % version,
            "# command: %s" % cmd,
            "# sizes %s to %s, median of %d runs of tern-bench per algorithm; bytes: the size "
            "the collective selects on" % (size_text(args.min_size), size_text(args.max_size),
                                           args.reps),
            "#",
            "# %-20s %-6s %-6s %-6s %-12s %s" % ("collective", "ranks", "hosts", "ppn", "bytes",
                                                 "algorithm")]
    body = ["%-22s %-6s %-6s %-6s %-12s %s" % row for row in lines]
    text = "\n".join(head + body) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    if args.raw:
        with open(args.raw, "w") as f:
            json.dump({"command": cmd, "machine": machine(), "medians_us": raw}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
