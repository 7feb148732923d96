#!/usr/bin/env bash
# test_op_coverage: every module op of src/backend/ops.def has a float64 gradient
# check (grad_NAME, defined in tests/grad_*.c) and a CUDA test (cuda_NAME, defined in
# tests/cuda/test_cuda.c, test_cuda_trimul.c or test_cuda_attn.c: the Makefile's
# CU_OP_TEST_SRC). Checked on the compiled objects, so a test that is commented out or
# under #if 0 does not count; the CUDA test's objects compile without CUDA, so the check
# runs in the CPU build (`make test` builds them).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
passed=0; failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# The op names, as the C preprocessor expands the table (the code's own view).
ops=$(printf '#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_OP_NAME name\n#include "src/backend/ops.def"\n' |
      ${CC:-cc} -E -P -x c - | awk '$1 == "PF_OP_NAME" {print $2}')
lines=$(grep -c '^PF_MODULE_OP(' src/backend/ops.def)
n=$(echo "$ops" | grep -c .)
if [ "$n" -gt 0 ] && [ "$n" -eq "$lines" ]; then pass; else fail "op table: $n ops expanded, $lines lines in ops.def"; fi

grad_objs=$(ls "$B"/f64/tests/grad_*.o 2>/dev/null)
cuda_objs="$B/f32/tests/cuda/test_cuda.o $B/f32/tests/cuda/test_cuda_trimul.o $B/f32/tests/cuda/test_cuda_attn.o"
if [ -n "$grad_objs" ]; then pass; else fail "no gradient check objects in $B/f64/tests (run make test)"; fi
for o in $cuda_objs; do if [ -f "$o" ]; then pass; else fail "$o missing (run make test)"; fi; done
grad_syms=$(nm --defined-only $grad_objs 2>/dev/null | awk '$2 == "T" {print $3}')
cuda_syms=$(nm --defined-only $cuda_objs 2>/dev/null | awk '$2 == "T" {print $3}')

for op in $ops; do
    if echo "$grad_syms" | grep -qx "grad_$op"; then pass
    else fail "op $op has no float64 gradient check: no function grad_$op in tests/grad_*.c"; fi
    if echo "$cuda_syms" | grep -qx "cuda_$op"; then pass
    else fail "op $op has no CUDA test: no function cuda_$op in tests/cuda/test_cuda*.c"; fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
