#!/usr/bin/env bash
# Session 43's last GPU call (carry [".devpack", ".cueq"]): the build with PF_TRIMUL_OUTW_DWZ=1 and PF_ATTN_GATE_WG=3
# as the defaults and the fixed trimul_outw test. 1. test_cuda --only trimul_outw and --only attn_gate_wg (nothing
# set: the new defaults). 2. Same-run timing, the new defaults against the old ones set by the environment
# (PF_TRIMUL_OUTW_DWZ=0 PF_ATTN_GATE_WG=1), two rounds: trimul, tri_attn, tri_attn_end f+b at 1024 / 2048.
# 3. In what is left of CALL_LIMIT: the block against PyTorch + cuEquivariance at BLOCK_N (the new defaults).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-520}
left() { [ $((SECONDS - t0)) -lt $1 ]; }
run tmow 200 $T --only trimul_outw
run agw 200 $T --only attn_gate_wg
wait
echo "== tests done at $((SECONDS - t0)) s" >> $S
report tmow agw
for r in 1 2; do
  for f in "" "PF_TRIMUL_OUTW_DWZ=0 PF_ATTN_GATE_WG=1"; do
    left $((L - 200)) || break 2
    echo "== round $r: ${f:-the new defaults}" >> $S
    env $f timeout -k 5 90 $P/bench_cuda_ops --ops trimul,tri_attn,tri_attn_end --sizes 1024,2048 --reps 5 2>&1 |
      grep '^{' | cut -c1-150 >> $S
  done
done
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 60 ] && cueq_blocks ${BLOCK_N:-512,1024} 5 $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
