#!/usr/bin/env bash
# Session 59, the short form of call_1.sh for a small budget (any sm_90 card; carry [".devpack"]; CALL_LIMIT s,
# default 200): test_cuda --only attn_proj_bwd and memcheck of the triangle modules with PF_ATTN_PROJ_BWD=1 in
# parallel (CHECK_LIMIT s), then the start node's f+b at 1024 / 2048 with the defaults, PF_ATTN_PROJ_BWD=1 and
# PF_ATTN_LNPROJ=2 taking turns, two rounds, then ncu of the backward's projection kernels both ways.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-200}
b=${CHECK_LIMIT:-80}
OMP_NUM_THREADS=8 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
PF_ATTN_PROJ_BWD=1 run mc_pb $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report pbwd mc_pb
grep -h "launches" $OUT/pbwd.log | head -4 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 60)) 50 tri_attn 1024,2048 "" PF_ATTN_PROJ_BWD=1 PF_ATTN_LNPROJ=2
echo "== timing done at $((SECONDS - t0)) s" >> $S
for f in 0 1; do
    [ $((L - (SECONDS - t0))) -gt 25 ] && PF_ATTN_PROJ_BWD=$f ncu_rows pb$f 25 6 "gdw|gemm|nvjet|xmma|cutlass" \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
