#!/usr/bin/env bash
# For session 58 (written in session 57, not yet run): k_bwd_ws_tma with the pair bias inside S^T's product
# (PF_ATTN_BWD_WG=6, opt-in; other bits than the default mode 5) checked and timed on any sm_90 card; carry
# [".devpack"] (payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`, rebuilt),
# CALL_LIMIT s (default 300):
# 1. in parallel: test_cuda --only attn_bwd_wg (=6 against the CPU reference twice in every case; modes 1-5 bit for
#    bit) and compute-sanitizer memcheck of the triangle modules with =6;
# 2. both triangle attentions f+b at 1024 / 2048: the default against =6, two rounds;
# 3. ncu of k_bwd_ws_tma both ways (time, DRAM bytes).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-300}
b=${CHECK_LIMIT:-120}
OMP_NUM_THREADS=12 run bwd_wg $b stdbuf -oL $T --only attn_bwd_wg
PF_ATTN_BWD_WG=6 run mc_ba $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report bwd_wg mc_ba
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 70)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_BWD_WG=6
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 60 ] && ncu_rows ws5 25 2 bwd_ws_tma $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
[ $((L - (SECONDS - t0))) -gt 30 ] && PF_ATTN_BWD_WG=6 ncu_rows ws6 25 2 bwd_ws_tma $P/bench_cuda_ops --ops tri_attn \
    --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
