#!/usr/bin/env bash
# Session 58, call 5 (any sm_90 card; carry [".devpack", ".cueq"]; payload of the session's final code:
# k_attn_lnproj_wg the default, PF_ATTN_BWD_WG=6 removed). CALL_LIMIT s (default 500):
# 1. in parallel: the whole test_cuda, fp32 and bf16 modes each in 4 shards (8 processes, 2 OpenMP threads each),
#    and the PyTorch parity test;
# 2. the Pairformer block against PyTorch + cuEquivariance 0.13.0 at 512 / 1024 / 2048 (compare_blocks.py);
# 3. both triangle attentions f+b at 1024 / 2048, the defaults, one round.
# On an H200: issues 10 / 11's acceptance figures instead (bench/session51/call_1.sh).
if nvidia-smi -L | grep -q H200; then CALL_LIMIT=${H200_LIMIT:-400} exec bash bench/session51/call_1.sh; fi
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-500}
b=${CHECK_LIMIT:-290}
names=""
for m in fp32 bf16; do for k in 0 1 2 3; do
    OMP_NUM_THREADS=2 run ${m}_$k $b stdbuf -oL $T --mode $m --shard $k/4; names="$names ${m}_$k"
done; done
run parity 200 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
checks_report $names parity
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
tail -n 2 $OUT/parity.log >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 150 ] && cueq_blocks 512,1024,2048 5 $((L - (SECONDS - t0) - 40))
echo "== blocks done at $((SECONDS - t0)) s" >> $S
[ $((L - (SECONDS - t0))) -gt 30 ] && ab_env 1 $((L - 25)) 60 tri_attn,tri_attn_end 1024,2048 ""
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
