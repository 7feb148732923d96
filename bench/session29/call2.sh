#!/usr/bin/env bash
# Session 29 call 2 (carry [".devpack"]; .devpack/attn_bwd_check from branch bwdws): the warp-specialised backward
# with the consumers' dS^T barriers decoupled (fused.wg.dec) checked and timed against fused.wg and the default,
# then ncu on fused.wg.dec at N = 1024: stall reasons per warp state and per SASS instruction (source page).
. bench/device_common.sh
A=/tmp/attn_bwd_check; xz -dc .devpack/attn_bwd_check.xz > $A
chmod +x $A
echo "== attn_bwd_check --check" >> $S
timeout -k 5 120 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "passed,|FAIL|rc=" $OUT/check.log | tail -n 20 >> $S
for v in fused.wg.dec fused.wg fused.wg.dec; do
    echo "== --time 512,1024,2048 --variant $v" >> $S
    timeout -k 5 90 $A --time 512,1024,2048 --reps 10 --variant $v > $OUT/time_$v.log 2>&1; echo "rc=$?" >> $S
    grep -v "^$" $OUT/time_$v.log | tail -n 12 >> $S
done
NCU="ncu --clock-control none -k regex:k_bwd_ws --launch-count 1"
timeout -k 5 150 $NCU --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SourceCounters --import-source yes \
    -o $OUT/ws $A --profile 1024 --variant fused.wg.dec > $OUT/ncu.log 2>&1
echo "== ncu rc=$?" >> $S
ncu -i $OUT/ws.ncu-rep --print-details all > $OUT/ncu_details.txt 2>&1
grep -E "Duration|Throughput|Issue Slots|Eligible|Active Warps|No Eligible|Stall|Warp Cycles|Executed Ipc|Registers" $OUT/ncu_details.txt | head -n 60 >> $S
ncu -i $OUT/ws.ncu-rep --page source --csv --print-source sass > $OUT/source.csv 2>&1
python3 - $OUT/source.csv >> $S <<'PY'
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
hdr = None
for i, r in enumerate(rows):
    if any('Warp Stall Sampling' in c for c in r): hdr = i; break
if hdr is None:
    print('source page: no stall columns', rows[:3]); sys.exit()
h = rows[hdr]; data = rows[hdr + 1:]
print('source columns:', [c for c in h][:40])
ci = [k for k, c in enumerate(h) if c.startswith('Warp Stall Sampling (All')][0]
si = [k for k, c in enumerate(h) if c.strip() in ('Source', 'SASS')]
si = si[0] if si else 1
def num(x):
    try: return float(x.replace(',', ''))
    except: return 0.0
tot = sum(num(r[ci]) for r in data if len(r) > ci)
print('total samples', tot)
top = sorted(data, key=lambda r: -num(r[ci]) if len(r) > ci else 0)[:45]
stall_cols = [k for k, c in enumerate(h) if c.startswith('stall_') or 'Stall' in c and k != ci]
for r in top:
    extra = sorted(((num(r[k]), h[k]) for k in stall_cols if num(r[k]) > 0), reverse=True)[:3]
    print('%6.0f %5.1f%%  %-70s %s' % (num(r[ci]), 100 * num(r[ci]) / max(tot, 1), r[si][:70], extra))
PY
gzip -k $OUT/source.csv
cd $OUT && tar czf logs.tgz *.log ncu_details.txt && rm -f *.log ncu_details.txt source.csv
cat $S
