#!/usr/bin/env bash
# Session 35, call 2 (carry [".devpack", ".cueq"]; call 1's payload): the same-run comparisons against PyTorch +
# cuEquivariance 0.13.0: the Pairformer block at N = 512..2048 (compare_blocks.py) and the triangle modules
# (bench_cuda_ops against torch_ops_bench.py --impl cueq), as session 34's call 3.
. bench/device_common.sh
cueq_blocks 512,1024,1536,2048 5 300
cueq_ops 512,1024,2048
cd $OUT && tar czf logs.tgz *.log *.jsonl *.json 2>/dev/null; rm -f *.log *.jsonl
cat $S
