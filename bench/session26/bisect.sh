#!/usr/bin/env bash
# Session 26 call 4: which fused transition kernel hangs the crop-768 trunk step (hang.sh: both on hang, both off run).
. bench/device_common.sh
TR="$P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1 --steps 2"
for v in "PF_TR_WGO=0 PF_TR_WGB=1" "PF_TR_WGO=1 PF_TR_WGB=0" "PF_WCACHE=0" "PF_TR_BWD_ALIAS=0"; do
    t0=$SECONDS; n=$(echo $v | tr ' =' '__')
    timeout -s KILL 45 env $v stdbuf -oL $TR --out /tmp/b$n --log $OUT/b$n.jsonl > $OUT/b$n.log 2>&1
    echo "== $v rc=$? ($((SECONDS - t0)) s): $(grep -h '^step' $OUT/b$n.log | tail -1)" >> $S
done
cat $S
