#!/usr/bin/env bash
# Session 25 call 4 (carry [".devpack", ".cueq"]; the payload of call 3: PF_TR_WGO and PF_TR_WGB on by default):
# the PyTorch parity test and test_cuda's 64-bit group (the fused transition kernels past 2^31 elements) side by side,
# then alone the block against PyTorch + cuEquivariance in one run.
. bench/device_common.sh
( timeout 200 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
  echo "rc=$?" >> $OUT/parity.log ) &
run big 200 stdbuf -oL $T --only big
wait
report big
echo "parity: $(grep -E 'passed|failed|FAIL' $OUT/parity.log | tail -3 | tr '\n' ' ') $(tail -1 $OUT/parity.log)" >> $S
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-280} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024,1536,2048} --reps 3 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 16 $OUT/benchcq.log >> $S
cat $S
