#!/usr/bin/env bash
# Session 32, call 3 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops attn_fwd_check" NO_SYS=1
# bash bench/pack_device.sh` with the forward's lazy max the default): attn_fwd_check's checks with the default step,
# PF_ATTN_FWD_LAZY=1 and =0 (the ramp cases run the mid-row rescale), then parity and the whole test_cuda in 4 shards.
. bench/device_common.sh
for lz in "" 1 0; do
  echo "== attn_fwd_check --quick --variants 0,5,6 PF_ATTN_FWD_LAZY=${lz:-unset}" >> $S
  PF_ATTN_FWD_LAZY=$lz timeout -k 5 120 $P/attn_fwd_check --quick --variants 0,5,6 > $OUT/fq_${lz:-d}.log 2>&1
  echo "rc=$?" >> $OUT/fq_${lz:-d}.log
  grep -E "^FAIL|passed,|rc=" $OUT/fq_${lz:-d}.log | head -12 >> $S
done
grep -A3 "bias=2" $OUT/fq_d.log | grep -E "case|  bmma2" >> $S
t0=$SECONDS
mkdir -p $OUT/da
OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=300 bash bench/device_all.sh > $OUT/device_all.log 2>&1
echo "== device_all parity shards: $((SECONDS - t0)) s" >> $S
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
