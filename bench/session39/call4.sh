#!/usr/bin/env bash
# Session 39, call 4 (carry [".devpack", ".cueq"]; call 3's payload, PF_TRIMUL_OUTW=2 / FWG 3 the default): the
# Pairformer block against PyTorch + cuEquivariance 0.13.0 in the same run (compare_blocks.py --impl cueq --graph)
# at N = 512 / 1024 / 2048.
. bench/device_common.sh
cueq_blocks 512,1024,2048 5 330
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
