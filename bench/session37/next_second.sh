#!/usr/bin/env bash
# Written in session 37 for the call after next_first.sh (carry [".devpack"]): the whole test_cuda in 4 shards and
# the PyTorch parity with the opt-ins on (PF_TRIMUL_OUTW, default 2 here; PF_TRIMUL_OUTB_TEAMS, default 4 here;
# OUTW=0 / TEAMS=2 give the defaults), so that a default change rests on the whole suite. The big group in it runs
# the new trimul case past 2^31 elements (test_big_trimul: N 4100; also `--only big`). ~5 minutes.
. bench/device_common.sh
echo "== PF_TRIMUL_OUTW=${OUTW:-2} PF_TRIMUL_OUTB_TEAMS=${TEAMS:-4}" >> $S
PF_TRIMUL_OUTW=${OUTW:-2} PF_TRIMUL_OUTB_TEAMS=${TEAMS:-4} parity_shards 260
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -f *.log
cat $S
