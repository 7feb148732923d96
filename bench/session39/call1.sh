#!/usr/bin/env bash
# Session 39, call 1 (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): the 64-bit fix (cu_gemm sums K in pieces when an operand along K passes 2^31 elements):
# test_big at N 4100 with the default output part, the new gemm_pieces group (every product with K > 104 in pieces),
# then with PF_TRIMUL_OUTW=2 PF_TRIMUL_OUTW_FWG=3 (the Hopper output part, candidate default) the PyTorch parity and
# the whole test_cuda in 4 shards, then the AF3 trunk training step at crop 768 (10 steps, recompute 1) with it and
# without it.
. bench/device_common.sh
timeout -k 5 150 $T --only big > $OUT/big.log 2>&1; echo "rc=$?" >> $OUT/big.log
timeout -k 5 150 $T --only gemm_pieces > $OUT/pieces.log 2>&1; echo "rc=$?" >> $OUT/pieces.log
report big pieces
export PF_TRIMUL_OUTW=2 PF_TRIMUL_OUTW_FWG=3
echo "== PF_TRIMUL_OUTW=2 PF_TRIMUL_OUTW_FWG=3" >> $S
parity_shards 260
for v in 2 0; do
  tag=trunk_768_outw$v
  PF_TRIMUL_OUTW=$v timeout -k 5 120 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 \
      --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
      --steps 10 --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
  echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
  python3 -c "import json,sys,statistics as st; r=[json.loads(l) for l in open(sys.argv[1])]; m=[round(x['ms']) for x in r]; print('step ms', m, 'median of 2..', st.median(m[1:])); print('losses', [x['loss'] for x in r][:3])" \
      /tmp/$tag.jsonl >> $S 2>&1
done
cd $OUT && tar czf logs.tgz *.log *.jsonl da 2>/dev/null; rm -f *.log *.jsonl
cat $S
