#!/usr/bin/env bash
# Session 28 call 3 (carry [".devpack", ".cueq"]; payload of main after 62f63f9): predict's progress lines on a GPU
# (2048 residues), a crop-768 AF3 training run alone (20 steps), the block against PyTorch + cuEquivariance at 512
# (7 repetitions: a third sample of the ratio), the bias gradient's row ranges (PF_ATTN_DBIAS_SPLITS), then where each kernel of the block at N = 1024 is limited (ncu
# per pipe, DRAM, L2 and occupancy for every launch of one forward + one f+b; bench/ncu_pipes.py). ~400 s.
. bench/device_common.sh
timeout -s KILL 120 $P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 \
    --set msa_rows=4 --set n_val=1 --out /tmp/af3ck --quiet > /tmp/ck.log 2>&1
python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range(2048)))" > /tmp/query.a3m
( time timeout -s KILL 240 $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/query.a3m --device cuda --recycles 0 \
    --out /tmp/pred.safetensors ) > $OUT/predict.log 2>&1; echo "rc=$?" >> $OUT/predict.log
echo "== predict 2048:" >> $S; grep -v "^  [A-Z]:" $OUT/predict.log | head -n 16 >> $S
timeout -s KILL 150 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 \
    --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
    --set recompute_keep_attn=1 --steps 20 --out /tmp/d20 --log /tmp/d20.jsonl > /tmp/d20.log 2>&1
echo "== crop 768, 20 steps alone rc=$?: $(tail -n 1 /tmp/d20.log)" >> $S
python3 -c "import json; ms=[json.loads(l)['ms'] for l in open('/tmp/d20.jsonl')]; print('step ms', [round(x) for x in ms])" >> $S 2>&1
cueq_blocks 512 7 120
# the bias gradient's row ranges (PF_ATTN_DBIAS_SPLITS; by size: 8 at N = 512, 2 at 1024), triangle module f+b
echo "== tri_attn f+b / forward ms by PF_ATTN_DBIAS_SPLITS (0: by size)" >> $S
for pass in 1 2; do
    for sp in 0 2 4 8 16 1; do
        PF_ATTN_DBIAS_SPLITS=$sp timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes 512,1024 --reps 5 2>&1 |
            grep '^{' | python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('splits $sp', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
    done
done
M=gpu__time_duration.sum,sm__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none --csv --metrics $M $P/pairfold bench --preset af3 --device cuda \
    --set n_msa_blocks=0 --n 1024 --reps 1 > /tmp/pipes1024.csv 2>/tmp/pipes1024.err
echo "== ncu per pipe, block at 1024 (warm-up + 1 repetition: 2 forwards + 2 f+b) rc=$?" >> $S
python3 bench/ncu_pipes.py /tmp/pipes1024.csv 45 >> $S 2>&1
xz -T0 -c /tmp/pipes1024.csv > $OUT/pipes1024.csv.xz
cat $S
