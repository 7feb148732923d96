#!/usr/bin/env bash
# Runs on the device machine (one H200), from the repository root, with
# build/h_cuda/pack carried (bench/cuda_pack.sh). Steps (default: all):
#   tests     make-test-cuda equivalent: test_cuda (fp32 and bf16 modes)
#   memcheck  test_cuda --quick under compute-sanitizer memcheck
#   bench     op-level benchmark, pairfold vs PyTorch eager, same GPU, same run
# Logs go to $OUT; a short summary is printed last.
set -u
OUT=${OUT:-/tmp/pf_out}; mkdir -p "$OUT"
STEPS=${*:-tests memcheck bench blocks}
SIZES=${SIZES:-256,512,768,1024}
P=/tmp/pf; rm -rf $P; mkdir -p $P
tar -xJf build/h_cuda/pack/payload.tar.xz -C $P || { echo "no payload"; exit 1; }
export LD_LIBRARY_PATH=$P/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
if ldd $P/test_cuda | grep -q "not found"; then
  for l in $(ldd $P/test_cuda | awk '/not found/{print $1}'); do
    f=$(find / -name "$l" -not -path '/proc/*' 2>/dev/null | head -1)
    [ -n "$f" ] && export LD_LIBRARY_PATH=$(dirname $f):$LD_LIBRARY_PATH
  done
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
summary=$OUT/summary.txt; : > $summary
for s in $STEPS; do
  case $s in
  tests)
    t0=$SECONDS; timeout 400 $P/test_cuda > $OUT/test_cuda.log 2>&1; rc=$?
    echo "test_cuda: rc=$rc $((SECONDS-t0))s: $(tail -1 $OUT/test_cuda.log)" >> $summary
    grep FAIL $OUT/test_cuda.log | head -40 >> $summary ;;
  memcheck)
    t0=$SECONDS
    timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 $P/test_cuda --quick > $OUT/memcheck.log 2>&1; rc=$?
    echo "memcheck: rc=$rc $((SECONDS-t0))s: $(grep -E 'ERROR SUMMARY|passed, ' $OUT/memcheck.log | tail -2 | tr '\n' ' ')" >> $summary
    grep -B2 -A8 "Invalid" $OUT/memcheck.log | head -30 >> $summary ;;
  profile)
    timeout 200 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
      $P/bench_cuda_ops --ops ${PROFILE_OPS:-tri_attn} --sizes ${PROFILE_N:-512} --reps 1 > $OUT/ncu.log 2>&1
    echo "ncu rc=$?" >> $summary
    python3 bench/ncu_summary.py $OUT/ncu.log >> $summary 2>&1 ;;
  pfbench)
    if [ -x $P/pairfold ]; then
      timeout 300 $P/pairfold bench --preset af3 --device cuda --n ${PF_SIZES:-256,512,768,1024,1536,2048} --reps 3 > $OUT/blocks_pairfold.txt 2>&1
      echo "pairfold bench af3 rc=$?" >> $summary
      timeout 200 $P/pairfold bench --preset af2 --device cuda --msa 128 --n ${PF_EVO_SIZES:-256,512,768,1024} --reps 3 >> $OUT/blocks_pairfold.txt 2>&1
      echo "pairfold bench af2 rc=$?" >> $summary
      cat $OUT/blocks_pairfold.txt >> $summary
    else echo "no pairfold binary in the payload" >> $summary; fi ;;
  blocks)
    # block benchmark and parity live in bench/device_all.sh (compare_blocks.py, tests/cuda/parity.py)
    echo "blocks: use bench/device_all.sh" >> $summary ;;
  bench)
    timeout 200 $P/bench_cuda_ops --sizes $SIZES > $OUT/ops_pairfold.jsonl 2> /tmp/pf_err1
    echo "bench_cuda_ops rc=$?" >> $summary; tail -3 /tmp/pf_err1 >> $summary
    timeout 200 python3 bench/torch_ops_bench.py --sizes $SIZES > $OUT/ops_torch.jsonl 2> /tmp/pf_err2
    echo "torch bench rc=$?" >> $summary; grep -v Warning /tmp/pf_err2 | grep -v run_backward | tail -3 >> $summary
    python3 bench/compare_ops.py $OUT/ops_pairfold.jsonl $OUT/ops_torch.jsonl >> $summary 2>&1 ;;
  esac
done
cat $OUT/gpu.txt
cat $summary
