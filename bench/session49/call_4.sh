#!/usr/bin/env bash
# Session 49, call 4 (any card; carry [".devpack"]): call 2's steps (bench/session49/call_2.sh) on k_tm_gdw with its
# depth halves' exchange swizzled (call 3's ncu: 8-way shared-memory conflicts, ~1800 wavefronts a tile).
exec bash bench/session49/call_2.sh
