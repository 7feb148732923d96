#!/usr/bin/env bash
# Session 35, call 2 (carry [".devpack", ".cueq"]; call 1's payload): the same-run comparisons against PyTorch +
# cuEquivariance 0.13.0: the Pairformer block at N = 512..2048 (compare_blocks.py) and the triangle modules
# (bench_cuda_ops against torch_ops_bench.py --impl cueq), as session 34's call 3.
. bench/device_common.sh
cueq_blocks 512,1024,1536,2048 5 300
SZ=512,1024,2048
timeout 150 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $SZ --reps 5 > $OUT/ops_pf.log 2>&1; echo "pf rc=$?" >> $S
PYTHONPATH=/tmp/site timeout 200 python3 bench/torch_ops_bench.py --impl cueq --sizes $SZ --reps 5 > $OUT/ops_cueq.log 2>&1
echo "cueq rc=$?" >> $S
grep -h '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl; grep -h '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
python3 bench/compare_ops.py $OUT/ops_pf.jsonl /dev/null $OUT/ops_cueq.jsonl >> $S 2>&1
cd $OUT && tar czf logs.tgz *.log *.jsonl *.json 2>/dev/null; rm -f *.log *.jsonl
cat $S
