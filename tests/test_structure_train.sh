#!/usr/bin/env bash
# The structure module wired into training (structure_module=1, CPU): the log
# carries its losses and validation lDDT-Ca, resume is bit-exact with it, the
# Pairformer trunk runs it too, a device without its kernels is refused, and
# the whole tiny model learns one small protein.
# Prints one verdict line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
. tests/testlib.sh
SM="--set structure_module=1 --set sm_layers=3"
# CPU time: every run has one OpenMP thread (the same bits as two: tests/test_train.sh 6a checks it without
# the structure module, 4 steps with it gave the same losses, validation losses and FAPE; ~20% less CPU), and
# section 5's 60-step run goes in the background beside sections 1-4 (CI has 2 cores)
$BIN prep data/structures/1PSM.cif.gz --out "$T/one.pfc" --quiet >/dev/null 2>&1 &&
OMP_NUM_THREADS=1 $BIN train --data "$T/one.pfc" --steps 60 $SM --set n_val=0 --out "$T/o" --log "$T/o.jsonl" \
    --quiet >"$T/o.out" 2>&1 &
pid_o=$!

# 1. bundled proteins, 8 steps, validation at 4 and 8: fape, lddt_ca, val_lddt_ca in the log
OMP_NUM_THREADS=1 $BIN train --steps 8 $SM --set val_every=4 --out "$T/a" --log "$T/a.jsonl" --quiet >"$T/a.out" 2>&1
check "train with structure_module=1" $? "$(tail -n 3 "$T/a.out")"
python3 - "$T/a.jsonl" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
# a step whose example has no resolved backbone frame carries no fape / lddt_ca
# (it used to log fape 0); every other step a positive fape
sm = [r for r in rows if "fape" in r]
ok = len(rows) == 8 and len(sm) >= 6 and all(("lddt_ca" in r) == ("fape" in r) for r in rows)
ok &= all(math.isfinite(r["fape"]) and r["fape"] > 0 and 0 <= r["lddt_ca"] <= 1 for r in sm)
vals = [r["val_lddt_ca"] for r in rows if "val_lddt_ca" in r]
ok &= len(vals) >= 2 and all(0 <= v <= 1 for v in vals)
# the structure module's losses are part of the total (fape weight 0.5 > 0)
ok &= any(r["loss"] > r["disto_loss"] + 0.1 for r in rows)
print("fape", [round(r["fape"], 3) if "fape" in r else None for r in rows], "val lddt", vals)
sys.exit(0 if ok else 1)
PY
check "log: fape, lddt_ca, val_lddt_ca" $?

# 2. resume: 4 + 4 resumed steps print the losses of the straight run, bit for bit
OMP_NUM_THREADS=1 $BIN train --steps 4 $SM --set lr_decay_steps=8 --set val_every=0 --out "$T/b" --log "$T/b.jsonl" --quiet >/dev/null 2>&1 &&
OMP_NUM_THREADS=1 $BIN train --resume "$T/b" --steps 8 --log "$T/b.jsonl" --quiet >/dev/null 2>&1
check "4 steps + resume to 8" $?
python3 - "$T/a.jsonl" "$T/b.jsonl" <<'PY'
import re, sys
def losses(p):
    return [re.search(r'"loss":([^,]+)', l).group(1) for l in open(p)]
a, b = losses(sys.argv[1]), losses(sys.argv[2])
sys.exit(0 if len(a) == 8 and a == b else 1)
PY
check "resumed losses identical bit for bit" $?

# 3. the Pairformer trunk feeds its single representation to the module
OMP_NUM_THREADS=1 $BIN train --steps 3 --trunk pairformer $SM --set val_every=0 --out "$T/p" --log "$T/p.jsonl" --quiet >"$T/p.out" 2>&1
check "pairformer trunk with structure_module=1" $? "$(tail -n 3 "$T/p.out")"

# 4. device cuda: no longer refused for the structure module (its CUDA entries
# exist); a build without CUDA refuses the device itself, not the field
$BIN train --steps 1 $SM --device cuda --out "$T/c" --quiet >"$T/c.out" 2>&1
rc=$?
! grep -q "structure_module" "$T/c.out"
check "structure_module with device cuda not refused by the configuration" $? "(rc $rc: $(tail -n 1 "$T/c.out"))"

# 5. the whole tiny model learns one small protein (1PSM, 38 residues: the crop is
#    the whole chain): it leaves AF2's collapsed start within 60 steps. Measured
#    (learning rate decaying over the 60 steps): lDDT-Ca 0.034 (first 10 steps) ->
#    0.122 (last 10), clamped FAPE 0.885 -> 0.881 (session 8's machine); 0.034 -> 0.091,
#    0.885 -> 0.881 on an AMD EPYC machine (session 10: OpenBLAS picks other GEMM kernels
#    per CPU, and 60 steps of training amplify their rounding). Bound: +0.04. (Run at the top.)
wait $pid_o
check "train on one protein" $? "$(tail -n 3 "$T/o.out")"
python3 - "$T/o.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"fape"' in l]
first, last = rows[:10], rows[-10:]
mean = lambda rs, k: sum(r[k] for r in rs) / len(rs)
l0, l1, f0, f1 = mean(first, "lddt_ca"), mean(last, "lddt_ca"), mean(first, "fape"), mean(last, "fape")
print("lddt_ca %.3f -> %.3f, fape %.4f -> %.4f" % (l0, l1, f0, f1))
sys.exit(0 if len(rows) == 60 and l1 > l0 + 0.04 and f1 < f0 else 1)
PY
check "one protein: lDDT-Ca +0.04 and FAPE falls in 60 steps" $?

verdict
