#!/usr/bin/env bash
# Session 26 call 3: why the crop-768 trunk step (next.sh part 4) never returned, even past `timeout 100` (SIGTERM
# only asks pairfold to stop after the step in flight). Each run under a hard kill; where a run is stuck after 40 s,
# the GPU's state and the host stacks (gdb where present) are logged.
. bench/device_common.sh
probe() {  # probe NAME SECONDS CMD...: the run in the background; at 40 s, if still running, its state
    local name=$1 lim=$2; shift 2; local t0=$SECONDS
    ( exec timeout -s KILL $lim "$@" > $OUT/$name.log 2>&1 ) & local pid=$!
    for i in $(seq 40); do sleep 1; kill -0 $pid 2>/dev/null || break; done
    if kill -0 $pid 2>/dev/null; then
        local pp=$(pgrep -P $pid | head -1); pp=${pp:-$pid}
        echo "-- $name still running at 40 s (pid $pp): $(nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader)" >> $S
        if command -v gdb > /dev/null; then
            timeout 30 gdb -p $pp -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E "^#|^Thread" | head -60 >> $S
        else
            for t in /proc/$pp/task/*; do echo "task $(basename $t) $(cat $t/wchan 2>/dev/null) $(cat $t/stat | cut -d' ' -f3)" >> $S; done
        fi
    fi
    wait $pid; echo "== $name rc=$? ($((SECONDS - t0)) s)" >> $S
    tail -n 12 $OUT/$name.log >> $S
}
TR="$P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1"
probe trunk11 70 stdbuf -oL $TR --steps 4 --out /tmp/t11 --log $OUT/trunk11.jsonl
if [ "$(wc -l < $OUT/trunk11.jsonl 2>/dev/null || echo 0)" -ge 4 ]; then  # ran: the block at HEAD instead
    for n in 512 1024; do
        echo "block N=$n: $(timeout 60 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7 --n $n 2>&1 | tail -1)" >> $S
    done
else
    probe trunk00 70 env PF_TR_WGO=0 PF_TR_WGB=0 stdbuf -oL $TR --steps 3 --out /tmp/t00 --log $OUT/trunk00.jsonl
    probe bench768 50 stdbuf -oL $P/pairfold bench --preset af3 --device cuda --n 768 --reps 2
fi
for f in trunk11 trunk00; do [ -f $OUT/$f.jsonl ] || continue
    python3 -c "import json,sys; L=[json.loads(l) for l in open(sys.argv[1])]; print(sys.argv[1][-12:], 'step ms', [round(x['ms']) for x in L], 'loss', [x.get('loss') for x in L])" $OUT/$f.jsonl >> $S 2>&1
done
cat $S
