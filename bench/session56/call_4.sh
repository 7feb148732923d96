#!/usr/bin/env bash
# Session 56, call 4 (any sm_90 card; carry [".devpack", ".cueq"]; payload of this commit: k_s9_fwd_half the
# default, its A/B knobs removed, SASS of k_s9_fwd_half<4> unchanged from call 3's by cuobjdump): CALL_LIMIT s
# (default 250), one after the other (the benchmark alone on the card):
# 1. the Pairformer block against PyTorch + cuEquivariance at 512 / 1024 / 2048 (the first same-run ratio since
#    session 50);
# 2. with what is left: test_cuda --mode bf16 --quick --only attn (=3 now checked against the CPU reference).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-250}
b=$((L - 60)); [ $b -gt 170 ] && b=170
cueq_blocks 512,1024,2048 5 $b
echo "== blocks done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
[ $b -gt 30 ] && { OMP_NUM_THREADS=12 run attn_bf16 $b stdbuf -oL $T --mode bf16 --quick --only attn; checks_report attn_bf16; }
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
