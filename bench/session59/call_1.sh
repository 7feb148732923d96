#!/usr/bin/env bash
# Session 59, call 1 (any sm_90 card; carry [".devpack"], payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh`; CALL_LIMIT s, default 420):
# 1. checks in parallel: test_cuda --only attn_proj_bwd (new: k_tm_gdw's TMA form for the attention projections'
#    backward, PF_ATTN_PROJ_BWD=1 and 0 against the CPU reference, launches counted), --only attn_lnproj (forms 2, 1,
#    0), --only trimul_gdw (the kernel's trimul forms: SASS unchanged, run anyway); compute-sanitizer memcheck of the
#    triangle modules at N 200 / 256 with PF_ATTN_PROJ_BWD=1 and with PF_ATTN_LNPROJ=2, and of both test groups in
#    bf16 (their masked cases, odd sizes);
# 2. ncu at N 1024: k_attn_lnproj_wg =1 against =2; the backward's projection GEMMs against k_tm_gdw (=0 / =1);
# 3. both triangle attentions f+b at 1024 / 2048, taking turns, three rounds: the defaults, PF_ATTN_LNPROJ=2,
#    PF_ATTN_PROJ_BWD=1, both.
# On an H200 (none since session 39) the acceptance figures first: the new form checked, then the triangle attention
# f+b at 1024 / 2048 with the defaults, PF_ATTN_PROJ_BWD=1 and both new forms (three rounds; issue 10's 15 / 120 ms),
# trimul three rounds (issue 11's 5 / 30 ms), the ending node once, the block against cuEquivariance (carry .cueq).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-420}
b=${CHECK_LIMIT:-150}
if nvidia-smi -L | grep -q H200; then
    OMP_NUM_THREADS=8 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
    PF_ATTN_PROJ_BWD=1 run mc_pb $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
        --sizes 200,256 --reps 1
    checks_report pbwd mc_pb
    echo "== checks done at $((SECONDS - t0)) s" >> $S
    ab_env 3 $((L - 200)) 70 tri_attn 1024,2048 "" PF_ATTN_PROJ_BWD=1 "PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1"
    ab_env 3 $((L - 170)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 160)) 70 tri_attn_end 1024,2048 ""
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 100 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 10))
    echo "== end at $((SECONDS - t0)) s" >> $S
    cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
    cat $S
    exit 0
fi
OMP_NUM_THREADS=4 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
OMP_NUM_THREADS=4 run lnproj $b stdbuf -oL $T --only attn_lnproj
OMP_NUM_THREADS=4 run tgdw $b stdbuf -oL $T --quick --only trimul_gdw
PF_ATTN_PROJ_BWD=1 run mc_pb $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
PF_ATTN_LNPROJ=2 run mc_lp2 $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
run mc_gpb $b compute-sanitizer --tool memcheck $T --mode bf16 --quick --only attn_proj_bwd
run mc_glp $b compute-sanitizer --tool memcheck $T --mode bf16 --quick --only attn_lnproj
checks_report pbwd lnproj tgdw mc_pb mc_lp2 mc_gpb mc_glp
grep -h "launches" $OUT/pbwd.log $OUT/lnproj.log | head -8 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
for f in 1 2; do
    PF_ATTN_LNPROJ=$f ncu_rows lp$f 40 3 lnproj $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
for f in 0 1; do
    PF_ATTN_PROJ_BWD=$f ncu_rows pb$f 50 6 "gdw|gemm|nvjet|xmma|cutlass" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
ncu_pipes pb1 k_tm_gdw PF_ATTN_PROJ_BWD=1
echo "== ncu done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((L - 40)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 \
    "PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
