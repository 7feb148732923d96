#!/usr/bin/env bash
# Session 58, call 6 (any sm_90 card; carry [".devpack"]): call 5's whole test_cuda had 3 failures in bf16 mode, all
# attn_lnb_same_bits' "the tensor-core bias kernel did not run" (k_attn_lnproj_wg, the new default, made the bias
# logits in k_lnb_mma's place in those c_in 128 cases); that check now runs with PF_ATTN_LNPROJ off. The whole
# test_cuda in bf16 mode again, 4 shards (4 OpenMP threads each); the fp32 shards passed in call 5 (the change only
# sets a switch that applies in bf16). Then the AF3 trunk's training step at crop 768 (recompute 1, five steps: issue
# 11's 2 s point) with the defaults and with PF_ATTN_LNPROJ=0, while CALL_LIMIT (default 330) lasts.
. bench/device_common.sh
t0=$SECONDS
names=""
for k in 0 1 2 3; do
    OMP_NUM_THREADS=4 run bf16_$k ${CHECK_LIMIT:-290} stdbuf -oL $T --mode bf16 --shard $k/4; names="$names bf16_$k"
done
checks_report $names
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
echo "== tests done at $((SECONDS - t0)) s" >> $S
L=${CALL_LIMIT:-330}
for f in "" PF_ATTN_LNPROJ=0; do
    [ $((L - (SECONDS - t0))) -gt 45 ] || break
    env $f timeout -k 5 $((L - (SECONDS - t0) - 5)) $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=768 --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=1 --steps 5 --out /tmp/trunk_768$f --log /tmp/trunk_768$f.jsonl > $OUT/trunk$f.log 2>&1
    echo "== trunk 768 ${f:-defaults} rc=$?" >> $S
    python3 -c "import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; print('crop 768 step ms', [round(x['ms']) for x in l])" \
        /tmp/trunk_768$f.jsonl >> $S 2>&1; grep -i -m1 peak $OUT/trunk$f.log >> $S
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
