#!/usr/bin/env bash
# End-to-end training tests on the CPU: the loss falls on synthetic data, a
# resumed run is bit-identical to a straight one, the CLI reports bad input
# clearly. Prints one verdict line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
BIN=./pairfold
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() {  # check NAME CONDITION-EXIT-STATUS [detail]
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}

# 1. 200 steps of the tiny preset on synthetic proteins: 200 log lines, loss halves
$BIN train --preset tiny --data synthetic --steps 200 --out "$T/run200" --log "$T/L.jsonl" --quiet >"$T/run200.out" 2>&1
check "train 200 steps exits 0" $? "$(tail -n 3 "$T/run200.out")"
n=$(wc -l <"$T/L.jsonl")
[ "$n" -eq 200 ]; check "200 JSON lines" $? "(got $n)"
python3 - "$T/L.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
need = {"step", "loss", "lr", "grad_norm", "ms", "tokens_per_s"}
assert all(need <= set(r) for r in rows), "missing fields"
first = sum(r["loss"] for r in rows[:10]) / 10
last = sum(r["loss"] for r in rows[-10:]) / 10
print(f"first10 {first:.4f} last10 {last:.4f} ratio {last / first:.3f}")
sys.exit(0 if last < 0.5 * first else 1)
PY
check "loss of the last 10 steps under half of the first 10" $?

# 2. exact resume: 30 straight vs 20 + 10 resumed
$BIN train --preset tiny --data synthetic --steps 30 --out "$T/a" --log "$T/a.jsonl" --quiet >/dev/null 2>&1
check "straight 30-step run" $?
$BIN train --preset tiny --data synthetic --steps 20 --out "$T/b" --log "$T/b.jsonl" --quiet >/dev/null 2>&1
check "20-step run" $?
$BIN train --resume "$T/b" --steps 30 --log "$T/b.jsonl" --quiet >"$T/resume.out" 2>&1
check "resume to step 30" $? "$(tail -n 3 "$T/resume.out")"
python3 - "$T/a.jsonl" "$T/b.jsonl" <<'PY'
import json, re, sys
def losses(p):
    # compare the printed text of the loss: bit for bit (17 significant digits)
    return [re.search(r'"loss":([^,]+)', l).group(1) for l in open(p)]
a, b = losses(sys.argv[1]), losses(sys.argv[2])
ok = len(a) == 30 and len(b) == 30 and a[-10:] == b[-10:]
print("straight:", a[-3:], "\nresumed: ", b[-3:])
sys.exit(0 if ok else 1)
PY
check "resumed losses identical bit for bit" $?

# 3. checkpoints load in Python's safetensors (numpy) with the documented names
python3 tests/check_safetensors.py "$T/run200" >"$T/st.out" 2>&1
check "checkpoint loads in python safetensors" $? "$(tail -n 5 "$T/st.out")"
$BIN inspect "$T/run200" >"$T/inspect.out" 2>&1
grep -q "evoformer.blocks.0.msa_att_row.mha.linear_q.weight" "$T/inspect.out"
check "pairfold inspect lists tensors" $?

# 4. the CLI: help for every command, clear errors for bad input
for c in train bench inspect prep version; do
    $BIN $c --help >/dev/null 2>&1; check "pairfold $c --help" $?
done
$BIN train --no-such-option >/dev/null 2>&1; [ $? -ne 0 ]; check "unknown option rejected" $?
printf '{\n  "c_z": 16,\n  "c_zz": 3\n}\n' >"$T/bad.json"
out=$($BIN train --config "$T/bad.json" --data synthetic --steps 1 --out "$T/x" 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "bad.json" && echo "$out" | grep -q "c_zz"
check "bad config names the file and the key" $? "$out"
printf '{\n  "c_z": 16,\n  oops\n}\n' >"$T/bad2.json"
out=$($BIN train --config "$T/bad2.json" --steps 1 --out "$T/x" 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "bad2.json:3"
check "invalid JSON names the file and line" $? "$out"
out=$($BIN train --resume "$T/nothing-here" 2>&1); [ $? -ne 0 ] && echo "$out" | grep -q "nothing-here"
check "resume from a missing directory is a clear error" $? "$out"
out=$($BIN inspect "$T/bad.json" 2>&1); [ $? -ne 0 ] && echo "$out" | grep -q "bad.json"
check "inspect of a non-safetensors file is a clear error" $? "$out"

# 5. bench runs (smoke; performance numbers come from the manual command)
$BIN bench --preset tiny --n 16 --reps 1 >"$T/bench.out" 2>&1
check "bench runs" $? "$(cat "$T/bench.out")"
grep -q "fb_GFLOP/s" "$T/bench.out"; check "bench prints GFLOP/s" $?

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
