#!/usr/bin/env bash
# Session 52: one call for whichever card comes (no kind named; carry [".devpack", ".cueq"]): on an H200 the
# acceptance figures (bench/session51/call_1.sh) when ACCEPT=1, else the TMA backward experiment with the checks
# before both TMA forms become the default (bwd_tma.sh), on any sm_90 card.
if [ -n "${ACCEPT:-}" ] && nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    CALL_LIMIT=${CHECK_LIMIT:-570} bash bench/session52/bwd_tma.sh
fi
