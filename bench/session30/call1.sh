#!/usr/bin/env bash
# Session 30 call 1b (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops attn_bwd_check" NO_SYS=1
# bash bench/pack_device.sh` of main@5b9d781, session 29's final code): parity, the whole test_cuda in 4 shards and
# the AF3 trunk's training step at crop 384 / 768 (not run since the bias gradient's range rule).
. bench/device_common.sh
t0=$SECONDS
mkdir -p $OUT/da  # device_all.sh writes its own summary
OUT=$OUT/da STAGES="parity shards trunk" TEST_SHARDS=4 TESTS_LIMIT=300 TRUNK_N=384:1:4,768:1:4 TRUNK_LIMIT=90 \
    bash bench/device_all.sh > $OUT/device_all.log 2>&1
echo "== device_all parity shards trunk: $((SECONDS - t0)) s" >> $S
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
