#!/usr/bin/env bash
# Session 22 call 2: cuBLASLt's first 16 heuristic algorithms timed per GEMM shape of one Pairformer block f+b at
# N = 512 and 1024 (PF_GEMM_PROBE=1, src/cuda/cu_gemm.cu), logs in $OUT/probe_N.log.
. bench/device_common.sh
for n in 512 1024; do
    PF_GEMM_PROBE=1 timeout 200 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n $n --reps 1 \
        > $OUT/probe_$n.log 2>&1
    echo "n=$n rc=$?" >> $S
done
cat $S
