#!/usr/bin/env bash
# Session 34, call 2 (carry [".devpack"], call 1's payload): the AF3 trunk training step at crop 768 (10 steps,
# recompute 1; session 33's command), per-module times of both AF3 block types at N = 768, ncu per launch (kernel and
# grid: bench/ncu_launches.py) of those blocks at 768 and of the triangle attention module at 1024, then parity and the
# whole test_cuda in 4 shards (bench/device_all.sh).
. bench/device_common.sh
tag=trunk_768
timeout -k 5 240 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
    --steps 10 --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
python3 -c "import json,sys,statistics as st; r=[json.loads(l) for l in open(sys.argv[1])]; m=[round(x['ms']) for x in r]; print('step ms', m, 'median of 2..', st.median(m[1:])); print('losses', [x['loss'] for x in r][:3])" \
    /tmp/$tag.jsonl >> $S 2>&1
echo "== per module at 768" >> $S
timeout -k 5 120 $P/pairfold bench --preset af3 --device cuda --n 768 --reps 5 --per-module > $OUT/permod.log 2>&1
echo "rc=$?" >> $S; grep -v '^pairfold:' $OUT/permod.log | tail -n 40 >> $S
ncu_rows b768 240 50 . $P/pairfold bench --preset af3 --device cuda --n 768 --reps 1
ncu_rows ta 150 30 . $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
parity_shards 260
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
