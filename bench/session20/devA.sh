#!/usr/bin/env bash
# Session 20 call A: verify 0a63d82's groups; the new PF_ATTN_GATE_WG (tests, memcheck, A/B);
# attn_proj_own (+ memcheck); pairfold bench --per-module; ncu per-kernel of tri_attn / trimul at 1024.
. bench/device_common.sh
git log --oneline -1 >> $S 2>&1
t0=$SECONDS
L=${TLIM:-230}
run t_gatewg $L $T --only attn_gate_wg
run mc_gatewg $L compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_gate_wg
run t_bwdcat $L $T --only trimul_bwdcat
for k in 0 1 2; do run t_trimul$k $L $T --only trimul --shard $k/3; done
run t_transition $L $T --only transition
run t_blocksmall $L $T --only blocksmall
run t_projown $L $T --only attn_proj_own
run mc_projown $L compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_proj_own
run t_attn1 $L $T --only attn.1
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report t_gatewg mc_gatewg t_bwdcat t_trimul0 t_trimul1 t_trimul2 t_transition t_blocksmall t_projown mc_projown t_attn1
t0=$SECONDS
for v in 1 0 1 0; do
  echo "-- PF_ATTN_GATE_WG=$v" >> $OUT/ab.log
  PF_ATTN_GATE_WG=$v timeout 40 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 512,1024,2048 --reps 5 >> $OUT/ab.log 2>&1
done
for v in 1 0; do
  echo "-- block PF_ATTN_GATE_WG=$v" >> $OUT/ab.log
  PF_ATTN_GATE_WG=$v timeout 60 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024,2048 --reps 3 >> $OUT/ab.log 2>&1
done
echo "== A/B ($((SECONDS - t0)) s)" >> $S; cat $OUT/ab.log >> $S
t0=$SECONDS
timeout 60 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024 --reps 3 --per-module > $OUT/permodule.log 2>&1
echo "== per-module rc=$? ($((SECONDS - t0)) s)" >> $S; cat $OUT/permodule.log >> $S
for op in tri_attn trimul; do
  t0=$SECONDS
  timeout 60 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
      $P/bench_cuda_ops --ops $op --sizes 1024 --reps 1 > $OUT/kprof_$op.log 2>&1
  echo "== kprof $op rc=$? ($((SECONDS - t0)) s)" >> $S
  python3 bench/ncu_summary.py $OUT/kprof_$op.log >> $S 2>&1
done
