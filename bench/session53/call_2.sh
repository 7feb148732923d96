#!/usr/bin/env bash
# Session 53, call 2 (any sm_90 card; carry [".devpack"]; payload BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1
# bash bench/pack_device.sh): the attention defaults after session 53 (k_s9_fwd_tma, k_bwd_ws_tma, and
# k_bwd_dbias_tma now the bias gradient's default) checked, and the opt-in wgmma bias gradient timed; in the order
# of what matters when the budget is short (CALL_LIMIT seconds in all):
# 1. in parallel: compute-sanitizer memcheck with only the TMA / wgmma kernels instrumented (a kernel-name filter:
#    the rest run at full speed; unfiltered runs of the attention group never finished in 360-410 s) of
#    --quick --only attn (every attention case), --only attn_bwd_wg_small (c_h 32 pair-bias cases at B 2..4),
#    --only attn.3 (the bias-gradient part: every variant, whole-tile cases at L 128 / 192) filtered on "_tma"
#    and on "dbias_wg"; test_cuda --quick --only attn without the sanitizer; the PyTorch parity;
# 2. both triangle attentions f+b at 1024 / 2048, the defaults against PF_ATTN_DBIAS=q64k128.wg.tma
#    (k_bwd_dbias_wg), taking turns, two rounds; ncu of the two bias-gradient kernels at 1024;
# 3. with what is left: the whole test_cuda in 4 shards (every dbias variant against the CPU reference).
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-480}
F="" FW=""
for opt in "--kernel-name kns=" "--kernel-regex kns="; do
    if compute-sanitizer --tool memcheck ${opt}_tma true > $OUT/cs_opt.log 2>&1; then F="${opt}_tma" FW="${opt}dbias_wg"; break; fi
done
echo "== memcheck filter: '${F:-none (every kernel instrumented)}' ($(head -c 200 $OUT/cs_opt.log | tr '\n' ' '))" >> $S
b=${MC_LIMIT:-140}
names="mc_attn mc_small mc_dbias mc_dbias_wg attn_quick"
OMP_NUM_THREADS=3 run mc_attn $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --quick --only attn
OMP_NUM_THREADS=3 run mc_small $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --only attn_bwd_wg_small
OMP_NUM_THREADS=3 run mc_dbias $b compute-sanitizer --tool memcheck $F stdbuf -oL $T --only attn.3
OMP_NUM_THREADS=3 run mc_dbias_wg $b compute-sanitizer --tool memcheck $FW stdbuf -oL $T --only attn.3
OMP_NUM_THREADS=3 run attn_quick $b stdbuf -oL $T --quick --only attn
timeout 100 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold > $OUT/parity.log 2>&1
echo "== parity rc=$? $(tail -1 $OUT/parity.log)" >> $S
wait
report $names
for n in $names; do echo "$n: last line: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S; done
echo "== checks done at $((SECONDS - t0)) s" >> $S
DWG=PF_ATTN_DBIAS=q64k128.wg.tma
# AB_MORE (session 54): more configurations in the rounds, one assignment each (e.g. "PF_ATTN_FWD_BMMA=5
# PF_ATTN_FWD_BMMA=6"); NCU_MORE: NAME:ASSIGNMENT words, each the forward kernels under ncu with it (and the default's)
ab_env 2 $((SECONDS - t0 + ${AB_SECS:-90})) 70 tri_attn,tri_attn_end 1024,2048 "" "$DWG" ${AB_MORE:-}
echo "== timing done at $((SECONDS - t0)) s" >> $S
ncu_one dbias_tma "k_bwd_dbias"
ncu_one dbias_wg "k_bwd_dbias" "$DWG"
if [ -n "${NCU_MORE:-}" ]; then
    ncu_one fwd "k_s9_fwd"
    for w in $NCU_MORE; do ncu_one ${w%%:*} "k_s9_fwd" ${w#*:}; done
fi
echo "== ncu done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
if [ $b -gt 60 ]; then
    mkdir -p $OUT/da
    OUT=$OUT/da STAGES=shards TEST_SHARDS=4 TESTS_LIMIT=$b bash bench/device_all.sh > $OUT/device_all.log 2>&1
    cat $OUT/da/summary.txt >> $S
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
