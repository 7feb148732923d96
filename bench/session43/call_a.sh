#!/usr/bin/env bash
# Session 43's first GPU call (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh`): NOTES "Open / next" 0, in one call sized by CALL_LIMIT.
# 1. With FORMS (default: PF_TRIMUL_OUTW_DWZ=1 PF_ATTN_GATE_WG=3) in the environment: CHECKS=full (the default) the
#    whole test_cuda in 4 shards and the PyTorch parity (bench/device_all.sh), with the two groups' memchecks (--quick)
#    running beside them; CHECKS=groups only test_cuda --only trimul_outw and --only attn_gate_wg.
# 2. Same-run timing, nothing set against ALT (default: FORMS) taking turns, two rounds: trimul f+b and triangle
#    attention f+b (both nodes) at 1024 / 2048, stopped AB_STOP s before CALL_LIMIT.
# 3. The Pairformer block against PyTorch + cuEquivariance at BLOCK_N with FORMS, in what is left.
# (Ran in session 43 as of e596a6f, each round as two bench_cuda_ops runs, trimul then the attentions; call E as
# call_e.sh of b54d2b2, the groups and rounds written out: both are these commands now.)
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-570}
FORMS=${FORMS-"PF_TRIMUL_OUTW_DWZ=1 PF_ATTN_GATE_WG=3"}
ALT=${ALT-$FORMS}
echo "== forms: ${FORMS:-none}; timing: the defaults against ${ALT:-the defaults}" >> $S
with_forms() { ( [ -z "$FORMS" ] || export $FORMS; "$@" ); }  # a command (or function) with FORMS exported
if [ "${CHECKS:-full}" = full ]; then
  MC="compute-sanitizer --tool memcheck --error-exitcode 3"
  c=$((L * 55 / 100))
  run tmow_mc $c env $FORMS $MC $T --quick --only trimul_outw
  run agw_mc $c env $FORMS $MC $T --quick --only attn_gate_wg
  with_forms parity_shards $((c - 40))
  wait
  report tmow_mc agw_mc
else
  run tmow 200 env $FORMS $T --only trimul_outw
  run agw 200 env $FORMS $T --only attn_gate_wg
  wait
  report tmow agw
fi
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - ${AB_STOP:-150})) 110 trimul,tri_attn,tri_attn_end 1024,2048 "" "$ALT"
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 60 ] && with_forms cueq_blocks ${BLOCK_N:-512,1024} 5 $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
