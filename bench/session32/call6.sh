#!/usr/bin/env bash
# Session 32, call 6 (carry [".devpack"] with bwold.xz (066d8b1) and dbnew.xz: attn_bwd_check with k_bwd_dbias_pipe's
# unmasked rows taking -lse log2e once per query (the same bits)): --check of both (errors identical line for line;
# it also requires every bias-gradient variant to give the default's bits), then the bias-gradient pass and the
# whole backward timed, alternating, two rounds.
S=$OUT/summary.txt
nvidia-smi -L > $S
for b in bwold dbnew; do xz -dc .devpack/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
for b in bwold dbnew; do
  timeout -k 5 200 /tmp/$b --check > $OUT/check_$b.log 2>&1; echo "rc=$?" >> $OUT/check_$b.log
  echo "== $b --check: $(grep -E 'passed' $OUT/check_$b.log | tail -1) $(tail -1 $OUT/check_$b.log)" >> $S
done
echo "== check outputs differ in $(diff $OUT/check_bwold.log $OUT/check_dbnew.log | grep -c '^[<>]') lines" >> $S
diff $OUT/check_bwold.log $OUT/check_dbnew.log | head -10 >> $S
for round in 1 2; do
  for b in bwold dbnew; do
    echo "== round $round $b --time 512,1024,2048 --reps 10 --variant fused.wg.dec.sa.alt" >> $S
    timeout -k 5 150 /tmp/$b --time 512,1024,2048 --reps 10 --variant fused.wg.dec.sa.alt > $OUT/time_${b}_$round.log 2>&1
    grep -E "^(512|1024|2048) " $OUT/time_${b}_$round.log | grep -v " v1 " | sed "s/^/$b /" >> $S
  done
done
cat $S
