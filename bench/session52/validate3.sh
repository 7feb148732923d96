#!/usr/bin/env bash
# Session 52: the checks before k_s9_fwd_tma (PF_ATTN_FWD_BMMA=3) becomes the default (any sm_90 card; carry
# [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops"): with PF_ATTN_FWD_BMMA=3 exported,
# 1. the PyTorch parity and the whole test_cuda in 4 shards (bench/device_all.sh; every attention case also compares
#    the TMA forward's bits with bmma2's: attn_fwd_same_bits);
# 2. compute-sanitizer memcheck of test_cuda --quick --only attn in what is left (~200 s wanted).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
export PF_ATTN_FWD_BMMA=3
parity_shards ${SHARD_LIMIT:-280}
echo "== parity + shards done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
if [ $b -gt 40 ]; then
    timeout $b compute-sanitizer --tool memcheck $T --quick --only attn > $OUT/mc3.log 2>&1
    echo "rc=$?" >> $OUT/mc3.log; report mc3
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
