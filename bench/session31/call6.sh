#!/usr/bin/env bash
# Session 31, call 6 (carry [".devpack"]): call4.sh's checks, timing and ncu on a payload of k_fwd_ws
# v4 (v3 + the bias rows by bulk copies counted on the full barrier; reverted).
exec bash bench/session31/call4.sh
