#!/usr/bin/env bash
# Session 49, call 7 (any card; on an H200 the issue figures; carry [".devpack"]): PF_TRIMUL_GDW=2 the default.
# 1. Trimul f+b at 1024 / 2048, the defaults and PF_TRIMUL_GDW=0 taking turns, 3 rounds; on an H200 also both
#    triangle attentions (one round).
# 2. memcheck of `--quick --only trimul_gdw` (mode 2's bulk copies); the whole test_cuda in 4 shards and the PyTorch parity with the new default.
# 3. The block f+b (pairfold bench) at 512 / 1024 / 2048.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
ab_env 3 90 60 trimul 1024,2048 "" PF_TRIMUL_GDW=0
nvidia-smi -L | grep -q H200 && ab_env 1 150 110 tri_attn,tri_attn_end 1024,2048 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only trimul_gdw > $OUT/gdw_mc.log 2>&1
echo "rc=$?" >> $OUT/gdw_mc.log
report gdw_mc
b=$((L - (SECONDS - t0) - 45))
[ $b -gt 120 ] && parity_shards $b
echo "== correctness done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 5))
[ $b -gt 30 ] && { timeout $b $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 \
    --reps 5 > $OUT/block.log 2>&1; echo "== block rc=$?" >> $S; tail -n 5 $OUT/block.log >> $S; }
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
