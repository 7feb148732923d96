#!/usr/bin/env bash
# Session 32, call 6 (carry [".devpack"] with bwold.xz (066d8b1) and dbnew.xz: attn_bwd_check with k_bwd_dbias_pipe's
# unmasked rows taking -lse log2e once per query (the same bits)): call 5's checks and alternating timing with that
# binary (the dbias ms column is the bias-gradient pass; --check also requires every bias-gradient variant to give
# the default's bits).
NEW=dbnew exec bash bench/session32/call5.sh
