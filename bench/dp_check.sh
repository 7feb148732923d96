#!/usr/bin/env bash
# Data parallelism on GPUs (NCCL): 2 ranks with mpirun against one process with
# grad_accum=2, same examples. With lr 0 the weights stay put, so losses and
# gradient norms must agree (NCCL sums in another order: 1e-5 on |g|); then a
# 2-rank run with learning must resume bit for bit. Run on a 2-GPU machine from
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
[ $fail -eq 0 ] && echo "dp_check: passed" || echo "dp_check: FAILED"
exit $fail
