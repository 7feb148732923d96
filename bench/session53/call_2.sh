#!/usr/bin/env bash
# Session 53, call 2 (any sm_90 card; carry [".devpack"]; payload of the flip: BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh): the attention defaults after session 53 (k_s9_fwd_tma,
# k_bwd_ws_tma, and k_bwd_dbias_tma now the bias gradient's default) checked end to end:
# 1. compute-sanitizer memcheck with only the three TMA kernels instrumented (a kernel-name filter: the rest run at
#    full speed, which unfiltered runs of the attention group never finished in 360-410 s), as parallel processes:
#    --quick --only attn (every attention case), --only attn_bwd_wg_small (c_h 32 pair-bias cases at B 2..4),
#    --only attn.3 (the bias-gradient part, whole-tile cases at L 128 / 192);
# 2. the PyTorch parity and the whole test_cuda in 4 shards with the new defaults;
# 0 (first): an ncu per-kernel list of the triangle module at N = 1024 (where the 16.5 ms go).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-480}
# 0. where the module's time goes now: every kernel of bench_cuda_ops' tri_attn run at 1024 (3 forwards + 3 f+b after
#    the warm-ups), ncu time per launch, the 24 largest rows
ncu_rows triattn 90 24 "." $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
echo "== ncu done at $((SECONDS - t0)) s" >> $S
# the filter's spelling (compute-sanitizer --kernel-name kns=SUBSTRING; --kernel-regex as a fallback)
F=""
for opt in "--kernel-name kns=_tma" "--kernel-regex kns=_tma"; do
    if compute-sanitizer --tool memcheck $opt true > $OUT/cs_opt.log 2>&1; then F="$opt"; break; fi
done
echo "== memcheck filter: '${F:-none (every kernel instrumented)}' ($(head -c 200 $OUT/cs_opt.log | tr '\n' ' '))" >> $S
b=${MC_LIMIT:-160}
OMP_NUM_THREADS=4 run mc_attn $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --quick --only attn
OMP_NUM_THREADS=4 run mc_small $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --only attn_bwd_wg_small
OMP_NUM_THREADS=4 run mc_dbias $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --only attn.3
wait
report mc_attn mc_small mc_dbias
for n in mc_attn mc_small mc_dbias; do
    echo "$n: last line: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S
done
echo "== memcheck done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 30))
[ $b -gt 300 ] && b=300
parity_shards $b
echo "== parity + shards done at $((SECONDS - t0)) s" >> $S
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
