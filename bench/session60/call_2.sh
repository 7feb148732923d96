#!/usr/bin/env bash
# Session 60, call 2 (the warm H100 of call 1; the same payload): the whole test_cuda with the two forms call 1
# measured faster exported (PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1: what making them the defaults runs), fp32 and
# bf16 modes each in 4 shards (8 processes), and the PyTorch parity test with them, in parallel (CHECK_LIMIT s,
# default 260); then the triangle modules f+b at 1024 with and without them, one more round.
. bench/device_common.sh
t0=$SECONDS
b=${CHECK_LIMIT:-260}
export PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1
names=""
for m in fp32 bf16; do for k in 0 1 2 3; do
    OMP_NUM_THREADS=2 run ${m}_$k $b stdbuf -oL $T --mode $m --shard $k/4; names="$names ${m}_$k"
done; done
run parity $((b - 20)) python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
checks_report $names parity
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
tail -n 4 $OUT/parity.log >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
unset PF_ATTN_PROJ_BWD PF_ATTN_END_INPLACE
ab_env 1 $((b + 40)) 40 tri_attn,tri_attn_end 1024 "" "PF_ATTN_PROJ_BWD=1 PF_ATTN_END_INPLACE=1"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
