#!/usr/bin/env bash
# Session 35, call 1 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of main@6b578bc, plus .devpack/fwsold.xz / fws3.xz: attn_fwd_check for sm_90a built from main
# and with bench/session31/fws3.patch applied (k_fwd_ws with 3 consumer warpgroups, written in session 31, never run)).
# 1. fws3: checks (variant 7 = k_fwd_ws against the fp32 reference, twice the same bits) and timing against the
#    2-consumer form and k_s9_fwd_bmma2 (variant 6, the default), alternating twice.
# 2. ncu of k_bwd_ws at N = 1024 (what limits it in mode 4: L2, DRAM, issue, stalls).
# 3. The whole test_cuda in 4 shards and PyTorch parity on the current code (2610e37's row scale had only --only opm).
. bench/device_common.sh
for b in fwsold fws3; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in fwsold fws3; do
  echo "== $b attn_fwd_check --quick --variants 6,7" >> $S
  timeout -k 5 150 /tmp/$b --quick --variants 6,7 > $OUT/quick_$b.log 2>&1; echo "rc=$?" >> $OUT/quick_$b.log
  grep -E "^FAIL|passed|rc=" $OUT/quick_$b.log | head -12 >> $S
done
for round in 1 2; do
  for b in fwsold fws3; do
    echo "== round $round $b --variants 6,7 --reps 7" >> $S
    timeout -k 5 150 /tmp/$b --variants 6,7 --reps 7 > $OUT/time_${b}_$round.log 2>&1; echo "rc=$?" >> $OUT/time_${b}_$round.log
    grep -E "^time|FAIL|rc=" $OUT/time_${b}_$round.log | grep -v "refused" >> $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout -k 5 150 $NCU --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  -k regex:k_bwd_ws -c 1 $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_bws.log 2>&1
echo "== ncu k_bwd_ws N=1024 rc=$?" >> $S
grep -E "Duration|Throughput|Hit Rate|Issue Slots|Eligible|Active Warps|Warp Cycles|Busy|Bandwidth|Mem Pipes" $OUT/ncu_bws.log | head -40 >> $S
parity_shards 260
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
