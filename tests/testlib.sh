# testlib.sh: what the shell tests share (sourced after `cd` to the repository root):
# the binary, a temporary folder removed on exit, check(), and the verdict line.
BIN=./pairfold
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() {  # check NAME CONDITION-EXIT-STATUS [detail]
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}
verdict() {  # the last line: "N passed, M failed"; the exit status of the test
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
