#!/usr/bin/env bash
# Session 51, call 3 (needs_h200; carry [".devpack"]; call 1's payload). Issue 12's largest one-GPU AF3 trunk
# training crop: one step at crop 4128 (recompute 8; docs/PARALLEL.md's plan: 137.9 GiB of the H200's ~140), by
# bench/session45/crop_search.sh; on any other card it stops at once (an H100 cannot hold it).
nvidia-smi -L | grep -q H200 || { nvidia-smi -L; echo "not an H200: nothing run"; exit 0; }
CROPS=${CROPS:-4128} STEP_LIMIT=${STEP_LIMIT:-420} bash bench/session45/crop_search.sh
