#!/usr/bin/env bash
# Session 30 call 4 (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of main with k_bwd_ws mode 4 the default): the triangle attention module f+b with the new
# default against PF_ATTN_BWD_WG=0 (k_bwd_lean), alternating; the Pairformer block against PyTorch + cuEquivariance
# at 512 / 1024; then parity, the whole test_cuda in 4 shards and `--only attn_bwd_wg` beside them.
. bench/device_common.sh
for m in 0 "" 0 ""; do
    PF_ATTN_BWD_WG=$m timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes 512,1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn BWD_WG=${m:-unset}', d['N'], d['fwdbwd_ms'], d['fwd_ms'], d.get('peak_mib'))" >> $S
done
cueq_blocks 512,1024 5 200
run wg 300 $T --only attn_bwd_wg
t0=$SECONDS
mkdir -p $OUT/da
OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=300 bash bench/device_all.sh > $OUT/device_all.log 2>&1
wait
echo "== device_all parity shards: $((SECONDS - t0)) s" >> $S
report wg
grep -h "bwd_wg" $OUT/wg.log | tail -n 3 >> $S
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log *.json da 2>/dev/null; rm -rf *.log da
cat $S
