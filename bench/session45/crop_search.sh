#!/usr/bin/env bash
# Issue 12's largest one-GPU AF3 trunk training crop (one H200: `needs_h200`; carry [".devpack"], payload with
# pairfold: `BINS="pairfold" NO_SYS=1 bash bench/pack_device.sh`). Crops tried largest first, one training step
# each (recompute 8, no offload, 128 MSA rows, recycles 0, synthetic proteins: session 31's setting at 3072), until
# one completes: that crop is the largest of the list that fits, the one before it the proof that the next does not.
# The list comes from docs/PARALLEL.md's table (bench/mem_plan.cu's device total, session 45, plus the ~1.45 GiB
# that crop 3072 measured above the plan, plus the context, against the H200's ~140 GiB), for a build with the
# distogram loss in blocks of rows (session 45): 4160 marginal (139.9 GiB), 4128 expected to fit (137.9), 4096
# (135.8) the fallback; ~210-230 s a step by N^3 from 3072's 87 s, and a crop that does not fit should stop at
# the arenas' allocation or at the first workspace past them. A build before the blocked loss: CROPS=4096,4064,4032.
# CROPS (comma list, largest first), RECOMPUTE, STEP_LIMIT (seconds a crop) override.
. bench/device_common.sh
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv >> $S 2>&1
r=${RECOMPUTE:-8}
for n in $(echo ${CROPS:-4160,4128,4096} | tr ',' ' '); do
    t0=$SECONDS
    # the device's own count beside train's reported peak (which leaves out the context and stream-ordered memory):
    # memory.used every 500 ms while the step runs, its maximum in the summary (calibrates docs/PARALLEL.md's table)
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 > $OUT/smi_$n.log 2>&1 &
    smi=$!
    timeout -k 15 ${STEP_LIMIT:-300} $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=$n --set crop_size=$n --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=$r --steps 1 --out /tmp/crop_$n --log /tmp/crop_$n.jsonl > $OUT/crop_$n.log 2>&1
    rc=$?
    kill $smi 2>/dev/null; wait $smi 2>/dev/null
    echo "== crop $n recompute $r rc=$rc ($((SECONDS - t0)) s); nvidia-smi memory.used max $(sort -n $OUT/smi_$n.log | tail -n 1) MiB" >> $S
    grep -i -E "peak|out of memory|error" $OUT/crop_$n.log | tail -n 4 >> $S
    if [ $rc = 0 ] && [ -s /tmp/crop_$n.jsonl ]; then
        python3 -c "import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; print('crop', sys.argv[2], 'step ms', [round(x['ms']) for x in l], 'loss', [x['loss'] for x in l])" \
            /tmp/crop_$n.jsonl $n >> $S 2>&1
        echo "largest crop of the list that trains on this GPU: $n" >> $S
        break
    fi
done
cat $S
