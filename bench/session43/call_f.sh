#!/usr/bin/env bash
# Session 43: k_s9_fwd_bmma2 with the block's constants read before each tile's wait (commit "k_s9_fwd_bmma2: the
# block's constants ...") against the build before it (bench_old, carried by EXTRA), same run. Payload:
# `BINS="test_cuda bench_cuda_ops" NO_SYS=1 EXTRA="/tmp/bench_old:bench_old" bash bench/pack_device.sh`, carry
# [".devpack"]. 1. test_cuda --only attn.1 .. attn.6 as parallel processes (the attention group: every forward
# case against the CPU reference). 2. Triangle attention f+b and forward at 1024 / 2048, old and new taking turns.
# (Ran at be771f1 with the rounds written out, "== PROG round R" headers; ab_env runs the same commands.)
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
for k in 1 2 3 4 5 6; do OMP_NUM_THREADS=2 run attn$k ${TEST_LIMIT:-150} $T --only attn.$k; done
wait
echo "== tests done at $((SECONDS - t0)) s" >> $S
report attn1 attn2 attn3 attn4 attn5 attn6
ab_env 3 $((L - 40)) 60 tri_attn,tri_attn_end 1024,2048 bench_old bench_cuda_ops
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
