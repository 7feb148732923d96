#!/usr/bin/env bash
# Session 49, call 2 (any card; carry [".devpack"]): k_tm_gdw with dzl's old values loaded one tile ahead into
# registers (call 1: 1.58 ms a launch against the two GEMMs' 0.98; its epilogue waited for a load every tile),
# and test_cuda_small's dw_acc case with PF_TRIMUL_GDW off (call 1's one failure). Payload as call 1.
# 1. `test_cuda --only trimul_gdw` and `--only blocksmall`.
# 2. Trimul f+b at 1024 / 2048, PF_TRIMUL_GDW=0 and the default taking turns, 3 rounds.
# 3. ncu per-launch list at 1024 (default), then the full section set of one k_tm_gdw launch.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
timeout 120 $T --only trimul_gdw > $OUT/gdw.log 2>&1; echo "rc=$?" >> $OUT/gdw.log
timeout 200 $T --only blocksmall > $OUT/blocksmall.log 2>&1; echo "rc=$?" >> $OUT/blocksmall.log
report gdw blocksmall
echo "== tests done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-3} 200 60 trimul 1024,2048 PF_TRIMUL_GDW=0 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
ncu_rows gdw_on 60 8 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 40 ] && timeout $b ncu --set full -k regex:k_tm_gdw -c 1 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 \
    > $OUT/gdw_full.log 2>&1
grep -E "Duration|Throughput|Registers|Stall|Warp Cycles|Issued|Eligible|L2 Hit|Achieved|Bank" $OUT/gdw_full.log | head -40 >> $S
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
