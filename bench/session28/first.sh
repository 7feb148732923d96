#!/usr/bin/env bash
# Session 28's first call (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of main after session 27): session 27's compiled-only __syncwarp() hardening (90dec2b) through
# the whole test_cuda in 4 shards and a 20-step crop-768 AF3 training run beside it; then alone the block against
# PyTorch + cuEquivariance at 512 / 1024 (5 repetitions) on the same payload. ~400 s.
. bench/device_common.sh
( timeout -s KILL 200 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 \
    --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
    --set recompute_keep_attn=1 --steps 20 --out /tmp/d20 > /tmp/d20.log 2>&1; echo "rc=$?" >> /tmp/d20.log ) &
STAGES=shards TEST_SHARDS=4 TESTS_LIMIT=440 bash bench/device_all.sh > /dev/null 2>&1  # its verdicts in $S
wait
echo "== crop 768, 20 steps: $(tail -n 2 /tmp/d20.log | tr '\n' ' ')" >> $S
cueq_blocks 512,1024 5 200
cat $S
