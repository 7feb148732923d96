#!/usr/bin/env bash
# Session 56, call 2 (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh of this commit): k_s9_fwd_half (PF_ATTN_FWD_BMMA=4) checked and its parts timed,
# CALL_LIMIT seconds in all (default 400). Call 1's checks ran 4 at once and none finished in 170 s; here:
# 1. in parallel: test_cuda --mode bf16 --quick --only attn (every forward form against the CPU reference, =4 and
#    its 4-part form included); compute-sanitizer memcheck, every kernel instrumented, of the triangle modules
#    (bench_cuda_ops --sizes 200,256 --reps 1: partial and whole tiles) with the defaults (k_s9_fwd_tma,
#    k_bwd_ws_tma, k_bwd_dbias_wg), with =4 and with =4 PF_ATTN_FWD_PARTS=4, all four at once;
# 2. both triangle attentions f+b at 1024 / 2048: the default, =4, =4 with 4 parts (at 4 and 3 blocks an SM), two
#    rounds;
# 3. ncu pipes of the 4-part form.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
b=${CHECK_LIMIT:-210}
OMP_NUM_THREADS=8 run attn_bf16 $b stdbuf -oL $T --mode bf16 --quick --only attn
names="attn_bf16 mc_tma mc_half mc_half4"
MC="compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1"
run mc_tma $b $MC
PF_ATTN_FWD_BMMA=4 run mc_half $b $MC
PF_ATTN_FWD_BMMA=4 PF_ATTN_FWD_PARTS=4 run mc_half4 $b $MC
checks_report $names
grep -h "fwd PF_ATTN_FWD" $OUT/attn_bf16.log | head -3 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((SECONDS - t0 + 130)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_FWD_BMMA=4 \
    "PF_ATTN_FWD_BMMA=4 PF_ATTN_FWD_PARTS=4" "PF_ATTN_FWD_BMMA=4 PF_ATTN_FWD_PARTS=4 PF_ATTN_FWD_HALF_NB=3"
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 30 ] && ncu_pipes fwd_half4 k_s9_fwd PF_ATTN_FWD_BMMA=4 PF_ATTN_FWD_PARTS=4
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
