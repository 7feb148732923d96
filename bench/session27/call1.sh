#!/usr/bin/env bash
# Session 27 call 1 (carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" of main with the __syncwarp()
# after k_two's ring refill and PF_CUDA_WATCH): test_cuda's transition cases (the watchdog and the each-alone cases,
# first GPU run) beside the crop-768 AF3 training step of session 26's hang with both fused transition kernels on for 20
# steps; if it hangs again, PF_CUDA_WATCH names the kernel; if not, both off for the same-call step time, each alone
# for 20 steps, and the block at 512 / 1024 both on vs off (issue 11's 2x at 512).
. bench/device_common.sh
run transition 240 stdbuf -oL $T --only transition
TR="$P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
    --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 --set recompute_keep_attn=1"
# train NAME SECONDS STEPS ENV...: one run under a hard kill, its exit status and last logged step in the summary
train() {
    local name=$1 lim=$2 steps=$3; shift 3; local t0=$SECONDS
    timeout -s KILL $lim env "$@" stdbuf -oL $TR --steps $steps --out /tmp/$name --log $OUT/$name.jsonl > $OUT/$name.log 2>&1
    local rc=$?
    echo "== $name ($*) $steps steps: rc=$rc ($((SECONDS - t0)) s): $(grep -h '^step' $OUT/$name.log | tail -1 | cut -c1-160)" >> $S
    grep -h "watch\|CUDA error\|error" $OUT/$name.log | head -3 >> $S
    return $rc
}
echo "== PF_CUDA_WATCH=abc: $(PF_CUDA_WATCH=abc timeout 60 $TR --steps 1 --out /tmp/bad 2>&1 | tail -1) (rc ${PIPESTATUS[0]})" >> $S
if ! train both 170 20 PF_TR_WGO=1 PF_TR_WGB=1; then
    train both_watch 240 6 PF_TR_WGO=1 PF_TR_WGB=1 PF_CUDA_WATCH=45
    tail -n 5 $OUT/both_watch.log >> $S
else
    train off 80 10 PF_TR_WGO=0 PF_TR_WGB=0
    train wgo 110 20 PF_TR_WGO=1 PF_TR_WGB=0
    train wgb 110 20 PF_TR_WGO=0 PF_TR_WGB=1
    B="$P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --reps 7"
    for i in 1 2; do for v in 11 00; do for n in 512 1024; do
        echo "== block n=$n WGO/WGB=$v: $(PF_TR_WGO=${v:0:1} PF_TR_WGB=${v:1:1} timeout 60 $B --n $n 2>&1 | tail -1)" >> $S
    done; done; done
fi
wait
report transition
cat $S
