#!/usr/bin/env bash
# Session 58, call 3 (any sm_90 card; carry [".devpack"]; payload with k_attn_lnproj_wg's two store forms:
# PF_ATTN_LNPROJ=2 (the default: bulk-copy stores from two half-tile staging buffers), 1 (the warps' 16-byte stores,
# call 2's kernel: 0.747 ms a launch at 1024, level with the two kernels it replaces), 0 (those two kernels)).
# CALL_LIMIT s (default 400):
# 1. in parallel: test_cuda --only attn_lnproj (both precision modes; 2, 1 and 0 against the reference, launches
#    counted) and memcheck of the triangle modules at N 200 / 256 with the default;
# 2. ncu of the kernel at 1024 in both forms (time, DRAM bytes), and its pipes / warp states (bulk form);
# 3. both triangle attentions f+b at 1024 / 2048: 2, 1 and 0 taking turns, two rounds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
b=${CHECK_LIMIT:-120}
OMP_NUM_THREADS=8 run lnproj $b stdbuf -oL $T --only attn_lnproj
run mc_lp $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1
checks_report lnproj mc_lp
grep -h "lnproj.*launches" $OUT/lnproj.log | head -5 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
for f in 2 1; do
    PF_ATTN_LNPROJ=$f ncu_rows lp$f 40 3 "lnproj|lnb_mma|nvjet_sm90_tst_256" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
PF_ATTN_LNPROJ=0 ncu_rows lp0 40 3 "lnproj|lnb_mma|nvjet_sm90_tst_256" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
ncu_pipes bulk lnproj
echo "== ncu done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=1 PF_ATTN_LNPROJ=0
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
