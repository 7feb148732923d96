#!/usr/bin/env bash
# Session 34, call 4 (carry [".devpack"]; payload `EXTRA="/tmp/pf_old/pairfold:pairfold_old" BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`: cu_linear_bwd_set, the Linear backwards that wrote dx over a
# filled buffer (outer product mean, pair-weighted averaging, global attention, their sharded entries) now write it;
# pairfold_old: call 3's pairfold). The whole test_cuda in 4 shards and parity first, then both AF3 block types at
# N = 768 and the AF2 blocks at 384 per module, the two builds alternating, then memcheck of the changed ops (quick).
. bench/device_common.sh
parity_shards 260
ab_modules 2 90 "^(pairformer|msa_module|evoformer|extra_msa) |outer_product_mean|weighted_averaging|global|sum of" \
    "pairfold_old pairfold" "af3 768" "af2 384"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for op in opm pwavg global_attn; do
  timeout -k 5 60 $SAN --tool memcheck $T --quick --only $op > $OUT/san_$op.log 2>&1; echo "rc=$?" >> $OUT/san_$op.log
done
report san_opm san_pwavg san_global_attn
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
