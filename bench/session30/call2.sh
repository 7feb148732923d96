#!/usr/bin/env bash
# Session 30 call 2 (carry [".devpack"]; main@5b9d781's payload): where the one-pass attention backward's cycles go
# at N = 1024, for k_bwd_ws (fused.wg.dec.sa), k_bwd_lean (the default) and the bias gradient: ncu's warp-state, scheduler, pipe and
# source-counter sections; the SASS-level stall samples as CSV for reading here.
. bench/device_common.sh
A=$P/attn_bwd_check
for v in fused.wg.dec.sa fused8.lean.x4.st.sw dbias; do
    K="k_bwd_ws|k_bwd_lean"; V=$v
    [ $v = dbias ] && { K=k_bwd_dbias; V=fused8.lean.x4.st.sw; }
    echo "== ncu sections $v" >> $S
    timeout -k 5 200 ncu --clock-control none -k regex:"$K" --launch-count 1 --import-source no \
        --section WarpStateStats --section SchedulerStats --section SourceCounters --section ComputeWorkloadAnalysis \
        --section LaunchStats --section Occupancy -o /tmp/rep_$v $A --profile 1024 --variant $V > $OUT/ncu_$v.log 2>&1
    echo "rc=$?" >> $S
    ncu -i /tmp/rep_$v.ncu-rep --page details --print-details all > $OUT/details_$v.log 2>&1
    grep -E "Stall|stall|Issued|Eligible|Active Warps|Warp Cycles|Registers|Pipe|Utilization" $OUT/details_$v.log | head -n 60 >> $S
    ncu -i /tmp/rep_$v.ncu-rep --page source --csv --print-source sass > $OUT/sass_$v.csv 2>&1
    wc -c $OUT/sass_$v.csv >> $S
done
cd $OUT && tar czf logs.tgz *.log *.csv && rm -f *.log *.csv
cat $S
