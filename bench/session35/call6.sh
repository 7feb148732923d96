#!/usr/bin/env bash
# Session 35, call 6 (carry [".devpack"]; payload `EXTRA="/tmp/pf_cs/pairfold:pairfold_old" BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`: the column sums' blocks of 64 rows (at most 1024 blocks;
# 256 rows and 512 before); pairfold_old: call 5's pairfold). Parity and the whole test_cuda in 4 shards, then the
# AF2 blocks at 384 per module, the two builds alternating, and ncu of the column-sum kernels in both.
. bench/device_common.sh
parity_shards 260
ab_modules 2 60 "^(pairformer|msa_module|evoformer|extra_msa) |outer_product_mean" "pairfold_old pairfold" "af2 384"
for b in pairfold_old pairfold; do
  ncu_rows cs_$b 120 10 k_colsum_part $P/$b bench --preset af2 --device cuda --n 384 --reps 1
done
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
