#!/usr/bin/env bash
# Session 29 call 5 (carry [".devpack"]: payload built from branch bwdws, `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`): test_cuda's cases of the warp-specialised backward (--only attn_bwd_wg: modes
# 1-3, PF_ATTN_BWD_L2 same bits) and the attention group (--quick, 2 shards: the L2 hint's same-bits check on the
# default kernel), in parallel; then the triangle module f+b with the L2 hint off / on (bench_cuda_ops).
. bench/device_common.sh
run wg 240 $T --only attn_bwd_wg
run attnq0 240 $T --only attn --quick --shard 0/2
run attnq1 240 $T --only attn --quick --shard 1/2
wait
report wg attnq0 attnq1
for h in 0 1 0 1; do
    PF_ATTN_BWD_L2=$h timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes 1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn L2=$h', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
done
for m in 3 0; do
    PF_ATTN_BWD_WG=$m timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes 1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn BWD_WG=$m', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
cat $S
