#!/usr/bin/env bash
# Session 51: one call for whichever card comes (no kind named; carry [".devpack", ".cueq"]): on an H200 the
# acceptance figures (call_1.sh), on an H100 the TMA forward experiment (tma_ab.sh).
if nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    CALL_LIMIT=${AB_LIMIT:-400} bash bench/session51/tma_ab.sh
fi
