#!/usr/bin/env bash
# Session 63's short call (under ~450 s of device time left; carry [".devpack"], payload of session 63's code;
# CALL_LIMIT s, default 300). call_1.sh's items in brief: PF_ATTN_FWD_FX=1 (with and without session 61's AO + SB)
# checked against the CPU reference (test_cuda `--mode bf16 --only attn_bwd_wg`, `--quick --only attn.1` with all
# three exported) and under memcheck (`--only attn_bwd_wg_small`, all three exported); k_s9_fwd_half a launch at 1024
# under ncu (the default, FX, FX + AO + SB); the starting node's module at 1024 / 2048 under the same three, two
# rounds taking turns; on an H200 first the starting node and trimul, one round.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-300}
FX="PF_ATTN_FWD_FX=1"
ALL="PF_ATTN_FWD_FX=1 PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"
run bwg 120 stdbuf -oL $T --mode bf16 --only attn_bwd_wg
run all_a1 120 env $ALL stdbuf -oL $T --mode bf16 --quick --only attn.1
run all_mc 130 env $ALL stdbuf -oL compute-sanitizer --tool memcheck --error-exitcode 9 $ATTN_KNS $T --mode bf16 --only attn_bwd_wg_small
checks_report bwg all_a1 all_mc
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 1 $((L - 130)) 60 tri_attn 1024,2048 ""
    ab_env 1 $((L - 120)) 50 trimul 1024,2048 ""
fi
for cfg in "" "$FX" "$ALL"; do
    [ $((SECONDS - t0)) -lt $((L - 80)) ] || break
    n=k$(echo "$cfg" | sed 's/PF_ATTN_FWD_//g; s/=1//g; s/ //g' | tr 'A-Z' 'a-z')
    (for w in $cfg; do export "$w"; done; ncu_rows $n 25 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1)
done
ab_env 2 $((L - 15)) 40 tri_attn 1024,2048 "" "$FX" "$ALL"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
