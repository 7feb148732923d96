#!/usr/bin/env bash
# Session 35, call 7 (carry [".devpack"], call 6's payload: the final code): where the kernel time goes now, for the
# next session: ncu per launch (kernel and grid: bench/ncu_launches.py) of the AF2 blocks at N = 384 and of the AF3
# Pairformer block at N = 1024 (`pairfold bench ... --reps 1`: warm-ups included, so per-pass figures are the rows
# divided by the passes the command ran).
. bench/device_common.sh
ncu_rows af2 130 30 . $P/pairfold bench --preset af2 --device cuda --n 384 --reps 1
ncu_rows pf1024 170 40 . $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 1024 --reps 1
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
