#!/usr/bin/env bash
# The PF_* environment variables (src/core/env_names.c): the table lists exactly the names the sources read (string
# literals in the C / C++ / CUDA sources, ${PF_...} in the shell scripts), so a new switch cannot be left out and a
# removed one cannot linger; and pairfold stops on one it does not read, naming it, with the closest known name.
# One verdict line.
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
read_names=$( {
    grep -rhoE '"PF_[A-Z0-9_]+"' --include=*.c --include=*.h --include=*.cu --include=*.cuh --include=*.cpp \
        --exclude=env_names.c src tests bench tools | tr -d '"'
    grep -rhoE '\$\{?PF_[A-Z0-9_]+' --include=*.sh . .ci/run | tr -d '${'
} | sort -u)
table=$(./pairfold inspect --env | sort -u)
src_only=$(comm -23 <(echo "$read_names") <(echo "$table"))
table_only=$(comm -13 <(echo "$read_names") <(echo "$table"))
if [ -z "$src_only" ]; then ok; else bad "read by the sources, not in src/core/env_names.c: $src_only"; fi
# every table name is read somewhere besides the table itself
unread=""
for n in $table; do
    grep -rqE "\"$n\"|\\\$\\{?$n\\b" --include=*.c --include=*.h --include=*.cu --include=*.cuh --include=*.cpp \
        --include=*.sh --exclude=env_names.c src tests bench tools .ci || unread="$unread $n"
done
if [ -z "$unread" ]; then ok; else bad "in src/core/env_names.c, read nowhere:$unread"; fi
[ "$(echo "$table" | wc -l)" -gt 60 ] && ok || bad "pairfold inspect --env listed $(echo "$table" | wc -l) names"
# a mistyped switch stops pairfold (status 2) naming it and the closest known name; a known one does not
err=$(PF_ATTN_FSUE=0 ./pairfold version 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && grep -q "PF_ATTN_FSUE=0" <<<"$err" && grep -q "did you mean PF_ATTN_FUSE?" <<<"$err"; then ok
else bad "PF_ATTN_FSUE=0 pairfold version: status $rc, '$err'"; fi
err=$(PF_NOTHING_LIKE_IT_AT_ALL=1 ./pairfold version 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && grep -q "PF_NOTHING_LIKE_IT_AT_ALL=1" <<<"$err" && ! grep -q "did you mean" <<<"$err"; then ok
else bad "PF_NOTHING_LIKE_IT_AT_ALL=1 pairfold version: status $rc, '$err'"; fi
err=$(env PF_=1 ./pairfold version 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && grep -q "PF_=1" <<<"$err"; then ok; else bad "PF_=1 pairfold version: status $rc, '$err'"; fi
if PF_ATTN_FUSE=1 PFX_OTHER=1 ./pairfold version >/dev/null 2>&1; then ok
else bad "PF_ATTN_FUSE=1 (known) or PFX_OTHER (not PF_) stopped pairfold"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
