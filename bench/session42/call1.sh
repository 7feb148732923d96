#!/usr/bin/env bash
# Session 42's first GPU call (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): sessions 40-41's never-run forms and cases, in one call under the 600 s limit.
# 1. Timing round 1 (GPU to itself): trimul f+b at 1024 / 2048 with PF_TRIMUL_OUTW_BWG 2 (the default), 3, DWZ=1,
#    FWG=4 and DWZ + FWG 4; triangle attention (both nodes) with PF_ATTN_GATE_WG 1 (the default), 2, 3.
# 2. Correctness, five programs at once (the GPU shared; no timing taken meanwhile): test_cuda --only trimul_outw and
#    --only attn_gate_wg with their memchecks (--quick), and --only big_modules (session 41's past-2^31 cases).
# 3. Timing round 2 in the time left (each part skipped past its start budget).
# (bench/session40/next_first.sh, session41/call_gate.sh and call_big.sh hold the same parts and the ncu rows.)
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-570}  # the call's own budget in s (the device time left may be less than run's 600)
left() { [ $((SECONDS - t0)) -lt $1 ]; }  # whether fewer than $1 s have passed since the start
timing() {  # round LIMIT: trimul forms, then the attention gate modes, each skipped once LIMIT s have passed
  local v m
  for v in "BWG=2" "BWG=3" "DWZ=1" "FWG=4" "DWZ=1 PF_TRIMUL_OUTW_FWG=4"; do
    left $2 || { echo "== skipped the rest of round $1 at $((SECONDS - t0)) s" >> $S; return; }
    echo "== trimul PF_TRIMUL_OUTW_$v round $1" >> $S
    env PF_TRIMUL_OUTW_$v timeout -k 5 60 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-140 >> $S
  done
  for m in 1 2 3; do
    left $2 || { echo "== skipped the rest of round $1 at $((SECONDS - t0)) s" >> $S; return; }
    echo "== tri_attn PF_ATTN_GATE_WG=$m round $1" >> $S
    PF_ATTN_GATE_WG=$m timeout -k 5 80 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 1024,2048 --reps 5 2>&1 |
      grep '^{' | cut -c1-140 >> $S
  done
}
checks() {  # the five correctness programs at once, each within what is left of L
  local c=$((L - (SECONDS - t0) - 30)) MC="compute-sanitizer --tool memcheck --error-exitcode 3"
  [ $c -le 230 ] || c=230
  run tmow $c $T --only trimul_outw
  run tmow_mc $c $MC $T --quick --only trimul_outw
  run agw $c $T --only attn_gate_wg
  run agw_mc $c $MC $T --quick --only attn_gate_wg
  run big_modules $c $T --only big_modules
  wait
  echo "== correctness done at $((SECONDS - t0)) s" >> $S
  report tmow tmow_mc agw agw_mc big_modules
  if grep -q FAIL $OUT/big_modules.log && left $((L - 90)); then
    PF_BIG_MODULE_N=4000 timeout -k 5 90 $T --only big_modules > $OUT/big_modules_4000.log 2>&1
    echo "rc=$?" >> $OUT/big_modules_4000.log; report big_modules_4000
  fi
}
# CHECK_FIRST=1 (a short call, e.g. CALL_LIMIT=200): the correctness programs before any timing
if [ -n "${CHECK_FIRST:-}" ]; then checks; else timing 1 $((L * 45 / 100)); echo "== round 1 done at $((SECONDS - t0)) s" >> $S; checks; fi
timing 2 $((L - 70))
left $((L - 40)) && ncu_rows tm 60 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
