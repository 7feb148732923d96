#!/usr/bin/env bash
# Session 46's one GPU call (device time was short: 661 of 1800 s went to refused calls before it). Carry
# [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh` of the
# build with session 45's CUDA changes (179a567 k_tm_sgrad_wgp, 641e37a / 1a73ce1 the blocked distogram loss).
# 1. The whole test_cuda in 4 shards and the PyTorch parity (the changes' first GPU run).
# 2. Trimul and both triangle attentions f+b at 1024 / 2048 with the defaults, one round (issues 10 and 11's rows).
# 3. On an H200 with at least CROP_MIN (240) s left: issue 12's one-GPU crop, one training step at CROP (default 4128,
#    recompute 8; crop_search.sh's setting). Otherwise (an H100's 78 GiB cannot hold that crop, or too little time):
#    the block against PyTorch + cuEquivariance at 512..2048 in what is left.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
parity_shards ${SHARD_LIMIT:-250}
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env 1 $((L - 200)) 110 trimul,tri_attn,tri_attn_end 1024,2048 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 30))  # crop_search.sh unpacks the payload again first
# the crop only where a step (~211 s by N^3 from crop 3072's 87 s, plus start-up) can finish in what is left
if nvidia-smi -L | grep -q H200 && [ $b -ge ${CROP_MIN:-240} ]; then
    # its own $OUT (crop_search.sh's device_common.sh starts a new summary file), appended to this one
    mkdir -p $OUT/crop
    OUT=$OUT/crop CROPS=${CROP:-4128} STEP_LIMIT=$b bash bench/session45/crop_search.sh > /dev/null 2>&1
    cat $OUT/crop/summary.txt >> $S; mv $OUT/crop/*.log $OUT/ 2>/dev/null
else
    b=$((L - (SECONDS - t0) - 15))
    [ $b -gt 60 ] && cueq_blocks ${BLOCK_N:-512,1024,1536,2048} 5 $b
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
