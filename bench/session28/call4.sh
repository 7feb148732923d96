#!/usr/bin/env bash
# Session 28 call 4 (carry [".devpack", ".cueq"]): the bias gradient's row ranges chosen by whole waves
# (fa_dbias_splits, cu_flash_tc.cu) against the previous rule's counts forced by PF_ATTN_DBIAS_SPLITS (triangle
# module f+b, alternating; 768 and 1536 once); then test_cuda's attention cases (4 shards) and blocksmall on the new rule;
# then the block against PyTorch + cuEquivariance at 512. ~260 s.
. bench/device_common.sh
echo "== tri_attn f+b / forward ms: new rule (0) against the old rule's count" >> $S
for pass in 1 2; do
    L="512:8 1024:2"; [ $pass = 1 ] && L="$L 768:4 1536:1"
    for e in $L; do
        n=${e%:*}; o=${e#*:}
        for sp in 0 $o; do
            PF_ATTN_DBIAS_SPLITS=$sp timeout 60 $P/bench_cuda_ops --ops tri_attn --sizes $n --reps 5 2>&1 | grep '^{' |
                python3 -c "import json,sys
for l in sys.stdin:
    d=json.loads(l); print('splits $sp', d['N'], d['fwdbwd_ms'], d['fwd_ms'])" >> $S
        done
    done
done
for k in 0 1 2 3; do run attn$k 150 $T --only attn --shard $k/4; done
run blocksmall 150 $T --only blocksmall
wait
report attn0 attn1 attn2 attn3 blocksmall
cueq_blocks 512 5 90
cat $S
