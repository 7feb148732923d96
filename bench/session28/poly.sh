#!/usr/bin/env bash
# (Needs a payload built from branch exp2poly, f26bd8e: main has no PF_ATTN_EXP_POLY / PF_ATTN_BWD_POLY; measured slower, not landed.)
# Session 28 (carry [".devpack"]): exp2 on the FMA / ALU pipes for part of the attention softmax (fa_exp2_poly,
# FlashAttention-4's trick). 1. A/B of the triangle attention module (bench_cuda_ops tri_attn, f+b and forward
# ms), alternating: PF_ATTN_EXP_POLY (forward k_s9_fwd_bmma2: 0 / 2 / 4 of 8 key columns) and PF_ATTN_BWD_POLY
# (k_bwd_lean and k_bwd_dbias_pipe: a quarter). 2. Which pipe limits the three kernels at N = 1024 (ncu: XU = MUFU
# ex2, FMA, ALU, tensor; issue slots), default and poly forms. 3. test_cuda's attention cases (--quick) with both
# on, beside the defaults. ~330 s.
. bench/device_common.sh
ab() {  # ab TAG ENV...: one bench_cuda_ops run under the environment, its JSON lines tagged
    env "${@:2}" timeout 120 $P/bench_cuda_ops --ops tri_attn --sizes ${AB_N:-512,1024,2048} --reps 5 2>&1 |
        grep '^{' | python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('$1', d['N'], 'fb', d['fwdbwd_ms'], 'fwd', d['fwd_ms'], 'peak', d['peak_mib'])" >> $S
}
echo "== A/B tri_attn (tag N f+b ms, forward ms)" >> $S
for pass in 1 2; do
    ab base PF_ATTN_EXP_POLY=0
    ab fwd2 PF_ATTN_EXP_POLY=2
    ab fwd4 PF_ATTN_EXP_POLY=4
    ab bwd PF_ATTN_BWD_POLY=1
    ab both2 PF_ATTN_EXP_POLY=2 PF_ATTN_BWD_POLY=1
done
M=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
M=$M,sm__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
M=$M,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
for form in "0 0" "4 1"; do
    set -- $form
    for k in k_s9_fwd k_bwd_lean k_bwd_dbias_pipe; do
        PF_ATTN_EXP_POLY=$1 PF_ATTN_BWD_POLY=$2 timeout 120 ncu --clock-control none -k regex:$k --launch-count 1 \
            --metrics $M $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > /tmp/pipes.log 2>&1
        echo "== ncu $k (PF_ATTN_EXP_POLY=$1 PF_ATTN_BWD_POLY=$2) rc=$?" >> $S
        grep -E "^\s+(sm__|smsp__|gpu__)|  k_" /tmp/pipes.log | sed 's/  */ /g' | head -20 >> $S
    done
done
run attn_poly 200 env PF_ATTN_EXP_POLY=4 PF_ATTN_BWD_POLY=1 $T --only attn --quick
run attn_base 200 $T --only attn --quick
wait
report attn_poly attn_base
grep -m12 FAIL $OUT/attn_poly.log | cut -c1-240 >> $S
cat $S
