#!/usr/bin/env bash
# Session 52, the TMA backward experiment (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda
# bench_cuda_ops" of this commit): k_bwd_ws_tma (PF_ATTN_BWD_WG=5: mode 4 with every tile by tensor maps one producer
# thread issues) against mode 4 (the default), and with session 51's TMA forward (PF_ATTN_FWD_BMMA=3). In the order
# of what matters when the budget is short:
# 1. both triangle attentions f+b at 1024 / 2048, the three forms taking turns, ROUNDS rounds;
# 2. test_cuda --only attn_bwd_wg (mode 5 against mode 1 bit for bit in its 8 cases, mode 4 against the CPU), then
#    --quick --only attn with both TMA forms exported (against the CPU reference; the forward's bits against bmma2's);
# 3. ncu: the backward kernel's time, L2 requests and sectors, instructions at 1024, modes 4 and 5;
# 4. with both exported, the PyTorch parity and the whole test_cuda in 4 shards (what makes both the default), then
#    memcheck of --quick --only attn in what is left.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-570}
left() { echo $((L - (SECONDS - t0))); }
ab_env ${ROUNDS:-2} $((L - 420)) 70 tri_attn,tri_attn_end 1024,2048 "" "PF_ATTN_BWD_WG=5" \
    "PF_ATTN_BWD_WG=5 PF_ATTN_FWD_BMMA=3"
echo "== timing done at $((SECONDS - t0)) s" >> $S
timeout 120 $T --only attn_bwd_wg > $OUT/bwdwg.log 2>&1; echo "rc=$?" >> $OUT/bwdwg.log
report bwdwg
PF_ATTN_BWD_WG=5 PF_ATTN_FWD_BMMA=3 timeout 90 $T --quick --only attn > $OUT/attn35.log 2>&1; echo "rc=$?" >> $OUT/attn35.log
report attn35
echo "== correctness done at $((SECONDS - t0)) s" >> $S
for f in 4 5; do
    [ $(left) -gt 300 ] || break
    PF_ATTN_BWD_WG=$f timeout -k 5 40 ncu --clock-control none -k regex:"k_bwd_ws" --metrics \
        gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,smsp__inst_executed.sum \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$f.log 2>&1
    echo "== ncu PF_ATTN_BWD_WG=$f rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_$f.log --top 2 >> $S 2>&1
    grep -E "lts__t_requests|lts__t_sectors|inst_executed" $OUT/ncu_$f.log | head -3 >> $S
done
echo "== ncu done at $((SECONDS - t0)) s" >> $S
if [ $(left) -gt 200 ]; then
    export PF_ATTN_BWD_WG=5 PF_ATTN_FWD_BMMA=3
    b=$(left); b=$((b - 60)); [ $b -gt 280 ] && b=280
    parity_shards $b
    echo "== parity + shards done at $((SECONDS - t0)) s" >> $S
    b=$(($(left) - 10))
    if [ $b -gt 40 ]; then
        timeout $b compute-sanitizer --tool memcheck $T --quick --only attn > $OUT/mc35.log 2>&1
        echo "rc=$?" >> $OUT/mc35.log; report mc35
    fi
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
