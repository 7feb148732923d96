#!/usr/bin/env bash
# Runs every test program and script, sums their verdict lines, and prints one
# final "N passed, M failed" line. Exit status is non-zero on any failure.
# Two lanes at once: the shell scripts in the background, the programs then the Python tests in the
# foreground. Why: on CI's 2 cores the tests one at a time kept ~1.4 cores busy and were its critical path
# (session 44: 580 s of 797). Every test keeps its own temporary files and ports (mktemp, pid, random ports).
# Each test's report is printed as one block when it ends, so the lanes' lines do not interleave inside one.
set -u
cd "$(dirname "$0")/.."
echo "== run_all: $# programs, then the scripts ($(date +%T))"  # after the build: CI's phases read the gap
tally=$(mktemp -d)
run() {  # run NAME CMD...: its counts appended to $tally/$lane
    local name=$1; shift
    local log; log=$(mktemp)
    local t0=$SECONDS
    "$@" >"$log" 2>&1
    local rc=$?
    local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    local p=0 f=0 out note=""
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    fi
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ -z "$line" ] && [ $rc -eq 0 ]; then f=1; note="  (no verdict line)"$'\n'; fi
    echo "$p $f" >> "$tally/$lane"
    out=$(printf '%s%-28s %4d passed, %d failed  (%ds)' "$note" "$name" "$p" "$f" $((SECONDS - t0)))
    if [ "$f" -ne 0 ]; then
        out="$out"$'\n'"$(grep -E 'FAIL|error|Error|Assert|Segmentation' "$log" | head -n 30; tail -n 5 "$log")"
    fi
    echo "$out"
    rm -f "$log"
}
( lane=scripts; for t in tests/test_*.sh; do [ -f "$t" ] && run "$(basename "$t")" bash "$t"; done ) &
scripts=$!
lane=programs
# this lane's OpenMP threads sleep after a short spin (pairfold's own default, src/cli/main.c) while they share
# the cores with the other lane; not set for the scripts, which check pairfold's default itself
export GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-300}
for bin in "$@"; do run "$(basename "$bin")" "$bin"; done
for t in tests/test_*.py; do [ -f "$t" ] && run "$(basename "$t")" python3 "$t"; done
wait $scripts
passed=0; failed=0
while read -r p f; do passed=$((passed + p)); failed=$((failed + f)); done < <(cat "$tally"/* 2>/dev/null)
rm -rf "$tally"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
