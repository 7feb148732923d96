#!/usr/bin/env bash
# Session 32, call 2 (carry [".devpack"] with lazy8.xz and lazy0.xz: attn_fwd_check built with the
# forward's lazy reference max (S9_LAZY 8, the new code) and with S9_LAZY=0 (every tile's max, the
# arithmetic before). Checks of both (fp32 reference, the ramp cases whose max moves mid-row,
# bmma2 = bmma bits), then timing of k_s9_fwd_bmma2 (variant 6) and k_s9_fwd_bmma (5), the two
# builds alternating twice.
S=$OUT/summary.txt
nvidia-smi -L > $S
for b in lazy8 lazy0; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in lazy8 lazy0; do
  echo "== $b attn_fwd_check --quick --variants 0,5,6" >> $S
  timeout -k 5 150 /tmp/$b --quick --variants 0,5,6 > $OUT/quick_$b.log 2>&1; echo "rc=$?" >> $OUT/quick_$b.log
  grep -E "^FAIL|passed|rc=" $OUT/quick_$b.log | head -20 >> $S
done
grep -E "bias=2" -A4 $OUT/quick_lazy8.log | grep -E "case|bmma" | head -24 >> $S
for round in 1 2; do
  for b in lazy0 lazy8; do
    echo "== round $round $b --variants 5,6 --reps 7" >> $S
    timeout -k 5 150 /tmp/$b --variants 5,6 --reps 7 > $OUT/time_${b}_$round.log 2>&1; echo "rc=$?" >> $OUT/time_${b}_$round.log
    grep -E "^time|FAIL|rc=" $OUT/time_${b}_$round.log >> $S
  done
done
cat $S
