#!/usr/bin/env bash
# Session 58, call 4 (any sm_90 card; carry [".devpack"]; payload with k_attn_lnproj_wg's leaner epilogue (alp_epilogue:
# the bias from shared memory as fp32 pairs, the row pointers once a row tile: 166 SASS instructions a weight tile
# against 302; call 3 measured the kernel 0.741 ms a launch at 1024 against 0.752 for k_lnb_mma + the GEMM) and the
# bulk-store form removed. CALL_LIMIT s (default 330):
# 1. in parallel: test_cuda --only attn_lnproj (both precision modes; on and off against the reference, launches
#    counted), --mode bf16 --quick --only attn.6, memcheck of the triangle modules at N 200 / 256;
# 2. ncu of the kernel at 1024 on and the two kernels off (time, DRAM bytes), the kernel's pipes / warp states;
# 3. both triangle attentions f+b at 1024 / 2048: on and off taking turns, three rounds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-330}
b=${CHECK_LIMIT:-120}
OMP_NUM_THREADS=6 run lnproj $b stdbuf -oL $T --only attn_lnproj
OMP_NUM_THREADS=6 run attn6 $b stdbuf -oL $T --mode bf16 --quick --only attn.6
run mc_lp $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1
checks_report lnproj attn6 mc_lp
grep -h "lnproj.*launches" $OUT/lnproj.log | head -5 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ncu_rows lp1 40 3 "lnproj|lnb_mma|nvjet_sm90_tst_256" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
PF_ATTN_LNPROJ=0 ncu_rows lp0 40 3 "lnproj|lnb_mma|nvjet_sm90_tst_256" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
ncu_pipes lp1 lnproj
echo "== ncu done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=0
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
