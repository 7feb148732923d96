#!/usr/bin/env bash
# Session 47's H200 call (needs_h200; carry [".devpack"] (+ ".cueq" for step 3); payload of call 2 (d92f71a's
# kernels, stg16; whose whole test_cuda and parity ran on an H100 in call 2)).
# 1. The acceptance timings of issues 10 and 11: trimul f+b at 1024 / 2048 three rounds, both triangle attentions
#    one round.
# 2. Issue 12's one-GPU crop: one AF3 trunk training step at CROP (default 4128, recompute 8), crop_search.sh's setting.
# 3. In what is left: the block against PyTorch + cuEquivariance at 512..2048.
# Runs only on an H200 (an H100 cannot hold the crop, and its timings are not the issues' figures).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
nvidia-smi -L | grep -q H200 || { echo "not an H200: nothing run" >> $S; cat $S; exit 0; }
ab_env 3 40 60 trimul 1024,2048 ""
ab_env 1 80 110 tri_attn,tri_attn_end 1024,2048 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 30))
if [ $b -ge ${CROP_MIN:-240} ]; then  # a step at 4128 is ~211 s by N^3 from 3072's 87 s, plus start-up
    mkdir -p $OUT/crop
    OUT=$OUT/crop CROPS=${CROP:-4128} STEP_LIMIT=$b bash bench/session45/crop_search.sh > /dev/null 2>&1
    cat $OUT/crop/summary.txt >> $S; mv $OUT/crop/*.log $OUT/ 2>/dev/null
    echo "== crop done at $((SECONDS - t0)) s" >> $S
else
    echo "== crop skipped: $b s left, CROP_MIN ${CROP_MIN:-240}" >> $S
fi
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 80 ] && [ -f .cueq/site.tar.xz ] && cueq_blocks ${BLOCK_N:-512,1024,2048} 5 $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
