#!/usr/bin/env bash
# Session 35, call 8 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of the review commit: the outer product mean's permute without its unused direction
# (cu_opm_perm_to_c) and k_colsum_part_v without an always-true test; the same arithmetic). The groups those touch:
# test_cuda --only opm (the op and its sharded entry) and --only transition (Linears with biases: the column sums),
# memcheck of the opm group (quick). The device budget left (~360 s with the start) allows no more.
. bench/device_common.sh
run opm 150 $T --only opm
run tr 150 $T --only transition
wait
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 60 $SAN --tool memcheck $T --quick --only opm > $OUT/san_opm.log 2>&1; echo "rc=$?" >> $OUT/san_opm.log
report opm tr san_opm
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
