#!/usr/bin/env bash
# Session 61 call 1 (any sm_90 card; carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops"
# NO_SYS=1 bash bench/pack_device.sh`; CALL_LIMIT s, default 560, CHECK_LIMIT s for the checks, default 220).
# 1. compute-sanitizer memcheck of the masked cases of the TMA / wgmma attention kernels (issue 10's "sanitizer clean"
#    point, left partial since session 51): test_cuda `--only attn_bwd_wg` (triangle start / end node at L 128..384
#    and MSA row at B 8 L 384, masks, fully masked rows, L % 128 == 64: k_s9_fwd_half, k_bwd_ws_tma, k_bwd_dbias_wg,
#    and each case's forward again with the other forms), one process a case (8 shards), `--only attn_bwd_wg_small`,
#    `--only attn_end_inplace` (c 128: k_attn_lnproj_wg, k_attn_gate_out_wg and k_tm_gdw with masks and a fully
#    masked row), and the modules at N 200 / 256 as session 60's call 1 (no mask); beside them, without the sanitizer,
#    `PF_ATTN_FWD_POLY=1` / `=2` (session 61: a share of the forward's exps on the FMA pipe) against the CPU
#    reference: `--only attn_bwd_wg` and `--quick --only attn.1`;
# 2. on an H200 (none since session 39) the acceptance figures first: the starting node three rounds with the
#    defaults and OLD (both session-60 forms off), trimul three rounds, the ending node, the block against
#    cuEquivariance (carry .cueq);
# 3. PF_ATTN_FWD_POLY 0 / 1 / 2: k_s9_fwd_half's time a launch at 1024 (ncu), the starting node's module at 1024 /
#    2048 (two rounds); on an H100 also the defaults against OLD (one round).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
b=${CHECK_LIMIT:-220}
OLD="PF_ATTN_PROJ_BWD=0 PF_ATTN_END_INPLACE=0"
MC="compute-sanitizer --tool memcheck --error-exitcode 9"
names=""
for k in 0 1 2 3 4 5 6 7; do
    run mc_bwg_$k $b $MC $T --mode bf16 --only attn_bwd_wg --shard $k/8; names="$names mc_bwg_$k"
done
run mc_bwgs $b $MC $T --mode bf16 --only attn_bwd_wg_small; names="$names mc_bwgs"
run mc_endip $b $MC $T --mode bf16 --only attn_end_inplace; names="$names mc_endip"
for pj in 1 2; do
    PF_ATTN_FWD_POLY=$pj run poly${pj}_bwg $b $T --mode bf16 --only attn_bwd_wg; names="$names poly${pj}_bwg"
    PF_ATTN_FWD_POLY=$pj run poly${pj}_a1 $b $T --mode bf16 --quick --only attn.1; names="$names poly${pj}_a1"
done
PF_ATTN_END_T=1 run mc_all $b $MC $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 200,256 --reps 1
checks_report $names mc_all
echo "== checks done at $((SECONDS - t0)) s" >> $S
if nvidia-smi -L | grep -q H200; then
    ab_env 3 $((L - 220)) 70 tri_attn 1024,2048 "" "$OLD"
    ab_env 3 $((L - 200)) 60 trimul 1024,2048 ""
    ab_env 1 $((L - 180)) 70 tri_attn_end 1024,2048 "" "$OLD"
    [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 170 ] && cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 150))
fi
for pj in 0 1 2; do
    [ $((SECONDS - t0)) -lt $((L - 60)) ] || break
    export PF_ATTN_FWD_POLY=$pj
    ncu_rows poly$pj 40 2 k_s9_fwd_half $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
unset PF_ATTN_FWD_POLY
ab_env 2 $((L - 30)) 70 tri_attn 1024,2048 "" "PF_ATTN_FWD_POLY=1" "PF_ATTN_FWD_POLY=2"
nvidia-smi -L | grep -q H200 || ab_env 1 $((L - 30)) 70 tri_attn,tri_attn_end 1024,2048 "" "$OLD"
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
