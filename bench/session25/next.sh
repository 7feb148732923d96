#!/usr/bin/env bash
# For session 26's second call (the first: the whole test_cuda in 4 shards, `STAGES=shards TEST_SHARDS=4
# TESTS_LIMIT=420 bash bench/device_all.sh`). Carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops".
# 1. test_cuda --only transition / structure (the PF_TR_LNPIPE and ipa_fwd_rows cases), then the transition module with PF_TR_WGO / PF_TR_WGB /
#    PF_TR_LNPIPE 110 / 111 / 000 (838b0d6 should give session 25 call 4's 1.45 / 5.19 / 21.39 ms f+b at 512 / 1024 /
#    2048 with 110; 111: the LayerNorm off the row-tile boundary);
# 1b. the trimul module (the side kernels without bias adds, after session 25's last call);
# 2. the crop-768 AF3 trunk step both ways (issue 11's <= 2 s point with the new kernels; session 21: 1883-1911 ms);
# 3. ncu stall reasons of k_two and k_twb at N = 1024 (why ~35% of the tensor rate: session 25's notes).
. bench/device_common.sh
run transition 200 stdbuf -oL $T --only transition  # the PF_TR_LNPIPE cases (not yet run on a GPU)
run structure 200 stdbuf -oL $T --only structure    # the CUDA ipa_fwd_rows cases (not yet run on a GPU)
wait
report transition structure
for v in 110 111 000; do
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} PF_TR_LNPIPE=${v:2:1} timeout 100 $P/bench_cuda_ops --ops transition \
        --sizes 512,1024,2048 --reps 5 > $OUT/tr.log 2>&1
    echo "== transition WGO/WGB/LNPIPE=$v rc=$?" >> $S; grep '^{' $OUT/tr.log | cut -c1-150 >> $S
done
timeout 100 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 > $OUT/tm.log 2>&1
echo "== trimul (sides without bias adds; session 23: 1.629 / 6.190 / 28.657 ms f+b) rc=$?" >> $S
grep '^{' $OUT/tm.log | cut -c1-150 >> $S
for v in 11 00; do
    t0=$SECONDS
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 120 $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=768 --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=1 --set recompute_keep_attn=1 --steps 4 --out /tmp/trunk768_$v --log $OUT/trunk$v.jsonl --quiet \
        > /dev/null 2>&1
    echo "== trunk 768 keep_attn WGO/WGB=$v rc=$? ($((SECONDS - t0)) s)" >> $S
    python3 -c "import json,sys; print('step ms', [round(json.loads(l)['ms']) for l in open(sys.argv[1])], 'loss', [json.loads(l).get('loss') for l in open(sys.argv[1])])" $OUT/trunk$v.jsonl >> $S 2>&1
done
timeout 200 ncu --clock-control none -k regex:"k_two|k_twb" --launch-count 2 --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section SpeedOfLight \
    $P/bench_cuda_ops --ops transition --sizes 1024 --reps 1 > $OUT/ncu_stall.log 2>&1
echo "== ncu stall reasons rc=$?" >> $S
grep -vE "^\s*$|^==PROF==|---------" $OUT/ncu_stall.log | grep -E "k_two|k_twb|Stall|stall|Issue|Eligible|Active|Pipe|Cycles|Throughput" | head -80 >> $S
cat $S
