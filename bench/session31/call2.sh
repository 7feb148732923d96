#!/usr/bin/env bash
# Session 31, call 2 (carry [".devpack"]): the new warp-specialised wgmma forward (k_fwd_ws,
# attn_fwd_check variant 7) checked against the fp32 reference and timed against k_s9_fwd_bmma2
# (variant 6); the race fix's cost in k_bwd_ws mode 4 (attn_bwd_check built with it against one
# built without, at 34b8fc1), alternating; ncu of both forwards at N = 1024.
S=$OUT/summary.txt
nvidia-smi -L > $S
for b in attn_fwd_check attn_bwd_check attn_bwd_nofix; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
echo "== attn_fwd_check --quick --variants 6,7" >> $S
timeout -k 5 120 /tmp/attn_fwd_check --quick --variants 6,7 > $OUT/fwd_quick.log 2>&1; echo "rc=$?" >> $OUT/fwd_quick.log
grep -E "^(FAIL|  ws)|refused|passed|rc=" $OUT/fwd_quick.log | head -40 >> $S
echo "== attn_fwd_check --variants 6,7 --reps 7 (timing)" >> $S
timeout -k 5 150 /tmp/attn_fwd_check --variants 0,6,7 --reps 7 > $OUT/fwd_time.log 2>&1; echo "rc=$?" >> $OUT/fwd_time.log
grep -E "^time|FAIL|passed,|rc=" $OUT/fwd_time.log >> $S
echo "== k_bwd_ws mode 4 pass: race fix (fix) against 34b8fc1 (nofix), alternating" >> $S
for i in 1 2; do
  for b in attn_bwd_check attn_bwd_nofix; do
    timeout -k 5 60 /tmp/$b --time 512,1024,2048 --reps 10 --variant fused.wg.dec.sa.alt 2>&1 | grep -E "^(512|1024|2048) " | grep -v " v1 " | sed "s/^/$b /" >> $S
  done
done
echo "== ncu (N = 1024 triangle, variants 6, 7)" >> $S
timeout -k 5 150 ncu --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy \
  -k regex:"k_fwd_ws|k_s9_fwd_bmma2" -c 2 /tmp/attn_fwd_check --profile --variants 6,7 --reps 1 > $OUT/ncu.log 2>&1
echo "ncu rc=$?" >> $S
grep -E "k_fwd_ws|k_s9_fwd_bmma2|Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Executed Ipc A|No Eligible|Warp Cycles Per Issued|Registers Per|Achieved Occupancy|L2 Cache Throughput" $OUT/ncu.log >> $S
cat $S
