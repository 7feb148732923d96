#!/usr/bin/env bash
# Session 26 call 2 (carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" of main@4a2f8db):
# session 25's next.sh with the ncu part extended:
# 1. test_cuda --only transition / structure (PF_TR_LNPIPE and ipa_fwd_rows cases, not yet run on a GPU);
# 2. the transition module with PF_TR_WGO / PF_TR_WGB / PF_TR_LNPIPE 110 / 111 / 000 (838b0d6 should give session 25
#    call 4's 1.45 / 5.19 / 21.39 ms f+b with 110), then 111 again (order effects);
# 3. the trimul module (the side kernels without bias adds: 24905e7), against session 23's 1.629 / 6.190 / 28.657 ms;
# 4. the crop-768 AF3 trunk step (recompute_keep_attn=1), WGO / WGB 11 and 00;
# 5. ncu: k_two / k_twb stall reasons and pipe use at N = 1024.
. bench/device_common.sh
run transition 200 stdbuf -oL $T --only transition
run structure 200 stdbuf -oL $T --only structure
wait
report transition structure
for v in 110 111 000 111 110; do
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} PF_TR_LNPIPE=${v:2:1} timeout 100 $P/bench_cuda_ops --ops transition \
        --sizes 512,1024,2048 --reps 5 > $OUT/tr.log 2>&1
    echo "== transition WGO/WGB/LNPIPE=$v rc=$?" >> $S; grep '^{' $OUT/tr.log | cut -c1-150 >> $S
done
timeout 100 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 > $OUT/tm.log 2>&1
echo "== trimul (sides without bias adds; session 23: 1.629 / 6.190 / 28.657 ms f+b) rc=$?" >> $S
grep '^{' $OUT/tm.log | cut -c1-150 >> $S
for v in 11 00; do
    t0=$SECONDS
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout -k 10 100 $P/pairfold train --preset af3 --device cuda --data synthetic \
        --set synthetic_len=768 --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 \
        --set recompute=1 --set recompute_keep_attn=1 --steps 4 --out /tmp/trunk768_$v --log $OUT/trunk$v.jsonl --quiet \
        > /dev/null 2>&1
    echo "== trunk 768 keep_attn WGO/WGB=$v rc=$? ($((SECONDS - t0)) s)" >> $S
    python3 -c "import json,sys; L=[json.loads(l) for l in open(sys.argv[1])]; print('step ms', [round(x['ms']) for x in L], 'loss', [x.get('loss') for x in L])" $OUT/trunk$v.jsonl >> $S 2>&1
done
timeout 150 ncu --clock-control none -k regex:"k_two|k_twb" --launch-count 2 --section WarpStateStats \
    --section SchedulerStats --section ComputeWorkloadAnalysis --section SpeedOfLight --section LaunchStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_tensor.*cycles_active\.avg\.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second" \
    $P/bench_cuda_ops --ops transition --sizes 1024 --reps 1 > $OUT/ncu_stall.log 2>&1
echo "== ncu k_two / k_twb rc=$?" >> $S
grep -E "^  k_|Stall|stalled|pipe_tensor|lts__t_bytes|Issue|Eligible|Active Warps|Pipe|Duration|Registers|Throughput|Theoretical Occ|Achieved Occ" \
    $OUT/ncu_stall.log | awk '$NF != "0" && $NF != "0.00"' | head -150 >> $S
cat $S
