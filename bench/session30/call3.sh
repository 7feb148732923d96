#!/usr/bin/env bash
# Session 30 call 3 (carry [".devpack"]; .devpack/attn_bwd_check.xz built from branch dqalt, sm_90a only; payload of
# main@5b9d781): k_bwd_ws with the dq slot's stores as 8-byte stores from one base (all modes) and mode 4
# (fused.wg.dec.sa.alt: each step's dq product made by one consumer warpgroup, m64n32) checked and timed against
# mode 3 and the default; ncu time / issue / stalls of mode 4 at N = 1024; then 20 AF3 trunk training steps at crop 768.
. bench/device_common.sh
A=/tmp/attn_bwd_check; xz -dc .devpack/attn_bwd_check.xz > $A; chmod +x $A
echo "== attn_bwd_check --check" >> $S
timeout -k 5 150 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "passed,|FAIL|NOT|!|rc=" $OUT/check.log | tail -n 20 >> $S
for v in fused.wg.dec.sa.alt fused.wg.dec.sa fused.wg.dec.sa.alt fused.wg.dec.sa; do
    echo "== --time 512,1024,2048 --variant $v" >> $S
    timeout -k 5 90 $A --time 512,1024,2048 --reps 10 --variant $v > $OUT/time_$v.log 2>&1; echo "rc=$?" >> $S
    grep -E "^(512|1024|2048) " $OUT/time_$v.log | grep -v v1 >> $S
done
M=gpu__time_duration.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
for v in fused.wg.dec.sa.alt fused.wg.dec.sa; do
    echo "== ncu metrics $v" >> $S
    timeout -k 5 90 ncu --clock-control none -k regex:"k_bwd_ws" --launch-count 1 --metrics $M \
        $A --profile 1024 --variant $v > $OUT/ncu_$v.log 2>&1
    grep -E "k_bwd|__" $OUT/ncu_$v.log | tail -n 6 >> $S
done
mkdir -p $OUT/da
OUT=$OUT/da STAGES=trunk TRUNK_N=768:1:20 TRUNK_LIMIT=150 bash bench/device_all.sh > $OUT/device_all.log 2>&1
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
