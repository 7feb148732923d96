#!/usr/bin/env bash
# Session 54, call 1 (kind nvidia-h200 without needs_h200; carry [".devpack", ".cueq"]; payload BINS="pairfold
# test_cuda bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh with k_s9_fwd_mbar): on an H200 the
# acceptance figures of issues 10 / 11 on the current defaults (bench/session51/call_1.sh), else the checks and
# timings session 53 could not run (bench/session53/call_2.sh: memcheck of the TMA kernels, --quick --only attn,
# parity, k_bwd_dbias_wg against the default, the whole test_cuda in 4 shards), with session 54's k_s9_fwd_mbar
# (PF_ATTN_FWD_BMMA=5: the forward without its per-tile block barrier) and k_s9_fwd_rows (=6: 3 rows a block sharing
# each bias tile) in the timing rounds and under ncu.
nvidia-smi -L | head -1
if nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    AB_MORE="PF_ATTN_FWD_BMMA=5 PF_ATTN_FWD_BMMA=6" AB_SECS=${AB_SECS:-170} \
        NCU_MORE="fwd_mbar:PF_ATTN_FWD_BMMA=5 fwd_rows:PF_ATTN_FWD_BMMA=6" \
        CALL_LIMIT=${CHECK_LIMIT:-540} bash bench/session53/call_2.sh
fi
