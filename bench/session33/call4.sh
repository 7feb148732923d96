#!/usr/bin/env bash
# Session 33, call 4 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops attn_bwd_check" NO_SYS=1
# bash bench/pack_device.sh` with recompute_offload): the new GPU model test first (test_cuda --only model: recompute
# 1 / 2 with the segment starts offloaded give the gradients' bits), then the AF3 trunk training step with
# recompute_offload 0 / 1 at crop 768 (10 steps: step times, peak, losses and gradient norms compared) and 1536
# (2 steps), then attn_bwd_check --check, parity and the whole test_cuda in 4 shards.
. bench/device_common.sh
timeout -k 5 120 $T --only model > $OUT/model.log 2>&1; echo "rc=$?" >> $OUT/model.log
echo "== test_cuda --only model: $(grep -h 'passed,' $OUT/model.log | tail -1) $(tail -1 $OUT/model.log)" >> $S
grep -m6 FAIL $OUT/model.log >> $S
trunk() {  # crop recompute offload steps
    local n=$1 r=$2 o=$3 k=$4 tag=trunk_$1_o$3
    timeout -k 5 240 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=$n --set crop_size=$n \
        --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=$r --set recompute_offload=$o \
        --steps $k --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
    echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
    python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print('step ms', [round(x['ms']) for x in r])" \
        /tmp/$tag.jsonl >> $S 2>&1
}
trunk 768 1 0 10; trunk 768 1 1 10
python3 - >> $S 2>&1 <<'PY'
import json
a = [json.loads(l) for l in open('/tmp/trunk_768_o0.jsonl')]; b = [json.loads(l) for l in open('/tmp/trunk_768_o1.jsonl')]
same = all(x['loss'] == y['loss'] and x['grad_norm'] == y['grad_norm'] for x, y in zip(a, b)) and len(a) == len(b)
print('crop 768 offload 0 vs 1: %d steps, losses and gradient norms %s' % (len(a), 'identical' if same else 'DIFFER'))
PY
trunk 1536 1 0 2; trunk 1536 1 1 2
timeout -k 5 200 $P/attn_bwd_check --check > $OUT/bwcheck.log 2>&1; echo "rc=$?" >> $OUT/bwcheck.log
echo "== attn_bwd_check --check: $(grep -E 'passed' $OUT/bwcheck.log | tail -1) $(tail -1 $OUT/bwcheck.log)" >> $S
parity_shards 260
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
