#!/usr/bin/env bash
# Runs every test program and script, sums their verdict lines, and prints one
# final "N passed, M failed" line. Exit status is non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
passed=0; failed=0
echo "== run_all: $# programs, then the scripts ($(date +%T))"  # after the build: CI's phases read the gap
run() {
    local name=$1; shift
    local log; log=$(mktemp)
    local t0=$SECONDS
    "$@" >"$log" 2>&1
    local rc=$?
    local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    local p=0 f=0
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    fi
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ -z "$line" ] && [ $rc -eq 0 ]; then f=1; echo "  (no verdict line)"; fi
    passed=$((passed + p)); failed=$((failed + f))
    printf '%-28s %4d passed, %d failed  (%ds)\n' "$name" "$p" "$f" $((SECONDS - t0))
    if [ "$f" -ne 0 ]; then grep -E 'FAIL|error|Error|Assert|Segmentation' "$log" | head -n 30; tail -n 5 "$log"; fi
    rm -f "$log"
}
for bin in "$@"; do run "$(basename "$bin")" "$bin"; done
for t in tests/test_*.sh; do [ -f "$t" ] && run "$(basename "$t")" bash "$t"; done
for t in tests/test_*.py; do [ -f "$t" ] && run "$(basename "$t")" python3 "$t"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
