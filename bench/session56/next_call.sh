#!/usr/bin/env bash
# For session 57 (written in session 56, not yet run): k_s9_fwd_hp (PF_ATTN_FWD_BMMA=7, opt-in: k_s9_fwd_half's
# arithmetic, the same bits, with each half's exps issued beside independent products; 168 registers, 3 blocks a
# SM) checked and timed on any sm_90 card; carry [".devpack"] (payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`, rebuilt), CALL_LIMIT s (default 330):
# 1. in parallel: test_cuda --mode bf16 --quick --only attn (=7 bit for bit with the default in every attention
#    case: masks, fully masked rows, odd sizes) and compute-sanitizer memcheck of the triangle modules with =7
#    (bench_cuda_ops --sizes 200,256, every kernel instrumented);
# 2. both triangle attentions f+b at 1024 / 2048: the default (k_s9_fwd_half) against =7, two rounds;
# 3. ncu pipes of both forwards.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-330}
b=${CHECK_LIMIT:-150}
OMP_NUM_THREADS=12 run attn_bf16 $b stdbuf -oL $T --mode bf16 --quick --only attn
PF_ATTN_FWD_BMMA=7 run mc_hp $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report attn_bf16 mc_hp
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((SECONDS - t0 + 70)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_FWD_BMMA=7
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 40 ] && ncu_pipes fwd_hp k_s9_fwd PF_ATTN_FWD_BMMA=7
[ $((L - (SECONDS - t0))) -gt 25 ] && ncu_pipes fwd_half k_s9_fwd
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
