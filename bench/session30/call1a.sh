#!/usr/bin/env bash
# Session 30 call 1a (carry [".devpack", ".cueq"]; .devpack/attn_bwd_check.xz built from branch bwdqc, sm_90a only):
# the warp-specialised backward walking each item in query chunks (fused.wg.dec.sa.qc2 / qc4 / qc8: 2 / 4 / 8 tiles
# of 64 queries per chunk, dk / dv partial sums across chunks) checked (every variant against the fp32 reference,
# twice for the same bits) and timed against the unchunked fused.wg.dec.sa and the default; DRAM / L2 bytes by ncu
# at N = 1024; then the Pairformer block against PyTorch + cuEquivariance 0.13.0 at 512 / 1024 (main@5b9d781).
. bench/device_common.sh
A=/tmp/attn_bwd_check; xz -dc .devpack/attn_bwd_check.xz > $A; chmod +x $A
echo "== attn_bwd_check --check" >> $S
timeout -k 5 150 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "passed,|FAIL|NOT|!|rc=" $OUT/check.log | tail -n 20 >> $S
for v in fused.wg.dec.sa.qc8 fused.wg.dec.sa.qc4 fused.wg.dec.sa fused.wg.dec.sa.qc2 fused.wg.dec.sa.qc8; do
    echo "== --time 512,1024,2048 --variant $v" >> $S
    timeout -k 5 90 $A --time 512,1024,2048 --reps 10 --variant $v > $OUT/time_$v.log 2>&1; echo "rc=$?" >> $S
    grep -v "^$" $OUT/time_$v.log | tail -n 6 | grep -v v1 >> $S
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
for v in fused.wg.dec.sa fused.wg.dec.sa.qc8 fused.wg.dec.sa.qc4; do
    echo "== ncu metrics $v" >> $S
    timeout -k 5 90 ncu --clock-control none -k regex:"k_bwd_ws" --launch-count 1 --metrics $M \
        $A --profile 1024 --variant $v > $OUT/ncu_$v.log 2>&1
    grep -E "k_bwd|__" $OUT/ncu_$v.log | tail -n 8 >> $S
done
cueq_blocks 512,1024 5 200
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
