#!/usr/bin/env bash
# Session 20 call B: PF_ATTN_GATE_WG modes 0 / 1 / 2 (tests, memcheck, A/B alone), the trimul shards and attn.1.
. bench/device_common.sh
t0=$SECONDS
L=${TLIM:-290}
run t_gatewg $L $T --only attn_gate_wg
run mc_gatewg $L compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_gate_wg
for k in 0 1 2; do run t_trimul$k $L $T --only trimul --shard $k/3; done
run t_blocksmall $L $T --only blocksmall
run t_attn1 $L $T --only attn.1
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report t_gatewg mc_gatewg t_trimul0 t_trimul1 t_trimul2 t_blocksmall t_attn1
t0=$SECONDS
for v in 2 1 0 2 1 0; do
  echo "-- PF_ATTN_GATE_WG=$v" >> $OUT/ab.log
  PF_ATTN_GATE_WG=$v timeout 40 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 512,1024,2048 --reps 5 2>&1 | \
     python3 -c "import sys,json
for l in sys.stdin:
  if l.startswith('{'):
    d=json.loads(l); print(d['op'], d['N'], 'fwd', d['fwd_ms'], 'fb', d['fwdbwd_ms'])" >> $OUT/ab.log
done
for v in 2 1 0; do
  echo "-- block PF_ATTN_GATE_WG=$v" >> $OUT/ab.log
  PF_ATTN_GATE_WG=$v timeout 60 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 --reps 3 2>&1 | grep pairformer >> $OUT/ab.log
done
echo "== A/B ($((SECONDS - t0)) s)" >> $S; cat $OUT/ab.log >> $S
t0=$SECONDS
PF_ATTN_GATE_WG=2 timeout 40 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
      $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/kprof_attn.log 2>&1
echo "== kprof tri_attn mode 2 rc=$? ($((SECONDS - t0)) s)" >> $S
python3 bench/ncu_summary.py $OUT/kprof_attn.log | head -12 >> $S 2>&1
