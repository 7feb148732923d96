#!/usr/bin/env bash
# Session 33, call 6 (carry [".devpack"]; call 4's payload): the same-code reference for call 5's crop-3072 step
# (recompute 2 with recompute_offload): recompute 8 without offload (session 19's setting), 1 step.
. bench/device_common.sh
n=3072 tag=trunk_3072_r8_o0
timeout -k 5 280 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=$n --set crop_size=$n \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=8 --set recompute_offload=0 \
    --steps 1 --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print('step ms', [round(x['ms']) for x in r], 'loss', [x['loss'] for x in r])" \
    /tmp/$tag.jsonl >> $S 2>&1
tail -n 2 $OUT/$tag.log | cut -c1-300 >> $S
cat $S
