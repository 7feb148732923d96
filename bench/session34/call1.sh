#!/usr/bin/env bash
# Session 34, call 1 (carry [".devpack"]; payload `EXTRA="/tmp/bench_old:bench_old" BINS="pairfold test_cuda
# bench_cuda_ops attn_bwd_check" NO_SYS=1 bash bench/pack_device.sh`: session 33's model.c review (3619426, CPU-tested
# only) and the trimul output part's row pieces aligned (cu_trimul_out.cu out_rows); bench_old: the same bench built
# before that change). Tests first (test_cuda --only model, --only trimul in 4 shards), then trimul f+b old / new
# alternating, ncu per launch (kernel and grid) of trimul at 1024 old and new, the block at 512 / 1024, and ncu per
# launch of one Pairformer block f+b at 512 (bench/ncu_launches.py: slow pieces stand out by their grid).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
run model 150 $T --only model
for k in 0 1 2 3; do run trimul$k 300 $T --only trimul --shard $k/4; done
wait
report model trimul0 trimul1 trimul2 trimul3
for r in 1 2; do
  for b in bench_old bench_cuda_ops; do
    echo "== $b round $r" >> $S
    timeout -k 5 120 $P/$b --ops trimul --sizes 512,1024,2048 --reps 5 2>&1 | grep -v '^#' | tail -n 4 >> $S
  done
done
for b in bench_old bench_cuda_ops; do
  timeout -k 5 150 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    $P/$b --ops trimul --sizes 1024 --reps 1 > $OUT/ncu_tm_$b.log 2>&1
  echo "== ncu trimul 1024 $b rc=$? (3 forwards + 3 f+b after 2 + 2 warm-ups: --div 5 gives ~one f+b)" >> $S
  python3 bench/ncu_launches.py $OUT/ncu_tm_$b.log --div 5 --top 24 >> $S 2>&1
done
echo "== block f+b (pairfold bench --preset af3 --set n_msa_blocks=0)" >> $S
timeout -k 5 150 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512,1024 --reps 7 > $OUT/block.log 2>&1
echo "rc=$?" >> $S; grep -v '^#' $OUT/block.log | tail -n 8 >> $S
timeout -k 5 200 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n 512 --reps 1 > $OUT/ncu_block.log 2>&1
echo "== ncu block 512 rc=$? (figures for the whole command: every pass it ran)" >> $S
python3 bench/ncu_launches.py $OUT/ncu_block.log --top 60 >> $S 2>&1
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
