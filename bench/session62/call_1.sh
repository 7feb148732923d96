#!/usr/bin/env bash
# Session 62, call 1 (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of the session's start; CALL_LIMIT s, default 540).
# On an H200 (none since session 39): issue 10 / 11's acceptance figures first (the starting node three rounds,
# trimul three rounds, the ending node, the block against PyTorch + cuEquivariance), then k_s9_fwd_half a launch at
# 1024 under ncu with session 61's AO / SB forms off and on (the core's TFLOP/s). Any other card: session 61's
# next_call.sh (the AO / SB checks against the CPU reference and under memcheck / synccheck, ncu, the module A/B).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
if ! nvidia-smi -L | grep -q H200; then
    CALL_LIMIT=$L exec bash bench/session61/next_call.sh
fi
ab_env 3 100 70 tri_attn 1024,2048 ""
ab_env 3 140 60 trimul 1024,2048 ""
ab_env 1 170 70 tri_attn_end 1024,2048 ""
echo "== cuEquivariance blocks from $((SECONDS - t0)) s" >> $S
cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 130))
for cfg in "" "PF_ATTN_FWD_AO=1" "PF_ATTN_FWD_SB=1" "PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"; do
    [ $((SECONDS - t0)) -lt $((L - 35)) ] || break
    n=k$(echo "$cfg" | sed 's/PF_ATTN_FWD_//g; s/=1//g; s/ //g' | tr 'A-Z' 'a-z')
    (for w in $cfg; do export "$w"; done; ncu_rows $n 30 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1)
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
