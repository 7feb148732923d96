#!/usr/bin/env bash
# Session 23's confirmation of the final code (after variant 3 and the 6-stage bias backward were taken out):
# the attention group in 4 shards, blocksmall, model and core, in parallel, cut at TL s.
. bench/device_common.sh
TL=${TL:-200}
for k in 0 1 2 3; do run attn$k $TL stdbuf -oL $T --only attn --shard $k/4; done
for g in blocksmall model core; do run $g $TL stdbuf -oL $T --only $g; done
wait
report attn0 attn1 attn2 attn3 blocksmall model core
cat $S
