#!/usr/bin/env bash
# Session 51, call 2 (needs_h200; carry [".devpack"]; call 1's payload). Issue 11's memory points on an H200:
# `pairfold predict` (af3 preset, 48 blocks, one training step's weights, single sequence, recycles 0) at 2048
# (peak <= 20 GB) and 6144 (completes), then one AF3 trunk training step at crop 3072 (recompute 8: runs).
# bench/device_all.sh's predict and trunk stages; on any other card it stops at once.
nvidia-smi -L | grep -q H200 || { nvidia-smi -L; echo "not an H200: nothing run"; exit 0; }
STAGES="predict trunk" PRED_N=2048,6144 PRED_LIMIT=${PRED_LIMIT:-380} TRUNK_N=3072:8:1 TRUNK_LIMIT=${TRUNK_LIMIT:-150} \
    bash bench/device_all.sh
