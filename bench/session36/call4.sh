#!/usr/bin/env bash
# Session 36, call 4 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): k_tm_outf / k_tm_outb with their LayerNorm sums as a reduce-scatter butterfly (ob_sum8: 17
# shuffles per 8 positions where 8 butterflies took 40; the same bits). Tests (teams 2 and 1) and memcheck, trimul
# f+b modes 0 / 2 alternating (two rounds), then ncu sections (speed of light, warp states, schedulers) of one
# k_tm_outb<2> and one k_tm_outf<2> launch at N = 1024.
. bench/device_common.sh
timeout -k 5 200 $T --only trimul_outb > $OUT/outb2.log 2>&1; echo "rc=$?" >> $OUT/outb2.log
PF_TRIMUL_OUTB_TEAMS=1 timeout -k 5 200 $T --only trimul_outb > $OUT/outb1.log 2>&1; echo "rc=$?" >> $OUT/outb1.log
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 150 $SAN --tool memcheck $T --quick --only trimul_outb > $OUT/san_outb.log 2>&1; echo "rc=$?" >> $OUT/san_outb.log
report outb2 outb1 san_outb
for r in 1 2; do
  for v in 0 2; do
    echo "== trimul PF_TRIMUL_OUTB=$v round $r" >> $S
    PF_TRIMUL_OUTB=$v timeout -k 5 120 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 3 | cut -c1-120 >> $S
  done
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in k_tm_outb k_tm_outf; do
  timeout -k 5 120 $NCU --clock-control none -k regex:$k --launch-skip 4 -c 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/ncu_$k.log 2>&1
  echo "== ncu $k rc=$?" >> $S
  grep -E "Duration|Throughput|Pipe|Issue|Eligible|Stall|Warp Cycles|Active Warps|Bank|L1/TEX Hit|Shared|Executed Ipc|No Eligible|One or More" $OUT/ncu_$k.log | head -40 >> $S
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
