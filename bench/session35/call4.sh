#!/usr/bin/env bash
# Session 35, call 4 (carry [".devpack"], call 3's payload: the final CUDA code): PyTorch parity and the whole
# test_cuda in 4 shards (bench/device_all.sh).
. bench/device_common.sh
parity_shards 260
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
