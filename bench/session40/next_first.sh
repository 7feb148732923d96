#!/usr/bin/env bash
# Session 40, written for the next GPU session's first call (carry [".devpack"]; payload `BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`). Session 40 had no GPU: k_tm_outbw<3> (PF_TRIMUL_OUTW_BWG=3,
# docs/TRIMUL.md "Session 40") passed only the emulator.
# 1. test_cuda --only trimul_outw (the BWG 3, DWZ, FWG 4 and FWG 2 cases: none ran on a GPU), then its memcheck.
# 2. trimul f+b at 1024 / 2048 with PF_TRIMUL_OUTW_BWG 2 (the default), 3 and PF_TRIMUL_OUTW_DWZ=1 (k_tm_outbw_dwz,
#    dW_z summed in the kernel) and PF_TRIMUL_OUTW_FWG=4 (the forward with 4 warpgroups) taking turns, two rounds.
# 3. ncu of every trimul kernel at 1024 for each (time, DRAM bytes), and k_tm_outbw's
#    sections with BWG 3.
# If one is right and faster: the whole test_cuda with it (e.g. PF_TRIMUL_OUTW_DWZ=1 parity_shards 260), then make
# it the default (ow_bwg's / ow_dwz's cu_env_int default in cu_trimul_outw.cu).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout -k 5 150 $T --only trimul_outw > $OUT/tmow.log 2>&1; echo "rc=$?" >> $OUT/tmow.log
timeout -k 5 200 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only trimul_outw > $OUT/tmow_mc.log 2>&1
echo "rc=$?" >> $OUT/tmow_mc.log
report tmow tmow_mc
for r in 1 2; do
  for v in "BWG=2" "BWG=3" "DWZ=1" "FWG=4" "DWZ=1 PF_TRIMUL_OUTW_FWG=4"; do
    echo "== trimul PF_TRIMUL_OUTW_$v round $r" >> $S
    env PF_TRIMUL_OUTW_$v timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-120 >> $S
  done
done
for v in "BWG=2" "BWG=3" "DWZ=1"; do  # every kernel of trimul f+b at 1024 (3 forwards + 3 f+b), per configuration
  export "PF_TRIMUL_OUTW_$v"
  ncu_rows "${v%%=*}${v#*=}" 150 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
  unset "PF_TRIMUL_OUTW_${v%%=*}"
done
PF_TRIMUL_OUTW_BWG=3 timeout -k 5 120 $NCU --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section LaunchStats -k regex:k_tm_outbw -c 1 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/ncu_bwg3_sec.log 2>&1
grep -E "Duration|DRAM Throughput|Eligible Warps|No Eligible|Registers Per|Issued Warp" $OUT/ncu_bwg3_sec.log | head -10 >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
