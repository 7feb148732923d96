#!/usr/bin/env bash
# Session 44's fourth GPU call (carry [".devpack"]; payload `BINS=bench_cuda_ops NO_SYS=1 EXTRA="/tmp/bench_uU:bench_uU
# /tmp/test_uU:test_uU ..." bash bench/pack_device.sh`, U = 2, 4, 8: cu_trimul_side_wgp.cu compiled with
# -DTSW_LN_UNROLL=U and linked in place of the default object, whose U is 1): k_tm_sides_wgp's LN_in passes unrolled
# (session 43's stall profile: LN_in's serial shuffle chain 16% of its samples).
# 1. test_uU --only trimul_wgp for each U (k_tm_sides_wgp with LN against the CPU reference and form 4 bit for bit).
# 2. Same-run trimul f+b at 1024 / 2048, U = 1 (bench_cuda_ops), 2, 4, 8 taking turns, ROUNDS rounds.
# 3. ncu time of k_tm_sides_wgp in one trimul f+b at 1024 for each U.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-330}
for u in 2 4 8; do run wgp_u$u 150 $P/test_u$u --only trimul_wgp; done
wait
report wgp_u2 wgp_u4 wgp_u8
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-3} $((L - 80)) 60 trimul 1024,2048 "" bench_u2 bench_u4 bench_u8
echo "== timing done at $((SECONDS - t0)) s" >> $S
for b in bench_cuda_ops bench_u2 bench_u4 bench_u8; do
  [ $((SECONDS - t0)) -lt $((L - 20)) ] && ncu_rows $b 40 4 "k_tm_sides_wgp" $P/$b --ops trimul --sizes 1024 --reps 1
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
