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
fields=$(grep -v '^#define' src/model/config.c | grep -oE '(FI|FF|FS)\([a-z_0-9]+\)|\{"[a-z_0-9]+", F_' |
         sed -E 's/^(FI|FF|FS)\(//; s/\)$//; s/^\{"//; s/", F_$//' | sort -u)
missing=$(for f in $fields; do grep -q "\`$f\`" docs/TRAINING.md || echo "$f"; done)
if [ -n "$fields" ] && [ -z "$missing" ]; then pass=$((pass + 1))
else echo "FAIL docs/TRAINING.md does not mention:" $missing; fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
