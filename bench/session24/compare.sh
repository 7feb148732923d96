#!/usr/bin/env bash
# Ran on branch fuseresid (PF_FUSE_RESID exists there only; the helper-written epilogue; 7f9fe34 has the later form).
# Session 24 call D (carry [".devpack", ".cueq"]): the block f+b with PF_FUSE_RESID=0 / 1 alternating at 512 and
# 1024, ncu kernel totals at 512 both ways, then the block against PyTorch + cuEquivariance in one run
# (compare_blocks.py --impl cueq, pairfold's replays as a second line).
. bench/device_common.sh
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
for i in 1 2; do for m in 0 1; do for n in 512 1024; do
    echo "== n=$n PF_FUSE_RESID=$m: $(PF_FUSE_RESID=$m timeout 120 $B --n $n 2>&1 | tail -1)" >> $S
done; done; done
for m in 0 1; do
    PF_FUSE_RESID=$m timeout 120 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
        $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512 --reps 1 > $OUT/ncu_f$m.log 2>&1
    echo "== ncu PF_FUSE_RESID=$m rc=$?" >> $S
    NCU_TOP=14 python3 bench/ncu_summary.py $OUT/ncu_f$m.log >> $S 2>&1
done
t0=$SECONDS
PYTHONPATH=/tmp/site timeout ${CQ_LIMIT:-300} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
    --n ${CQ_N:-512,1024,1536,2048} --reps 3 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
echo "== benchcq rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 16 $OUT/benchcq.log >> $S
cat $S
