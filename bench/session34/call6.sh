#!/usr/bin/env bash
# Session 34, call 6 (carry [".devpack"]; payload `EXTRA="/tmp/pf_old2/pairfold:pairfold_old" BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`: the outer product mean's row scale in 8-element vectors
# (k_row_scale_v); pairfold_old: call 4's pairfold). test_cuda --only opm (the op and its sharded entry at P = 1, fp32
# and bf16) and its memcheck (quick), then the AF2 blocks at 384 and the AF3 blocks at 768 per module, the two builds
# alternating.
. bench/device_common.sh
timeout -k 5 90 $T --only opm > $OUT/opm.log 2>&1; echo "rc=$?" >> $OUT/opm.log
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 60 $SAN --tool memcheck $T --quick --only opm > $OUT/san_opm.log 2>&1; echo "rc=$?" >> $OUT/san_opm.log
report opm san_opm
ab_modules 2 60 "^(msa_module|evoformer|extra_msa) |outer_product_mean" "pairfold_old pairfold" "af2 384" "af3 768"
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
