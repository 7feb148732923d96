#!/usr/bin/env bash
# After session 52 (any sm_90 card; carry [".devpack"]; payload of the current code, rebuilt: BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh): what session 52 could not finish for its new attention defaults
# (k_s9_fwd_tma, PF_ATTN_FWD_BMMA=3; k_bwd_ws_tma, PF_ATTN_BWD_WG=5; NOTES "Open / next" 0):
# 1. the defaults against the old kernels (PF_ATTN_FWD_BMMA=2 PF_ATTN_BWD_WG=4), both triangle attentions f+b at
#    1024 / 2048, taking turns, ROUNDS rounds (never timed together);
# 2. compute-sanitizer memcheck, as parallel processes, each line-buffered so a cut run still shows how far it got:
#    --only attn_bwd_wg_small (c_h 32 pair-bias cases: both new kernels) and the attention group's six parts
#    (--quick --only attn.1 .. attn.6), all with the defaults;
# 3. test_cuda --only attn (the flipped build's attn_fwd_same_bits: =1 and =2 against the default, bit for bit).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
ab_env ${ROUNDS:-2} 110 70 tri_attn,tri_attn_end 1024,2048 "" "PF_ATTN_FWD_BMMA=2 PF_ATTN_BWD_WG=4"
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
names=""
OMP_NUM_THREADS=4 run mc_small $b compute-sanitizer --tool memcheck stdbuf -oL $T --only attn_bwd_wg_small
names="mc_small"
for k in 1 2 3 4 5 6; do
    OMP_NUM_THREADS=2 run mc_attn$k $b compute-sanitizer --tool memcheck stdbuf -oL $T --quick --only attn.$k
    names="$names mc_attn$k"
done
OMP_NUM_THREADS=2 run attn_quick $b stdbuf -oL $T --quick --only attn
wait
report $names attn_quick
for n in $names; do echo "$n: $(grep -c '^ok' $OUT/$n.log) ok lines; last: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S; done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
