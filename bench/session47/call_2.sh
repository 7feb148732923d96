#!/usr/bin/env bash
# Session 47, call 2: 16-byte stores by hand (stg16, cu_vec.cuh). nvcc 13 had split the 16-byte global stores
# of st8 and of several make_uint4 stores into four 4-byte stores in the PTX (k_ln_fwd_v, k_lnb_fwd_p / _p2,
# k_lnb_bwd_p, k_tm_sides_wgp's LayerNorm, k_tm_outfw, k_tm_outbw, k_tm_outbw_dwz, ...). Payload
# `EXTRA="/tmp/bench_old:bench_old" BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`
# (bench_old: the build before the change, 27aa87e). Carry [".devpack"].
# 1. The whole test_cuda in 4 shards and the PyTorch parity (the change touches every st8 caller).
# 2. Trimul, both triangle attentions and the transition f+b at 1024 / 2048, old and new taking turns, 3 rounds.
# 3. The Pairformer block f+b (pairfold bench) at 512 / 1024 / 2048, new build (the old block
#    figures: call 1 of this session, same card type).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
parity_shards ${SHARD_LIMIT:-250}
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-3} $((L - 90)) 110 trimul,tri_attn,tri_attn_end,transition 1024,2048 "" bench_old
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 30 ] && { timeout $b $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 \
    --reps 5 > $OUT/block.log 2>&1; echo "== block rc=$?" >> $S; tail -n 12 $OUT/block.log >> $S; }
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
