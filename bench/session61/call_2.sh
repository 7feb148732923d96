#!/usr/bin/env bash
# Session 61 call 2 (any sm_90 card; carry [".devpack"]): call 1's memchecks of test_cuda printed nothing in 220 s (11
# sanitizer processes at once, stdout block-buffered into the log, so no progress was seen). Here fewer at once, line
# buffered, only the TMA / wgmma attention kernels instrumented (--kernel-name), LIMIT s each (default 420):
# `--only attn_bwd_wg_small` (MSA row, B 2..4, L 128..256: masks, a fully masked row, no mask), `--only attn_bwd_wg`
# shards 0, 2, 3 of 8 (triangle start node L 128 masked, ending node L 128 fully masked row, start node L 256 fully
# masked row), `--only attn_end_inplace` (c 128: k_attn_lnproj_wg, k_attn_gate_out_wg, k_tm_gdw with masks).
. bench/device_common.sh
t0=$SECONDS
b=${LIMIT:-420}
# one --kernel-name filter (kns=, a substring of the mangled name) per kernel family, if the tool takes the option
# repeated (probed on a group name test_cuda refuses at once); else no filter
K=""
for k in k_s9_fwd_half k_bwd_ws_tma k_bwd_dbias_wg k_attn_lnproj_wg k_attn_gate k_tm_gdw; do K="$K --kernel-name kns=$k"; done
timeout 60 compute-sanitizer --tool memcheck $K $T --only no_such_group > $OUT/cs_probe.log 2>&1
grep -qiE "unrecognized|unknown option|invalid (option|value|argument)|option .* (given|specified) more than once" $OUT/cs_probe.log && { echo "== probe refused the filters: none" >> $S; K=""; }
tail -n 3 $OUT/cs_probe.log >> $S
MC="compute-sanitizer --tool memcheck --error-exitcode 9 $K"
run mc_bwgs $b stdbuf -oL $MC $T --mode bf16 --only attn_bwd_wg_small
for k in 0 2 3; do run mc_bwg_$k $b stdbuf -oL $MC $T --mode bf16 --only attn_bwd_wg --shard $k/8; done
run mc_endip $b stdbuf -oL $MC $T --mode bf16 --only attn_end_inplace
checks_report mc_bwgs mc_bwg_0 mc_bwg_2 mc_bwg_3 mc_endip
for n in mc_bwgs mc_bwg_0 mc_bwg_2 mc_bwg_3 mc_endip; do
    echo "$n: $(grep -c '^ok\|passed' $OUT/$n.log) ok lines; kernels: $(grep -oE 'k_[a-z0-9_]+' $OUT/$n.log | sort -u | head -8 | tr '\n' ' ')" >> $S
done
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
