#!/usr/bin/env bash
# Session 21 call 2 (main's code, call 1's payload): the whole test_cuda in 4 shards (line-buffered: call 1's
# shards, beside predict at 6144, were cut at 420 s with their verdicts unwritten) and the PyTorch parity test;
# then alone, the block against PyTorch + cuEquivariance (carry .cueq) and the crop-768 trunk steps.
. bench/device_common.sh
t0=$SECONDS
for k in 0 1 2 3; do run t_all$k ${TLIM:-280} stdbuf -oL $T --shard $k/4; done
run parity ${TLIM:-280} python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report t_all0 t_all1 t_all2 t_all3 parity
t0=$SECONDS
PYTHONPATH=/tmp/site timeout 170 python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n 512,1024,1536,2048 --reps 3 --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 14 $OUT/benchcq.log >> $S
t0=$SECONDS
timeout 110 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --steps 4 --out /tmp/trunk768 \
    --log $OUT/trunk768.jsonl --quiet > $OUT/trunk768.log 2>&1
echo "== trunk 768 rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 2 $OUT/trunk768.log >> $S
python3 -c "import json,sys; print('step ms', [round(json.loads(l)['ms']) for l in open(sys.argv[1])], 'loss', [json.loads(l).get('loss') for l in open(sys.argv[1])])" $OUT/trunk768.jsonl >> $S 2>&1
(cd $OUT && tar -cJf logs.tar.xz *.log *.jsonl && rm -f *.log *.jsonl)
cat $S
