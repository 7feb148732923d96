#!/usr/bin/env bash
# Session 44's third GPU call (one H200: `needs_h200`; carry [".devpack"]): issue 12's largest one-GPU AF3 trunk
# training crop, recompute 8, no offload, one step each (bench/device_all.sh stage trunk). Session 31 measured crop
# 3072 at 78.96 GiB (the plan in docs/PARALLEL.md: 69.6), so N^2 scaling puts the limit of ~139 GiB near 4076:
# 4096 first (expected not to fit), then 4032.
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt 2>&1
STAGES=trunk TRUNK_N=${CROPS:-4096:8:1,4032:8:1} TRUNK_LIMIT=${TRUNK_LIMIT:-280} TAIL=4 bash bench/device_all.sh
cat $OUT/gpu.txt
