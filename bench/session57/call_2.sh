#!/usr/bin/env bash
# Session 57, call 2 (any sm_90 card; carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh` with: k_attn_gate_bwd_dw prefetching its next tile's rows into L2 (PF_AGD_PREFETCH, on
# by default, 0 the kernel before), cu_flash_sm90.cu split in two files (SASS of every forward unchanged by md5),
# k_s9_fwd_hp removed). CALL_LIMIT s (default 330):
# 1. in parallel: test_cuda --mode bf16 --quick --only attn (the forwards after the split), --only attn_gate_wg (the
#    prefetching kernel against the reference and mode 2's bits) and memcheck of the triangle modules (prefetch on);
# 2. both triangle attentions f+b at 1024 / 2048: the defaults against PF_AGD_PREFETCH=0, two rounds;
# 3. ncu of k_attn_gate_bwd_dw with and without the prefetch (time, DRAM bytes).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-330}
b=${CHECK_LIMIT:-150}
OMP_NUM_THREADS=8 run attn_bf16 $b stdbuf -oL $T --mode bf16 --quick --only attn
OMP_NUM_THREADS=4 run gate_wg $b stdbuf -oL $T --only attn_gate_wg
run mc_mod $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1
checks_report attn_bf16 gate_wg mc_mod
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 70)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_AGD_PREFETCH=0
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 45 ] && ncu_rows agd_on 20 3 gate_bwd_dw $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
[ $((L - (SECONDS - t0))) -gt 25 ] && PF_AGD_PREFETCH=0 ncu_rows agd_off 20 3 gate_bwd_dw $P/bench_cuda_ops --ops tri_attn \
    --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
