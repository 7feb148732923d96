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
mkdir -p /tmp/site
SZ=512,1024,2048
timeout 150 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $SZ --reps 5 > $OUT/ops_pf.log 2>&1; echo "pf rc=$?" >> $S
PYTHONPATH=/tmp/site timeout 200 python3 bench/torch_ops_bench.py --impl cueq --sizes $SZ --reps 5 > $OUT/ops_cueq.log 2>&1
echo "cueq rc=$?" >> $S
grep -h '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl; grep -h '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
python3 bench/compare_ops.py $OUT/ops_pf.jsonl /dev/null $OUT/ops_cueq.jsonl >> $S 2>&1
cd $OUT && tar czf logs.tgz *.log *.jsonl *.json 2>/dev/null; rm -f *.log *.jsonl
cat $S
