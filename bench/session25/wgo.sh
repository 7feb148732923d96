#!/usr/bin/env bash
# Session 25 call 2: PF_TR_WGO (cu_transition_wgo.cu: the transition's forward, hidden layer and output projection in
# one wgmma kernel) and PF_TR_WGB (cu_transition_wgb.cu: the backward's dh made inside its hidden-layer kernel).
# Tests (transition, blocksmall, model; memcheck of transition --quick), then alone: the transition module and the
# block f+b with the switches 00 / 10 / 11 alternating, and ncu of the new kernels.
. bench/device_common.sh
TL=${TL:-300}
run transition $TL stdbuf -oL $T --only transition
run blocksmall $TL stdbuf -oL $T --only blocksmall
run model $TL stdbuf -oL $T --only model
run memcheck $TL compute-sanitizer --tool memcheck $T --only transition --quick
wait
report transition blocksmall model memcheck
grep -m5 -E "FAIL|error" $OUT/memcheck.log >> $S
grep FAIL $OUT/transition.log | head -20 >> $S
for v in 00 01 11; do
    PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 100 $P/bench_cuda_ops --ops transition --sizes 512,1024,2048 --reps 5 > $OUT/tr.log 2>&1
    echo "== transition WGO/WGB=$v rc=$?" >> $S; grep '^{' $OUT/tr.log | cut -c1-150 >> $S
done
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for v in 01 11 00; do for n in 512 1024; do
    echo "== n=$n WGO/WGB=$v: $(PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
timeout 150 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
    $P/bench_cuda_ops --ops transition --sizes 512 --reps 1 > $OUT/ncu_tr.log 2>&1
echo "== ncu transition 512 (wgo, wgb) rc=$?" >> $S; NCU_TOP=14 python3 bench/ncu_summary.py $OUT/ncu_tr.log >> $S 2>&1
timeout 150 ncu --clock-control none -k regex:"k_two|k_twb" --launch-count 4 --section SpeedOfLight --section Occupancy \
    --section WarpStateStats --section LaunchStats $P/bench_cuda_ops --ops transition --sizes 1024 --reps 1 > $OUT/ncu_two.log 2>&1
echo "== ncu k_two / k_twb sections rc=$?" >> $S
grep -E "^  [a-z_]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp|No Eligible|L2 Cache Throughput|DRAM Throughput" $OUT/ncu_two.log | head -60 >> $S
cat $S
