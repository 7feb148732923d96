#!/usr/bin/env bash
# Issue 12's largest one-GPU AF3 trunk training crop (one H200: `needs_h200`; carry [".devpack"], payload with
# pairfold: `BINS="pairfold" NO_SYS=1 bash bench/pack_device.sh`). Crops tried largest first, one training step
# each (recompute 8, no offload, 128 MSA rows, recycles 0, synthetic proteins: session 31's setting at 3072), until
# one completes: that crop is the largest of the list that fits, the one before it the proof that the next does not.
# The list comes from bench/mem_plan.cu's device total (session 45: `build/mem_plan --trunk 8 4032 4064 4096`:
# 135.5 / 137.6 / 139.8 GiB, plus ~1.45 GiB that session 31's crop 3072 measured above the plan, plus the context,
# against the H200's ~140 GiB): 4096 is expected to stop with out of memory at the distogram's temporaries (after
# the trunk's forward, ~90 s), 4064 to be marginal, 4032 to fit (~210 s a step by N^3 from 3072's 87 s).
# CROPS (comma list, largest first), RECOMPUTE, STEP_LIMIT (seconds a crop) override.
. bench/device_common.sh
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv >> $S 2>&1
r=${RECOMPUTE:-8}
for n in $(echo ${CROPS:-4096,4064,4032} | tr ',' ' '); do
    t0=$SECONDS
    timeout -k 15 ${STEP_LIMIT:-280} $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=$n --set crop_size=$n --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=$r --steps 1 --out /tmp/crop_$n --log /tmp/crop_$n.jsonl > $OUT/crop_$n.log 2>&1
    rc=$?
    echo "== crop $n recompute $r rc=$rc ($((SECONDS - t0)) s)" >> $S
    grep -i -E "peak|out of memory|error" $OUT/crop_$n.log | tail -n 4 >> $S
    if [ $rc = 0 ] && [ -s /tmp/crop_$n.jsonl ]; then
        python3 -c "import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; print('crop', sys.argv[2], 'step ms', [round(x['ms']) for x in l], 'loss', [x['loss'] for x in l])" \
            /tmp/crop_$n.jsonl $n >> $S 2>&1
        echo "largest crop of the list that trains on this GPU: $n" >> $S
        break
    fi
done
cat $S
