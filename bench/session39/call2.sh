#!/usr/bin/env bash
# Session 39, call 2 (carry [".devpack"]; payload `BINS=test_cuda NO_SYS=1 bash bench/pack_device.sh`): where the
# trimul output part's weight gradients go wrong past 2^31 elements (test_cuda --only big_trimul: outgoing, default
# path, N 4100): the block at the tail, at row 3170 (position-major tensors under 2^31, channel 127 of the
# channel-major X past it) and at 0; then the tail with one switch changed each time.
. bench/device_common.sh
for cfg in "" "PF_BIG_TRIMUL_AT=3170" "PF_BIG_TRIMUL_AT=0" "PF_TRIMUL_OUTB=0 PF_TRIMUL_OUT=0" "PF_TRIMUL_SAVE_X=0" \
           "PF_TRIMUL_LNIN=0" "PF_BIG_GEMM_PIECE=1048576" "PF_TRIMUL_BWDCAT=0" "PF_TRIMUL_FUSED=0"; do
  echo "== $cfg" >> $S
  env $cfg timeout -k 5 60 $T --only big_trimul > $OUT/bt.log 2>&1; echo "rc=$?" >> $OUT/bt.log
  grep -E "FAIL|passed|rc=" $OUT/bt.log | cut -c1-200 | head -12 >> $S
done
cat $S
