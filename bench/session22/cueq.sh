#!/usr/bin/env bash
# Session 22 call 5: the block against PyTorch + cuEquivariance in one run (carry [".devpack", ".cueq"]), with
# pairfold's replays of a recorded pass as a second pairfold line (compare_blocks.py --graph).
. bench/device_common.sh
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-330} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024,1536,2048} --reps 3 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 16 $OUT/benchcq.log >> $S
cat $S
