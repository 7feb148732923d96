#!/usr/bin/env bash
# Session 56, call 1 (any sm_90 card, no kind named; carry [".devpack", ".cueq"]; payload BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh of this commit, k_s9_fwd_half opt-in as PF_ATTN_FWD_BMMA=4),
# CALL_LIMIT seconds in all (default 560):
# 1. in parallel (MC_LIMIT s each, default 170): test_cuda --quick --only attn (k_s9_fwd_half against the CPU
#    reference, the rest as session 55's); compute-sanitizer memcheck in bf16 mode with only the TMA / wgmma kernels
#    instrumented: kns=_tma over --quick --only attn, kns=fwd_half over it with PF_ATTN_FWD_BMMA=4 exported,
#    kns=dbias_wg over --only attn.3; the PyTorch parity;
# 2. both triangle attentions f+b at 1024 / 2048: the default against PF_ATTN_FWD_BMMA=4 (and the same kernel at 3
#    blocks an SM, PF_ATTN_FWD_HALF_NB=3), ROUNDS rounds (default 2);
# 3. one launch of each forward under ncu (per pipe, warp state, occupancy);
# 4. on an H200 (the first since session 39), with what is left: trimul f+b at 1024 / 2048 (issue 11's 5 / 30 ms)
#    and the Pairformer block against PyTorch + cuEquivariance; on an H100 the whole test_cuda in 4 shards.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
b=${MC_LIMIT:-170}
names="mc_tma mc_half mc_dbias_wg attn_quick"
OMP_NUM_THREADS=3 run mc_tma $b compute-sanitizer --tool memcheck --kernel-name kns=_tma stdbuf -oL $T --mode bf16 --quick --only attn
PF_ATTN_FWD_BMMA=4 OMP_NUM_THREADS=3 run mc_half $b compute-sanitizer --tool memcheck --kernel-name kns=fwd_half stdbuf -oL $T --mode bf16 --quick --only attn
OMP_NUM_THREADS=3 run mc_dbias_wg $b compute-sanitizer --tool memcheck --kernel-name kns=dbias_wg stdbuf -oL $T --mode bf16 --only attn.3
OMP_NUM_THREADS=3 run attn_quick $b stdbuf -oL $T --quick --only attn
timeout 100 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
echo "== parity rc=$? $(tail -1 $OUT/parity.log)" >> $S
checks_report $names
grep -h "fwd PF_ATTN_FWD_BMMA=4\|FWD_BMMA=4" $OUT/attn_quick.log | head -3 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-2} $((SECONDS - t0 + 130)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_FWD_BMMA=4 \
    "PF_ATTN_FWD_BMMA=4 PF_ATTN_FWD_HALF_NB=3"
echo "== timing done at $((SECONDS - t0)) s" >> $S
ncu_pipes fwd_half k_s9_fwd PF_ATTN_FWD_BMMA=4
ncu_pipes fwd_tma k_s9_fwd
echo "== profile done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    [ $((L - (SECONDS - t0))) -gt 60 ] && ab_env 1 $((L - 40)) 50 trimul 1024,2048 ""
    b=$((L - (SECONDS - t0) - 15)); [ $b -gt 150 ] && b=150
    [ $b -gt 60 ] && cueq_blocks 512,1024,1536,2048 5 $b
else
    b=$((L - (SECONDS - t0) - 15))
    [ $b -gt 60 ] && shards $b
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
