#!/usr/bin/env bash
# Session 55, call 3 (any sm_90 card; carry [".devpack"]; payload as call_2.sh's) for a short budget (CALL_LIMIT
# seconds, default 250): call_2.sh's checks (filtered memcheck in bf16 mode, `--quick --only attn`, parity) and its
# ncu profile of k_s9_fwd_tma, without its timing round and shards.
# (Session 55's call 3 ran an earlier form of this with bc6565b's payload, before `test_cuda --mode`: its memcheck runs
# spent their 160 s in fp32 mode; bench/session55/call_3_summary.txt. Rebuild the payload for --mode.)
L=${CALL_LIMIT:-250}
NO_TIMING=1 NO_SHARDS=1 MC_LIMIT=${MC_LIMIT:-$((L - 90))} CALL_LIMIT=$L bash bench/session55/call_2.sh
