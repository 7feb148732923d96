#!/usr/bin/env bash
# After session 61 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`; CALL_LIMIT s, default 540, CHECK_LIMIT s for the checks, default 200).
# 1. checks in parallel: `PF_ATTN_FWD_AO=1` (session 61, opt-in: k_s9_fwd_half with its ldmatrix offsets held; the
#    emulator gives its bits the default's) against the CPU reference: test_cuda `--mode bf16 --only attn_bwd_wg`
#    and `--quick --only attn.1`; memcheck of `--only attn_bwd_wg_small` with it, only the TMA / wgmma attention
#    kernels instrumented (session 61's call 2 filters);
# 2. on an H200 (none since session 39) the acceptance figures: the starting node three rounds, trimul three rounds,
#    the ending node, the block against cuEquivariance (carry .cueq);
# 3. k_s9_fwd_half a launch at 1024 (ncu) with AO 0 and 1, then the starting node's module at 1024 / 2048 with AO 0
#    and 1, three rounds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
b=${CHECK_LIMIT:-200}
K=""
for k in k_s9_fwd_half k_bwd_ws_tma k_bwd_dbias_wg k_attn_lnproj_wg k_attn_gate k_tm_gdw; do K="$K --kernel-name kns=$k"; done
MC="compute-sanitizer --tool memcheck --error-exitcode 9 $K"
PF_ATTN_FWD_AO=1 run ao_bwg $b stdbuf -oL $T --mode bf16 --only attn_bwd_wg
PF_ATTN_FWD_AO=1 run ao_a1 $b stdbuf -oL $T --mode bf16 --quick --only attn.1
PF_ATTN_FWD_AO=1 run ao_mc $b stdbuf -oL $MC $T --mode bf16 --only attn_bwd_wg_small
checks_report ao_bwg ao_a1 ao_mc
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 3 $((L - 220)) 70 tri_attn 1024,2048 ""
    ab_env 3 $((L - 200)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 180)) 70 tri_attn_end 1024,2048 ""
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 170 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 150))
fi
for ao in 0 1; do
    [ $((SECONDS - t0)) -lt $((L - 60)) ] || break
    export PF_ATTN_FWD_AO=$ao
    ncu_rows ao$ao 40 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
unset PF_ATTN_FWD_AO
ab_env 3 $((L - 30)) 70 tri_attn 1024,2048 "" "PF_ATTN_FWD_AO=1"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
