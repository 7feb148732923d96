#!/usr/bin/env bash
# Session 32, call 5 (carry [".devpack"] with bwold.xz and bwnew.xz: attn_bwd_check of 066d8b1 and of the working
# tree with k_bwd_ws's unmasked fast path for p (-lse log2e once per query where no key of the warp's is masked)):
# --check of both (the printed errors must match line for line: the same bits), then the default backward pass
# (mode 4, fused.wg.dec.sa.alt) timed, alternating, two rounds. NEW: the new binary's name (call 6: dbnew).
NEW=${NEW:-bwnew}
S=$OUT/summary.txt
nvidia-smi -L > $S
for b in bwold $NEW; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in bwold $NEW; do
  timeout -k 5 200 /tmp/$b --check > $OUT/check_$b.log 2>&1; echo "rc=$?" >> $OUT/check_$b.log
  echo "== $b --check: $(grep -E 'passed' $OUT/check_$b.log | tail -1) $(tail -1 $OUT/check_$b.log)" >> $S
done
echo "== check outputs differ in $(diff $OUT/check_bwold.log $OUT/check_$NEW.log | grep -c '^[<>]') lines" >> $S
diff $OUT/check_bwold.log $OUT/check_$NEW.log | head -10 >> $S
for round in 1 2; do
  for b in bwold $NEW; do
    echo "== round $round $b --time 512,1024,2048 --reps 10 --variant fused.wg.dec.sa.alt" >> $S
    timeout -k 5 150 /tmp/$b --time 512,1024,2048 --reps 10 --variant fused.wg.dec.sa.alt > $OUT/time_${b}_$round.log 2>&1
    grep -E "^(512|1024|2048) " $OUT/time_${b}_$round.log | grep -v " v1 " | sed "s/^/$b /" >> $S
  done
done
cat $S
