#!/usr/bin/env bash
# Session 41, for a GPU call (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of a commit with tests/cuda/test_cuda_big.c): the new big-module cases (triangle attention at
# both nodes, the outer product mean, pair-weighted averaging past 2^31 elements at N 4160 and 4100; never run on a
# GPU), then the same at N 4000 (under 2^31) so that a failure can be told from a 64-bit gap, then the whole big group
# (LayerNorm, transition, MSA column attention, the trimul cases and these). Each case holds several z-sized buffers
# (4.4 GB each in bf16 at N 4160) and its workspace.
. bench/device_common.sh
timeout -k 5 240 $T --only big_modules > $OUT/big_modules.log 2>&1; echo "rc=$?" >> $OUT/big_modules.log
echo "== --only big_modules (N 4160, 4100)" >> $S; grep -E "FAIL|passed|rc=" $OUT/big_modules.log | head -20 >> $S
if grep -q FAIL $OUT/big_modules.log; then
    PF_BIG_MODULE_N=4000 timeout -k 5 120 $T --only big_modules > $OUT/big_modules_4000.log 2>&1
    echo "rc=$?" >> $OUT/big_modules_4000.log
    echo "== --only big_modules at N 4000 (under 2^31)" >> $S; grep -E "FAIL|passed|rc=" $OUT/big_modules_4000.log | head -20 >> $S
fi
timeout -k 5 300 $T --only big > $OUT/big.log 2>&1; echo "rc=$?" >> $OUT/big.log
echo "== --only big (the whole group)" >> $S; grep -E "FAIL|passed|rc=" $OUT/big.log | head -20 >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
