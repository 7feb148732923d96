#!/usr/bin/env bash
# Session 52: one call for whichever card comes (no kind named; carry [".devpack", ".cueq"]): on an H200 the
# acceptance figures (bench/session51/call_1.sh), on any other sm_90 card the checks before PF_ATTN_FWD_BMMA=3
# becomes the default (validate3.sh).
if nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    CALL_LIMIT=${CHECK_LIMIT:-560} bash bench/session52/validate3.sh
fi
