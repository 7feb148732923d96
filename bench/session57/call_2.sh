#!/usr/bin/env bash
# Session 57, call 2 (any sm_90 card; carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh` with: k_attn_gate_bwd_dw prefetching its next tile's rows into L2 (PF_AGD_PREFETCH, on
# by default, 0 the kernel before) and summing b_o's and b_g's gradients (PF_AGD_BIAS_SUMS, on: no k_colsum_v),
# k_tm_outbw_dwz prefetching its zl and d out (PF_OWD_PREFETCH), cu_flash_sm90.cu
# split in files (SASS of every forward unchanged by md5), k_s9_fwd_hp removed). CALL_LIMIT s (default 360):
# 1. in parallel: test_cuda --mode bf16 --quick --only attn (the forwards after the split), --only attn_gate_wg and
#    --only trimul_outw (the prefetching kernels both ways against the reference) and memcheck of the triangle
#    modules (prefetch on);
# 2. the triangle attention and multiplication f+b at 1024 / 2048: the defaults, PF_AGD_PREFETCH=0,
#    PF_OWD_PREFETCH=0 and PF_AGD_BIAS_SUMS=0 taking turns, two rounds;
# 3. ncu of k_attn_gate_bwd_dw and k_tm_outbw_dwz with and without their prefetch (time, DRAM bytes).
# On an H200 (none since session 39): issues 10 / 11's acceptance figures instead (bench/session51/call_1.sh with
# H200_LIMIT s, default 400; carry .cueq too for its block benchmark).
if nvidia-smi -L | grep -q H200; then CALL_LIMIT=${H200_LIMIT:-400} exec bash bench/session51/call_1.sh; fi
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-360}
b=${CHECK_LIMIT:-150}
OMP_NUM_THREADS=8 run attn_bf16 $b stdbuf -oL $T --mode bf16 --quick --only attn
OMP_NUM_THREADS=3 run gate_wg $b stdbuf -oL $T --only attn_gate_wg
OMP_NUM_THREADS=3 run outw $b stdbuf -oL $T --only trimul_outw
run mc_mod $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,trimul --sizes 200,256 --reps 1
checks_report attn_bf16 gate_wg outw mc_mod
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 60)) 70 tri_attn,trimul 1024,2048 "" PF_AGD_PREFETCH=0 PF_OWD_PREFETCH=0 PF_AGD_BIAS_SUMS=0
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 80 ] && ncu_rows pf_on 40 4 "gate_bwd_dw|outbw_dwz" $P/bench_cuda_ops --ops tri_attn,trimul \
    --sizes 1024 --reps 1
[ $((L - (SECONDS - t0))) -gt 40 ] && PF_AGD_PREFETCH=0 PF_OWD_PREFETCH=0 ncu_rows pf_off 40 4 "gate_bwd_dw|outbw_dwz" \
    $P/bench_cuda_ops --ops tri_attn,trimul --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
