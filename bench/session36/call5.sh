#!/usr/bin/env bash
# Session 36, call 5 (carry [".devpack", ".cueq"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh` of the final code): the whole test_cuda in 4 shards and the PyTorch parity test, then the
# triangle modules against cuEquivariance 0.13.0 in the same run (bench_cuda_ops --ops tri_attn,trimul against
# torch_ops_bench.py --impl cueq at 512 / 1024 / 2048), then the AF3 trunk training step at crop 768 (10 steps,
# recompute 1) with PF_TRIMUL_OUTB=2 (the default) and 0.
. bench/device_common.sh
parity_shards 260
mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
cueq_ops 512,1024,2048
for v in 2 0; do
  tag=trunk_768_outb$v
  PF_TRIMUL_OUTB=$v timeout -k 5 150 $P/pairfold train --preset af3 --device cuda --data synthetic --set synthetic_len=768 \
      --set crop_size=768 --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=1 \
      --steps 10 --out /tmp/$tag --log /tmp/$tag.jsonl --quiet > $OUT/$tag.log 2>&1
  echo "== $tag rc=$? $(grep -o 'peak cuda memory [0-9.]* GiB' $OUT/$tag.log | tail -1)" >> $S
  python3 -c "import json,sys,statistics as st; r=[json.loads(l) for l in open(sys.argv[1])]; m=[round(x['ms']) for x in r]; print('step ms', m, 'median of 2..', st.median(m[1:])); print('losses', [x['loss'] for x in r][:3])" \
      /tmp/$tag.jsonl >> $S 2>&1
done
cd $OUT && tar czf logs.tgz *.log *.jsonl da 2>/dev/null; rm -f *.log *.jsonl
cat $S
