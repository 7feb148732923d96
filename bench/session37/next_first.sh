#!/usr/bin/env bash
# Written in session 37 (no GPU lent) for the next session's first call (carry [".devpack"]; payload `BINS="pairfold
# test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`): the output part on Hopper warpgroup MMA
# (PF_TRIMUL_OUTW: 1 k_tm_outfw, 2 also k_tm_outbw; cu_trimul_outw.cu, cu_trimul_outwb.cu), compiled here, never run.
#   1. test_cuda --only trimul_outw (both modes, against the CPU reference and PF_TRIMUL_OUTB's kernels, two runs
#      bit for bit; where outputs differ, the "outw diag" lines: channel and position patterns);
#   2. trimul f+b with PF_TRIMUL_OUTW 0 / 1 / 2, 2 with the forward's 3 warpgroups (PF_TRIMUL_OUTW_FWG=3) and
#      PF_TRIMUL_OUTB_TEAMS=4 (outw 0) taking turns, two rounds;
#   3. ncu: every k_tm_out* launch at N = 1024 with outw 0 and 2 (time, DRAM bytes), and the two new kernels'
#      L1 / shared and DRAM throughput, issue slots and registers;
#   4. step 1 under compute-sanitizer memcheck (--quick; last, so that a slow sanitizer costs only itself).
# ~8 minutes. If a mode fails step 1, steps 2-3 still time it (a wrong kernel's time says little: fix first).
. bench/device_common.sh
timeout -k 5 200 $T --only trimul_outw > $OUT/outw.log 2>&1; echo "rc=$?" >> $OUT/outw.log
report outw
grep -A2 "outw diag" $OUT/outw.log | head -n 24 >> $S
for r in 1 2; do
  for cfg in "0 2 2" "1 2 2" "2 2 2" "2 2 3" "0 4 2"; do
    read -r ow tm fwg <<< "$cfg"
    echo "== trimul PF_TRIMUL_OUTW=$ow PF_TRIMUL_OUTB_TEAMS=$tm PF_TRIMUL_OUTW_FWG=$fwg round $r" >> $S
    PF_TRIMUL_OUTW=$ow PF_TRIMUL_OUTB_TEAMS=$tm PF_TRIMUL_OUTW_FWG=$fwg timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 \
      --reps 5 2>&1 | grep -v '^#' | tail -n 3 | cut -c1-120 >> $S
  done
done
for ow in 0 2; do
  PF_TRIMUL_OUTW=$ow ncu_rows outw$ow 120 12 "k_tm_out" $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
PF_TRIMUL_OUTW=2 timeout -k 5 150 $ncu --clock-control none -k regex:"k_tm_out[fb]w" -c 4 --section SpeedOfLight \
  --section LaunchStats --section WarpStateStats --section SchedulerStats \
  $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/ncu_sol.log 2>&1
echo "== ncu sol rc=$?" >> $S
grep -E "k_tm_out|Duration|Memory Throughput|DRAM Throughput|L1/TEX Cache Throughput|Compute \(SM\)|Registers Per|Issue Slots Busy|Eligible Warps|No Eligible" $OUT/ncu_sol.log >> $S
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 150 $SAN --tool memcheck --error-exitcode 3 $T --quick --only trimul_outw > $OUT/outw_mc.log 2>&1
echo "rc=$?" >> $OUT/outw_mc.log
report outw_mc
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
