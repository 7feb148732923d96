#!/usr/bin/env bash
# After session 61 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`; CALL_LIMIT s, default 540, CHECK_LIMIT s for the checks, default 200).
# Session 61's two opt-in forms of k_s9_fwd_half, written after its last GPU call (the emulator gives both the
# default's bits): PF_ATTN_FWD_AO=1 (its ldmatrix offsets held in registers) and PF_ATTN_FWD_SB=1 (no block barrier a
# tile: only warp 0 waits for the others before the refill, each warp its own mask terms).
# 1. checks in parallel, each form and both exported, against the CPU reference: test_cuda `--mode bf16 --only
#    attn_bwd_wg` and `--quick --only attn.1`; memcheck and synccheck of `--only attn_bwd_wg_small` with both, only
#    the TMA / wgmma attention kernels instrumented (session 61's call 2 filters);
# 2. on an H200 (none since session 39) the acceptance figures: the starting node three rounds, trimul three rounds,
#    the ending node, the block against cuEquivariance (carry .cueq);
# 3. k_s9_fwd_half a launch at 1024 (ncu) under the four combinations, then the starting node's module at 1024 /
#    2048 under them, three rounds.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
b=${CHECK_LIMIT:-200}
K=""
for k in k_s9_fwd_half k_bwd_ws_tma k_bwd_dbias_wg k_attn_lnproj_wg k_attn_gate k_tm_gdw; do K="$K --kernel-name kns=$k"; done
MC="compute-sanitizer --tool memcheck --error-exitcode 9 $K"
names=""
for cfg in "AO" "SB" "AO SB"; do
    n=$(echo $cfg | tr -d ' ' | tr 'A-Z' 'a-z')
    E=$(for w in $cfg; do printf 'PF_ATTN_FWD_%s=1 ' $w; done)
    run ${n}_bwg $b env $E stdbuf -oL $T --mode bf16 --only attn_bwd_wg
    run ${n}_a1 $b env $E stdbuf -oL $T --mode bf16 --quick --only attn.1
    names="$names ${n}_bwg ${n}_a1"
done
run aosb_mc $b env PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1 stdbuf -oL $MC $T --mode bf16 --only attn_bwd_wg_small
run aosb_sc $b env PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1 stdbuf -oL ${MC/memcheck/synccheck} $T --mode bf16 --only attn_bwd_wg_small
checks_report $names aosb_mc aosb_sc
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 3 $((L - 220)) 70 tri_attn 1024,2048 ""
    ab_env 3 $((L - 200)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 180)) 70 tri_attn_end 1024,2048 ""
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 170 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 150))
fi
for cfg in "" "PF_ATTN_FWD_AO=1" "PF_ATTN_FWD_SB=1" "PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"; do
    [ $((SECONDS - t0)) -lt $((L - 100)) ] || break
    n=k$(echo "$cfg" | sed 's/PF_ATTN_FWD_//g; s/=1//g; s/ //g' | tr 'A-Z' 'a-z')
    (for w in $cfg; do export "$w"; done; ncu_rows $n 40 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1)
done
ab_env 3 $((L - 30)) 70 tri_attn 1024,2048 "" "PF_ATTN_FWD_AO=1" "PF_ATTN_FWD_SB=1" "PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
