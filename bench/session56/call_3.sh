#!/usr/bin/env bash
# Session 56, call 3 (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh with k_s9_fwd_half the forward's default, PF_ATTN_FWD_BMMA=4): the new default checked
# and timed, CALL_LIMIT seconds in all (default 400):
# 1. in parallel (CHECK_LIMIT s each, default 240): the whole test_cuda in bf16 mode (the mode the forward kernels
#    run in) as 4 shards; compute-sanitizer memcheck, every kernel instrumented, of the triangle modules
#    (bench_cuda_ops --sizes 200,256 --reps 1: partial and whole tiles) with the default (k_s9_fwd_half,
#    k_bwd_ws_tma, k_bwd_dbias_wg), with the old default's forward (=3, k_s9_fwd_tma) and with 4 parts a key tile;
#    the PyTorch parity;
# 2. both triangle attentions f+b at 1024 / 2048: the default against =3 and against PF_ATTN_FWD_PARTS=4, two rounds;
# 3. ncu pipes of the 4-part form.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
b=${CHECK_LIMIT:-240}
names="shard0 shard1 shard2 shard3 mc_half mc_tma mc_half4"
for k in 0 1 2 3; do OMP_NUM_THREADS=3 run shard$k $b stdbuf -oL $T --mode bf16 --shard $k/4; done
MC="compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1"
run mc_half $b $MC
PF_ATTN_FWD_BMMA=3 run mc_tma $b $MC
PF_ATTN_FWD_PARTS=4 run mc_half4 $b $MC
timeout 150 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
echo "== parity rc=$? $(tail -1 $OUT/parity.log)" >> $S
checks_report $names
for k in 0 1 2 3; do grep -h '^\[test_cuda' $OUT/shard$k.log | tail -n 1 >> $S; done
for n in mc_half mc_tma mc_half4; do grep -h "ERROR SUMMARY\|Invalid\|out of bounds" $OUT/$n.log | head -3 >> $S; done
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((SECONDS - t0 + 100)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_FWD_BMMA=3 PF_ATTN_FWD_PARTS=4
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 30 ] && ncu_pipes fwd_half4 k_s9_fwd PF_ATTN_FWD_PARTS=4
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
