#!/usr/bin/env python3
"""The tables of bench/scale/run.sh: medians of its runs, per library and
rank count, against the issue's targets.

    report.py RUNS.jsonl META CORES

RUNS.jsonl: one JSON object per run (run.sh's emit); META: lines printed
above the tables as they are; CORES: the machine's, for the fair share."""

import json
import statistics
import sys

NAMES = {"tern": "Tern", "mpich": "MPICH", "ompi": "Open MPI"}
MIB = 1 << 20


def fmt(v, unit=""):
    if v is None:
        return "-"
    if abs(v) >= 100:
        s = "%.0f" % v
    elif abs(v) >= 10:
        s = "%.1f" % v
    else:
        s = "%.2f" % v
    return s + unit


class Runs:
    def __init__(self, path):
        self.runs = [json.loads(line) for line in open(path) if line.startswith("{")]
        self.libs = list(dict.fromkeys(r["lib"] for r in self.runs))

    def counts(self, kind):
        return sorted({r["n"] for r in self.runs if r["kind"] == kind})

    def of(self, kind, lib, n):
        return [r for r in self.runs if r["kind"] == kind and r["lib"] == lib and r["n"] == n]

    def med(self, kind, lib, n, key, scale=1.0):
        """Median over the runs that gave a figure, and how many did not."""
        rs = self.of(kind, lib, n)
        vals = [r[key] * scale for r in rs if r["status"] == "ok" and r.get(key) is not None]
        return (statistics.median(vals) if vals else None), len(rs) - len(vals), rs

    def cell(self, kind, lib, n, key, scale=1.0, unit=""):
        m, bad, rs = self.med(kind, lib, n, key, scale)
        if not rs:
            return "-"
        if m is None:
            return "/".join(sorted({r["status"] for r in rs}))
        return fmt(m, unit) + (" (%d of %d %s)" % (bad, len(rs), "failed") if bad else "")


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


def growth(R, kind, key, lib, scale=1.0):
    """t(n_i)/t(n_0) over n_i/n_0 for each later count: at most 1 is at most linear."""
    ns = R.counts(kind)
    base = None
    out = []
    for n in ns:
        m = R.med(kind, lib, n, key, scale)[0]
        if m is None:
            continue
        if base is None:
            base = (n, m)
            continue
        if base[1] > 0:
            out.append("%d->%d: %.2f" % (base[0], n, (m / base[1]) / (n / base[0])))
    return ", ".join(out) if out else "-"


def failures(R):
    notes = [r for r in R.runs if r["status"] != "ok"]
    if not notes:
        return
    print("Runs that gave no figure:")
    print()
    for r in notes:
        print("- %s %s %d ranks, repetition %d: %s (exit %s) %s" % (
            r["kind"], NAMES.get(r["lib"], r["lib"]), r["n"], r["rep"], r["status"], r["exit"],
            r.get("note", "")))
    print()


def main():
    runs, meta, cores = sys.argv[1], sys.argv[2], int(sys.argv[3])
    R = Runs(runs)
    for line in open(meta):
        print("    " + line.rstrip("\n"))
    reps = max([r["rep"] for r in R.runs] or [0])
    print()
    print("Medians of %d repetitions; a cell that says timeout/failed gave no figure." % reps)
    print()
    libs = R.libs
    lib_heads = [NAMES.get(lib, lib) for lib in libs]

    # ---- start-up and finalize
    ns = R.counts("startup")
    if ns:
        print("### Start-up and MPI_Finalize")
        print()
        print("mpiexec wall time for MPI_Init + one barrier + MPI_Finalize (s); inside MPI_Init and")
        print("inside MPI_Finalize (ms), the slowest rank's.")
        print()
        rows = []
        for n in ns:
            rows.append([str(n)] + [
                "%s s / %s / %s" % (R.cell("startup", lib, n, "wall_s"),
                                    R.cell("startup", lib, n, "init_us_max", 1e-3),
                                    R.cell("startup", lib, n, "finalize_us_max", 1e-3))
                for lib in libs])
        table(["ranks"] + ["%s: wall / init ms / finalize ms" % h for h in lib_heads], rows)
        print("Growth against the smallest count, (t(n)/t(n0)) / (n/n0): at most 1.00 is at most linear.")
        print()
        rows = []
        for key, label, scale in (("wall_s", "wall", 1.0), ("init_us_max", "MPI_Init", 1e-3),
                                  ("finalize_us_max", "MPI_Finalize", 1e-3)):
            rows.append([label] + [growth(R, "startup", key, lib, scale) for lib in libs])
        table(["time"] + lib_heads, rows)

    # ---- memory
    ns = R.counts("memory")
    if ns:
        print("### Shared memory and resident memory, every rank held after MPI_Init + one allreduce")
        print()
        print("/dev/shm: bytes in use on its tmpfs (statvfs), during minus before.  Shmem: /proc/meminfo's")
        print("Shmem, during minus before (tmpfs, memfd and shared anonymous memory alike).  RSS and PSS:")
        print("/proc/PID/smaps_rollup, mean per rank (PSS splits shared pages among their mappers).  MiB.")
        print()
        rows = []
        for n in ns:
            for key, label, scale in (
                    ("shm_df_bytes", "/dev/shm total", 1 / MIB),
                    ("shmem_meminfo_bytes", "Shmem total", 1 / MIB),
                    ("rss_kib_total", "RSS per rank", 1 / 1024 / n),
                    ("pss_kib_total", "PSS per rank", 1 / 1024 / n)):
                cells = [R.cell("memory", lib, n, key, scale) for lib in libs]
                verdict = "-"
                if "tern" in libs:
                    t = R.med("memory", "tern", n, key, scale)[0]
                    peers = [R.med("memory", p, n, key, scale)[0] for p in libs if p != "tern"]
                    peers = [p for p in peers if p is not None]
                    if t is not None and peers:
                        verdict = "below both" if t < min(peers) else "NOT below (%.2fx the lower)" % (
                            t / min(peers) if min(peers) > 0 else float("inf"))
                rows.append([str(n), label] + cells + [verdict])
        table(["ranks", "MiB"] + lib_heads + ["Tern"], rows)
        print("Growth against the smallest count, (m(n)/m(n0)) / (n/n0): at most 1.00 is at most linear.")
        print()
        rows = []
        for key, label in (("shmem_meminfo_bytes", "Shmem total"), ("shm_df_bytes", "/dev/shm total"),
                           ("pss_kib_total", "PSS, all ranks"), ("rss_kib_total", "RSS, all ranks")):
            rows.append([label] + [growth(R, "memory", key, lib) for lib in libs])
        table(["memory"] + lib_heads, rows)

    # ---- latency against the fair share
    ns = R.counts("lat")
    if ns:
        base_n = min(ns)
        print("### Barrier and 8-byte allreduce with more ranks than cores")
        print()
        print("Mean us per call (slowest rank), median of the repetitions.  Fair share: the library's own")
        print("%d-rank time times max(1, p / %d cores), i.e. each rank's time slice shrinks as ranks" % (base_n, cores))
        print("outnumber cores; target: within 2x of it.  Ratio = t(p) / fair share.")
        print()
        for key, label in (("barrier_us", "MPI_Barrier"), ("allreduce_us", "MPI_Allreduce 8 B")):
            rows = []
            for n in ns:
                cells = []
                for lib in libs:
                    t = R.med("lat", lib, n, key)[0]
                    t0 = R.med("lat", lib, base_n, key)[0]
                    c = R.cell("lat", lib, n, key)
                    if t is not None and t0:
                        fair = t0 * max(1.0, n / cores)
                        r = t / fair
                        c += " (fair %s, %.2fx: %s)" % (fmt(fair), r, "met" if r <= 2 else "MISSED")
                    cells.append(c)
                rows.append([str(n)] + cells)
            print("%s (us)" % label)
            print()
            table(["ranks"] + lib_heads, rows)
    failures(R)


if __name__ == "__main__":
    main()
