#!/usr/bin/env bash
# Session 42's last-resort call (the device time left after refused starts allowed ~200 s): the correctness of
# sessions 40-41's opt-in forms on a GPU first (test_cuda --only trimul_outw and --only attn_gate_wg, with and without
# memcheck, at once), then trimul f+b at 1024 with the default and DWZ once each, if time is left (CALL_LIMIT s).
. bench/device_common.sh
t0=$SECONDS; L=${CALL_LIMIT:-200}
c=$((L - 60))
MC="compute-sanitizer --tool memcheck --error-exitcode 3"
run tmow $c $T --only trimul_outw
run tmow_mc $c $MC $T --quick --only trimul_outw
run agw $c $T --only attn_gate_wg
run agw_mc $c $MC $T --quick --only attn_gate_wg
wait
echo "== correctness done at $((SECONDS - t0)) s" >> $S
report tmow tmow_mc agw agw_mc
for v in "BWG=2" "DWZ=1" "BWG=3"; do
  [ $((SECONDS - t0)) -lt $((L - 25)) ] || break
  echo "== trimul PF_TRIMUL_OUTW_$v" >> $S
  env PF_TRIMUL_OUTW_$v timeout -k 5 20 $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 5 2>&1 | grep '^{' | cut -c1-140 >> $S
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
