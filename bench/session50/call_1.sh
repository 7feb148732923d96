#!/usr/bin/env bash
# Session 50, call 1 (any card; carry [".devpack"] (+ ".cueq"); payload of fb9bd59, session 49's review commit
# 763cf9a included, which had run on the emulator only).
# 1. Trimul f+b at 1024 / 2048, three rounds of the defaults (issue 11's 5 ms on an H200); on an H200 both
#    triangle attentions (one round).
# 2. The whole test_cuda in 4 shards and the PyTorch parity (763cf9a's first GPU run).
# 3. L2 sectors per request of every trimul / triangle attention kernel (bench/session49/l2_requests.sh).
# 4. In what is left, with .cueq: the block against PyTorch + cuEquivariance at 512 / 1024 / 2048.
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-585}
ab_env 3 60 60 trimul 1024,2048 ""
nvidia-smi -L | grep -q H200 && ab_env 1 110 110 tri_attn,tri_attn_end 1024,2048 ""
echo "== timing done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 150))
[ $b -gt 120 ] && parity_shards $((b < 260 ? b : 260))
echo "== correctness done at $((SECONDS - t0)) s" >> $S
if [ $((L - (SECONDS - t0))) -gt 160 ]; then
    mkdir -p $OUT/l2 && OUT=$OUT/l2 timeout $((L - (SECONDS - t0) - 100)) bash bench/session49/l2_requests.sh > /dev/null 2>&1
    tail -n +2 $OUT/l2/summary.txt >> $S; mv $OUT/l2/logs.tgz $OUT/l2_logs.tgz 2>/dev/null; rm -rf $OUT/l2
fi
echo "== l2 done at $((SECONDS - t0)) s" >> $S
b=$((L - (SECONDS - t0) - 15))
[ $b -gt 80 ] && [ -f .cueq/site.tar.xz ] && cueq_blocks ${BLOCK_N:-512,1024,2048} 5 $b
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
