#!/usr/bin/env bash
# Structure checks of src/: the include graph follows the layers
# (tools/check_includes.py) and no function is over 120 lines
# (tools/check_function_length.py). Each tool is also shown a small tree with
# one violation, which it must reject. One verdict line.
cd "$(dirname "$0")/.."
pass=0 fail=0
check() {  # check NAME STATUS [detail]
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}
out=$(python3 tools/check_includes.py 2>&1); rc=$?
echo "$out" | tail -n 1
check "include layers" $rc "$out"
out=$(python3 tools/check_function_length.py 2>&1); rc=$?
echo "$out" | tail -n 1
check "function length" $rc "$out"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/core" "$T/src/model" "$T/tools"
printf '#include "../model/model.h"\nint f(void) { return 0; }\n' > "$T/src/core/bad.c"
printf 'int g(void);\n' > "$T/src/model/model.h"
python3 tools/check_includes.py "$T" > "$T/inc.out" 2>&1
[ $? -ne 0 ] && grep -q "src/core/bad.c:1" "$T/inc.out"
check "an upward include is rejected" $? "$(cat "$T/inc.out")"
{ echo "int long_one(int x) {"; for i in $(seq 1 120); do echo "    x += $i;"; done; echo "    return x;"; echo "}"; } > "$T/src/model/long.c"
rm -f "$T/src/core/bad.c"
python3 tools/check_function_length.py "$T" > "$T/len.out" 2>&1
[ $? -ne 0 ] && grep -q "long_one is 123 lines" "$T/len.out"
check "a 123-line function is rejected" $? "$(cat "$T/len.out")"
echo "src/model/long.c:long_one" > "$T/tools/function_length_allow.txt"
python3 tools/check_function_length.py "$T" > "$T/len2.out" 2>&1
check "an allowed function is tolerated" $? "$(cat "$T/len2.out")"
echo "src/model/long.c:gone" >> "$T/tools/function_length_allow.txt"
python3 tools/check_function_length.py "$T" > "$T/len3.out" 2>&1
[ $? -ne 0 ] && grep -q "gone: listed" "$T/len3.out"
check "a stale allow entry is rejected" $? "$(cat "$T/len3.out")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
