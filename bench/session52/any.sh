#!/usr/bin/env bash
# Session 52: one call for whichever card comes (no kind named; carry [".devpack", ".cueq"]): on an H200 the
# acceptance figures (bench/session51/call_1.sh) when ACCEPT=1, else call_a.sh (session 52's TMA / cluster attention
# forms against the defaults, with their checks), on any sm_90 card.
if [ -n "${ACCEPT:-}" ] && nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    CALL_LIMIT=${CHECK_LIMIT:-580} bash bench/session52/call_a.sh
fi
