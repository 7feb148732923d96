#!/usr/bin/env bash
# (As it ran in session 60. Since then PF_ATTN_LNPROJ=2 is removed and refused, so this script stops at it:
# bench/session60/next_call.sh is its form for the code after session 60.)
# Session 60, call 1 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`; CALL_LIMIT s, default 400, CHECK_LIMIT s for the checks, default 150).
# Three opt-in forms wait for their first GPU run: PF_ATTN_LNPROJ=2 (s58), PF_ATTN_PROJ_BWD=1 (s59) and
# PF_ATTN_END_INPLACE=1 (s60: the ending node's forward without its x^T / out^T copies).
# 1. checks in parallel: test_cuda --only attn_proj_bwd / attn_lnproj / attn_end_inplace (each against the CPU
#    reference or bit for bit against the form it replaces, launches counted), compute-sanitizer memcheck of both
#    triangle modules at N 200 / 256 with all three forms on (PF_ATTN_END_T=1 so the ending node takes x^T there);
# 2. on an H100: both triangle modules f+b at 1024 / 2048, two rounds taking turns: the defaults, each form alone,
#    all three; on an H200 (none since session 39) the acceptance figures instead: the start node three rounds with
#    the defaults and all three forms (issue 10's 15 / 120 ms), trimul three rounds (issue 11's 5 / 30 ms), the
#    ending node with and without the in-place form, the block against cuEquivariance (carry .cueq).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
b=${CHECK_LIMIT:-150}
ALL="PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1"
OMP_NUM_THREADS=4 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
OMP_NUM_THREADS=4 run lnproj $b stdbuf -oL $T --only attn_lnproj
OMP_NUM_THREADS=4 run eip $b stdbuf -oL $T --only attn_end_inplace
PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1 PF_ATTN_END_T=1 run mc_all $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report pbwd lnproj eip mc_all
grep -h "launches" $OUT/pbwd.log $OUT/lnproj.log | head -6 >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 3 $((L - 190)) 70 tri_attn 1024,2048 "" "$ALL"
    ab_env 3 $((L - 160)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 130)) 70 tri_attn_end 1024,2048 "" "$ALL"
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 100 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 10))
else
    ab_env 2 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_LNPROJ=2 PF_ATTN_PROJ_BWD=1 \
        PF_ATTN_END_INPLACE=1 "$ALL"
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
