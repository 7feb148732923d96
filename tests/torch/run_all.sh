#!/usr/bin/env bash
# Runs every PyTorch test (tests/torch/test_*.py), sums their verdict lines and prints
# one final "N passed, M failed" line; exit status non-zero on any failure. Needs torch
# (not installed here), the engine library and the pairfold binary:
#   PAIRFOLD_LIB  libpairfold.so (default: ./libpairfold.so; `make lib CUDA=1` for the
#                 CUDA cases, which run when a GPU is visible)
#   PAIRFOLD      the pairfold binary (default: ./pairfold)
# On the GPU machine, from the device payload (bench/pack_device.sh): STAGES=torch bash
# bench/device_all.sh, which sets both to the packed CUDA builds.
set -u
cd "$(dirname "$0")/../.."
export PAIRFOLD_LIB=${PAIRFOLD_LIB:-$PWD/libpairfold.so} PAIRFOLD=${PAIRFOLD:-$PWD/pairfold}
export PYTHONUNBUFFERED=1
if ! python3 -c "import torch" 2>/dev/null; then
    echo "torch is not importable by python3: no PyTorch test run"
    echo "0 passed, 1 failed"
    exit 1
fi
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'gpu', torch.cuda.is_available())"
for f in "$PAIRFOLD_LIB" "$PAIRFOLD"; do
    [ -e "$f" ] || { echo "$f not found (make lib / make, or set PAIRFOLD_LIB / PAIRFOLD)"; echo "0 passed, 1 failed"; exit 1; }
done
passed=0; failed=0
for t in tests/torch/test_*.py; do
    log=$(mktemp); t0=$SECONDS
    python3 "$t" > "$log" 2>&1; rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=0; f=0
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    fi
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ -z "$line" ] || [ "$p" -eq 0 ]; then f=$((f > 0 ? f : 1)); echo "  ($t: no checks ran)"; fi
    passed=$((passed + p)); failed=$((failed + f))
    printf '%-34s %4d passed, %d failed  (%ds)\n' "$(basename "$t")" "$p" "$f" $((SECONDS - t0))
    # the measured errors (one line per compared tensor), then any failure
    [ -n "${VERBOSE:-}" ] && grep -E 'rel err' "$log"
    if [ "$f" -ne 0 ]; then grep -E 'FAIL|Error|error|Traceback' "$log" | head -n 30; tail -n 8 "$log"; fi
    rm -f "$log"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
