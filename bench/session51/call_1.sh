#!/usr/bin/env bash
# Session 51, call 1 (needs_h200; carry [".devpack", ".cueq"]; payload of 8c8aedb = fb9bd59's kernels, whose whole
# test_cuda passed on an H100 in session 50). Issue 11's acceptance figures on an H200, the first since session 39:
# 1. trimul f+b at 1024 / 2048, three rounds (the 5 ms / 30 ms points);
# 2. both triangle attention modules f+b at 1024 / 2048, one round (issue 10's 15 / 120 ms points);
# 3. the Pairformer block against PyTorch + cuEquivariance at 512 / 1024 / 1536 / 2048 (2x, 70 ms, peaks);
# 4. the AF3 trunk training step at crop 768 (recompute 1, five steps: the 2 s point);
# 5. one block f+b at N 6144 and forward only at 10,000;
# 6. in what is left: the triangle modules against cuEquivariance's at 512 / 1024 / 2048 (issue 10's 2.5x).
# On any other card it stops at once (its timings are not the issues' figures).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
nvidia-smi -L | grep -q H200 || { echo "not an H200: nothing run" >> $S; cat $S; exit 0; }
left() { echo $((L - (SECONDS - t0))); }
# step NAME SECONDS TAIL CMD...: CMD with a limit, its exit status, time and last TAIL lines into $S
step() {
    local name=$1 t=$2 n=$3 s=$SECONDS; shift 3
    timeout -k 15 $t "$@" > $OUT/$name.log 2>&1
    echo "== $name rc=$? ($((SECONDS - s)) s, at $((SECONDS - t0)) s)" >> $S
    tail -n $n $OUT/$name.log >> $S
}
ab_env 3 40 60 trimul 1024,2048 ""
ab_env 1 100 110 tri_attn,tri_attn_end 1024,2048 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$(left); b=$((b - 200)); [ $b -gt 150 ] && b=150
[ $b -gt 60 ] && cueq_blocks 512,1024,1536,2048 5 $b
echo "== blocks done at $((SECONDS - t0)) s" >> $S
b=$(left); [ $b -gt 100 ] && {
    step trunk_768 90 2 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 \
        --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
        --steps 5 --out /tmp/trunk_768 --log /tmp/trunk_768.jsonl
    python3 -c "import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; print('crop 768 step ms', [round(x['ms']) for x in l])" \
        /tmp/trunk_768.jsonl >> $S 2>&1; grep -i -m2 peak $OUT/trunk_768.log >> $S; }
b=$(left); [ $b -gt 80 ] && step bigfb_6144 $((b < 120 ? b - 20 : 100)) 6 $P/pairfold bench --preset af3 --device cuda \
    --set n_msa_blocks=0 --n 6144 --reps 1
b=$(left); [ $b -gt 80 ] && step fwdonly_10000 $((b < 120 ? b - 20 : 100)) 6 $P/pairfold bench --preset af3 \
    --device cuda --set n_msa_blocks=0 --forward-only --n 10000 --reps 1
b=$(left); [ $b -gt 120 ] && cueq_ops 512,1024,2048
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log *.jsonl 2>/dev/null; rm -f *.log *.jsonl
cat $S
