#!/usr/bin/env bash
# Session 39, call 4 (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of the final code): gemm_long_k with its 40 generated K (with cu_gemm's long-K rules and
# without: PF_BIG_GEMM_PIECE=-1), then the Pairformer block against PyTorch + cuEquivariance 0.13.0 in the same run
# (compare_blocks.py --impl cueq --graph) at N = 512 / 1024 with PF_TRIMUL_OUTW=2 / FWG 3 the default (as far as
# the device time left allows).
. bench/device_common.sh
timeout -k 5 50 $T --only gemm_long_k > $OUT/longk.log 2>&1; echo "rc=$?" >> $OUT/longk.log
report longk
PF_BIG_GEMM_PIECE=-1 timeout -k 5 40 $T --only gemm_long_k > $OUT/longk_raw.log 2>&1; echo "rc=$?" >> $OUT/longk_raw.log
echo "== without the rules (PF_BIG_GEMM_PIECE=-1)" >> $S
grep -E "FAIL|passed|rc=" $OUT/longk_raw.log | cut -c1-160 | head -30 >> $S
cp $OUT/longk.log $OUT/longk_raw.log /tmp/ 2>/dev/null
cueq_blocks 512,1024 5 120
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
