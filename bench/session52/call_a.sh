#!/usr/bin/env bash
# Session 52, call A (any sm_90 card; carry [".devpack"]; payload EXTRA="build/devpack/cluster_probe:cluster_probe
# build/devpack/tma_probe:tma_probe" BINS="pairfold test_cuda bench_cuda_ops"): session 52's three attention forms,
# all opt-in and all the same bits as the defaults on the emulator:
#   PF_ATTN_FWD_BMMA=3 k_s9_fwd_tma (session 51: forward -12% on an H100), =4 k_s9_fwd_tmc (3 in clusters of two
#   blocks sharing each bias tile by TMA multicast), PF_ATTN_BWD_WG=5 k_bwd_ws_tma (the backward's tiles by TMA).
# In the order of what matters when the budget is short:
# 0. cluster_probe and tma_probe (the hardware against the emulator's reading of clusters, multicast and TMA);
# 1. both triangle attentions f+b at 1024 / 2048, the four forms taking turns, ROUNDS rounds;
# 2. test_cuda --only attn_bwd_wg (modes 2-5 against mode 1 bit for bit; the forward's =3 / =4 against the default
#    in the same c_h 32 cases), then --quick --only attn with =4 and =5 exported;
# 3. ncu: the forward kernel (=3, =4) and the backward kernel (mode 4, 5) at 1024: time, L2 requests / sectors;
# 4. in what is left, with =4 and =5 exported: the PyTorch parity and the whole test_cuda in 4 shards.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-580}
left() { echo $((L - (SECONDS - t0))); }
for p in cluster_probe tma_probe; do
    timeout 30 $P/$p > $OUT/$p.log 2>&1; echo "rc=$?" >> $OUT/$p.log
    echo "== $p: $(grep -h 'passed,' $OUT/$p.log | tail -1) $(tail -1 $OUT/$p.log)" >> $S; grep -m5 FAIL $OUT/$p.log >> $S
done
ab_env ${ROUNDS:-2} $((L - 400)) 70 tri_attn,tri_attn_end 1024,2048 "" "PF_ATTN_FWD_BMMA=3" "PF_ATTN_FWD_BMMA=4" \
    "PF_ATTN_BWD_WG=5"
echo "== timing done at $((SECONDS - t0)) s" >> $S
timeout 100 $T --only attn_bwd_wg > $OUT/bwdwg.log 2>&1; echo "rc=$?" >> $OUT/bwdwg.log
report bwdwg
PF_ATTN_BWD_WG=5 PF_ATTN_FWD_BMMA=4 timeout 80 $T --quick --only attn > $OUT/attn45.log 2>&1; echo "rc=$?" >> $OUT/attn45.log
report attn45
echo "== correctness done at $((SECONDS - t0)) s" >> $S
[ $(left) -gt 250 ] && ncu_one fwd3 "k_s9_fwd_tm" PF_ATTN_FWD_BMMA=3
[ $(left) -gt 250 ] && ncu_one fwd4 "k_s9_fwd_tm" PF_ATTN_FWD_BMMA=4
[ $(left) -gt 250 ] && ncu_one bwd4 "k_bwd_ws" PF_ATTN_BWD_WG=4
[ $(left) -gt 250 ] && ncu_one bwd5 "k_bwd_ws" PF_ATTN_BWD_WG=5
echo "== ncu done at $((SECONDS - t0)) s" >> $S
if [ $(left) -gt 150 ]; then
    export PF_ATTN_BWD_WG=5 PF_ATTN_FWD_BMMA=4
    b=$(left); b=$((b - 40)); [ $b -gt 280 ] && b=280
    parity_shards $b
    echo "== parity + shards (PF_ATTN_FWD_BMMA=4 PF_ATTN_BWD_WG=5) done at $((SECONDS - t0)) s" >> $S
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
