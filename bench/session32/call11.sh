#!/usr/bin/env bash
# Session 32, call 11 (carry [".devpack"] with the payload of call 3 and afc_old.xz = attn_fwd_check of 479390d, before
# the lazy max): PF_ATTN_FWD_LAZY=0 against the old kernels, bit for bit by the printed errors of attn_fwd_check
# --quick (the cases both binaries have; identical lines = identical outputs to the printed digits), and a bad value
# of the variable (a clear error, exit status 2). (As run, the summary took the last line of the bad runs' logs; the
# message is their first line: grep since.)
. bench/device_common.sh
xz -dc .devpack/afc_old.xz > /tmp/afc_old && chmod +x /tmp/afc_old
timeout 120 /tmp/afc_old --quick --variants 5,6 > $OUT/old.log 2>&1; echo "old rc=$?" >> $S
PF_ATTN_FWD_LAZY=0 timeout 120 $P/attn_fwd_check --quick --variants 5,6 > $OUT/new0.log 2>&1; echo "new LAZY=0 rc=$?" >> $S
timeout 120 $P/attn_fwd_check --quick --variants 5,6 > $OUT/new8.log 2>&1; echo "new default rc=$?" >> $S
# the per-case lines of the cases in the old list (the new one adds the bias=2 ramp cases at the end)
for f in old new0 new8; do awk '/^case .*bias=2/{skip=1} /^case /&&!/bias=2/{skip=0} !skip' $OUT/$f.log | grep -E "^case|^  (bmma|bmma2) " > $OUT/$f.cases; done
echo "== old vs LAZY=0: $(wc -l < $OUT/old.cases) lines, $(diff $OUT/old.cases $OUT/new0.cases | grep -c '^[<>]') differ" >> $S
echo "== old vs default (step 8): $(diff $OUT/old.cases $OUT/new8.cases | grep -c '^[<>]') lines differ" >> $S
diff $OUT/old.cases $OUT/new8.cases | head -6 >> $S
PF_ATTN_FWD_LAZY=abc timeout 60 $P/attn_fwd_check --quick --variants 6 > $OUT/bad.log 2>&1; echo "== PF_ATTN_FWD_LAZY=abc rc=$?: $(grep -m1 PF_ATTN_FWD_LAZY $OUT/bad.log)" >> $S
PF_ATTN_FWD_LAZY=65 timeout 60 $P/attn_fwd_check --quick --variants 6 > $OUT/bad2.log 2>&1; echo "== PF_ATTN_FWD_LAZY=65 rc=$?: $(grep -m1 PF_ATTN_FWD_LAZY $OUT/bad2.log)" >> $S
cat $S
