#!/usr/bin/env bash
# Session 54, the short call (LIMIT seconds in all, default 240; carry [".devpack"], payload as call_1.sh's) for when
# the device budget is too small for call_1.sh: on any sm_90 card, in this order,
# 1. both triangle attentions f+b at 1024 / 2048: the defaults, k_bwd_dbias_wg (PF_ATTN_DBIAS=q64k128.wg.tma),
#    k_s9_fwd_mbar (PF_ATTN_FWD_BMMA=5) and k_s9_fwd_rows (=6), taking turns, a second round if time is left;
# 2. ncu of the forward kernels (default, =5, =6) at 1024;
# 3. test_cuda --quick --only attn (every attention case; =5 and =6 against the default bit for bit, every dbias
#    variant against the CPU reference) with what is left.
. bench/device_common.sh
t0=$SECONDS
L=${LIMIT:-240}
CFGS=("" PF_ATTN_DBIAS=q64k128.wg.tma PF_ATTN_FWD_BMMA=5 PF_ATTN_FWD_BMMA=6)
ab_env 1 $L 40 tri_attn,tri_attn_end 1024,2048 "${CFGS[@]}"        # round 1 whatever the limit
ab_env 1 $((L - 110)) 40 tri_attn,tri_attn_end 1024,2048 "${CFGS[@]}"  # round 2 while time is left
echo "== timing done at $((SECONDS - t0)) s" >> $S
if [ $((SECONDS - t0)) -lt $((L - 60)) ]; then  # ~20 s each
    ncu_one fwd "k_s9_fwd"
    ncu_one fwd_mbar "k_s9_fwd" PF_ATTN_FWD_BMMA=5
    ncu_one fwd_rows "k_s9_fwd" PF_ATTN_FWD_BMMA=6
fi
echo "== ncu done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
if [ $b -gt 30 ]; then
    OMP_NUM_THREADS=8 timeout -k 5 $b stdbuf -oL $T --quick --only attn > $OUT/attn_quick.log 2>&1
    echo "rc=$?" >> $OUT/attn_quick.log
    report attn_quick
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
