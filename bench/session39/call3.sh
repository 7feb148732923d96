#!/usr/bin/env bash
# Session 39, call 3 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): cu_gemm's long-K rules (K >= 2^16 not a multiple of 256: the first K - K % 256 rows, then
# the rest; operands along K under 2^31 elements) and PF_TRIMUL_OUTW=2 / FWG 3 the default. The new gemm_long_k
# group and big_trimul with the rules and without them (PF_BIG_GEMM_PIECE=-1: cuBLASLt as is, expected to fail at
# K 1,292,560; cuBLASLt's algorithm for that shape printed by PF_GEMM_PROBE), then the PyTorch parity and the whole
# test_cuda in 4 shards, then trimul f+b at 1024 / 2048 with the new default and OUTW 0.
. bench/device_common.sh
timeout -k 5 120 $T --only gemm_long_k > $OUT/longk.log 2>&1; echo "rc=$?" >> $OUT/longk.log
timeout -k 5 60 $T --only big_trimul > $OUT/bt.log 2>&1; echo "rc=$?" >> $OUT/bt.log
report longk bt
echo "== without the rules (PF_BIG_GEMM_PIECE=-1)" >> $S
PF_BIG_GEMM_PIECE=-1 timeout -k 5 120 $T --only gemm_long_k > $OUT/longk_raw.log 2>&1; echo "rc=$?" >> $OUT/longk_raw.log
PF_BIG_GEMM_PIECE=-1 PF_GEMM_PROBE=1 timeout -k 5 90 $T --only big_trimul > $OUT/bt_raw.log 2>&1; echo "rc=$?" >> $OUT/bt_raw.log
grep -E "FAIL|passed|rc=" $OUT/longk_raw.log | cut -c1-180 | head -20 >> $S
grep -E "FAIL|passed|rc=" $OUT/bt_raw.log | cut -c1-180 | head -6 >> $S
grep -A4 "K=1292560 " $OUT/bt_raw.log | head -12 >> $S
parity_shards 260
for r in 1 2; do
  for v in 2 0; do
    echo "== trimul PF_TRIMUL_OUTW=$v round $r" >> $S
    PF_TRIMUL_OUTW=$v timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 2 | cut -c1-120 >> $S
  done
done
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -f *.log
cat $S
