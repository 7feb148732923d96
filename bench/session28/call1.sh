#!/usr/bin/env bash
# Session 28 call 1 (carry [".devpack", ".cueq"]): bench/session28/first.sh (the whole test_cuda on 90dec2b's
# compiled-only __syncwarp() lines beside a 20-step crop-768 run; the block against PyTorch + cuEquivariance at
# 512 / 1024), then the first GPU run of predict's trunk progress lines (e050e64): an af3 checkpoint of one step,
# a 2048-residue single-sequence predict, its stderr kept. ~520 s.
bash bench/session28/first.sh > /dev/null 2>&1
P=/tmp/pf S=$OUT/summary.txt  # first.sh unpacked the payload there; its summary is appended to
export LD_LIBRARY_PATH=$P/lib:${LD_LIBRARY_PATH:-}
timeout -s KILL 120 $P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 \
    --set msa_rows=4 --set n_val=1 --out /tmp/af3ck --quiet > /tmp/ck.log 2>&1
python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range(2048)))" > /tmp/query.a3m
timeout -s KILL 240 $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/query.a3m --device cuda --recycles 0 \
    --out /tmp/pred.safetensors > $OUT/predict.log 2>&1; echo "rc=$?" >> $OUT/predict.log
echo "== predict 2048 (progress lines):" >> $S; tail -n 12 $OUT/predict.log >> $S
# every kernel of the block at 512 (ncu: the bench's warm-up + 1 repetition, each a forward and a forward + backward)
timeout 120 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
    $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512 --reps 1 > /tmp/ncu512.log 2>&1
echo "== ncu 512 rc=$? (totals over 2 forwards + 2 f+b)" >> $S
NCU_TOP=90 python3 bench/ncu_summary.py /tmp/ncu512.log >> $S 2>&1
cat $S
