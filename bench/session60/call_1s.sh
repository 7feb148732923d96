#!/usr/bin/env bash
# (As it ran in session 60. Since then PF_ATTN_LNPROJ=2 is removed and refused, so this script stops at it:
# bench/session60/next_call.sh is its form for the code after session 60.)
# Session 60, the short form of call_1.sh for a small budget (any sm_90 card; carry [".devpack"]; CALL_LIMIT s,
# default 220; CHECK_LIMIT s, default 90): test_cuda --only attn_end_inplace / attn_proj_bwd and memcheck of both
# triangle modules with the three opt-in forms on, in parallel; then both triangle modules f+b at 1024 / 2048 with
# the defaults and all three forms, then each form alone, taking turns while the time lasts.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-220}
b=${CHECK_LIMIT:-90}
ALL="PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1"
OMP_NUM_THREADS=6 run eip $b stdbuf -oL $T --only attn_end_inplace
OMP_NUM_THREADS=6 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1 PF_ATTN_END_T=1 run mc_all $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report eip pbwd mc_all
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 1 $((L - 30)) 60 tri_attn,tri_attn_end 1024,2048 "" "$ALL" PF_ATTN_END_INPLACE=1 PF_ATTN_PROJ_BWD=1 \
    PF_ATTN_LNPROJ=2 "" "$ALL"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
