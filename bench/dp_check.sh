#!/usr/bin/env bash
# Data parallelism on GPUs (NCCL): 2 ranks with mpirun against one process with
# grad_accum=2, same examples. With lr 0 the weights stay put, so losses and
# gradient norms must agree (NCCL sums in another order: 1e-5 on |g|); then a
# 2-rank run with learning must resume bit for bit; in fp32 mode the two must be
# identical; and the throughput of 2 GPUs against 1 at crop 384. Run on a 2-GPU machine from
# the repo root with a pairfold built with CUDA=1 and MPI (stage `dp` of
# bench/device_all.sh builds one). Prints one verdict line.
set -u
BIN=${1:-./pairfold}
T=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
RUN="mpirun -np 2 --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS=4"
SET=${DP_SET:-"--preset af3 --device cuda --set n_blocks=2 --set crop_size=128 --set msa_rows=64 --set val_every=0 --set recycles=0"}
fail=0
$RUN $BIN train $SET --steps 6 --set lr=0 --out $T/d2 --quiet > $T/d2.out 2>&1 || { echo "2-rank run failed:"; tail -5 $T/d2.out; fail=1; }
$BIN train $SET --steps 6 --set lr=0 --set grad_accum=2 --out $T/d1 --quiet > $T/d1.out 2>&1 || { echo "1-rank run failed"; tail -5 $T/d1.out; fail=1; }
python3 - $T/d2/train.jsonl $T/d1/train.jsonl <<'PY' || fail=1
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
ok = len(a) == len(b) == 6
for x, y in zip(a, b):
    ok = ok and x["n_res"] == y["n_res"] and abs(x["loss"] - y["loss"]) <= 1e-6 * abs(y["loss"])
    ok = ok and abs(x["grad_norm"] - y["grad_norm"]) <= 1e-4 * y["grad_norm"]
print("2 ranks |g|", [x["grad_norm"] for x in a], "\n1 rank  |g|", [y["grad_norm"] for y in b], "\nms/step 2 ranks",
      [round(x["ms"], 1) for x in a], "1 rank", [round(y["ms"], 1) for y in b])
sys.exit(0 if ok else 1)
PY
$RUN $BIN train $SET --steps 8 --out $T/ra --quiet > /dev/null 2>&1 &&
$RUN $BIN train $SET --steps 4 --out $T/rb --quiet > /dev/null 2>&1 &&
$RUN $BIN train --resume $T/rb --steps 8 --quiet > /dev/null 2>&1 || fail=1
python3 - $T/ra/train.jsonl $T/rb/train.jsonl <<'PY' || fail=1
import re, sys
l = [[re.search(r'"loss":([^,]+)', x).group(1) for x in open(p)] for p in sys.argv[1:]]
print("resume:", l[0][-2:], l[1][-2:])
sys.exit(0 if len(l[0]) == 8 and l[0] == l[1] else 1)
PY
# fp32 mode (cuda-fp32): the same runs must agree exactly (two partial sums add the same way)
FP="${SET/--device cuda/--device cuda-fp32}"
$RUN $BIN train $FP --steps 3 --set lr=0 --out $T/f2 --quiet > /dev/null 2>&1 &&
$BIN train $FP --steps 3 --set lr=0 --set grad_accum=2 --out $T/f1 --quiet > /dev/null 2>&1 || { echo "fp32 runs failed"; fail=1; }
python3 - $T/f2/train.jsonl $T/f1/train.jsonl <<'PY' || fail=1
import json, sys
a, b = ([json.loads(l) for l in open(p)] for p in sys.argv[1:])
keys = ("loss", "grad_norm", "disto_loss")
same = len(a) == len(b) == 3 and all(x[k] == y[k] for x, y in zip(a, b) for k in keys if k in y)
print("fp32 2 ranks vs grad_accum=2: identical" if same else "fp32 differ: %s / %s" % ([x["loss"] for x in a], [y["loss"] for y in b]))
sys.exit(0 if same else 1)
PY
# throughput at crop 384 (af3 preset, 48 blocks, synthetic proteins of 384 residues): examples per
# second, 2 GPUs (global batch 2) against 1; median step time after 3 warm-up steps
TP="--preset af3 --device cuda --data synthetic --set synthetic_len=384 --set crop_size=384 --set msa_rows=128 --set val_every=0 --set n_val=1 --set recycles=0"
NS=${TP_STEPS:-13}
$BIN train $TP --steps $NS --out $T/t1 --quiet > $T/t1.out 2>&1 || { echo "1-GPU throughput run failed"; tail -5 $T/t1.out; fail=1; }
$RUN $BIN train $TP --steps $NS --out $T/t2 --quiet > $T/t2.out 2>&1 || { echo "2-GPU throughput run failed"; tail -5 $T/t2.out; fail=1; }
python3 - $T/t1/train.jsonl $T/t2/train.jsonl <<'PY' || fail=1
import json, statistics, sys
ms = [statistics.median([json.loads(l)["ms"] for l in open(p)][3:]) for p in sys.argv[1:]]
r = 2 * ms[0] / ms[1]
print("crop 384 step ms: 1 GPU %.1f, 2 GPUs %.1f; throughput 2 GPUs / 1 GPU = %.2fx (target >= 1.9)" % (ms[0], ms[1], r))
sys.exit(0 if r >= 1.9 else 1)
PY
[ $fail -eq 0 ] && echo "dp_check: passed" || echo "dp_check: FAILED"
exit $fail
