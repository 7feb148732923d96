#!/usr/bin/env bash
# Session 43's first GPU call (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh`): NOTES "Open / next" 0, in one call sized by CALL_LIMIT.
# 1. With FORMS (default: PF_TRIMUL_OUTW_DWZ=1 PF_ATTN_GATE_WG=3) in the environment: the whole test_cuda in 4 shards
#    and the PyTorch parity (bench/device_all.sh), with the two groups' memchecks (--quick) running beside them.
# 2. Same-run timing, the default and FORMS taking turns, two rounds: trimul f+b and triangle attention f+b (both
#    nodes) at 1024 / 2048.
# 3. The Pairformer block against PyTorch + cuEquivariance at BLOCK_N with FORMS, in what is left.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-570}
FORMS=${FORMS:-"PF_TRIMUL_OUTW_DWZ=1 PF_ATTN_GATE_WG=3"}
left() { [ $((SECONDS - t0)) -lt $1 ]; }
echo "== forms: $FORMS" >> $S
MC="compute-sanitizer --tool memcheck --error-exitcode 3"
c=$((L * 55 / 100))
run tmow_mc $c env $FORMS $MC $T --quick --only trimul_outw
run agw_mc $c env $FORMS $MC $T --quick --only attn_gate_wg
( export $FORMS; parity_shards $((c - 40)) )
wait
echo "== correctness done at $((SECONDS - t0)) s" >> $S
report tmow_mc agw_mc
for r in 1 2; do
  for f in "" "$FORMS"; do
    left $((L - 150)) || break 2
    echo "== round $r: ${f:-default}" >> $S
    env $f timeout -k 5 40 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-150 >> $S
    env $f timeout -k 5 70 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-150 >> $S
  done
done
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 60 ] && ( export $FORMS; cueq_blocks ${BLOCK_N:-512,1024} 5 $b )
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
