#!/usr/bin/env bash
# Session 36, call 2 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`; call 1 with the backward's dy, dgp arguments swapped (the weight gradients failed) and the
# prefetches earlier: zl of the next tile right after the dx products (dzl stored from registers), the forward's zl
# double-buffered, d out loaded between P2's products): the trimul output part with LN_out in one kernel per pass (cu_trimul_outb.cu: k_tm_outf
# forward, k_tm_outb backward; PF_TRIMUL_OUTB=2 the default, 1 the backward alone, 0 the separate kernels). Its
# tests and memcheck first; if they pass, --only trimul in 4 shards; then trimul f+b in the three modes alternating
# (two rounds), ncu per launch of trimul at 1024 (mode 2), and the Pairformer block f+b at 512 / 1024 modes 0 / 2.
. bench/device_common.sh
timeout -k 5 200 $T --only trimul_outb > $OUT/outb.log 2>&1; echo "rc=$?" >> $OUT/outb.log
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 150 $SAN --tool memcheck $T --quick --only trimul_outb > $OUT/san_outb.log 2>&1; echo "rc=$?" >> $OUT/san_outb.log
report outb san_outb
if grep -q " 0 failed" $OUT/outb.log && grep -q "rc=0" $OUT/outb.log; then
  run model 200 $T --only model
  for k in 0 1 2 3; do run trimul$k 300 $T --only trimul --shard $k/4; done
  wait
  report model trimul0 trimul1 trimul2 trimul3
fi
for r in 1 2; do
  for v in 0 1 2; do
    echo "== trimul PF_TRIMUL_OUTB=$v round $r" >> $S
    PF_TRIMUL_OUTB=$v timeout -k 5 120 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 4 >> $S
  done
done
ncu_rows tm1024 150 28 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
for r in 1; do
  for v in 0 2; do
    echo "== block f+b PF_TRIMUL_OUTB=$v round $r (pairfold bench --preset af3 --set n_msa_blocks=0)" >> $S
    PF_TRIMUL_OUTB=$v timeout -k 5 150 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024 --reps 7 > $OUT/block_${v}_${r}.log 2>&1
    echo "rc=$?" >> $S; grep -v '^#' $OUT/block_${v}_${r}.log | tail -n 4 >> $S
  done
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
