#!/usr/bin/env bash
# Session 34, call 3 (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of the final code: call 1's plus the test of the row-piece rule): test_cuda --only
# trimul_out_rows and the trimul group in 4 shards, then the same-run comparisons against cuEquivariance 0.13.0: the
# Pairformer block at N = 512..2048 (compare_blocks.py) and the triangle modules (bench_cuda_ops against
# torch_ops_bench.py --impl cueq).
. bench/device_common.sh
run rows 60 $T --only trimul_out_rows
for k in 0 1 2 3; do run trimul$k 300 $T --only trimul --shard $k/4; done
wait
report rows trimul0 trimul1 trimul2 trimul3
cueq_blocks 512,1024,1536,2048 5 300
cueq_ops 512,1024,2048
cd $OUT && tar czf logs.tgz *.log *.jsonl *.json 2>/dev/null; rm -f *.log *.jsonl
cat $S
