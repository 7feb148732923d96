#!/usr/bin/env bash
# After session 60 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`; CALL_LIMIT s, default 480, CHECK_LIMIT s for the checks, default 250).
# Session 60 made PF_ATTN_PROJ_BWD=1 and PF_ATTN_END_INPLACE=1 the defaults; OLD turns both off (session 59's paths).
# 1. checks in parallel: the whole test_cuda in both modes, 4 shards each (fp32 ran on the final code only with the
#    forms exported; bf16 passed whole in session 60's call 6), compute-sanitizer memcheck of both triangle modules
#    at N 200 / 256 (PF_ATTN_END_T=1 so the ending node takes x^T there);
# 2. on an H100: both triangle modules f+b at 1024 / 2048, the defaults against OLD, two rounds; on an H200 (none
#    since session 39) the acceptance figures instead: the starting node three rounds with the defaults and OLD
#    (issue 10's 15 / 120 ms), trimul three rounds (issue 11's 5 / 30 ms), the ending node, the block against
#    cuEquivariance (carry .cueq).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-480}
b=${CHECK_LIMIT:-250}
OLD="PF_ATTN_PROJ_BWD=0 PF_ATTN_END_INPLACE=0"
names=""
for m in fp32 bf16; do for k in 0 1 2 3; do
    OMP_NUM_THREADS=2 run ${m}_$k $b stdbuf -oL $T --mode $m --shard $k/4; names="$names ${m}_$k"
done; done
PF_ATTN_END_T=1 run mc_all $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report $names mc_all
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 3 $((L - 190)) 70 tri_attn 1024,2048 "" "$OLD"
    ab_env 3 $((L - 160)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 130)) 70 tri_attn_end 1024,2048 "" "$OLD"
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 100 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 10))
else
    ab_env 2 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" "$OLD"
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
