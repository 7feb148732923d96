#!/usr/bin/env bash
# Session 33, call 2 (carry [".devpack"] holding fwsnew.xz and fwsold.xz: attn_fwd_check built for sm_90a with
# k_fwd_ws's consumers in FlashAttention-3's order with two P register buffers (FWS_ORDER=1: no wait for the
# warpgroup's own P V between its S and its exps; SASS checked) and in session 31's order (FWS_ORDER=0)).
# Checks of both (variant 7 = k_fwd_ws against the fp32 reference, twice the same bits; 6 = k_s9_fwd_bmma2, the
# default), timing alternating twice (--variants 6,7 --reps 7), then ncu of the new form at N = 1024.
S=$OUT/summary.txt
nvidia-smi -L > $S
for b in fwsnew fwsold; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in fwsnew fwsold; do
  echo "== $b attn_fwd_check --quick --variants 6,7" >> $S
  timeout -k 5 150 /tmp/$b --quick --variants 6,7 > $OUT/quick_$b.log 2>&1; echo "rc=$?" >> $OUT/quick_$b.log
  grep -E "^FAIL|passed|rc=" $OUT/quick_$b.log | head -12 >> $S
done
for round in 1 2; do
  for b in fwsold fwsnew; do
    echo "== round $round $b --variants 6,7 --reps 7" >> $S
    timeout -k 5 150 /tmp/$b --variants 6,7 --reps 7 > $OUT/time_${b}_$round.log 2>&1; echo "rc=$?" >> $OUT/time_${b}_$round.log
    grep -E "^time|FAIL|rc=" $OUT/time_${b}_$round.log | grep -v "refused" >> $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for b in fwsold fwsnew; do
  timeout -k 5 100 $NCU --clock-control none -k regex:k_fwd_ws --metrics gpu__time_duration.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio \
    env PF_ATTN_FWD_WS=1 /tmp/$b --profile --variants 7 > $OUT/ncu_$b.log 2>&1
  echo "== ncu $b" >> $S; grep -E "k_fwd_ws|duration|inst_issued|eligible|gmma|xu|stalled" $OUT/ncu_$b.log | head -12 >> $S
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
