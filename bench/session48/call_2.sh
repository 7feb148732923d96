#!/usr/bin/env bash
# Session 48, call 2 (any card; carry [".devpack"]): the trimul output part's backward in one piece where
# k_tm_outbw_dwz takes it (cu_tm_out_bwd: pieces sized for d gate_pre's rows alone; N 1024 and 2048 took two).
# Payload `EXTRA="/tmp/bench_prev:bench_old" BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` (bench_old: call 1's build, whose default path is 72a9be9's).
# 1. Trimul f+b at 1024 / 2048, bench_old and the new build taking turns, 3 rounds (on an H200: issue 11's figure).
# 2. The whole test_cuda in 4 shards and the PyTorch parity.
# 3. The Pairformer block f+b (pairfold bench) at 512 / 1024 / 2048; ncu per-kernel list of trimul at 1024 (new).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
ab_env ${ROUNDS:-3} 150 60 trimul 1024,2048 bench_old ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
parity_shards ${SHARD_LIMIT:-250}
echo "== correctness done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 30 ] && { timeout $b $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 \
    --reps 5 > $OUT/block.log 2>&1; echo "== block rc=$?" >> $S; tail -n 5 $OUT/block.log >> $S; }
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 40 ] && ncu_rows tm_new $b 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
