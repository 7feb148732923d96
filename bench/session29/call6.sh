#!/usr/bin/env bash
# Session 29 call 6 (carry [".devpack"]: payload and attn_bwd_check.xz both built from branch bwdws at 9a16263 + the
# test edits): L2 eviction hints (PF_ATTN_BWD_L2=1: what an item re-reads, Q / dO / bias tiles and the dq slots,
# evict_last; taken out again after this call) in k_bwd_lean and k_bwd_ws: check with the hint on, time with it off /
# on, DRAM and L2 bytes with it on; then test_cuda's attn_bwd_wg and attention (--quick) cases and the triangle module
# with the hint off / on (the device refused starts between calls 3 and 6, so these ran as one call).
. bench/device_common.sh
A=/tmp/attn_bwd_check; xz -dc .devpack/attn_bwd_check.xz > $A; chmod +x $A
echo "== attn_bwd_check --check (PF_ATTN_BWD_L2=1)" >> $S
PF_ATTN_BWD_L2=1 timeout -k 5 120 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "passed,|FAIL|rc=" $OUT/check.log | tail -n 20 >> $S
for h in 0 1 0 1; do
    echo "== PF_ATTN_BWD_L2=$h --time 1024,2048 --variant fused.wg.dec.sa" >> $S
    PF_ATTN_BWD_L2=$h timeout -k 5 60 $A --time 1024,2048 --reps 10 --variant fused.wg.dec.sa > $OUT/time_$h.log 2>&1
    echo "rc=$?" >> $S
    grep -E "^(512|1024|2048) " $OUT/time_$h.log | grep -v " v1 " >> $S
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct
for v in fused.wg.dec.sa fused8.lean.x4.st.sw; do
    echo "== ncu metrics $v PF_ATTN_BWD_L2=1" >> $S
    PF_ATTN_BWD_L2=1 timeout -k 5 90 ncu --clock-control none -k regex:"k_bwd_ws|k_bwd_lean" --launch-count 1 --metrics $M \
        $A --profile 1024 --variant $v > $OUT/ncu_$v.log 2>&1
    grep -E "__" $OUT/ncu_$v.log | tail -n 6 >> $S
done
run wg 180 $T --only attn_bwd_wg
run attnq0 180 $T --only attn --quick --shard 0/2
run attnq1 180 $T --only attn --quick --shard 1/2
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
