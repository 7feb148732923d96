#!/usr/bin/env bash
# Written at the end of session 30 for session 31's first device call (carry [".devpack"]; payload `BINS="pairfold
# test_cuda bench_cuda_ops attn_bwd_check" NO_SYS=1 bash bench/pack_device.sh` of main with NOTES "Open / next" 00's
# race fix in k_bwd_ws applied first): the opt-in wgmma bias gradient (k_bwd_dbias_ws, PF_ATTN_DBIAS_WS=1, never run
# before) checked and timed, the fixed k_bwd_ws checked and timed, then the whole test_cuda and parity (~450 s:
# split it if a start was slow).
. bench/device_common.sh
A=$P/attn_bwd_check
run dbws 300 env PF_ATTN_DBIAS_WS=1 $T --only attn_dbias_ws
run wg 300 $T --only attn_bwd_wg
wait
report dbws wg
echo "== PF_ATTN_DBIAS_WS=1 attn_bwd_check --check" >> $S
PF_ATTN_DBIAS_WS=1 timeout -k 5 150 $A --check > $OUT/check_dbws.log 2>&1; echo "rc=$?" >> $OUT/check_dbws.log
grep -E "passed,|FAIL|NOT|rc=" $OUT/check_dbws.log | tail -n 12 >> $S
for w in 1 ""; do
    echo "== PF_ATTN_DBIAS_WS=${w:-unset} attn_bwd_check --time 512,1024,2048" >> $S
    PF_ATTN_DBIAS_WS=$w timeout -k 5 90 $A --time 512,1024,2048 --reps 10 2>&1 | grep -E "^(512|1024|2048) " | grep -v v1 >> $S
done
for w in 1 ""; do
    PF_ATTN_DBIAS_WS=$w timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes 512,1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn DBIAS_WS=${w:-unset}', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
done
mkdir -p $OUT/da
OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=300 bash bench/device_all.sh > $OUT/device_all.log 2>&1
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
