#!/usr/bin/env bash
# Session 40, written for the next GPU session's second call (carry [".devpack"]; payload `BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`): diagnosis of the latency-bound trimul kernels and the attention
# kernels (session 40 had no GPU; this call was refused there).
# 1. trimul and tri_attn module timing at 1024 / 2048 on this card (the baseline for later calls).
# 2. ncu per-kernel list of trimul f+b at 1024 (every kernel: time, DRAM bytes).
# 3. ncu --set full, one launch each, with per-instruction stall sampling (source page, SASS) of the trimul kernels
#    k_tm_outbw, k_tm_sides_wgp, k_tm_sgrad_wgp, k_tm_outfw and the attention's forward and backward kernels.
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
echo "== trimul, tri_attn 1024 / 2048" >> $S
timeout -k 5 150 $P/bench_cuda_ops --ops trimul,tri_attn --sizes 1024,2048 --reps 5 2>&1 | grep '^{' | cut -c1-160 >> $S
ncu_rows tm 150 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
mkdir -p $OUT/src
prof() {  # NAME REGEX OPS SKIP: one launch (after SKIP matching ones) under --set full
  timeout -k 5 150 $NCU --set full --import-source no -k regex:"$2" -s $4 -c 1 -o $OUT/src/$1 \
      $P/bench_cuda_ops --ops $3 --sizes 1024 --reps 1 > $OUT/src/$1_run.log 2>&1
  echo "== prof $1 rc=$?" >> $S
  $NCU -i $OUT/src/$1.ncu-rep --page details > $OUT/src/$1_details.txt 2>&1
  $NCU -i $OUT/src/$1.ncu-rep --page source --csv --print-source sass > $OUT/src/$1_sass.csv 2>&1
  grep -E "Duration|DRAM Throughput|Eligible Warps|No Eligible|Registers Per|Achieved Occupancy|Issued Ipc|Memory Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\)" $OUT/src/$1_details.txt | head -14 >> $S
  rm -f $OUT/src/$1.ncu-rep
}
prof outbw '^k_tm_outbw' trimul 0
prof sides '^k_tm_sides_wgp' trimul 1
prof sgrad '^k_tm_sgrad_wgp' trimul 0
prof outfw 'k_tm_outfw' trimul 0
prof afwd 'k_s9_fwd|k_fwd' tri_attn 0
prof abwd 'k_bwd_ws' tri_attn 0
prof adb 'k_bwd_dbias' tri_attn 0
cd $OUT && tar czf src.tgz src && rm -rf src && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
