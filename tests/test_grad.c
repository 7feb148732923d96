// test_grad: float64 central-difference gradient checks of every module and
// block (this binary is built with -DPF_DOUBLE). Each tests/grad_*.c file
// provides one or more of the functions below; a missing one is a failure.
#include <stdio.h>
#include "testlib.h"

#define GRAD_TESTS(X) \
    X(grad_primitives) X(grad_attn) X(grad_global_attn) X(grad_transition) X(grad_opm) \
    X(grad_trimul) X(grad_pwavg) X(grad_heads) X(grad_blocks)

#define DECLARE(f) void f(void) __attribute__((weak));
GRAD_TESTS(DECLARE)

int main(void) {
#define RUN(f)                                                     \
    if (f) { f(); tl_pool_reset(); }                               \
    else tl_check(0, #f, "test function missing (not linked)");
    GRAD_TESTS(RUN)
    return tl_finish();
}
