#!/usr/bin/env bash
# Session 52, call B (any sm_90 card; carry [".devpack"]; call A's payload, of a64ae00): the checks before
# PF_ATTN_FWD_BMMA=3 (k_s9_fwd_tma) and PF_ATTN_BWD_WG=5 (k_bwd_ws_tma) become the defaults, all at once (the GPU
# is shared; the CPU references oversubscribe the 16 cores a little):
# - test_cuda --only attn_bwd_wg with nothing set (modes 2-5 against mode 1 bit for bit; =3 and =4 against the
#   default forward bit for bit; mode 4 against the CPU reference), in the background;
# - compute-sanitizer memcheck of test_cuda --quick --only attn with both exported, in the background;
# - with both exported: the PyTorch parity and the whole test_cuda in 4 shards.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-520}
OMP_NUM_THREADS=4 timeout $((L - 20)) stdbuf -oL $T --only attn_bwd_wg > $OUT/bwdwg.log 2>&1 &
pb=$!
( export PF_ATTN_FWD_BMMA=3 PF_ATTN_BWD_WG=5 OMP_NUM_THREADS=2
  timeout $((L - 20)) compute-sanitizer --tool memcheck $T --quick --only attn > $OUT/mc35.log 2>&1
  echo "rc=$?" >> $OUT/mc35.log ) &
pm=$!
export PF_ATTN_FWD_BMMA=3 PF_ATTN_BWD_WG=5
parity_shards $((L - 60))
echo "== parity + shards (PF_ATTN_FWD_BMMA=3 PF_ATTN_BWD_WG=5) done at $((SECONDS - t0)) s" >> $S
wait $pb; echo "rc=$?" >> $OUT/bwdwg.log
report bwdwg
wait $pm
report mc35
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
