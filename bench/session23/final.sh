#!/usr/bin/env bash
# Session 23's last call (carry [".devpack", ".cueq"]): the block f+b with LN_out variant 2 against 3 (PF_TM_LN_CM,
# alternating, 512 and 1024), the triangle modules alone (bench_cuda_ops, pairfold side), then the block against
# PyTorch + cuEquivariance in one run (compare_blocks.py --impl cueq, with pairfold's replays as a second line).
. bench/device_common.sh
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 2 3; do for n in 512 1024; do
    echo "== n=$n PF_TM_LN_CM=$m: $(PF_TM_LN_CM=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
for m in 2 3; do
    PF_TM_LN_CM=$m timeout 100 $P/bench_cuda_ops --ops trimul,tri_attn --sizes 512,1024,2048 --reps 5 > $OUT/ops_pf$m.log 2>&1
    echo "== ops PF_TM_LN_CM=$m rc=$?" >> $S; grep -v '^{' $OUT/ops_pf$m.log | tail -n 8 >> $S
done
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-300} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024,1536,2048} --reps 3 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 16 $OUT/benchcq.log >> $S
cat $S
