#!/usr/bin/env bash
# Session 23 call 2: k_lnb_mma (the bias logits' LayerNorm + projection on tensor cores, cu_lnb_mma.cu). The attention
# group in 4 shards and blocksmall in parallel (cut at TL s), then alone: the block f+b with PF_LNB_MMA=0 / 1
# alternating at 512 and 1024, and ncu of the bias kernels at 512 in both modes.
. bench/device_common.sh
TL=${TL:-300}
for k in 0 1 2 3; do run attn$k $TL stdbuf -oL $T --only attn --shard $k/4; done
run blocksmall $TL stdbuf -oL $T --only blocksmall
wait
report attn0 attn1 attn2 attn3 blocksmall
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 0 1; do for n in 512 1024; do
    echo "== n=$n PF_LNB_MMA=$m: $(PF_LNB_MMA=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
for m in 0 1; do
    PF_LNB_MMA=$m timeout 120 ncu --clock-control none --print-summary per-kernel --kernel-name regex:k_lnb \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum $B --n 512 --reps 1 > $OUT/ncu_lnb$m.log 2>&1
    echo "== ncu PF_LNB_MMA=$m rc=$?" >> $S
    grep -E "^  [a-z].*Invocations|gpu__time_duration|dram__bytes" $OUT/ncu_lnb$m.log >> $S
done
cat $S
