#!/usr/bin/env bash
# Session 21 call 1 (main's code): the whole test_cuda in 4 shards with blocksmall, predict at 6144 residues
# (af3 preset, one-step checkpoint) beside them; then, alone, ncu per-kernel lists of tri_attn and trimul at 1024.
. bench/device_common.sh
t0=$SECONDS
L=${TLIM:-420}
for k in 0 1 2 3; do run t_all$k $L $T --shard $k/4; done
run t_blocksmall $L $T --only blocksmall
run pred6144 $L bash -c "$P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 --set crop_size=32 \
  --set msa_rows=4 --set n_val=1 --out /tmp/af3ck --quiet && python3 -c \"import random; random.seed(1); print('>query'); \
print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range(6144)))\" > /tmp/q.a3m && /usr/bin/time -v \
  $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/q.a3m --device cuda --recycles 0 --out /tmp/pred.safetensors"
wait
echo "== tests ($((SECONDS - t0)) s)" >> $S
report t_all0 t_all1 t_all2 t_all3 t_blocksmall pred6144
grep -h -i "peak\|elapsed\|wrote\|error" $OUT/pred6144.log | tail -6 >> $S
for op in tri_attn trimul; do
  t0=$SECONDS
  timeout 60 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
      $P/bench_cuda_ops --ops $op --sizes 1024 --reps 1 > $OUT/kprof_$op.log 2>&1
  echo "== kprof $op rc=$? ($((SECONDS - t0)) s)" >> $S
  NCU_TOP=60 python3 bench/ncu_summary.py $OUT/kprof_$op.log >> $S 2>&1
done
(cd $OUT && tar -cJf logs.tar.xz *.log && rm -f *.log)
cat $S
