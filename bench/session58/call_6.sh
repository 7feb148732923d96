#!/usr/bin/env bash
# Session 58, call 6 (any sm_90 card; carry [".devpack"]): call 5's whole test_cuda had 3 failures in bf16 mode, all
# attn_lnb_same_bits' "the tensor-core bias kernel did not run" (k_attn_lnproj_wg, the new default, made the bias
# logits in k_lnb_mma's place in those c_in 128 cases); that check now runs with PF_ATTN_LNPROJ off. The whole
# test_cuda in bf16 mode again, 4 shards (4 OpenMP threads each); the fp32 shards passed in call 5 (the change only
# sets a switch that applies in bf16).
. bench/device_common.sh
t0=$SECONDS
names=""
for k in 0 1 2 3; do
    OMP_NUM_THREADS=4 run bf16_$k ${CHECK_LIMIT:-290} stdbuf -oL $T --mode bf16 --shard $k/4; names="$names bf16_$k"
done
checks_report $names
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
