#!/usr/bin/env bash
# Session 25 call 5 (the review commit's payload: shared ring / tile helpers; test_cuda's `--only big`): test_cuda's
# 64-bit group (the fused transition kernels past 2^31 elements), transition, blocksmall, model, memcheck of transition
# --quick; then alone the crop-768 AF3 trunk training step with the new defaults (session 18's command,
# recompute_keep_attn=1) and with PF_TR_WGO=0 PF_TR_WGB=0, the transition module both ways, and the block against
# PyTorch + cuEquivariance again at 512 and 1024 (5 reps; carry .cueq too).
. bench/device_common.sh
run big 200 stdbuf -oL $T --only big
run transition 200 stdbuf -oL $T --only transition
run blocksmall 200 stdbuf -oL $T --only blocksmall
run model 200 stdbuf -oL $T --only model
run memcheck 200 compute-sanitizer --tool memcheck $T --only transition --quick
wait
report big transition blocksmall model memcheck
for v in 11 00; do
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 100 $P/bench_cuda_ops --ops transition --sizes 512,1024,2048 --reps 5 > $OUT/tr.log 2>&1
    echo "== transition WGO/WGB=$v rc=$?" >> $S; grep '^{' $OUT/tr.log | cut -c1-150 >> $S
done
for v in 11 00; do
    t0=$SECONDS
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 100 $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=768 --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=1 --set recompute_keep_attn=1 --steps 4 --out /tmp/trunk768_$v --log $OUT/trunk$v.jsonl --quiet \
        > $OUT/trunk$v.log 2>&1
    echo "== trunk 768 keep_attn WGO/WGB=$v rc=$? ($((SECONDS - t0)) s): $(tail -n 1 $OUT/trunk$v.log)" >> $S
    python3 -c "import json,sys; print('step ms', [round(json.loads(l)['ms']) for l in open(sys.argv[1])], 'loss', [json.loads(l).get('loss') for l in open(sys.argv[1])])" $OUT/trunk$v.jsonl >> $S 2>&1
done
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-150} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024} --reps 5 --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 6 $OUT/benchcq.log >> $S
cat $S
