#!/usr/bin/env bash
# Session 32, call 4 (carry [".devpack", ".cueq"]; the payload of call 3): the triangle attention modules with the
# lazy max (unset) against PF_ATTN_FWD_LAZY=0 (every tile's max), alternating twice; the forward kernels alone the
# same way (attn_fwd_check variant 6); the Pairformer block against PyTorch + cuEquivariance at 512 / 1024.
. bench/device_common.sh
for m in 0 "" 0 ""; do
    PF_ATTN_FWD_LAZY=$m timeout 120 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 512,1024,2048 --reps 5 2>&1 |
        grep '^{' | python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print(d['op'], 'LAZY=${m:-unset}', d['N'], 'fwdbwd', d['fwdbwd_ms'], 'fwd', d['fwd_ms'], 'peak_mib', d.get('peak_mib'))" >> $S
done
# v2 (.devpack/v2.xz, sm_90a only: the exps first with the reference max, the check on the packed P, S recomputed
# in a warp where a row exceeds 2^step; k_s9_fwd_bmma2 only, so its bits differ from bmma's: that check fails there)
xz -dc .devpack/v2.xz > /tmp/v2 && chmod +x /tmp/v2
echo "== v2 attn_fwd_check --quick --variants 6" >> $S
timeout 120 /tmp/v2 --quick --variants 6 2>&1 | grep -E "^FAIL|passed," | head -8 >> $S
for round in 1 2; do
  for m in 0 "" v2; do
    echo "== round $round attn_fwd_check --variants 6 --reps 7 ${m:-v1}" >> $S
    if [ "$m" = v2 ]; then timeout 120 /tmp/v2 --variants 6 --reps 7 2>&1 | grep -E "^time" >> $S
    else PF_ATTN_FWD_LAZY=$m timeout 120 $P/attn_fwd_check --variants 6 --reps 7 2>&1 | grep -E "^time" >> $S; fi
  done
done
cueq_blocks 512,1024 5 240
cd $OUT && tar czf logs.tgz *.log *.json 2>/dev/null; rm -f *.log
cat $S
