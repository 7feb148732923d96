#!/usr/bin/env bash
# Session 32, call 9 (carry [".devpack"]: the payload of call 3 and q3.xz = attn_fwd_check with k_s9_fwd_bmma2's Q
# fragments loaded once per block and held across the key loop (168 registers, no spills; bench/session32/qhold.patch)):
# checks (bmma2 must keep bmma's bits), then variant 6 timed against the payload's, alternating, two rounds.
. bench/device_common.sh
xz -dc .devpack/q3.xz > /tmp/q3 && chmod +x /tmp/q3
echo "== q3 attn_fwd_check --quick --variants 5,6" >> $S
timeout 120 /tmp/q3 --quick --variants 5,6 2>&1 | grep -E "^FAIL|passed," | head -8 >> $S
for round in 1 2; do
  for b in $P/attn_fwd_check /tmp/q3; do
    echo "== round $round $(basename $b) --variants 6 --reps 7" >> $S
    timeout 120 $b --variants 6 --reps 7 2>&1 | grep -E "^time" >> $S
  done
done
cat $S
