#!/usr/bin/env bash
# Session 23 call 1: the review commit's --graph on the GPU (eager vs replays at 512, alternating), then the block's
# per-kernel time and DRAM bytes at N = 512 (ncu, the bench's warm-up + 1 rep), raw log kept for parsing.
. bench/device_common.sh
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0"
for i in 1 2; do for g in "" --graph; do
    echo "== n=512 ${g:-eager}: $(timeout 120 $B --n 512 --reps 7 $g 2>&1 | tail -1)" >> $S
done; done
timeout 300 ncu --clock-control none --print-summary per-kernel \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    $B --n 512 --reps 1 > $OUT/ncu512.log 2>&1
echo "ncu rc=$?" >> $S
NCU_TOP=60 python3 bench/ncu_summary.py $OUT/ncu512.log >> $S 2>&1
cat $S
