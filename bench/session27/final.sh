#!/usr/bin/env bash
# Session 27 last call (carry [".devpack", ".cueq"]; payload of main with PF_TR_WGO / PF_TR_WGB on by default again and
# test_cuda's fixed site name): test_cuda blocksmall (its PF_WCACHE site check failed in call 3 with the fused
# transition kernels off by default), transition and model on the new defaults, beside a 20-step crop-768 run on the
# defaults; then alone: ncu of the attention backward kernels at N = 1024 (issue 10 scope 5: call 2 caught only the
# forward), the block's per-kernel list at N = 512 (kernel time against the block's wall time: the launch gaps), and
# the block against PyTorch + cuEquivariance at 512 / 1024 with 5 repetitions (the spread at 512).
. bench/device_common.sh
run blocksmall 200 $T --only blocksmall
run transition 240 $T --only transition
run model 200 $T --only model
t0=$SECONDS
timeout -s KILL 150 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1 \
    --steps 20 --out /tmp/d20 > $OUT/d20.log 2>&1
echo "== defaults 20 steps rc=$? ($((SECONDS - t0)) s): $(tail -1 $OUT/d20.log)" >> $S
wait
report blocksmall transition model
for k in k_bwd_lean k_bwd_dbias; do
    timeout 90 ncu --clock-control none -k regex:$k --launch-count 1 \
        --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_tensor_cycles_active\.avg\.pct_of_peak_sustained_active,sm__inst_executed.sum" \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$k.log 2>&1
    echo "== ncu $k N=1024 rc=$?" >> $S
    grep -E "^  k_|stalled|pipe_tensor|inst_executed|Eligible|Duration|Registers Per|Achieved Occ|Block Size|Grid Size" \
        $OUT/ncu_$k.log | awk '$NF != "0" && $NF != "0.00"' | head -40 >> $S
done
timeout 150 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
    $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512 --reps 1 > $OUT/ncu_block512.log 2>&1
echo "== ncu block 512 per kernel rc=$? (warm-up + 1 rep: 2 forwards, 2 f+b)" >> $S
NCU_TOP=45 python3 bench/ncu_summary.py $OUT/ncu_block512.log >> $S 2>&1
grep -c "Invocations\|(.*)x(.*)" $OUT/ncu_block512.log >> $S
if command -v nsys > /dev/null; then  # host time per API call: is the eager block at 512 launch-bound?
    timeout 120 nsys profile -o /tmp/blk512 --force-overwrite true $P/pairfold bench --preset af3 --device cuda \
        --set n_msa_blocks=0 --n 512 --reps 7 > $OUT/nsys_run.log 2>&1
    timeout 60 nsys stats --report cuda_api_sum --report cuda_gpu_kern_sum --format csv /tmp/blk512.nsys-rep \
        > $OUT/nsys_stats.csv 2>&1
    echo "== nsys block 512 rc=$? ($(tail -1 $OUT/nsys_run.log))" >> $S; grep -E "^[0-9.]+,.*cuda(Launch|Stream|Func|Event|Memcpy|Device)|cublasLt" $OUT/nsys_stats.csv | head -12 >> $S
else
    echo "== no nsys" >> $S
fi
timeout 100 ncu --clock-control none -k regex:"k_two|k_twb" --launch-count 4 --section SpeedOfLight --section WarpStateStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
    $P/bench_cuda_ops --ops transition --sizes 1024 --reps 1 > $OUT/ncu_two.log 2>&1
echo "== ncu k_two / k_twb N=1024 rc=$?" >> $S
grep -E "^  k_|stalled|Duration|Compute \(SM\) Throughput|Memory Throughput" $OUT/ncu_two.log | awk '$NF != "0" && $NF+0 > 0.1 || /^  k_|Duration|Throughput/' | head -50 >> $S
cueq_blocks 512,1024 5 200
cat $S
