#!/usr/bin/env bash
# Session 20 call A: verify 0a63d82's groups; the new PF_ATTN_GATE_WG (tests, memcheck, A/B);
# attn_proj_own (+ memcheck); pairfold bench --per-module; ncu per-kernel of tri_attn / trimul at 1024.
set -u
OUT=${OUT:-/tmp/out}
P=/tmp/pf
mkdir -p $P && tar -C $P -xJf .devpack/payload.tar.xz
export LD_LIBRARY_PATH=$P/lib:${LD_LIBRARY_PATH:-}
export PATH=$PATH:/usr/local/cuda/bin
S=$OUT/summary.txt
nvidia-smi -L > $S 2>&1
git log --oneline -1 >> $S 2>&1
T=$P/test_cuda
t0=$SECONDS
run() { local name=$1 lim=$2; shift 2; ( timeout $lim "$@" > $OUT/$name.log 2>&1; echo "rc=$?" >> $OUT/$name.log ) & }
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
for f in t_gatewg mc_gatewg t_bwdcat t_trimul0 t_trimul1 t_trimul2 t_transition t_blocksmall t_projown mc_projown t_attn1; do
  echo "$f: $(grep -h 'passed,' $OUT/$f.log | tail -1) | $(grep -h 'ERROR SUMMARY' $OUT/$f.log | tail -1) | $(grep -c FAIL $OUT/$f.log) FAIL | $(tail -1 $OUT/$f.log)" >> $S
  grep -m3 FAIL $OUT/$f.log >> $S
done
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
