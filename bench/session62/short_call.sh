#!/usr/bin/env bash
# Session 62's short call (~300 s of device time left; carry [".devpack"], payload of the session's start; CALL_LIMIT
# s, default 300). Session 61's AO and SB forms of k_s9_fwd_half together (the candidate default) and each alone:
# 1. AO + SB against the CPU reference (test_cuda `--mode bf16 --only attn_bwd_wg`, `--quick --only attn.1`) and
#    memcheck of `--only attn_bwd_wg_small` with the TMA / wgmma attention kernels instrumented, in parallel;
# 2. on an H200 issue 10 / 11's acceptance figures (the starting node, trimul: two rounds each; the ending node);
# 3. k_s9_fwd_half a launch at 1024 (ncu): the default, AO + SB, AO, SB;
# 4. the starting node's module at 1024 / 2048, the default against AO + SB, taking turns.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-300}
K=""
for k in k_s9_fwd_half k_bwd_ws_tma k_bwd_dbias_wg k_attn_lnproj_wg k_attn_gate k_tm_gdw; do K="$K --kernel-name kns=$k"; done
E="PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"
run aosb_bwg 120 env $E stdbuf -oL $T --mode bf16 --only attn_bwd_wg
run aosb_a1 120 env $E stdbuf -oL $T --mode bf16 --quick --only attn.1
run aosb_mc 120 env $E stdbuf -oL compute-sanitizer --tool memcheck --error-exitcode 9 $K $T --mode bf16 --only attn_bwd_wg_small
checks_report aosb_bwg aosb_a1 aosb_mc
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 2 $((L - 150)) 60 tri_attn 1024,2048 ""
    ab_env 2 $((L - 130)) 50 trimul 1024,2048 ""
    ab_env 1 $((L - 110)) 60 tri_attn_end 1024,2048 ""
fi
for cfg in "" "$E" "PF_ATTN_FWD_AO=1" "PF_ATTN_FWD_SB=1"; do
    [ $((SECONDS - t0)) -lt $((L - 75)) ] || break
    n=k$(echo "$cfg" | sed 's/PF_ATTN_FWD_//g; s/=1//g; s/ //g' | tr 'A-Z' 'a-z')
    (for w in $cfg; do export "$w"; done; ncu_rows $n 25 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1)
done
ab_env 3 $((L - 15)) 40 tri_attn 1024,2048 "" "$E"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
