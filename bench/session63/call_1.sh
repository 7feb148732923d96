#!/usr/bin/env bash
# Session 63, call 1 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh` of session 63's code; CALL_LIMIT s, default 540; CHECK_LIMIT s, default 200).
# k_s9_fwd_half's opt-in forms, none timed yet: session 63's PF_ATTN_FWD_FX=1 (the reference max fixed after the
# first key tile: no row maxima in the loop, 1,055 against 1,632 SASS instructions a two-tile trip; other bits;
# blocks whose sums leave [2^-64, 2^64] work again with the default's arithmetic) and session 61's PF_ATTN_FWD_AO=1 /
# PF_ATTN_FWD_SB=1 (the default's bits).
# 1. checks in parallel against the CPU reference: test_cuda `--mode bf16 --only attn_bwd_wg` (FX 1 against the
#    reference, FX 2 against FX 0 bit for bit, AO / SB against the default, each form ran) with nothing and with FX
#    + AO + SB exported, `--quick --only attn.1` with FX and FX + AO + SB exported; memcheck and synccheck of
#    `--only attn_bwd_wg_small` with FX + AO + SB exported (the TMA / wgmma attention kernels instrumented);
# 2. on an H200 (none since session 39) issue 10 / 11's acceptance figures: the starting node and trimul two rounds,
#    the ending node, the block against PyTorch + cuEquivariance;
# 3. k_s9_fwd_half a launch at 1024 under ncu: the default, FX, FX + AO + SB, AO + SB;
# 4. the starting node's module at 1024 / 2048 under the same four, three rounds taking turns.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-540}
b=${CHECK_LIMIT:-200}
MC="compute-sanitizer --tool memcheck --error-exitcode 9 $ATTN_KNS"
FX="PF_ATTN_FWD_FX=1"
ALL="PF_ATTN_FWD_FX=1 PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"
run bwg $b stdbuf -oL $T --mode bf16 --only attn_bwd_wg
run all_bwg $b env $ALL stdbuf -oL $T --mode bf16 --only attn_bwd_wg
run fx_a1 $b env $FX stdbuf -oL $T --mode bf16 --quick --only attn.1
run all_a1 $b env $ALL stdbuf -oL $T --mode bf16 --quick --only attn.1
run all_mc $b env $ALL stdbuf -oL $MC $T --mode bf16 --only attn_bwd_wg_small
run all_sc $b env $ALL stdbuf -oL ${MC/memcheck/synccheck} $T --mode bf16 --only attn_bwd_wg_small
checks_report bwg all_bwg fx_a1 all_a1 all_mc all_sc
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 2 $((L - 230)) 60 tri_attn 1024,2048 ""
    ab_env 2 $((L - 210)) 50 trimul 1024,2048 ""
    ab_env 1 $((L - 200)) 60 tri_attn_end 1024,2048 ""
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 200 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 180))
fi
for cfg in "" "$FX" "$ALL" "PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"; do
    [ $((SECONDS - t0)) -lt $((L - 110)) ] || break
    n=k$(echo "$cfg" | sed 's/PF_ATTN_FWD_//g; s/=1//g; s/ //g' | tr 'A-Z' 'a-z')
    (for w in $cfg; do export "$w"; done; ncu_rows $n 25 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1)
done
ab_env 3 $((L - 20)) 60 tri_attn 1024,2048 "" "$FX" "$ALL" "PF_ATTN_FWD_AO=1 PF_ATTN_FWD_SB=1"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
