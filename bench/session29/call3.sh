#!/usr/bin/env bash
# Session 29 call 3 (carry [".devpack"]; .devpack/attn_bwd_check.xz from branch bwdws): the warp-specialised backward
# in its three modes (fused.wg, fused.wg.dec, fused.wg.dec.sa: dq's dS by descriptor) checked and timed against the
# default; then L2 / DRAM bytes of the ws kernel (mode 3) and of k_bwd_lean at N = 1024 (ncu --metrics).
. bench/device_common.sh
A=/tmp/attn_bwd_check; xz -dc .devpack/attn_bwd_check.xz > $A; chmod +x $A
echo "== attn_bwd_check --check" >> $S
timeout -k 5 120 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "passed,|FAIL|rc=" $OUT/check.log | tail -n 20 >> $S
for v in fused.wg.dec.sa fused.wg.dec fused.wg.dec.sa; do
    echo "== --time 512,1024,2048 --variant $v" >> $S
    timeout -k 5 90 $A --time 512,1024,2048 --reps 10 --variant $v > $OUT/time_$v.log 2>&1; echo "rc=$?" >> $S
    grep -v "^$" $OUT/time_$v.log | tail -n 6 | grep -v v1 >> $S
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_requests.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
for v in fused.wg.dec.sa fused8.lean.x4.st.sw; do
    echo "== ncu metrics $v" >> $S
    timeout -k 5 90 ncu --clock-control none -k regex:"k_bwd_ws|k_bwd_lean" --launch-count 1 --metrics $M \
        $A --profile 1024 --variant $v > $OUT/ncu_$v.log 2>&1
    grep -E "k_bwd|__" $OUT/ncu_$v.log | tail -n 12 >> $S
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
cat $S
