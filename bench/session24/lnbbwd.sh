#!/usr/bin/env bash
# Ran on branch lnbbwd (f6a187f; not landed: PF_LNB_MMA=2 exists there only).
# Session 24 call A: k_lnb_bwd_mma (the bias logits' backward on tensor cores, cu_lnb_mma_bwd.cu). Tests (attn in 4
# shards, blocksmall, core; cut at TL s), then alone the block f+b with PF_LNB_MMA=2 (forward only) / 1 (both)
# alternating at 512 and 1024, the attention modules, and ncu of the bias kernels at 512.
. bench/device_common.sh
TL=${TL:-300}
for k in 0 1 2 3; do run attn$k $TL stdbuf -oL $T --only attn --shard $k/4; done
run blocksmall $TL stdbuf -oL $T --only blocksmall
run core $TL stdbuf -oL $T --only core
wait
report attn0 attn1 attn2 attn3 blocksmall core
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 2 1; do for n in 512 1024; do
    echo "== n=$n PF_LNB_MMA=$m: $(PF_LNB_MMA=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
for m in 2 1; do
    PF_LNB_MMA=$m timeout 100 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 512,1024 --reps 5 > $OUT/ops$m.log 2>&1
    echo "== ops PF_LNB_MMA=$m rc=$?" >> $S; grep -v '^{' $OUT/ops$m.log | tail -n 6 >> $S
done
for m in 2 1; do
    PF_LNB_MMA=$m timeout 120 ncu --clock-control none --print-summary per-kernel \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum $B --n 512 --reps 1 > $OUT/ncu_m$m.log 2>&1
    echo "== ncu PF_LNB_MMA=$m rc=$?" >> $S
    NCU_TOP=30 python3 bench/ncu_summary.py $OUT/ncu_m$m.log >> $S 2>&1
done
cat $S
