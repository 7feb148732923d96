#!/usr/bin/env bash
# Session 47, call 3 (any card; carry [".devpack"], call 2's payload: d92f71a, stg16): where trimul's time goes after
# stg16, for the next lever. 1. ncu per-kernel list of trimul f+b at 1024 (time, DRAM bytes). 2. ncu --set full, one
# launch each, with per-instruction samples (source page, SASS) of k_tm_sides_wgp (LayerNorm form: the forward's),
# k_tm_sgrad_wgp, k_tm_outbw_dwz and k_tm_outfw: compare with bench/session43/prof/ (before stg16, also an H100).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
ncu_rows tm ${ROWS_LIMIT:-120} 30 . $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1
mkdir -p $OUT/src
prof() {  # NAME REGEX SKIP: one launch (after SKIP matching ones) under --set full
  timeout -k 5 ${PROF_LIMIT:-80} $NCU --set full --import-source no -k regex:"$2" -s $3 -c 1 -o $OUT/src/$1 \
      $P/bench_cuda_ops --ops trimul --sizes 1024 --reps 1 > $OUT/src/$1_run.log 2>&1
  echo "== prof $1 rc=$?" >> $S
  $NCU -i $OUT/src/$1.ncu-rep --page details > $OUT/src/$1_details.txt 2>&1
  $NCU -i $OUT/src/$1.ncu-rep --page source --csv --print-source sass | xz > $OUT/src/$1_sass.csv.xz 2>/dev/null
  grep -E "Duration|DRAM Throughput|Eligible Warps|Issued Ipc|Memory Throughput|L1/TEX Cache|L2 Cache Throughput|Compute \(SM\)" \
      $OUT/src/$1_details.txt | head -10 >> $S
  rm -f $OUT/src/$1.ncu-rep
}
prof sides '^k_tm_sides_wgp' 1
prof sgrad '^k_tm_sgrad_wgp' 0
prof outbw '^k_tm_outbw' 0
prof outfw 'k_tm_outfw' 0
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
