#!/usr/bin/env bash
# Session 35, call 7 (carry [".devpack"], call 6's payload: the final code): where the kernel time goes now, for the
# next session: ncu per launch (kernel and grid: bench/ncu_launches.py) of the AF2 blocks at N = 384 and of the AF3
# Pairformer block at N = 1024 (`pairfold bench ... --reps 1`: warm-ups included, so per-pass figures are the rows
# divided by the passes the command ran).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
timeout -k 5 130 $NCU --clock-control none $M $P/pairfold bench --preset af2 --device cuda --n 384 --reps 1 > $OUT/ncu_af2.log 2>&1
echo "== ncu af2 blocks 384 rc=$? (whole command)" >> $S
python3 bench/ncu_launches.py $OUT/ncu_af2.log --top 30 >> $S 2>&1
timeout -k 5 170 $NCU --clock-control none $M $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 1024 --reps 1 \
    > $OUT/ncu_pf1024.log 2>&1
echo "== ncu af3 Pairformer block 1024 rc=$? (whole command)" >> $S
python3 bench/ncu_launches.py $OUT/ncu_pf1024.log --top 40 >> $S 2>&1
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
