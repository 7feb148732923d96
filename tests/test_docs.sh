#!/usr/bin/env bash
# docs/PARAMETERS.md must match what the code declares.
cd "$(dirname "$0")/.."
t=$(mktemp)
python3 tools/gen_param_doc.py ./pairfold "$t"
if diff -q "$t" docs/PARAMETERS.md >/dev/null; then echo "1 passed, 0 failed"; rc=0
else echo "FAIL docs/PARAMETERS.md is out of date: run python3 tools/gen_param_doc.py"; echo "0 passed, 1 failed"; rc=1; fi
rm -f "$t"; exit $rc
