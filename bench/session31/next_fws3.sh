#!/usr/bin/env bash
# For a later session's first device call (carry [".devpack"]): k_fwd_ws with 3 consumer warpgroups
# (bench/session31/fws3.patch, written after session 31's device budget, never run: no spills at
# setmaxnreg 56 / 152). Here, before the call:
#   git apply bench/session31/fws3.patch
#   make CUDA=1 MPI=0 BUILD=build/devpack build/devpack/attn_fwd_check && echo built   # check it said built
#   mkdir -p .devpack && xz -T2 -6 -c build/devpack/attn_fwd_check > .devpack/attn_fwd_check.xz
# then this script: call4.sh's checks against the fp32 reference, timing against k_s9_fwd_bmma2 (variant 6;
# the 2-consumer form measured 3.364-3.367 ms at N = 1024 against 3.211-3.254) and ncu source counters.
VARIANTS=6,7 exec bash bench/session31/call4.sh
