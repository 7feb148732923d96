#!/usr/bin/env bash
# Session 31, call 5 (carry [".devpack"]): call4.sh's checks, timing and ncu on a payload of k_fwd_ws
# v3 (producer addresses per item, conflict-free K / V writes, sleeping mbarrier waits).
exec bash bench/session31/call4.sh
