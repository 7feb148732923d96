#!/usr/bin/env bash
# Session 49, call 1 (any card; carry [".devpack"]): k_tm_gdw (cu_trimul_gdw.cu, PF_TRIMUL_GDW, on by default):
# dzl and the sides' four weight gradients from one read of the side gradients' matrix G, where two cuBLAS GEMMs
# each streamed it. Payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`.
# 1. `test_cuda --only trimul_gdw` (the kernel against the CPU reference, off / on, twice bit for bit) and its
#    memcheck (--quick).
# 2. Trimul f+b at 1024 / 2048, PF_TRIMUL_GDW=0 and the default taking turns, 3 rounds (medians: same run).
# 3. ncu per-launch list at 1024 of both paths (k_tm_gdw against the two GEMMs it replaces).
# 4. The whole test_cuda in 4 shards and the PyTorch parity; then the block f+b (pairfold bench) at 512..2048.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
timeout 120 $T --only trimul_gdw > $OUT/gdw.log 2>&1; echo "rc=$?" >> $OUT/gdw.log
report gdw
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only trimul_gdw > $OUT/gdw_mc.log 2>&1
echo "rc=$?" >> $OUT/gdw_mc.log
report gdw_mc
echo "== gdw tests done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-3} 240 60 trimul 1024,2048 PF_TRIMUL_GDW=0 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
ncu_rows gdw_on 60 14 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
ncu_rows gdw_off 60 14 . env PF_TRIMUL_GDW=0 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
echo "== ncu done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 60))
[ $b -gt 120 ] && parity_shards $b
echo "== correctness done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 30 ] && { timeout $b $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 \
    --reps 5 > $OUT/block.log 2>&1; echo "== block rc=$?" >> $S; tail -n 5 $OUT/block.log >> $S; }
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
