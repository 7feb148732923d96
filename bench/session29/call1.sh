#!/usr/bin/env bash
# Session 29 call 1 (carry [".devpack"]; .devpack/attn_bwd_check built from branch bwdws): the warp-specialised
# wgmma attention backward (k_bwd_ws, cu_flash_bwd_wg.cu, variant fused.wg) checked (attn_bwd_check --check: every
# variant against the fp32 reference, the new one twice for the same bits) and timed against the default one-pass
# kernel (fused8.lean.x4.st.sw) at N = 512, 1024, 2048; then main's payload: parity and the whole test_cuda in 4
# shards on the bias gradient's whole-wave range rule (e4f8fd1) and the review commit 5b7fd7c.
. bench/device_common.sh
A=.devpack/attn_bwd_check
chmod +x $A
echo "== attn_bwd_check --check" >> $S
timeout -k 5 120 $A --check > $OUT/check.log 2>&1; echo "rc=$?" >> $OUT/check.log
grep -E "fused.wg|passed,|FAIL|rc=" $OUT/check.log | tail -n 40 >> $S
for v in fused.wg fused8.lean.x4.st.sw fused.wg; do
    echo "== --time 512,1024,2048 --variant $v" >> $S
    timeout -k 5 90 $A --time 512,1024,2048 --reps 10 --variant $v > $OUT/time_$v.log 2>&1; echo "rc=$?" >> $S
    grep -v "^$" $OUT/time_$v.log | tail -n 20 >> $S
done
t0=$SECONDS
mkdir -p $OUT/da  # device_all.sh writes its own summary (device_common.sh starts one)
OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=440 bash bench/device_all.sh > $OUT/device_all.log 2>&1
echo "== device_all parity shards: $((SECONDS - t0)) s" >> $S
cat $OUT/da/summary.txt >> $S
cd $OUT && tar czf logs.tgz *.log da && rm -rf *.log da
cat $S
