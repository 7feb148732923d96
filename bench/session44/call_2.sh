#!/usr/bin/env bash
# Session 44's second GPU call (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# EXTRA=/tmp/bench_old:bench_old bash bench/pack_device.sh`, bench_old = the build before the change): two of
# session 43's stall-profile levers, k_tm_sides_wgp / k_tm_sgrad_wgp's conflict-free staging lane order (tsw_ch) and
# k_tm_sgrad_wgp's rows by bulk copies at the tile's start (tswb_request_rows).
# 1. test_cuda --only trimul (every trimul path against the CPU reference, sgwgp on against off bit for bit),
#    --only trimul_wgp, memcheck --quick --only trimul_sgwgp.
# 2. Same-run trimul f+b at 1024 / 2048, the new build against bench_old, ROUNDS rounds.
# 3. Per-kernel times (ncu) of one trimul f+b at 1024 in both builds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-400}
run trimul 240 $T --only trimul
run trimul_wgp 120 $T --only trimul_wgp
run sgwgp_mc 240 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only trimul_sgwgp
wait
report trimul trimul_wgp sgwgp_mc
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env ${ROUNDS:-3} $((L - 90)) 90 trimul 1024,2048 "" bench_old
echo "== timing done at $((SECONDS - t0)) s" >> $S
for b in bench_cuda_ops bench_old; do
  [ $((SECONDS - t0)) -lt $((L - 40)) ] && ncu_rows $b 60 14 "k_tm_s" $P/$b --ops trimul --sizes 1024 --reps 1
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
