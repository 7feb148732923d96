#!/usr/bin/env bash
# Session 50, call 3 (any card; carry [".devpack"]; payload BINS="test_cuda bench_cuda_ops" with
# EXTRA="/tmp/bench_old:bench_old", bench_old = fb9bd59's bench_cuda_ops): call 2's bulk copies reverted (slower);
# what is left is k_bwd_ws's dq slot in fragment order (16-byte loads and stores, a warp's access 512 contiguous
# bytes instead of 8 lines of 32 bytes).
# 1. test_cuda --only attn_bwd_wg (modes 1-4 bit for bit against mode 1; mode 4 against the CPU reference).
# 2. Both triangle attentions f+b at 1024 / 2048, the new build and bench_old taking turns, 3 rounds.
# 3. ncu: k_bwd_ws's L2 requests at 1024, both builds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
timeout 150 $T --only attn_bwd_wg > $OUT/bwdwg.log 2>&1; echo "rc=$?" >> $OUT/bwdwg.log
report bwdwg
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((L - 90)) 70 tri_attn,tri_attn_end 1024,2048 "" bench_old
echo "== timing done at $((SECONDS - t0)) s" >> $S
for b in bench_cuda_ops bench_old; do
    [ $((L - (SECONDS - t0))) -gt 35 ] || break
    timeout -k 5 30 ncu --clock-control none -k regex:"k_bwd_ws" --metrics \
        gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests.sum,lts__t_sectors.sum \
        $P/$b --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$b.log 2>&1
    echo "== ncu $b rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_$b.log --top 2 >> $S 2>&1
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
