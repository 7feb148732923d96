#!/usr/bin/env bash
# Session 36, call 7 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): PF_TRIMUL_OUTB_TEAMS=4 (four teams of 4 warps, tiles of 32 positions) against 2 (the
# default; since call 5 the backward's LN_out partial sums sit in team 0's X buffers instead of its a1, which is 8.5 KB
# at 4 teams). --only trimul_outb with 4, then trimul f+b at 1024 / 2048 with 2 / 4, one round (the device budget's
# last ~280 s after two refused starts: no --only trimul shards, no second round).
. bench/device_common.sh
PF_TRIMUL_OUTB_TEAMS=4 timeout -k 5 120 $T --only trimul_outb > $OUT/outb4.log 2>&1; echo "rc=$?" >> $OUT/outb4.log
report outb4
for r in 1; do
  for tm in 2 4; do
    echo "== trimul TEAMS=$tm round $r" >> $S
    PF_TRIMUL_OUTB_TEAMS=$tm timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 3 | cut -c1-120 >> $S
  done
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
