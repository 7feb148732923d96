#!/usr/bin/env bash
# Session 23 call 3: k_lnb_mma on one wave with a 4-tile ring, k_lnb_bwd_p at 6 stages (PF_LNB_BWD_DEEP), the short
# LayerNorm backward on more blocks. Tests (attn in 4 shards, blocksmall, core; cut at TL s), then alone the block
# f+b with PF_LNB_BWD_DEEP=0 / 1 alternating at 512 and 1024, and ncu of the changed kernels at 512.
. bench/device_common.sh
TL=${TL:-300}
for k in 0 1 2 3; do run attn$k $TL stdbuf -oL $T --only attn --shard $k/4; done
run blocksmall $TL stdbuf -oL $T --only blocksmall
run core $TL stdbuf -oL $T --only core
wait
report attn0 attn1 attn2 attn3 blocksmall core
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 0 1; do for n in 512 1024; do
    echo "== n=$n PF_LNB_BWD_DEEP=$m: $(PF_LNB_BWD_DEEP=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
timeout 120 ncu --clock-control none --print-summary per-kernel --kernel-name regex:"k_lnb|k_ln_bwd|k_reduce" \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum $B --n 512 --reps 1 > $OUT/ncu3.log 2>&1
echo "== ncu rc=$?" >> $S
grep -E "^  [a-z].*Invocations|gpu__time_duration|dram__bytes" $OUT/ncu3.log >> $S

timeout 120 ncu --clock-control none --kernel-name regex:"k_tm_ln_cm_bwd2|k_tm_sides_wgp|k_tm_sgrad" --launch-count 6 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    $B --n 512 --reps 1 > $OUT/ncu3_tm.log 2>&1
echo "== ncu tm rc=$?" >> $S
cat $S
