#!/usr/bin/env bash
# Session 43's call E (carry [".devpack", ".cueq"]): the build with PF_TRIMUL_OUTW_DWZ=1 and PF_ATTN_GATE_WG=3 as the
# defaults and the fixed trimul_outw test: test_cuda --only trimul_outw and --only attn_gate_wg with nothing set, the
# new defaults against the old ones (set by the environment) two rounds, then the block against PyTorch +
# cuEquivariance at BLOCK_N; call_a.sh's groups-only form. NOTES "Open / next" 0 for an H200:
# `CALL_LIMIT=560 BLOCK_N=512,1024,1536,2048 bash bench/session43/call_e.sh`.
CALL_LIMIT=${CALL_LIMIT:-520} CHECKS=groups FORMS= ALT="PF_TRIMUL_OUTW_DWZ=0 PF_ATTN_GATE_WG=1" AB_STOP=200 \
    exec bash "$(dirname "$0")/call_a.sh"
