#!/usr/bin/env bash
# Session 32, call 7 (carry [".devpack"]; the payload of call 3 = the final code): 20 AF3 trunk training steps at crop
# 768 (issue 11: <= 2 s) with the lazy max (unset) and with PF_ATTN_FWD_LAZY=0, one after the other (LAZY_VALUES:
# the list, d for unset; the first run of call 7 left /tmp/trunk_768 behind, so its second stopped: rerun with
# LAZY_VALUES=0).
set -u
OUT0=$OUT
for m in ${LAZY_VALUES:-d 0}; do  # d: unset (the default step)
  [ "$m" = d ] && m=""
  rm -rf /tmp/trunk_768 /tmp/trunk_768.jsonl  # the trunk stage's run directory (pairfold refuses a non-empty one)
  mkdir -p $OUT0/t${m:-d}
  PF_ATTN_FWD_LAZY=$m OUT=$OUT0/t${m:-d} STAGES=trunk TRUNK_N=768:1:20 TRUNK_LIMIT=150 bash bench/device_all.sh > $OUT0/device_all_${m:-d}.log 2>&1
  echo "== PF_ATTN_FWD_LAZY=${m:-unset}" >> $OUT0/summary.txt
  cat $OUT0/t${m:-d}/summary.txt >> $OUT0/summary.txt
done
cd $OUT0 && tar czf logs.tgz t* *.log 2>/dev/null; rm -rf t* *.log
cat $OUT0/summary.txt
