#!/usr/bin/env bash
# Session 33, call 3 (carry [".devpack"], the payload of call 1): where the triangle attention module's time goes
# outside the three attention kernels, and trimul's: ncu per kernel (time, DRAM bytes read / written) of
# `bench_cuda_ops --ops tri_attn` and `--ops trimul` at N = 1024, --reps 1.
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for op in tri_attn trimul; do
  timeout -k 5 200 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    $P/bench_cuda_ops --ops $op --sizes 1024 --reps 1 > $OUT/ncu_$op.log 2>&1
  echo "== ncu $op rc=$?" >> $S
  python3 - $OUT/ncu_$op.log >> $S <<'PY'
import re, sys, collections
rows = []; cur = None; vals = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s\s(\S.*?) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
    if m:
        if cur: rows.append((cur, vals))
        cur, vals = m.group(1), {}
        continue
    m = re.search(r"(gpu__time_duration\.sum|dram__bytes_read\.sum|dram__bytes_write\.sum)\s+(\S+)\s+([\d.,]+)", line)
    if m and cur:
        u, v = m.group(2), float(m.group(3).replace(",", ""))
        sc = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "ns": 1e-6, "us": 1e-3, "ms": 1.0,
              "byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1.0, "Gbyte": 1e3, "KB": 1e-3, "MB": 1.0, "GB": 1e3}.get(u, 1.0)
        vals[m.group(1)] = v * sc
if cur: rows.append((cur, vals))
agg = collections.OrderedDict()
for n, v in rows:
    k = n[:80]
    a = agg.setdefault(k, [0, 0.0, 0.0, 0.0])
    a[0] += 1; a[1] += v.get("gpu__time_duration.sum", 0); a[2] += v.get("dram__bytes_read.sum", 0); a[3] += v.get("dram__bytes_write.sum", 0)
tot = sum(a[1] for a in agg.values())
print("launches %d, kernel time %.3f ms (all reps)" % (len(rows), tot))
print("%9s %4s %9s %9s %7s  %s" % ("ms", "n", "MB read", "MB write", "GB/s", "kernel"))
for k, a in sorted(agg.items(), key=lambda kv: -kv[1][1]):
    print("%9.3f %4d %9.1f %9.1f %7.0f  %s" % (a[1], a[0], a[2], a[3], (a[2] + a[3]) / a[1] if a[1] else 0, k))
PY
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
