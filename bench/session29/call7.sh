#!/usr/bin/env bash
# Session 29 call 7 (carry [".devpack"]: payload from branch bwdws with the L2 hints taken out again, as merged):
# test_cuda's cases of the warp-specialised backward (--only attn_bwd_wg: mode 1 against the CPU reference, modes 2
# and 3 against mode 1 bit for bit) and the attention group (--quick, 2 shards) in parallel; then the triangle module
# f+b with the warp-specialised backward (PF_ATTN_BWD_WG=3) against the default, alternating.
. bench/device_common.sh
run wg 200 $T --only attn_bwd_wg
run attnq0 180 $T --only attn --quick --shard 0/2
run attnq1 180 $T --only attn --quick --shard 1/2
wait
report wg attnq0 attnq1
grep -h "bwd_wg" $OUT/wg.log | tail -n 3 >> $S
for m in 3 0 3 0; do
    PF_ATTN_BWD_WG=$m timeout 40 $P/bench_cuda_ops --ops tri_attn --sizes 1024,2048 --reps 5 2>&1 | grep '^{' |
        python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('tri_attn BWD_WG=$m', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
cat $S
