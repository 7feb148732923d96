#!/usr/bin/env bash
# Session 33, call 5 (carry [".devpack", ".cueq"]; call 4's payload): recompute_offload at longer crops (the AF3 trunk
# training step, recompute 1, crop 2048 with offload 0 / 1, 2 steps each; crop 3072 with recompute 2 and offload, 1
# step: session 19 needed recompute 8 there, 153.9 s and 78.8 GiB), then the Pairformer block against PyTorch +
# cuEquivariance at 512 / 1024 (the final code's same-run ratio).
. bench/device_common.sh
trunk() {  # crop recompute offload steps limit
    local n=$1 r=$2 o=$3 k=$4 tag=trunk_$1_r$2_o$3
    timeout -k 5 $5 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=$n --set crop_size=$n \
        --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=$r --set recompute_offload=$o \
        --steps $k --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
    echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
    python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print('step ms', [round(x['ms']) for x in r], 'loss', [x['loss'] for x in r])" \
        /tmp/$tag.jsonl >> $S 2>&1
    tail -n 2 $OUT/$tag.log | cut -c1-300 >> $S
}
trunk 2048 1 0 2 150; trunk 2048 1 1 2 150
trunk 3072 2 1 1 240
cueq_blocks 512,1024 5 150
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
