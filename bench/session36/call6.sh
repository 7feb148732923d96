#!/usr/bin/env bash
# Session 36, call 6 (carry [".devpack", ".cueq"]; call 5's payload, the final code): the Pairformer block against
# PyTorch + cuEquivariance 0.13.0 in the same run (compare_blocks.py --impl cueq --graph) at N = 512 / 1024 / 2048.
. bench/device_common.sh
cueq_blocks 512,1024,2048 5 330
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
