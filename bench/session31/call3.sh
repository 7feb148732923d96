#!/usr/bin/env bash
# Session 31, call 3 (carry [".devpack"]): k_fwd_ws v2 (4 stages, Q from global memory an item
# ahead, mask terms a step ahead) checked and timed against k_s9_fwd_bmma2; ncu of k_fwd_ws.
S=$OUT/summary.txt
nvidia-smi -L > $S
xz -dc .devpack/attn_fwd_check.xz > /tmp/attn_fwd_check && chmod +x /tmp/attn_fwd_check
echo "== attn_fwd_check --quick --variants 6,7" >> $S
timeout -k 5 120 /tmp/attn_fwd_check --quick --variants 6,7 > $OUT/fwd_quick.log 2>&1; echo "rc=$?" >> $OUT/fwd_quick.log
grep -E "^(FAIL|  ws)|passed|rc=" $OUT/fwd_quick.log | grep -v refused | head -40 >> $S
echo "== attn_fwd_check --variants 6,7 --reps 7 (timing)" >> $S
timeout -k 5 150 /tmp/attn_fwd_check --variants 6,7 --reps 7 > $OUT/fwd_time.log 2>&1; echo "rc=$?" >> $OUT/fwd_time.log
grep -E "^time|FAIL|passed,|rc=" $OUT/fwd_time.log >> $S
echo "== ncu k_fwd_ws (N = 1024 triangle)" >> $S
timeout -k 5 200 ncu --set full -k regex:k_fwd_ws -c 1 /tmp/attn_fwd_check --profile --variants 7 --reps 1 > $OUT/ncu.log 2>&1
echo "ncu rc=$?" >> $S
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Executed Ipc A|No Eligible|Warp Cycles Per Issued|Registers Per|Achieved Occupancy|L2 Cache Throughput|Stall|stall|Tensor|Pipe" $OUT/ncu.log | head -60 >> $S
cat $S
