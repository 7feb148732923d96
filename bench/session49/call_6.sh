#!/usr/bin/env bash
# Session 49, call 6 (any card; carry [".devpack"]): PF_TRIMUL_GDW=2, G written by k_tm_sgrad_wgp in k_tm_gdw's
# tile order and read by one 64 KB bulk copy a tile (call 5: L2's tag lookups 87% busy, one request per 1.15
# sectors for the cp.async copies of modes 1).
# 1. `test_cuda --only trimul_gdw` (modes 0 / 1 / 2 against the CPU reference, 1 vs 2 bit for bit), `--only
#    trimul_sgwgp` (its store path changed) and `--only blocksmall`.
# 2. Trimul f+b at 1024 / 2048, PF_TRIMUL_GDW=0, 2, 1 taking turns, 3 rounds.
# 3. L2's breakdown for k_tm_gdw in mode 2 (call 5's metrics), and the per-launch list at 1024 in mode 2.
. bench/device_common.sh
t0=$SECONDS
timeout 150 $T --only trimul_gdw > $OUT/gdw.log 2>&1; echo "rc=$?" >> $OUT/gdw.log
timeout 150 $T --only trimul_sgwgp > $OUT/sgwgp.log 2>&1; echo "rc=$?" >> $OUT/sgwgp.log
timeout 150 $T --only blocksmall > $OUT/blocksmall.log 2>&1; echo "rc=$?" >> $OUT/blocksmall.log
report gdw sgwgp blocksmall
echo "== tests done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((SECONDS - t0 + 150)) 60 trimul 1024,2048 PF_TRIMUL_GDW=0 PF_TRIMUL_GDW=2 PF_TRIMUL_GDW=1
echo "== timing done at $((SECONDS - t0)) s" >> $S
M="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum,gpu__time_duration.sum,dram__bytes_read.sum"
PF_TRIMUL_GDW=2 timeout 100 ncu --metrics $M -k regex:k_tm_gdw -c 1 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 \
    > $OUT/l2_gdw2.log 2>&1
echo "== gdw2 rc=$?" >> $S; grep -v "^==\|^{" $OUT/l2_gdw2.log | grep -E "lts__t_|tag|fabric|xbar|gpu__time|dram" >> $S
PF_TRIMUL_GDW=2 ncu_rows gdw2 60 12 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
