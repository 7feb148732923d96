#!/usr/bin/env bash
# Not run in session 24 (the start was refused); run it first next session: carry [".devpack"] (BINS=pairfold).
# Session 24 call F: predict (af3 preset, 48 blocks, one training step's weights, single sequence, no recycling) at
# PRED_N residues on main's code: the distogram probabilities written by row blocks at scale (time, peak, file size).
. bench/device_common.sh
$P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 --set msa_rows=4 \
    --set n_val=1 --out /tmp/af3ck --quiet > $OUT/predict_ckpt.log 2>&1; echo "== ckpt rc=$?" >> $S
n=${PRED_N:-4096}
python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range($n)))" > /tmp/q.a3m
t0=$SECONDS
timeout ${PRED_LIMIT:-200} $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/q.a3m --device cuda --recycles 0 --out /tmp/p.safetensors > $OUT/predict_$n.log 2>&1
echo "== predict $n rc=$? ($((SECONDS - t0)) s): $(grep -iE 'peak' $OUT/predict_$n.log | tail -1) file $(stat -c %s /tmp/p.safetensors 2>/dev/null) bytes" >> $S
python3 - >> $S 2>&1 <<'PY'
import json, struct
f = open('/tmp/p.safetensors', 'rb'); n = struct.unpack('<Q', f.read(8))[0]; h = json.loads(f.read(n))
print('header:', {k: v['shape'] for k, v in h.items() if k != '__metadata__'})
PY
cat $S
