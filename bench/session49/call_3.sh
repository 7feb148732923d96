#!/usr/bin/env bash
# Session 49, call 3 (any card; carry [".devpack"]): call 2's steps (bench/session49/call_2.sh) on k_tm_gdw with
# whole 128-byte lines per warp copy (gdw_load: call 2's ncu had L2 92% busy at 1.2 TB/s), dzl's old values loaded
# a tile ahead in 16-byte chunks and the finished dzl stored the same way through shared memory.
exec bash bench/session49/call_2.sh
