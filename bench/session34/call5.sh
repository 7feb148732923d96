#!/usr/bin/env bash
# Session 34, call 5 (carry [".devpack"], call 4's payload: the final code): where the AF2 blocks' time goes, for the
# next session: ncu per launch (kernel and grid, bench/ncu_launches.py) of `pairfold bench --preset af2 --n 384`
# (Evoformer and extra-MSA blocks, 128 MSA rows; the whole command: warm-ups and the timed passes).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout -k 5 200 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  $P/pairfold bench --preset af2 --device cuda --n 384 --reps 1 > $OUT/ncu_af2.log 2>&1
echo "== ncu af2 384 rc=$? (whole command)" >> $S
grep -E "^(evoformer|extra_msa) " $OUT/ncu_af2.log >> $S
python3 bench/ncu_launches.py $OUT/ncu_af2.log --top 45 >> $S 2>&1
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
