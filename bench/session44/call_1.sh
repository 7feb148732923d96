#!/usr/bin/env bash
# Session 44's first GPU call (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh` of the build with session 43's defaults): NOTES "Open / next" 0 in one call.
# 1. The whole test_cuda in 4 shards and the PyTorch parity on the flipped build (nothing set).
# 2. Same-run timing, the defaults against the old ones (PF_TRIMUL_OUTW_DWZ=0 PF_ATTN_GATE_WG=1), two rounds:
#    trimul and both triangle attentions f+b at 1024 / 2048 (issues 10 and 11's acceptance rows).
# 3. The Pairformer block against PyTorch + cuEquivariance at BLOCK_N (default 512..2048) in what is left.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-580}
parity_shards ${SHARD_LIMIT:-250}
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - ${AB_STOP:-170})) 110 trimul,tri_attn,tri_attn_end 1024,2048 "" "PF_TRIMUL_OUTW_DWZ=0 PF_ATTN_GATE_WG=1"
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 60 ] && cueq_blocks ${BLOCK_N:-512,1024,1536,2048} 5 $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
