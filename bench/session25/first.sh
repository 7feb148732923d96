#!/usr/bin/env bash
# Session 25 call 1 (main@ebd26f4, payload BINS="pairfold test_cuda bench_cuda_ops"): the transition's baseline
# (module f+b at 512 / 1024 / 2048; ncu per kernel at 512) before the fused out projection; then predict at PRED_N
# (default 6144; the probabilities by row blocks at scale) beside `test_cuda --only structure` (d636802 changed the CPU
# reference IPA at rounding level).
. bench/device_common.sh
timeout 120 $P/bench_cuda_ops --ops transition --sizes 512,1024,2048 --reps 5 > $OUT/tr.log 2>&1
echo "== transition rc=$?" >> $S; grep -v '^{' $OUT/tr.log | tail -n 6 >> $S
timeout 150 ncu --clock-control none --print-summary per-kernel \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    $P/bench_cuda_ops --ops transition --sizes 512 --reps 1 > $OUT/ncu_tr.log 2>&1
echo "== ncu transition 512 rc=$?" >> $S; NCU_TOP=20 python3 bench/ncu_summary.py $OUT/ncu_tr.log >> $S 2>&1
run structure 400 stdbuf -oL $T --only structure
$P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 --set msa_rows=4 \
    --set n_val=1 --out /tmp/af3ck --quiet > $OUT/predict_ckpt.log 2>&1; echo "== ckpt rc=$?" >> $S
n=${PRED_N:-6144}
python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range($n)))" > /tmp/q.a3m
t0=$SECONDS
timeout ${PRED_LIMIT:-420} $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/q.a3m --device cuda --recycles 0 --out /tmp/p.safetensors > $OUT/predict_$n.log 2>&1
echo "== predict $n rc=$? ($((SECONDS - t0)) s): $(grep -iE 'peak' $OUT/predict_$n.log | tail -1) file $(stat -c %s /tmp/p.safetensors 2>/dev/null) bytes" >> $S
python3 - >> $S 2>&1 <<'PY'
import json, struct
f = open('/tmp/p.safetensors', 'rb'); n = struct.unpack('<Q', f.read(8))[0]; h = json.loads(f.read(n))
print('header:', {k: v['shape'] for k, v in h.items() if k != '__metadata__'})
PY
wait
report structure
cat $S
