#!/usr/bin/env bash
# Session 27 last call (carry [".devpack"]; payload of main with the __syncwarp() hardening of five wgmma kernels): the
# test_cuda groups that run them, in parallel, --quick (the budget's last seconds); each log's verdict as it ends.
. bench/device_common.sh
for g in trimul_wgp trimul_sgwgp attn_gate_wg transition blocksmall; do run $g 150 $T --only $g --quick; done
wait
report trimul_wgp trimul_sgwgp attn_gate_wg transition blocksmall
cat $S
