#!/usr/bin/env bash
# Session 26 call 3 (carry [".devpack", ".cueq"]; the payload of calls 1-2): the PyTorch parity test beside an ncu profile
# of the attention cores at N = 1024 (issue 10 scope 5: time, tensor-pipe use, issue slots, stall reasons per kernel) and
# the trimul's per-kernel times at N = 1024; then alone the block against PyTorch + cuEquivariance in one run.
. bench/device_common.sh
( timeout 200 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
  echo "rc=$?" >> $OUT/parity.log ) &
wait
echo "parity: $(grep -E 'passed|failed|FAIL' $OUT/parity.log | tail -3 | tr '\n' ' ') $(tail -1 $OUT/parity.log)" >> $S
timeout 150 ncu --clock-control none -k regex:"k_s9_fwd|k_bwd_lean|k_bwd_dbias" --launch-count 3 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_tensor.*cycles_active\.avg\.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second,sm__inst_executed.sum" \
    $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_attn.log 2>&1
echo "== ncu attention cores N=1024 rc=$?" >> $S
grep -E "^  k_|stalled|pipe_tensor|lts__t_bytes|inst_executed|Issue Slots|Eligible|Duration|Registers Per|Achieved Occ" \
    $OUT/ncu_attn.log | awk '$NF != "0" && $NF != "0.00"' | head -160 >> $S
timeout 120 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
    $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/kprof_trimul.log 2>&1
echo "== ncu trimul per kernel N=1024 rc=$? (3 forwards + 3 f+b)" >> $S
python3 bench/ncu_summary.py $OUT/kprof_trimul.log >> $S 2>&1
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-240} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024,1536,2048} --reps 3 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 16 $OUT/benchcq.log >> $S
cat $S
