#!/usr/bin/env bash
# For the next session (any card; carry [".devpack"]; ~90 s): L2 sectors per request of every kernel of trimul and of
# both triangle attentions at N = 1024 (f+b, --reps 1). Session 49 found k_tm_gdw's cp.async streams bound by L2's tag
# lookups at 1.15 sectors a request (its bulk-copy form: 2.06; cuBLAS's GEMMs ~3.3); the other streaming kernels
# (k_tm_sides_wgp, k_tm_sgrad_wgp, k_tm_outbw_dwz, the attention's) load rows by cp.async too: this says which are.
. bench/device_common.sh
t0=$SECONDS
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests.sum,lts__t_sectors.sum
for op in trimul tri_attn tri_attn_end; do
    timeout 150 ncu --clock-control none --metrics $M $P/bench_cuda_ops --ops $op --sizes 1024 --reps 1 \
        > $OUT/l2_$op.log 2>&1
    echo "== $op rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/l2_$op.log --top 14 >> $S 2>&1
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
