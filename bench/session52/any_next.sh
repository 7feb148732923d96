#!/usr/bin/env bash
# After session 52: one call for whichever card comes (carry [".devpack", ".cueq"]): on an H200 the acceptance figures
# (bench/session51/call_1.sh, on the current defaults), elsewhere next_call.sh (memcheck and timing of session 52's
# new attention defaults).
if nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=${H200_LIMIT:-560} bash bench/session51/call_1.sh
else
    CALL_LIMIT=${CHECK_LIMIT:-560} bash bench/session52/next_call.sh
fi
