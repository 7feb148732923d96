#!/usr/bin/env bash
# Session 31, call 4 (carry [".devpack"]): k_fwd_ws with the producer's announcements one step
# behind its copies (variant 7) against two (variant 8) and k_s9_fwd_bmma2 (6); ncu source-level
# counters of variant 7 at N = 1024 (where the stalls and the excess shared wavefronts are).
# VARIANTS: attn_fwd_check's list (default 6,7,8 as it ran; 8 was removed afterwards: use 6,7).
S=$OUT/summary.txt
nvidia-smi -L > $S
xz -dc .devpack/attn_fwd_check.xz > /tmp/attn_fwd_check && chmod +x /tmp/attn_fwd_check
echo "== attn_fwd_check --quick --variants ${VARIANTS:-6,7,8}" >> $S
timeout -k 5 120 /tmp/attn_fwd_check --quick --variants ${VARIANTS:-6,7,8} > $OUT/fwd_quick.log 2>&1; echo "rc=$?" >> $OUT/fwd_quick.log
grep -E "^FAIL|passed|rc=" $OUT/fwd_quick.log | head -20 >> $S
echo "== attn_fwd_check --variants ${VARIANTS:-6,7,8} --reps 7 (timing)" >> $S
timeout -k 5 150 /tmp/attn_fwd_check --variants ${VARIANTS:-6,7,8} --reps 7 > $OUT/fwd_time.log 2>&1; echo "rc=$?" >> $OUT/fwd_time.log
grep -E "^time|FAIL|passed,|rc=" $OUT/fwd_time.log >> $S
echo "== ncu source counters, k_fwd_ws<true, 1> (N = 1024 triangle)" >> $S
timeout -k 5 200 ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight -k regex:k_fwd_ws -c 1 \
  --page source --csv --print-source sass /tmp/attn_fwd_check --profile --variants 7 --reps 1 > $OUT/ncu_src.csv 2> $OUT/ncu_src.err
echo "ncu rc=$? $(wc -l < $OUT/ncu_src.csv) lines" >> $S
timeout -k 5 200 ncu --section WarpStateStats --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats \
  --metrics smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_sleeping,smsp__pcsamp_warps_issue_stalled_branch_resolving,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_lg_throttle,smsp__pcsamp_warps_issue_stalled_tex_throttle,smsp__pcsamp_warps_issue_stalled_membar,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_gmma \
  -k regex:k_fwd_ws -c 1 /tmp/attn_fwd_check --profile --variants 7 --reps 1 > $OUT/ncu.log 2>&1
echo "ncu2 rc=$?" >> $S
grep -E "Duration|Issue Slots Busy|Eligible|pcsamp|Warp Cycles Per Issued" $OUT/ncu.log >> $S
cat $S
