#!/usr/bin/env python3
"""Condense `ncu --print-summary per-kernel --metrics gpu__time_duration.sum`
output: total time per kernel name (invocations x average), largest first."""
import re
import sys

rows, name, inv = [], None, 0
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s+(\S.*?) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\).*Invocations\s*:\s*(\d+)", line)
    if m:
        name, inv = m.group(1), int(m.group(2))
        continue
    m = re.match(r"\s+(\S.*?)\s+\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
    if m:
        name, inv = m.group(1), 0
    m2 = re.search(r"Invocations\s*:?\s*(\d+)", line)
    if m2 and name:
        inv = int(m2.group(1))
    m3 = re.search(r"gpu__time_duration\.sum\s+(\w+)\s+\S+\s+\S+\s+([\d.,]+)", line)
    if m3 and name:
        unit, avg = m3.group(1), float(m3.group(2).replace(",", ""))
        scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3, "ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}.get(unit, 1.0)
        rows.append((avg * scale * max(inv, 1), max(inv, 1), name[:90]))
        name = None
rows.sort(reverse=True)
tot = sum(r[0] for r in rows)
print(f"ncu kernel time total {tot:.2f} ms")
for t, n, nm in rows[:int(__import__("os").environ.get("NCU_TOP", "24"))]:
    print(f"{t:9.3f} ms {n:4d}x  {nm}")
