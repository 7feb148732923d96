#!/usr/bin/env python3
"""Per-kernel limits from `ncu --csv --metrics M ...` (M: bench/session28/call3.sh's list): the kernels by total
time, largest first, with time-weighted means of each metric over their launches. Where a kernel sits: near 100% of
one pipe or of DRAM / L2 throughput it is bound there; all low (issue slots too) means latency-bound.
Usage: ncu_pipes.py LOG [TOP]"""
import csv
import sys

SHORT = {  # metric -> column title
    "gpu__time_duration.sum": "ms",
    "sm__issue_active.avg.pct_of_peak_sustained_active": "issue",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occ",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active": "tensor",
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active": "xu",
    "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active": "alu",
    "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active": "fma",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active": "lsu",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram",
    "lts__t_sectors.avg.pct_of_peak_sustained_elapsed": "l2",
}


def main():
    rows = [r for r in csv.reader(l for l in open(sys.argv[1], errors="replace") if l.startswith('"'))]
    head, rows = rows[0], rows[1:]
    col = {n: i for i, n in enumerate(head)}
    launches = {}  # (kernel, launch id) -> {metric: value}
    for r in rows:
        try:
            v = float(r[col["Metric Value"]].replace(",", ""))
        except ValueError:
            continue
        unit, m = r[col["Metric Unit"]], r[col["Metric Name"]]
        if m == "gpu__time_duration.sum":
            v *= {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}.get(unit, 1.0)
        launches.setdefault((r[col["Kernel Name"]], r[col["ID"]]), {})[m] = v
    kern = {}  # kernel -> [count, total ms, {metric: time-weighted sum}]
    for (name, _), ms in launches.items():
        t = ms.get("gpu__time_duration.sum", 0.0)
        k = kern.setdefault(name[:70], [0, 0.0, {}])
        k[0] += 1
        k[1] += t
        for m, v in ms.items():
            k[2][m] = k[2].get(m, 0.0) + v * t
    total = sum(k[1] for k in kern.values())
    cols = [m for m in SHORT if m != "gpu__time_duration.sum"]
    print(f"kernel time {total:.2f} ms in {sum(k[0] for k in kern.values())} launches; % of peak, time-weighted")
    print(f"{'ms':>8} {'n':>4} " + " ".join(f"{SHORT[m]:>6}" for m in cols) + "  kernel")
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    for name, (n, t, acc) in sorted(kern.items(), key=lambda x: -x[1][1])[:top]:
        vals = " ".join(f"{acc[m] / t:6.1f}" if t > 0 and m in acc else f"{'-':>6}" for m in cols)
        print(f"{t:8.3f} {n:4d} {vals}  {name}")


if __name__ == "__main__":
    main()
