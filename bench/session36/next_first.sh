#!/usr/bin/env bash
# Written in session 36 for the next session's first call (carry [".devpack"]; payload `BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`): PF_TRIMUL_OUTB_TEAMS=4 (opt-in, faster in session 36 call 7)
# through the whole test_cuda and parity, then trimul f+b with 2 / 4 teams alternating, three rounds. If it holds,
# make 4 the default (cu_trimul_outb.cu ob_teams: cu_env_int's default argument) and say so in NOTES.md.
. bench/device_common.sh
PF_TRIMUL_OUTB_TEAMS=4 parity_shards 260
for r in 1 2 3; do
  for tm in 2 4; do
    echo "== trimul TEAMS=$tm round $r" >> $S
    PF_TRIMUL_OUTB_TEAMS=$tm timeout -k 5 100 $P/bench_cuda_ops --ops trimul --sizes 512,1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 3 | cut -c1-120 >> $S
  done
done
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -f *.log
cat $S
