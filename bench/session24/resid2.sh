#!/usr/bin/env bash
# Ran on branch fuseresid (7f9fe34: PF_FUSE_RESID exists there only; not landed).
# Session 24 call E: the fused residual add's loads issued early (k_tm_out3: the stream's 16 bytes between the two
# products, the masks two rows at a time; k_attn_gate_out_wg: the 4 runs' loads together). Tests (fuse_resid,
# blocksmall, model; trimul and attn.1 in shards), then alone the block f+b with PF_FUSE_RESID=0 / 1 alternating and
# ncu of the two output kernels at 512 both ways.
. bench/device_common.sh
TL=${TL:-200}
for g in fuse_resid blocksmall model; do run $g $TL stdbuf -oL $T --only $g; done
for k in 0 1; do run trimul$k $TL stdbuf -oL $T --only trimul --shard $k/2; done
run attn1 $TL stdbuf -oL $T --only attn.1
wait
report fuse_resid blocksmall model trimul0 trimul1 attn1
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 0 1; do for n in 512 1024; do
    echo "== n=$n PF_FUSE_RESID=$m: $(PF_FUSE_RESID=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
for m in 1; do
    PF_FUSE_RESID=$m timeout 120 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
        $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512 --reps 1 > $OUT/ncu_f$m.log 2>&1
    echo "== ncu PF_FUSE_RESID=$m rc=$?" >> $S
    NCU_TOP=100 python3 bench/ncu_summary.py $OUT/ncu_f$m.log | grep -E "total|k_tm_out3|k_attn_gate_out|k_dropout|k_add_v|k_resid" >> $S 2>&1
done
cat $S
# predict on the GPU with the distogram probabilities written by row blocks (helper change): the default block
# against 7-row blocks (the same bytes), then the af3 preset at 2048 residues (peak, time)
$P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 --set msa_rows=4 \
    --set n_val=1 --out /tmp/af3ck --quiet > $OUT/predict_ckpt.log 2>&1; echo "== ckpt rc=$?" >> $S
for n in 300 2048; do
    python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range($n)))" > /tmp/q$n.a3m
    t0=$SECONDS
    timeout 150 $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/q$n.a3m --device cuda --recycles 0 --out /tmp/p$n.safetensors > $OUT/predict_$n.log 2>&1
    echo "== predict $n rc=$? ($((SECONDS - t0)) s): $(grep -iE 'peak|GiB' $OUT/predict_$n.log | tail -2 | tr '\n' ' ')" >> $S
done
PF_PREDICT_ROWS_BLOCK=7 timeout 60 $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/q300.a3m --device cuda --recycles 0 \
    --out /tmp/p300b.safetensors > $OUT/predict_300b.log 2>&1
echo "== predict 300 in 7-row blocks rc=$?; cmp: $(cmp /tmp/p300.safetensors /tmp/p300b.safetensors && echo identical)" >> $S
cat $S
