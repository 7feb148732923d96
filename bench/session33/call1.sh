#!/usr/bin/env bash
# Session 33, call 1 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops attn_bwd_check" NO_SYS=1
# bash bench/pack_device.sh` with k_bwd_dbias_pipe's block shape a template: new bias-gradient variants
# q64k64.w4.m3 / .m4, q128k64.w8.m2, q128k128.w8.m1 (.co.pipe), none the default):
# 1. attn_bwd_check --check: every bias-gradient variant must give the default's bits;
# 2. the bias-gradient pass alone, every variant, triangle N = 512 / 1024 / 2048 and the MSA row / single shapes, two rounds;
# 3. the triangle attention module f+b with PF_ATTN_DBIAS set to each new variant and unset, alternating;
# 4. ncu of the default and the m4 / m3 variants at N = 1024 (time, issue, occupancy, stalls).
. bench/device_common.sh
timeout -k 5 200 $P/attn_bwd_check --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
echo "== attn_bwd_check --check: $(grep -E 'passed' $OUT/check.log | tail -1) $(tail -1 $OUT/check.log); NOT-IDENTICAL: $(grep -c NOT-IDENTICAL $OUT/check.log)" >> $S
grep -m5 -E "FAIL|NOT-IDENTICAL" $OUT/check.log >> $S
for round in 1 2; do
  echo "== round $round: attn_bwd_check --dbias --time 512,1024,2048 --reps 10" >> $S
  timeout -k 5 150 $P/attn_bwd_check --dbias --time 512,1024,2048 --reps 10 > $OUT/dbias_$round.log 2>&1
  grep -E "^(bias gradient|triangle|MSA|single)" $OUT/dbias_$round.log >> $S
done
for round in 1 2; do
  for v in "" q64k64.w4.m4.co.pipe q64k64.w4.m3.co.pipe q128k64.w8.m2.co.pipe; do
    echo "== round $round tri_attn PF_ATTN_DBIAS=${v:-unset}" >> $S
    PF_ATTN_DBIAS=$v timeout -k 5 100 $P/bench_cuda_ops --ops tri_attn --sizes 512,1024,2048 --reps 5 > $OUT/ops_${round}_${v:-d}.log 2>&1
    grep -h '^{' $OUT/ops_${round}_${v:-d}.log | python3 -c '
import sys, json
for l in sys.stdin:
    d = json.loads(l); print("  N %s fwd %.3f f+b %.3f peak %s" % (d.get("N"), d.get("fwd_ms", -1), d.get("fwdbwd_ms", -1), d.get("peak_mib", "?")))' >> $S 2>&1 || tail -3 $OUT/ops_${round}_${v:-d}.log >> $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in q64k128.w4.m2.co.pipe q64k64.w4.m4.co.pipe q64k64.w4.m3.co.pipe; do
  timeout -k 5 90 $NCU --clock-control none -k regex:k_bwd_dbias --metrics gpu__time_duration.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum \
    $P/attn_bwd_check --profile 1024 --dbias-variant $v > $OUT/ncu_$v.log 2>&1
  echo "== ncu $v" >> $S; grep -E "k_bwd_dbias|duration|inst_issued|warps_active|stalled|hmma|lts__t_bytes" $OUT/ncu_$v.log | head -14 >> $S
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
