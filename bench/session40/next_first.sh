#!/usr/bin/env bash
# Session 40, written for the next GPU session's first call (carry [".devpack"]; payload `BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`). Session 40 had no GPU: k_tm_outbw<3> (PF_TRIMUL_OUTW_BWG=3,
# docs/TRIMUL.md "Session 40") passed only the emulator.
# 1. test_cuda --only trimul_outw (the BWG 3 cases and the FWG 2 ones: neither ran on a GPU), then its memcheck.
# 2. trimul f+b at 1024 / 2048 with PF_TRIMUL_OUTW_BWG 2 (the default) and 3 taking turns, two rounds.
# 3. ncu of k_tm_outbw's launches at 1024, BWG 2 and 3 (time, DRAM bytes), and its sections with BWG 3.
# If BWG 3 is right and faster: the whole test_cuda with it (PF_TRIMUL_OUTW_BWG=3 parity_shards 260), then make it
# the default (ow_bwg's cu_env_int default in cu_trimul_outw.cu).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout -k 5 150 $T --only trimul_outw > $OUT/tmow.log 2>&1; echo "rc=$?" >> $OUT/tmow.log
timeout -k 5 200 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only trimul_outw > $OUT/tmow_mc.log 2>&1
echo "rc=$?" >> $OUT/tmow_mc.log
report tmow tmow_mc
for r in 1 2; do
  for v in 2 3; do
    echo "== trimul PF_TRIMUL_OUTW_BWG=$v round $r" >> $S
    PF_TRIMUL_OUTW_BWG=$v timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-120 >> $S
  done
done
for v in 2 3; do
  PF_TRIMUL_OUTW_BWG=$v ncu_rows bwg$v 120 6 k_tm_outbw $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
done
PF_TRIMUL_OUTW_BWG=3 timeout -k 5 120 $NCU --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section LaunchStats -k regex:k_tm_outbw -c 1 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/ncu_bwg3_sec.log 2>&1
grep -E "Duration|DRAM Throughput|Eligible Warps|No Eligible|Registers Per|Issued Warp" $OUT/ncu_bwg3_sec.log | head -10 >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
