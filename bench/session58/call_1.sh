#!/usr/bin/env bash
# Session 58, call 1 (any sm_90 card; carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh` of the session's first commit: session 57's later commits, none run on a GPU yet).
# CALL_LIMIT s (default 540):
# 1. in parallel: the whole test_cuda, fp32 and bf16 modes each in 4 shards (8 processes, 2 OpenMP threads each),
#    the PyTorch parity test, and compute-sanitizer memcheck of the triangle modules with PF_ATTN_BWD_WG=6;
# 2. both triangle attentions f+b at 1024 / 2048: the default (mode 5) against PF_ATTN_BWD_WG=6, two rounds;
# 3. ncu of k_bwd_ws_tma both ways (time, DRAM bytes).
# On an H200 (none since session 39): issues 10 / 11's acceptance figures instead (bench/session51/call_1.sh).
if nvidia-smi -L | grep -q H200; then CALL_LIMIT=${H200_LIMIT:-400} exec bash bench/session51/call_1.sh; fi
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
b=${CHECK_LIMIT:-300}
names=""
for m in fp32 bf16; do for k in 0 1 2 3; do
    OMP_NUM_THREADS=2 run ${m}_$k $b stdbuf -oL $T --mode $m --shard $k/4; names="$names ${m}_$k"
done; done
run parity 200 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
PF_ATTN_BWD_WG=6 run mc_ba $b compute-sanitizer --tool memcheck $P/bench_cuda_ops --ops tri_attn,tri_attn_end \
    --sizes 200,256 --reps 1
checks_report $names parity mc_ba
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
tail -n 4 $OUT/parity.log >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 70)) 70 tri_attn,tri_attn_end 1024,2048 "" PF_ATTN_BWD_WG=6
echo "== timing done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 60 ] && ncu_rows ws5 25 2 bwd_ws_tma $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
[ $((L - (SECONDS - t0))) -gt 30 ] && PF_ATTN_BWD_WG=6 ncu_rows ws6 25 2 bwd_ws_tma $P/bench_cuda_ops --ops tri_attn \
    --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
