#!/usr/bin/env bash
# For session 27's first call (carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" of main after
# session 26): the new test cases and the watchdog, then the crop-768 training hang of session 26 (NOTES "Session 26")
# reproduced with the fused transition kernels on, launches blocking so that the watchdog's trap (20 s in an
# mbarrier wait) is reported by the failing launch's own check; then each kernel alone for 20 steps.
. bench/device_common.sh
run transition 200 stdbuf -oL $T --only transition
wait
report transition
TR="$P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1"
t0=$SECONDS
PF_TR_WGO=1 PF_TR_WGB=1 CUDA_LAUNCH_BLOCKING=1 timeout -s KILL 120 stdbuf -oL $TR --steps 3 --out /tmp/h11 \
    --log $OUT/h11.jsonl > $OUT/h11.log 2>&1
echo "== both on, launches blocking: rc=$? ($((SECONDS - t0)) s)" >> $S; tail -n 6 $OUT/h11.log >> $S
for v in "PF_TR_WGO=0 PF_TR_WGB=1" "PF_TR_WGO=1 PF_TR_WGB=0"; do
    t0=$SECONDS; n=$(echo $v | tr ' =' '__')
    timeout -s KILL 110 env $v stdbuf -oL $TR --steps 20 --out /tmp/a$n --log $OUT/a$n.jsonl > $OUT/a$n.log 2>&1
    echo "== $v 20 steps rc=$? ($((SECONDS - t0)) s): $(grep -h '^step' $OUT/a$n.log | tail -1)" >> $S
done
cat $S
