#!/usr/bin/env bash
# Session 51, the TMA forward experiment (any sm_90 card; carry [".devpack"]; payload
# BINS="pairfold test_cuda bench_cuda_ops" of this commit): k_s9_fwd_tma (PF_ATTN_FWD_BMMA=3: k_s9_fwd_bmma2 with
# each key tile's K, V and bias by three TMA tensor-map copies one thread issues) against k_s9_fwd_bmma2 (the
# default). In the order of what matters when the budget is short:
# 1. Both triangle attentions f+b at 1024 / 2048, the two forms taking turns, ROUNDS rounds.
# 2. test_cuda --quick --only attn with PF_ATTN_FWD_BMMA=3 (the forward against the CPU reference, and its bits
#    against the default's in every case).
# 3. ncu: the forward kernel's time, L2 requests and sectors, instructions at 1024, both forms.
# 4. memcheck of 2 in what is left.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
ab_env ${ROUNDS:-2} $((L - 150)) 70 tri_attn,tri_attn_end 1024,2048 "" "PF_ATTN_FWD_BMMA=3"
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 20)); [ $b -gt 150 ] && b=150
PF_ATTN_FWD_BMMA=3 timeout $b $T --quick --only attn > $OUT/attn3.log 2>&1; echo "rc=$?" >> $OUT/attn3.log
report attn3
echo "== correctness done at $((SECONDS - t0)) s" >> $S
for f in 2 3; do
    [ $((L - (SECONDS - t0))) -gt 45 ] || break
    PF_ATTN_FWD_BMMA=$f timeout -k 5 40 ncu --clock-control none -k regex:"k_s9_fwd" --metrics \
        gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,smsp__inst_executed.sum \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$f.log 2>&1
    echo "== ncu PF_ATTN_FWD_BMMA=$f rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_$f.log --top 2 >> $S 2>&1
    grep -E "lts__t_requests|lts__t_sectors|inst_executed" $OUT/ncu_$f.log | head -3 >> $S
done
echo "== ncu done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
if [ $b -gt 40 ]; then
    PF_ATTN_FWD_BMMA=3 timeout $b compute-sanitizer --tool memcheck $T --quick --only attn > $OUT/mc3.log 2>&1
    echo "rc=$?" >> $OUT/mc3.log; report mc3
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
