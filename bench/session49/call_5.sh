#!/usr/bin/env bash
# Session 49, call 5 (any card; carry [".devpack"]): what bounds k_tm_gdw (PF_TRIMUL_GDW=1; 1.36 ms a launch at N
# = 1024 against the two GEMMs' 0.98, L2 84% busy in call 4): ncu's breakdown of L2's throughput into its
# sub-metrics, for k_tm_gdw and for the two cuBLAS GEMMs it replaces (PF_TRIMUL_GDW=0), one launch each.
. bench/device_common.sh
t0=$SECONDS
M="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum,gpu__time_duration.sum,dram__bytes_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"
PF_TRIMUL_GDW=1 timeout 100 ncu --metrics $M -k regex:k_tm_gdw -c 1 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 \
    > $OUT/l2_gdw.log 2>&1
echo "== gdw rc=$?" >> $S; grep -v "^==\|^{" $OUT/l2_gdw.log | grep -E "lts|gpu__time|dram|l1tex" >> $S
PF_TRIMUL_GDW=0 timeout 100 ncu --metrics $M -k "regex:nvjet.*(NNN|128x128.*splitK)" -c 2 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 \
    > $OUT/l2_gemm.log 2>&1
echo "== gemm rc=$?" >> $S; grep -v "^==\|^{" $OUT/l2_gemm.log | grep -E "nvjet|lts|gpu__time|dram" >> $S
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
