#!/usr/bin/env bash
# For session 59 (written in session 58 after its last GPU call, not yet run): k_attn_lnproj_wg's pipelined form
# (PF_ATTN_LNPROJ=2, opt-in: weight tile j + 1's product issued before tile j's epilogue; the same bits as 1, the
# default) checked and timed on any sm_90 card; carry [".devpack"] (payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`, rebuilt), CALL_LIMIT s (default 300):
# 1. in parallel: test_cuda --only attn_lnproj (both precision modes: 2, 1 and 0 against the reference, launches
#    counted), compute-sanitizer memcheck of the triangle modules at N 200 / 256 with =2 and of the test group itself
#    in bf16 (its masked cases);
# 2. ncu of the kernel at 1024 with =1 and =2 (time, DRAM bytes), and =2's pipes / warp states;
# 3. both triangle attentions f+b at 1024 / 2048: =1 (the default) against =2, three rounds.
# If =2 wins on the kernel and is level or better on the module, make it the default (attn_lnproj_applies's default).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-300}
b=${CHECK_LIMIT:-120}
OMP_NUM_THREADS=8 run lnproj $b stdbuf -oL $T --only attn_lnproj
PF_ATTN_LNPROJ=2 run mc_lp2 $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
# the kernel's masked cases (a fully masked row, odd sizes) under the sanitizer: the group's modes 2, 1, 0
run mc_group $b compute-sanitizer --tool memcheck $T --mode bf16 --quick --only attn_lnproj
checks_report lnproj mc_lp2 mc_group
grep -h "lnproj.*launches" $OUT/lnproj.log | head -5 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
for f in 1 2; do
    PF_ATTN_LNPROJ=$f ncu_rows lp$f 40 3 lnproj $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
ncu_pipes lp2 lnproj PF_ATTN_LNPROJ=2
echo "== ncu done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=2
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
