#!/usr/bin/env bash
# Ran with the fuseresid branch code in the payload (bit-identical to main with PF_FUSE_RESID=0).
# Session 24 call C: the whole test_cuda in 4 shards (with the fused residual add, PF_FUSE_RESID's default) and the
# PyTorch parity test beside them, cut at TL s.
. bench/device_common.sh
TL=${TL:-450}
( timeout 200 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
  echo "rc=$?" >> $OUT/parity.log ) &
for k in 0 1 2 3; do run shard$k $TL stdbuf -oL $T --shard $k/4; done
wait
report shard0 shard1 shard2 shard3
for k in 0 1 2 3; do grep -h '^\[test_cuda' $OUT/shard$k.log | tail -n 1 >> $S; done
echo "parity: $(grep -E 'passed|failed|FAIL' $OUT/parity.log | tail -3 | tr '\n' ' ') $(tail -1 $OUT/parity.log)" >> $S
cat $S
