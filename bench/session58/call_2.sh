#!/usr/bin/env bash
# Session 58, call 2 (any sm_90 card; carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh` with k_attn_lnproj_wg, PF_ATTN_LNPROJ on by default: the triangle attention's input
# LayerNorm, bias logits and q|k|v|g projections in one pass, forward and the backward's recompute). CALL_LIMIT s
# (default 420):
# 1. in parallel: test_cuda --only attn_lnproj (both modes: on and off against the reference, launches counted),
#    --mode bf16 --quick --only attn.5 and --only attn.6 (the default paths with it), compute-sanitizer memcheck of
#    the triangle modules at N 200 / 256 with it;
# 2. both triangle attentions f+b at 1024 / 2048: the default against PF_ATTN_LNPROJ=0, two rounds;
# 3. ncu of the module at 1024 both ways (every kernel: time, DRAM bytes);
# 4. the Pairformer block at 1024 both ways (pairfold bench, 5 reps).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-420}
b=${CHECK_LIMIT:-150}
OMP_NUM_THREADS=4 run lnproj $b stdbuf -oL $T --only attn_lnproj
OMP_NUM_THREADS=4 run attn5 $b stdbuf -oL $T --mode bf16 --quick --only attn.5
OMP_NUM_THREADS=4 run attn6 $b stdbuf -oL $T --mode bf16 --only attn.6
run mc_lp $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1
checks_report lnproj attn5 attn6 mc_lp
grep -h "lnproj.*launches\|FAIL" $OUT/lnproj.log | head -5 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 150)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=0
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 110 ] && ncu_rows on 40 8 . $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
[ $((L - (SECONDS - t0))) -gt 70 ] && PF_ATTN_LNPROJ=0 ncu_rows off 40 10 . $P/bench_cuda_ops --ops tri_attn \
    --sizes 1024 --reps 1
for r in 1 2; do for f in "" PF_ATTN_LNPROJ=0; do
    [ $((L - (SECONDS - t0))) -gt 15 ] || break
    echo "== block 1024 ${f:-defaults}: $(env $f timeout 40 $P/pairfold bench --preset af3 --device cuda --n 1024 \
        --reps 5 2>&1 | tail -1)" >> $S
done; done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
