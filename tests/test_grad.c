// test_grad: float64 central-difference gradient checks of every module and
// block (this binary is built with -DPF_DOUBLE). Each tests/grad_*.c file
// provides one or more of the functions below; a missing one is a failure.
// Every module op of src/backend/ops.def must have its check grad_NAME: the
// list of those is expanded from the op table, so a new op without a gradient
// check fails here (and in tests/test_op_coverage.sh).
#include <stdio.h>
#include "testlib.h"
#include "../src/backend/ops.h"

#define OTHER_TESTS_FIRST(X) X(grad_primitives)
#define OTHER_TESTS_LAST(X)                                                                                  \
    X(grad_heads) X(grad_core_attn) X(grad_blocks) X(grad_rigid) X(grad_ipa) X(grad_structure_module)              \
        X(grad_struct_losses) X(grad_structure_head) X(grad_structure_edges) X(grad_allatom)

#define DECLARE(f) void f(void) __attribute__((weak));
OTHER_TESTS_FIRST(DECLARE)
OTHER_TESTS_LAST(DECLARE)
#define PF_MODULE_OP(name, NAME, D, P, n_in) DECLARE(grad_##name)
#include "../src/backend/ops.def"

int main(void) {
#define RUN(f)                                                     \
    if (f) { f(); tl_pool_reset(); }                               \
    else tl_check(0, #f, "test function missing (not linked)");
    OTHER_TESTS_FIRST(RUN)
#define PF_MODULE_OP(name, NAME, D, P, n_in) RUN(grad_##name)
#include "../src/backend/ops.def"
    OTHER_TESTS_LAST(RUN)
    return tl_finish();
}
