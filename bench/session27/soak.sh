#!/usr/bin/env bash
# Session 27 call 3 (carry [".devpack"], call 1's payload): the whole test_cuda in 4 shards beside a 60-step crop-768
# AF3 training run with both fused transition kernels on (the hang of session 26 gone with k_two's __syncwarp()?).
TR_OUT=${OUT:-/tmp/out}
( sleep 1; timeout -s KILL 280 env PF_TR_WGO=1 PF_TR_WGB=1 /tmp/pf/pairfold train --preset af3 --device cuda --data synthetic \
    --set synthetic_len=768 --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
    --set recompute=1 --set recompute_keep_attn=1 --steps 60 --out /tmp/soak > $TR_OUT/soak.log 2>&1
  echo "rc=$?" >> $TR_OUT/soak.log ) &
STAGES=shards TEST_SHARDS=4 TESTS_LIMIT=440 bash bench/device_all.sh
wait
echo "== soak 60 steps both on: $(grep -h '^step' $TR_OUT/soak.log | tail -1 | cut -c1-150) $(tail -1 $TR_OUT/soak.log)"
