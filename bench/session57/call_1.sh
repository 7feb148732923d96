#!/usr/bin/env bash
# Session 57, call 1 (carry [".devpack", ".cueq"]; payload of 677154e: k_s9_fwd_half the default, k_s9_fwd_hp opt-in
# as PF_ATTN_FWD_BMMA=7, never yet run on a GPU). CALL_LIMIT s (default 560).
# On an H200: issues 10 / 11's acceptance figures (bench/session51/call_1.sh as it stands).
# On any other sm_90 card, one after the other:
# 1. the Pairformer block against PyTorch + cuEquivariance at 512 / 1024 / 2048 (the benchmark alone on the card);
# 2. in parallel: test_cuda --mode bf16 --quick --only attn (=7 bit for bit with the default in every attention case)
#    and compute-sanitizer memcheck of the triangle modules with =7;
# 3. both triangle attentions f+b at 1024 / 2048: the default against =7, two rounds;
# 4. ncu pipes of both forwards with what is left, then every kernel of the triangle module f+b at 1024 (ncu).
if nvidia-smi -L | grep -q H200; then CALL_LIMIT=${CALL_LIMIT:-560} exec bash bench/session51/call_1.sh; fi
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
cueq_blocks 512,1024,2048 5 150
echo "== blocks done at $((SECONDS - t0)) s" >> $S
OMP_NUM_THREADS=12 run attn_bf16 150 stdbuf -oL $T --mode bf16 --quick --only attn
PF_ATTN_FWD_BMMA=7 run mc_hp 150 compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report attn_bf16 mc_hp
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 90)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_FWD_BMMA=7
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 40 ] && ncu_pipes fwd_hp k_s9_fwd PF_ATTN_FWD_BMMA=7
[ $((L - (SECONDS - t0))) -gt 25 ] && ncu_pipes fwd_half k_s9_fwd
b=$((L - (SECONDS - t0) - 5)); [ $b -gt 60 ] && b=60
[ $b -gt 25 ] && ncu_rows mod_1024 $b 30 . $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -rf *.log
cat $S
