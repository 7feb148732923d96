#!/usr/bin/env bash
# Session 31's last call (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops
# attn_fwd_check" NO_SYS=1 bash bench/pack_device.sh` of the final code): test_cuda `--only
# attn_bwd_wg` (the wgmma backward's cases, their forwards with PF_ATTN_FWD_WS=1 too), the whole
# test_cuda in 4 shards and parity; then alone: k_fwd_ws against k_s9_fwd_bmma2 (attn_fwd_check)
# and the triangle attention module with PF_ATTN_FWD_WS=1 and unset, alternating.
. bench/device_common.sh
run wg 300 $T --only attn_bwd_wg
mkdir -p $OUT/da
OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=300 bash bench/device_all.sh > $OUT/device_all.log 2>&1
wait
report wg
cat $OUT/da/summary.txt >> $S
echo "== attn_fwd_check --quick --variants 6,7" >> $S
timeout -k 5 120 $P/attn_fwd_check --quick --variants 6,7 > $OUT/fwd_quick.log 2>&1; echo "rc=$?" >> $OUT/fwd_quick.log
grep -E "^FAIL|passed,|rc=" $OUT/fwd_quick.log | head -20 >> $S
echo "== attn_fwd_check --variants 6,7 --reps 7" >> $S
timeout -k 5 120 $P/attn_fwd_check --variants 6,7 --reps 7 2>&1 | grep -E "^time|FAIL|passed," >> $S
for i in 1 2; do
  for w in 1 ""; do
    PF_ATTN_FWD_WS=$w timeout 90 $P/bench_cuda_ops --ops tri_attn --sizes 512,1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn FWD_WS=${w:-unset}', d['N'], 'fwdbwd', d['fwdbwd_ms'], 'fwd', d['fwd_ms'], 'peak_mib', d['peak_mib'])" >> $S
  done
done
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
