# session 6 device script: fused attention backward check, timing, ncu (docs/ATTENTION_BWD.md)
B=build/attn_bwd_check
TIME_N=${TIME_N:-512,1024,2048}
timeout 200 $B --check > $OUT/check.txt 2>&1; echo "check rc $?"; grep -E "FAIL|NOT-ID|check:|PASSED|FAILED" $OUT/check.txt | head -20
timeout 200 $B --time $TIME_N --reps ${REPS:-10} > $OUT/time.txt 2>&1; echo "time rc $?"; cat $OUT/time.txt
[ -n "$SHAPES" ] && { timeout 100 $B --shapes --reps 10 > $OUT/shapes.txt 2>&1; echo "shapes rc $?"; cat $OUT/shapes.txt; }
if [ -n "$NCU" ]; then
NCUB=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 150 $NCUB --clock-control none -k regex:k_bwd_fused --section SpeedOfLight --section Occupancy --section WarpStateStats --metrics smsp__inst_executed.sum,smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__average_warp_latency_issue_stalled_short_scoreboard,smsp__average_warp_latency_issue_stalled_wait,smsp__average_warp_latency_issue_stalled_math_pipe_throttle,smsp__average_warp_latency_issue_stalled_mio_throttle,smsp__average_warp_latency_issue_stalled_lg_throttle $B --profile 1024 > $OUT/ncu.txt 2>&1; echo "ncu rc $?"
grep -E "k_bwd|Duration|inst_executed|stalled|Warp Cycles Per Issued|Compute \(SM\)" $OUT/ncu.txt | head -40
fi
if [ -n "$MEMCHECK" ]; then
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 170 $CS --tool memcheck $B --check > $OUT/memcheck.txt 2>&1; echo "memcheck rc $?"; tail -3 $OUT/memcheck.txt
fi
