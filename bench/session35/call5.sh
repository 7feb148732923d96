#!/usr/bin/env bash
# Session 35, call 5 (carry [".devpack"]; payload `EXTRA="/tmp/pf_opm/pairfold:pairfold_old" BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`: the Linears' bias column sums in 8-column vectors
# (k_colsum_part_v, cu_prim.cu); pairfold_old: call 3's pairfold (the outer product mean change, without it)).
# Parity and the whole test_cuda in 4 shards, memcheck of the Linear-heavy AF2 ops (quick), then the AF2 blocks at
# 384 and the AF3 blocks at 768 per module, the two builds alternating, and ncu of the column-sum kernels.
. bench/device_common.sh
parity_shards 260
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for op in opm transition; do
  timeout -k 5 60 $SAN --tool memcheck $T --quick --only $op > $OUT/san_$op.log 2>&1; echo "rc=$?" >> $OUT/san_$op.log
done
report san_opm san_transition
ab_modules 2 60 "^(pairformer|msa_module|evoformer|extra_msa) |outer_product_mean" "pairfold_old pairfold" "af2 384"
for b in pairfold_old pairfold; do
  ncu_rows cs_$b 120 10 k_colsum_part $P/$b bench --preset af2 --device cuda --n 384 --reps 1
done
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
