#!/usr/bin/env bash
# Session 20 call D: compute-sanitizer memcheck / racecheck / synccheck of the new gate kernels (both modes on,
# odd sizes: partial 64-position tiles), then the test group under memcheck with line-buffered output.
. bench/device_common.sh
t0=$SECONDS
for tool in memcheck racecheck synccheck; do
  PF_ATTN_GATE_WG=2 timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 -k regex:k_attn_gate_out_wg \
     $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 67,130 --reps 1 > $OUT/cs_$tool.log 2>&1
  echo "== $tool rc=$? ($((SECONDS - t0)) s): $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/cs_$tool.log | tail -2 | tr '\n' ' ')" >> $S
done
t0=$SECONDS
timeout ${MCLIM:-200} stdbuf -oL -eL compute-sanitizer --tool memcheck --error-exitcode 3 $P/test_cuda --quick --only attn_gate_wg > $OUT/mc_gatewg.log 2>&1
echo "== memcheck attn_gate_wg rc=$? ($((SECONDS - t0)) s): $(grep -h 'passed,' $OUT/mc_gatewg.log | tail -1) $(grep -h 'ERROR SUMMARY' $OUT/mc_gatewg.log | tail -1); lines $(wc -l < $OUT/mc_gatewg.log), FAIL $(grep -c FAIL $OUT/mc_gatewg.log), sanitizer errors $(grep -c '========= Invalid\|========= Error' $OUT/mc_gatewg.log)" >> $S
tail -3 $OUT/mc_gatewg.log >> $S
