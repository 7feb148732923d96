#!/usr/bin/env bash
# Session 22 call 3: the block f+b issued launch by launch against replays of a recorded pass (bench --graph),
# alternating, N = 512 and 1024, 7 reps each, two rounds.
. bench/device_common.sh
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for g in "" --graph; do for n in 512 1024; do
    echo "== n=$n $g" >> $S; timeout 120 $B --n $n $g 2>&1 | tail -2 >> $S
done; done; done
cat $S
