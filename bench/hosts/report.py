#!/usr/bin/env python3
"""The table of bench/hosts/run.sh: medians of its raw runs against issue
14's speed targets.

    report.py RAW.tsv META REPS LAT_ITERS

RAW.tsv: one line per run, "rep metric who value bytes" (bytes: what
crossed host 2's link to the bridge during the run).  META: lines printed
above the table as they are."""

import os
import statistics
import sys

WHO = [("tern", "Tern"), ("perftest", "ucx_perftest"), ("mpich", "MPICH"), ("ompi", "Open MPI")]
# metric, label, unit, lower is better
METRICS = [
    ("lat", "latency 8 B", "us", True),
    ("bw", "bandwidth 1 MiB", "MB/s", False),
    ("launch", "launch 4 ranks, 2 hosts", "ms", True),
    ("launch_exec", "launch, agent ip netns exec", "ms", True),
]
# run.sh --coll: 4 ranks (or COLL_NP), half on each host.
COLL_WHO = [("tern", "Tern"), ("ternflat", "Tern, flat algorithms"), ("mpich", "MPICH"),
            ("ompi", "Open MPI")]
COLL_METRICS = [
    ("allreduce_8", "allreduce 8 B (us)", True),
    ("allreduce_64k", "allreduce 64 KiB (us)", True),
    ("bcast_8", "bcast 8 B (us)", True),
    ("bcast_64k", "bcast 64 KiB (us)", True),
    ("barrier", "barrier (us)", True),
    ("allgather_8", "allgather 8 B (us)", True),
    ("allgather_64k", "allgather 64 KiB (us)", True),
    ("alltoall_8", "alltoall 8 B (us)", True),
    ("alltoall_1k", "alltoall 1 KiB (us)", True),
    ("gather_8", "gather 8 B (us)", True),
    ("gather_64k", "gather 64 KiB (us)", True),
    ("scatter_8", "scatter 8 B (us)", True),
    ("scatter_64k", "scatter 64 KiB (us)", True),
    ("reduce_scatter_64", "reduce_scatter 64 B (us)", True),
    ("reduce_scatter_64k", "reduce_scatter 64 KiB (us)", True),
    ("allgatherv_8", "allgatherv 8 B (us)", True),
    ("allgatherv_16k", "allgatherv 16 KiB (us)", True),
    ("scan_8", "scan 8 B (us)", True),
    ("scan_64k", "scan 64 KiB (us)", True),
    ("exscan_8", "exscan 8 B (us)", True),
    ("exscan_64k", "exscan 64 KiB (us)", True),
]
# run.sh --bcast: 4 ranks, 2 per host.
BCAST_WHO = [("tern", "Tern"), ("ternwhole", "Tern, whole buffer"),
             ("ternflat", "Tern, flat algorithms"), ("mpich", "MPICH"), ("ompi", "Open MPI")]
BCAST_METRICS = [
    ("bcast_1m", "bcast 1 MiB (us)", True),
    ("bcast_4m", "bcast 4 MiB (us)", True),
]
# run.sh --rma: 2 ranks, 1 per host.
RMA_WHO = [("tern", "Tern"), ("mpich", "MPICH"), ("ompi", "Open MPI")]
RMA_METRICS = [
    ("put_lat", "put 8 B, lock/flush (us)", True),
    ("get_lat", "get 8 B, lock/flush (us)", True),
    ("fop_lat", "fetch_and_op, lock/flush (us)", True),
    ("put_fence", "put 8 B in a fence epoch (us)", True),
    ("put_pscw", "put 8 B in a pscw epoch (us)", True),
    ("put_bw", "put bandwidth 1 MiB (MB/s)", False),
    ("get_bw", "get bandwidth 1 MiB (MB/s)", False),
]


def fmt(v):
    if v is None:
        return "-"
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def ratio_cell(num, den, limit, lower):
    if num is None or den is None or den == 0:
        return "-"
    r = num / den
    ok = r <= limit if lower else r >= limit
    return "%.2fx (%s %.2f: %s)" % (r, "<=" if lower else ">=", limit, "met" if ok else "MISSED")


def main():
    raw, meta, reps, lat_iters = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    runs = {}
    nbytes = {}
    for line in open(raw):
        f = line.rstrip("\n").split("\t")
        if len(f) != 5:
            continue
        rep, metric, who, value, b = int(f[0]), f[1], f[2], float(f[3]), int(f[4])
        runs.setdefault((metric, who), []).append((rep, value))
        nbytes.setdefault((metric, who), []).append(b)

    def med(metric, who):
        vals = [v for _, v in runs.get((metric, who), [])]
        return statistics.median(vals) if vals else None

    for line in open(meta):
        print("# " + line.rstrip("\n"))
    print("# medians of %d repetitions (n = runs that gave a figure)" % reps)
    if any(m == c for (m, _) in runs for c, _, _ in COLL_METRICS):
        table(runs, med, "%s ranks, 2 hosts" % os.environ.get("COLL_NP", "4"), COLL_WHO,
              COLL_METRICS, ["ternflat"])
        return
    if any(m == c for (m, _) in runs for c, _, _ in BCAST_METRICS):
        table(runs, med, "4 ranks, 2 hosts", BCAST_WHO, BCAST_METRICS, ["ternwhole", "ternflat"])
        return
    if any(m == c for (m, _) in runs for c, _, _ in RMA_METRICS):
        table(runs, med, "2 ranks, 2 hosts", RMA_WHO, RMA_METRICS, [])
        return
    print()
    head = ["metric"] + [name for _, name in WHO] + ["Tern / ucx_perftest", "Tern / better peer"]
    rows = []
    for metric, label, unit, lower in METRICS:
        m = {who: med(metric, who) for who, _ in WHO}
        cells = ["%s (%s)" % (label, unit)]
        for who, _ in WHO:
            n = len(runs.get((metric, who), []))
            cells.append("-" if m[who] is None else "%s (n=%d)" % (fmt(m[who]), n))
        peers = [m[w] for w in ("mpich", "ompi") if m[w] is not None]
        if metric == "lat":
            better = min(peers) if peers else None
            cells += [ratio_cell(m["tern"], m["perftest"], 1.05, True), ratio_cell(m["tern"], better, 0.9, True)]
        elif metric == "bw":
            better = max(peers) if peers else None
            cells += [ratio_cell(m["tern"], m["perftest"], 0.95, False), ratio_cell(m["tern"], better, 1.0, False)]
        else:
            cells += ["-", "vs Hydra " + ratio_cell(m["tern"], m["mpich"], 0.5, True)]
        rows.append(cells)
    p50 = med("lat_p50", "perftest")
    if p50 is not None:
        rows.append(["latency 8 B, 50th percentile (us)", "-", fmt(p50), "-", "-", "-",
                     "Tern mean / perftest median %.2fx" % (med("lat", "tern") / p50)
                     if med("lat", "tern") else "-"])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths]] + rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")

    # Did every contender cross the bridge?  The least a run can move is the
    # payload of its timed part (ucx_perftest caps its warm-up on its own).
    payload = {"lat": 2 * 8 * lat_iters, "bw": (1 << 20) * 64 * 20}
    print()
    print("# bytes through host 2's link to the bridge per run (least of the repetitions) "
          "against the payload of the timed part:")
    for metric in ("lat", "bw"):
        parts = []
        for who, name in WHO:
            b = nbytes.get((metric, who))
            if not b:
                continue
            least = min(b)
            verdict = "crossed" if least >= payload[metric] else "DID NOT CROSS"
            parts.append("%s %.1f MB %s" % (name, least / 1e6, verdict))
        print("#   %s (payload %.2f MB): %s" % (metric, payload[metric] / 1e6, "; ".join(parts)))

    print()
    print("# every run (rep: value):")
    for metric, label, unit, _ in METRICS + [("lat_p50", "latency 50th percentile", "us", True)]:
        for who, name in WHO:
            vals = sorted(runs.get((metric, who), []))
            if vals:
                print("#   %-24s %-13s %s" % (label, name, "  ".join("%d: %s" % (r, fmt(v)) for r, v in vals)))


def table(runs, med, title, who_list, metrics, bases):
    """Medians per contender; Tern's ratio to each of Tern's other settings
    in bases and to the better peer (for bandwidths, above 1 is better)."""
    print()
    names = dict(who_list)
    head = [title] + [name for _, name in who_list] + [
        "Tern / " + names[b].split(", ", 1)[-1] for b in bases] + ["Tern / better peer"]
    rows = []
    for metric, label, lower in metrics:
        m = {who: med(metric, who) for who, _ in who_list}
        if all(v is None for v in m.values()):
            continue  # not in this sitting (run.sh's COLL_SET)
        cells = [label]
        for who, _ in who_list:
            n = len(runs.get((metric, who), []))
            cells.append("-" if m[who] is None else "%s (n=%d)" % (fmt(m[who]), n))
        peers = [m[w] for w in ("mpich", "ompi") if m[w] is not None]
        better = (min(peers) if lower else max(peers)) if peers else None
        for den in [m[b] for b in bases] + [better]:
            cells.append("-" if m["tern"] is None or not den else "%.2fx" % (m["tern"] / den))
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths]] + rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    print()
    print("# every run (rep: value):")
    for metric, label, _ in metrics:
        for who, name in who_list:
            vals = sorted(runs.get((metric, who), []))
            if vals:
                print("#   %-30s %-22s %s" % (label, name, "  ".join("%d: %s" % (r, fmt(v)) for r, v in vals)))


if __name__ == "__main__":
    main()
