#!/usr/bin/env bash
# Session 22 call 8: triangle attention and triangle multiplication modules (bench_cuda_ops) against the
# cuEquivariance forms (bench/torch_ops_bench.py --impl cueq) in one run, N = 512..2048 (issue 10's 2.5x point,
# issue 11's trimul point). Carry [".devpack", ".cueq"]; the payload needs bench_cuda_ops.
. bench/device_common.sh
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
SZ=${OPS_N:-512,1024,1536,2048}
timeout 200 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $SZ --reps 5 > $OUT/ops_pf.log 2>&1; echo "pf rc=$?" >> $S
PYTHONPATH=/tmp/site timeout 250 python3 bench/torch_ops_bench.py --impl cueq --sizes $SZ --reps 5 > $OUT/ops_cueq.log 2>&1
echo "cueq rc=$?" >> $S
grep -h '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl; grep -h '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
python3 bench/compare_ops.py $OUT/ops_pf.jsonl /dev/null $OUT/ops_cueq.jsonl >> $S 2>&1
tail -n 3 $OUT/ops_pf.log $OUT/ops_cueq.log >> $S
cat $S
