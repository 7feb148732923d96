#!/usr/bin/env bash
# Session 55, call 3 (any sm_90 card; carry [".devpack"]; payload as call_2.sh's) for a short budget (CALL_LIMIT
# seconds, default 250): call_2.sh's checks and profile without its timing round and shards, in this order:
# 1. in parallel: compute-sanitizer memcheck with only the TMA / wgmma kernels instrumented (--kernel-name kns=...)
#    of --quick --only attn and of --only attn.3 on "dbias_wg"; test_cuda --quick --only attn unsanitized (the new
#    bias-gradient default in every attention case); the PyTorch parity;
# 2. one launch of k_s9_fwd_tma under ncu: per-pipe use (is the MUFU (xu) pipe the bound?), warp state, occupancy.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-250}
b=${MC_LIMIT:-$((L - 70))}
names="mc_attn mc_dbias_wg attn_quick"
OMP_NUM_THREADS=4 run mc_attn $b compute-sanitizer --tool memcheck --kernel-name kns=_tma stdbuf -oL $T --mode bf16 --quick --only attn
OMP_NUM_THREADS=4 run mc_dbias_wg $b compute-sanitizer --tool memcheck --kernel-name kns=dbias_wg stdbuf -oL $T --mode bf16 --only attn.3
OMP_NUM_THREADS=4 run attn_quick $b stdbuf -oL $T --quick --only attn
timeout 100 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
echo "== parity rc=$? $(tail -1 $OUT/parity.log)" >> $S
wait
report $names
for n in $names; do echo "$n: last line: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S; done
echo "== checks done at $((SECONDS - t0)) s" >> $S
M=gpu__time_duration.sum,sm__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
if [ $((SECONDS - t0)) -lt $((L - 40)) ]; then
    timeout -k 5 $((L - (SECONDS - t0) - 5)) ncu --clock-control none --csv -k regex:k_s9_fwd -c 1 --section WarpStateStats \
        --section Occupancy --metrics $M $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_ws_tma.log 2>&1
    echo "== ncu pipes / warp state k_s9_fwd_tma rc=$?" >> $S
    python3 bench/ncu_pipes.py $OUT/ncu_ws_tma.log 3 >> $S 2>&1
    grep -E "smsp__pcsamp|Stall|stall" $OUT/ncu_ws_tma.log | head -30 | cut -c1-160 >> $S
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
