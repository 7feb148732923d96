#!/usr/bin/env bash
# Session 36, call 3 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): k_tm_outf / k_tm_outb in teams (PF_TRIMUL_OUTB_TEAMS=2, the default: two teams of 8 warps
# per block, each with its own 64-position tiles, buffers and named barrier; 1: call 2's form). Tests with each
# team count and memcheck (teams 2), then trimul f+b modes 0 / 2 x teams 1 / 2 alternating (two rounds), then ncu
# of the two kernels at 1024 with each team count.
. bench/device_common.sh
timeout -k 5 200 $T --only trimul_outb > $OUT/outb2.log 2>&1; echo "rc=$?" >> $OUT/outb2.log
PF_TRIMUL_OUTB_TEAMS=1 timeout -k 5 200 $T --only trimul_outb > $OUT/outb1.log 2>&1; echo "rc=$?" >> $OUT/outb1.log
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 150 $SAN --tool memcheck $T --quick --only trimul_outb > $OUT/san_outb.log 2>&1; echo "rc=$?" >> $OUT/san_outb.log
report outb2 outb1 san_outb
for r in 1 2; do
  for cfg in "0 2" "2 1" "2 2"; do
    read -r v tm <<< "$cfg"
    echo "== trimul PF_TRIMUL_OUTB=$v TEAMS=$tm round $r" >> $S
    PF_TRIMUL_OUTB=$v PF_TRIMUL_OUTB_TEAMS=$tm timeout -k 5 120 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 3 | cut -c1-120 >> $S
  done
done
for tm in 1 2; do
  PF_TRIMUL_OUTB_TEAMS=$tm ncu_rows tm1024_t$tm 120 6 "k_tm_out|k_tm_ln" $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
