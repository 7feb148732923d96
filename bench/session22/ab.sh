#!/usr/bin/env bash
# Session 22 A/B: .devpack/base.tar.xz (main's kernels) against .devpack/payload.tar.xz (the change), one GPU,
# alternating block benchmarks, ncu kernel times of the named kernels, then test_cuda groups on the change.
# Variables: AB_N (sizes), AB_ROUNDS, AB_KERNELS (ncu regex), AB_TESTS (test_cuda --only groups)
. bench/device_common.sh
A=/tmp/pfa; mkdir -p $A && tar -C $A -xJf .devpack/base.tar.xz
for r in $(seq 1 ${AB_ROUNDS:-2}); do
    for n in ${AB_N:-512 1024}; do
        for v in base new; do
            b=$P/pairfold; [ $v = base ] && b=$A/pairfold
            echo "$v n=$n r=$r $(timeout 120 $b bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7 --n $n 2>&1 | tail -1)" >> $S
        done
    done
done
for v in base new; do
    b=$P/pairfold; [ $v = base ] && b=$A/pairfold
    timeout 120 ncu --clock-control none -k "regex:${AB_KERNELS:-k_trwg}" --print-summary per-kernel --metrics gpu__time_duration.sum \
        $b bench --preset af3 --device cuda --set n_msa_blocks=0 --n 1024 --reps 1 > $OUT/ncu_$v.log 2>&1
    echo "== ncu $v (N = 1024, warm-up + 1 rep)" >> $S
    NCU_TOP=8 python3 bench/ncu_summary.py $OUT/ncu_$v.log >> $S 2>&1
done
for g in ${AB_TESTS:-transition}; do
    timeout 200 $T --only $g > $OUT/test_$g.log 2>&1; echo "test_cuda --only $g rc=$?: $(grep 'passed,' $OUT/test_$g.log | tail -1)" >> $S
    grep -m3 FAIL $OUT/test_$g.log >> $S
done
cat $S
