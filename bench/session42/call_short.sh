#!/usr/bin/env bash
# Session 42's last-resort call (~200 s of device time left after refused starts): call1.sh with the correctness
# programs first, then timing in the time left. (What session 42 ran at its commit 1781eef: the trimul_outw and
# attn_gate_wg groups with their memchecks, then trimul at 1024 with BWG 2, DWZ, BWG 3; call_short_summary.txt.)
CHECK_FIRST=1 CALL_LIMIT=${CALL_LIMIT:-200} exec bash "$(dirname "$0")/call1.sh"
