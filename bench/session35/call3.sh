#!/usr/bin/env bash
# Session 35, call 3 (carry [".devpack"]; payload `EXTRA="/tmp/pf_old/pairfold:pairfold_old" BINS="pairfold test_cuda
# bench_cuda_ops" NO_SYS=1 bash bench/pack_device.sh`: the outer product mean without its forward permute (P' written
# by a GEMM batched over the block's rows with b shared, linear_out's weight in P''s column order; cu_opm.cu and the
# sharded entry cu_dap_opm.cu); pairfold_old: main@6b578bc's pairfold (calls 1-2)). test_cuda --only opm (a new case
# with three blocks of rows) and its memcheck (quick), then the AF2 blocks at 384 and the AF3 blocks at 768 per module,
# the two builds alternating, then the AF3 trunk training step at crop 768 with each build (10 steps, recompute 1).
. bench/device_common.sh
timeout -k 5 150 $T --only opm > $OUT/opm.log 2>&1; echo "rc=$?" >> $OUT/opm.log
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout -k 5 60 $SAN --tool memcheck $T --quick --only opm > $OUT/san_opm.log 2>&1; echo "rc=$?" >> $OUT/san_opm.log
report opm san_opm
ab_modules 2 60 "^(msa_module|evoformer|extra_msa) |outer_product_mean" "pairfold_old pairfold" "af2 384" "af3 768"
for b in pairfold pairfold_old; do
  tag=trunk_768_$b
  timeout -k 5 150 $P/$b train --preset af3 --device cuda --data synthetic --set synthetic_len=768 --set crop_size=768 \
      --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
      --steps 10 --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
  echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
  python3 -c "import json,sys,statistics as st; r=[json.loads(l) for l in open(sys.argv[1])]; m=[round(x['ms']) for x in r]; print('step ms', m, 'median of 2..', st.median(m[1:])); print('losses', [x['loss'] for x in r][:3])" \
      /tmp/$tag.jsonl >> $S 2>&1
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
