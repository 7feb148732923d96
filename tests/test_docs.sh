#!/usr/bin/env bash
# Docs that must follow the code: docs/PARAMETERS.md is what the model declares;
# docs/TRAINING.md explains every configuration field. One verdict line.
cd "$(dirname "$0")/.."
pass=0 fail=0
t=$(mktemp)
python3 tools/gen_param_doc.py ./pairfold "$t"
if diff -q "$t" docs/PARAMETERS.md >/dev/null; then pass=$((pass + 1))
else echo "FAIL docs/PARAMETERS.md is out of date: run python3 tools/gen_param_doc.py"; fail=$((fail + 1)); fi
rm -f "$t"
# the field reference is the table in src/model/config.c that parses and checks
# every field (`pairfold inspect --fields`): each of its rows must be in TRAINING.md
rows=$(./pairfold inspect --fields | tail -n +3)
missing=$(echo "$rows" | while IFS= read -r r; do grep -qxF -- "$r" docs/TRAINING.md || echo "$r"; done)
if [ "$(echo "$rows" | wc -l)" -gt 40 ] && [ -z "$missing" ]; then pass=$((pass + 1))
else echo "FAIL docs/TRAINING.md field reference differs from \`pairfold inspect --fields\`:"; echo "$missing"; fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
