#!/usr/bin/env python3
"""ncu_launches.py LOG [--div K] [--top T]: an ncu log (`ncu --metrics gpu__time_duration.sum,
dram__bytes_read.sum,dram__bytes_write.sum ...`, default text output) grouped by kernel name
and grid size: launches, ms, MB read / written and GB/s per group, largest time first. Where the
log also has lts__t_requests.sum and lts__t_sectors.sum, a column of L2 sectors per request: session
49 found a kernel whose cp.async copies made one L2 request per 1.15 sectors bound by L2's tag
lookups (cuBLAS's GEMMs: 3.3; bulk copies: 2+).

Why the grid: the same kernel launched on pieces of different sizes shows as separate rows,
so a piece that runs at a fraction of the others' bandwidth stands out (session 34 found the
trimul output part's second row piece starting at an odd position this way). --div K divides
the times and bytes by K (the passes the profiled command ran), giving per-pass figures.
"""
import argparse
import collections
import re

SCALE = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3, "ns": 1e-6, "us": 1e-3, "ms": 1.0,
         "byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1.0, "Gbyte": 1e3, "KB": 1e-3, "MB": 1.0, "GB": 1e3}
METRICS = ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_requests.sum",
           "lts__t_sectors.sum")


def parse(path):
    """(kernel name, grid) and its metrics, one entry per launch."""
    rows, cur, vals = [], None, {}
    head = re.compile(r"\s\s(\S.*?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\)")
    metric = re.compile(r"(%s)\s+(\S+)\s+([\d.,]+)" % "|".join(re.escape(m) for m in METRICS))
    for line in open(path, errors="replace"):
        m = head.match(line)
        if m:
            if cur:
                rows.append((cur, vals))
            name = re.sub(r"\(.*", "", m.group(1))[:70]
            cur, vals = (name, "%s,%s,%s" % m.group(2, 3, 4)), {}
            continue
        m = metric.search(line)
        if m and cur:
            vals[m.group(1)] = float(m.group(3).replace(",", "")) * SCALE.get(m.group(2), 1.0)
    if cur:
        rows.append((cur, vals))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--div", type=float, default=1.0, help="passes the command ran (figures divided by it)")
    ap.add_argument("--top", type=int, default=40, help="rows printed")
    a = ap.parse_args()
    rows = parse(a.log)
    agg = collections.OrderedDict()
    for key, v in rows:
        g = agg.setdefault(key, [0] + [0.0] * len(METRICS))
        g[0] += 1
        for i, m in enumerate(METRICS):
            g[1 + i] += v.get(m, 0.0)
    total = sum(g[1] for g in agg.values())
    print("launches %d, kernel time %.3f ms (/%g: %.3f)" % (len(rows), total, a.div, total / a.div))
    l2 = any(g[4] > 0 for g in agg.values())
    print("%8s %6s %8s %8s %6s %s %-16s %s" % ("ms", "n", "MB rd", "MB wr", "GB/s", " sec/req" if l2 else "", "grid",
                                               "kernel"))
    for (name, grid), g in sorted(agg.items(), key=lambda kv: -kv[1][1])[: a.top]:
        gbs = (g[2] + g[3]) / g[1] if g[1] else 0.0
        spr = " %7.2f" % (g[5] / g[4]) if l2 and g[4] > 0 else (" %7s" % "-" if l2 else "")
        print("%8.3f %6g %8.1f %8.1f %6.0f %s %-16s %s" % (g[1] / a.div, g[0] / a.div, g[2] / a.div, g[3] / a.div, gbs,
                                                            spr, grid, name))


if __name__ == "__main__":
    main()
