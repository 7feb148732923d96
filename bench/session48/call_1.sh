#!/usr/bin/env bash
# Session 48, call 1 (any card; carry [".devpack"]): the sides kernels' staging by stmatrix / ldmatrix.trans.
# Payload `EXTRA="/tmp/bench_old:bench_old" BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` (bench_old: 4406968's bench_cuda_ops, session 47's last code).
# 1. The whole test_cuda in 4 shards and the PyTorch parity: the new epilogues (tsw_gate + stmatrix.trans in
#    k_tm_sides_wg / _wgp, ldmatrix.trans of dS in tsw_dgrad, PF_TRIMUL_SIDES_WGST's warpgroup staging) and
#    session 47's two commits that never ran on a GPU (ld8 through unpack8; tl_s2g8 / k_bwd_lean's stg16).
# 2. Trimul f+b at 1024 / 2048: bench_old, the new default and PF_TRIMUL_SIDES_WGST=1 taking turns, 3 rounds.
#    On an H200 these are issue 11's acceptance figures as well; then both triangle attentions, one round.
# 3. The Pairformer block f+b (pairfold bench) at 512 / 1024 / 2048.
# 4. In what is left: ncu per-kernel list of trimul at 1024, old and new (time, DRAM bytes).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
ab_env ${ROUNDS:-3} 200 60 trimul 1024,2048 bench_old "" "PF_TRIMUL_SIDES_WGST=1"
echo "== timing done at $((SECONDS - t0)) s" >> $S
nvidia-smi -L | grep -q H200 && ab_env 1 260 80 tri_attn,tri_attn_end 1024,2048 ""
parity_shards ${SHARD_LIMIT:-250}
echo "== correctness done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 30 ] && { timeout $b $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 \
    --reps 5 > $OUT/block.log 2>&1; echo "== block rc=$?" >> $S; tail -n 12 $OUT/block.log >> $S; }
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 60 ] && ncu_rows tm_new $((b / 2)) 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 40 ] && ncu_rows tm_old $b 30 . $P/bench_old --ops trimul --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
