#!/usr/bin/env bash
# Session 20 call C: memcheck of attn_gate_wg and attn_proj_own (--quick), attn.2-6, model, parity on the
# final code; then the op comparison (pairfold / PyTorch eager / cuEquivariance, same run).
. bench/device_common.sh
t0=$SECONDS
L=${TLIM:-270}
run mc_gatewg $L compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_gate_wg
run mc_projown $L compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_proj_own
for k in 2 3 4 5 6; do run t_attn$k $L $T --only attn.$k; done
run t_model $L $T --only model
run parity $L python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report mc_gatewg mc_projown t_attn2 t_attn3 t_attn4 t_attn5 t_attn6 t_model parity
grep -h "passed" $OUT/parity.log | tail -2 >> $S
t0=$SECONDS
SZ=512,1024,2048
timeout 60 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $SZ --reps 5 > $OUT/ops_pf.log 2>&1
grep '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl
timeout 120 python3 bench/torch_ops_bench.py --impl eager --sizes $SZ --reps 5 > $OUT/ops_eager.log 2>&1
grep '^{' $OUT/ops_eager.log > $OUT/ops_eager.jsonl
PYTHONPATH=/tmp/site timeout 150 python3 bench/torch_ops_bench.py --impl cueq --sizes $SZ --reps 5 > $OUT/ops_cueq.log 2>&1
grep '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
echo "== ops ($((SECONDS - t0)) s)" >> $S
python3 bench/compare_ops.py $OUT/ops_pf.jsonl $OUT/ops_eager.jsonl $OUT/ops_cueq.jsonl >> $S 2>&1
