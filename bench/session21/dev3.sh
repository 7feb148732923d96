#!/usr/bin/env bash
# Session 21 call 3 (main + test_cuda's progress lines on stderr): the whole test_cuda in 4 shards, alone, with a
# longer limit (calls 1 and 2 cut them at 420 / 280 s: where the time goes, or which group stalls); then the
# crop-768 trunk with session 18's command (recompute_keep_attn=1).
. bench/device_common.sh
t0=$SECONDS
for k in 0 1 2 3; do run t_all$k ${TLIM:-440} stdbuf -oL $T --shard $k/4; done
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report t_all0 t_all1 t_all2 t_all3
for k in 0 1 2 3; do grep -h '^\[test_cuda' $OUT/t_all$k.log | tail -n 3 >> $S; done
t0=$SECONDS
timeout 100 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1 \
    --steps 4 --out /tmp/trunk768 --log $OUT/trunk768.jsonl --quiet > $OUT/trunk768.log 2>&1
echo "== trunk 768 keep_attn rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 1 $OUT/trunk768.log >> $S
python3 -c "import json,sys; print('step ms', [round(json.loads(l)['ms']) for l in open(sys.argv[1])], 'loss', [json.loads(l).get('loss') for l in open(sys.argv[1])])" $OUT/trunk768.jsonl >> $S 2>&1
(cd $OUT && tar -cJf logs.tar.xz *.log *.jsonl && rm -f *.log *.jsonl)
cat $S
