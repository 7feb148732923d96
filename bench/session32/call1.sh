#!/usr/bin/env bash
# Session 32, call 1 (carry [".devpack"] holding attn_fwd_check.xz only): k_fwd_ws's forms
# against k_s9_fwd_bmma2 (variant 6): 7 = 2 consumers (session 31's), 8 = 3 consumers, 9 = 2
# consumers with the bias on the tensor core, 10 = 3 with it. Checks against the fp32 reference,
# timing, then ncu (speed of light, warp states, scheduler) of each form at N = 1024.
S=$OUT/summary.txt
nvidia-smi -L > $S
xz -dc .devpack/attn_fwd_check.xz > /tmp/attn_fwd_check && chmod +x /tmp/attn_fwd_check
V=${VARIANTS:-6,7,8,9,10}
echo "== attn_fwd_check --quick --variants $V" >> $S
timeout -k 5 120 /tmp/attn_fwd_check --quick --variants $V > $OUT/fwd_quick.log 2>&1; echo "rc=$?" >> $OUT/fwd_quick.log
grep -E "^FAIL|passed|rc=" $OUT/fwd_quick.log | head -20 >> $S
echo "== attn_fwd_check --variants $V --reps 7 (timing)" >> $S
timeout -k 5 200 /tmp/attn_fwd_check --variants $V --reps 7 > $OUT/fwd_time.log 2>&1; echo "rc=$?" >> $OUT/fwd_time.log
grep -E "^time|FAIL|passed,|rc=" $OUT/fwd_time.log >> $S
for v in ${NCU_VARIANTS:-7 8 9 10}; do
  echo "== ncu variant $v (N = 1024 triangle)" >> $S
  timeout -k 5 100 ncu --section WarpStateStats --section SpeedOfLight --section SchedulerStats --section ComputeWorkloadAnalysis \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' -k regex:k_fwd_ws -c 1 /tmp/attn_fwd_check --profile --variants $v --reps 1 > $OUT/ncu_$v.log 2>&1
  echo "ncu rc=$?" >> $S
  grep -E "Duration|Issue Slots Busy|Eligible Warps|Warp Cycles Per Issued|Registers Per|Compute \(SM\) Throughput|Executed Ipc A" $OUT/ncu_$v.log >> $S
  grep -E "issue_stalled" $OUT/ncu_$v.log | sort -k3 -n -r | head -8 >> $S
done
cat $S
