#!/usr/bin/env bash
# Session 55, call 2 (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh with k_bwd_dbias_wg the bias gradient's default where c_h is 32 and L % 128 == 0,
# k_s9_fwd_rows / k_s9_fwd_mbar removed): the new
# default checked and timed, CALL_LIMIT seconds in all (default 540):
# 1. in parallel: compute-sanitizer memcheck with only the TMA / wgmma kernels instrumented (--kernel-name kns=...:
#    session 55's call 1 probed the filter with `true`, which makes no CUDA call, so every kernel was instrumented
#    and all four runs timed out) of --quick --only attn, --only attn_bwd_wg_small and --only attn.3 (on "dbias_wg");
#    test_cuda --quick --only attn unsanitized; the PyTorch parity;
# 2. both triangle attentions f+b at 1024 / 2048: the new default against the old one (.tma), one round;
# 3. with what is left: the whole test_cuda in 4 shards.
# NO_TIMING=1 skips 2, NO_SHARDS=1 skips 3 (call_3.sh: the checks and the profile in a short call).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
timeout 60 compute-sanitizer --tool memcheck --kernel-name kns=_tma $T --only no_such_group > $OUT/cs_probe.log 2>&1
echo "== memcheck filter probe rc=$? ($(head -c 300 $OUT/cs_probe.log | tr '\n' ' '))" >> $S
b=${MC_LIMIT:-150}
names="mc_attn mc_small mc_dbias_wg attn_quick"
OMP_NUM_THREADS=3 run mc_attn $b compute-sanitizer --tool memcheck --kernel-name kns=_tma stdbuf -oL $T --mode bf16 --quick --only attn
OMP_NUM_THREADS=3 run mc_small $b compute-sanitizer --tool memcheck --kernel-name kns=_tma stdbuf -oL $T --mode bf16 --only attn_bwd_wg_small
OMP_NUM_THREADS=3 run mc_dbias_wg $b compute-sanitizer --tool memcheck --kernel-name kns=dbias_wg stdbuf -oL $T --mode bf16 --only attn.3
OMP_NUM_THREADS=3 run attn_quick $b stdbuf -oL $T --quick --only attn
timeout 100 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
echo "== parity rc=$? $(tail -1 $OUT/parity.log)" >> $S
checks_report $names
echo "== checks done at $((SECONDS - t0)) s" >> $S
[ -z "${NO_TIMING:-}" ] && ab_env 1 $((SECONDS - t0 + 80)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_DBIAS=q64k128.w4.m2.co.pipe.tma
echo "== timing done at $((SECONDS - t0)) s" >> $S
# what bounds k_s9_fwd_tma (k_s9_fwd_rows, which moved 47% fewer L2 sectors, was 27% slower in call 1 and is gone
# from this payload): one launch, per-pipe use (bench/ncu_pipes.py: is the MUFU (xu) pipe the bound?) with the
# warp-state and occupancy sections (details in the logs)
ncu_pipes fwd_tma k_s9_fwd
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 60 ] && [ -z "${NO_SHARDS:-}" ] && shards $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
