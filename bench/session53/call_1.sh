#!/usr/bin/env bash
# Session 53, call 1 (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh): session 52's new attention defaults (k_s9_fwd_tma, k_bwd_ws_tma) and session 53's
# opt-in bias gradient by tensor maps (k_bwd_dbias_tma, PF_ATTN_DBIAS=q64k128.w4.m2.co.pipe.tma), in the order of
# what matters when the budget is short:
# 1. both triangle attentions f+b at 1024 / 2048, taking turns, ROUNDS rounds: the defaults, the defaults with
#    the .tma bias gradient (2 and 3 ring stages), and the old kernels (PF_ATTN_FWD_BMMA=2 PF_ATTN_BWD_WG=4: the two session 52 forms
#    were timed separately, never together);
# 2. ncu, one launch at N = 1024: k_bwd_dbias_pipe against k_bwd_dbias_tma, 2 and 3 stages (time, L2 requests,
#    instructions);
# 3. as parallel processes, each line-buffered so a cut run still shows how far it got:
#    test_cuda --only attn.3 (the bias-gradient part: every variant, .tma's whole tiles at L 128 / 192, against
#    the CPU reference), --quick --only attn (the flipped build's =1 / =2 comparisons), and compute-sanitizer
#    memcheck of --only attn_bwd_wg_small (both session 52 kernels), of --quick --only attn.3 (.tma included) and
#    of the attention group's other parts (--quick --only attn.K).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
DBT=PF_ATTN_DBIAS=q64k128.w4.m2.co.pipe.tma
ab_env ${ROUNDS:-2} 180 70 tri_attn,tri_attn_end 1024,2048 "" "$DBT" "$DBT.s3" "PF_ATTN_FWD_BMMA=2 PF_ATTN_BWD_WG=4"
echo "== timing done at $((SECONDS - t0)) s" >> $S
ncu_one dbias_pipe "k_bwd_dbias" PF_ATTN_DBIAS=q64k128.w4.m2.co.pipe
ncu_one dbias_tma "k_bwd_dbias" "$DBT"
ncu_one dbias_tma3 "k_bwd_dbias" "$DBT.s3"
echo "== ncu done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 20))
names="dbias attn_quick mc_small mc_dbias"
OMP_NUM_THREADS=4 run dbias $b stdbuf -oL $T --only attn.3
OMP_NUM_THREADS=2 run attn_quick $b stdbuf -oL $T --quick --only attn
OMP_NUM_THREADS=2 run mc_small $b compute-sanitizer --tool memcheck stdbuf -oL $T --only attn_bwd_wg_small
OMP_NUM_THREADS=1 run mc_dbias $b compute-sanitizer --tool memcheck stdbuf -oL $T --quick --only attn.3
for k in 1 2 4 5 6; do
    OMP_NUM_THREADS=1 run mc_attn$k $b compute-sanitizer --tool memcheck stdbuf -oL $T --quick --only attn.$k
    names="$names mc_attn$k"
done
wait
report $names
for n in $names; do echo "$n: $(grep -c '^ok' $OUT/$n.log) ok lines; last: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S; done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
