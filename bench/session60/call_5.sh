#!/usr/bin/env bash
# Session 60, call 5 (any sm_90 card; carry [".devpack"], payload of 139191e or later: PF_ATTN_PROJ_BWD and
# PF_ATTN_END_INPLACE the defaults in code): what call 2 could not check, in parallel (CHECK_LIMIT s, default 120):
# test_cuda --only blocksmall (the fixed PF_DW_ACC block check), attn_end_inplace, attn_proj_bwd, and `--mode bf16
# --quick --only attn.6` (the ending node's cases with the new defaults); then the triangle modules at 1024 with the
# defaults, one round (the new defaults must give call 1's figures: 15.12 / 15.74 ms on an H100).
. bench/device_common.sh
t0=$SECONDS
b=${CHECK_LIMIT:-120}
OMP_NUM_THREADS=4 run bsm $b stdbuf -oL $T --only blocksmall
OMP_NUM_THREADS=4 run eip $b stdbuf -oL $T --only attn_end_inplace
OMP_NUM_THREADS=4 run pbwd $b stdbuf -oL $T --only attn_proj_bwd
OMP_NUM_THREADS=4 run a6 $b stdbuf -oL $T --mode bf16 --quick --only attn.6
checks_report bsm eip pbwd a6
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 1 $((b + 60)) 40 tri_attn,tri_attn_end 1024 ""
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
