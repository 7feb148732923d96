#!/usr/bin/env bash
# Session 50, call 2 (any card; carry [".devpack"]; payload with EXTRA="/tmp/bench_old:bench_old", bench_old =
# fb9bd59's bench_cuda_ops): the attention's L2 requests cut (call 1's ncu: k_bwd_ws at ~92% of L2's tag-lookup
# rate, k_s9_fwd_bmma2 ~87%).
# - k_bwd_ws: the dq slot in fragment order (16-byte accesses) and the bias^T tile by bulk copies;
# - the forward: k_s9_fwd_bmma2's key tiles by bulk copies (PF_ATTN_FWD_BMMA=3, the new default; 2 the old form).
# 1. test_cuda --only attn_bwd_wg (modes 1-4 bit for bit, the forward's forms bit for bit), --quick --only attn
#    in 2 shards, memcheck of --quick --only attn_bwd_wg.
# 2. Both triangle attentions f+b at 1024 / 2048: the new build, bench_old, PF_ATTN_FWD_BMMA=2 taking turns, 3 rounds.
# 3. ncu: L2 requests of the new kernels at 1024.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
run bwdwg 150 $T --only attn_bwd_wg
run attn0 200 $T --quick --only attn --shard 0/2
run attn1 200 $T --quick --only attn --shard 1/2
wait
report bwdwg attn0 attn1
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_bwd_wg > $OUT/mc.log 2>&1
echo "rc=$?" >> $OUT/mc.log
report mc
echo "== correctness done at $((SECONDS - t0)) s" >> $S
ab_env 3 $((L - 120)) 70 tri_attn,tri_attn_end 1024,2048 "" bench_old PF_ATTN_FWD_BMMA=2
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 10))
if [ $b -gt 40 ]; then
    timeout -k 5 $b ncu --clock-control none -k regex:"k_bwd_ws|k_s9_fwd|k_bwd_dbias" --metrics \
        gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests.sum,lts__t_sectors.sum \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_l2.log 2>&1
    echo "== ncu l2 rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_l2.log --top 6 >> $S 2>&1
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
