// cpu_prim.h: small primitives the CPU reference modules are built from.
// Row-major throughout; matrix products go through BLAS (OpenBLAS), loops are
// OpenMP-parallel with static schedules (results do not depend on thread count
// or timing: every output element is reduced by exactly one thread, in order).
#ifndef PF_CPU_PRIM_H
#define PF_CPU_PRIM_H
#include <stdint.h>
#include <math.h>
#include "../core/real.h"
#include "../backend/modules.h"

#define PF_LN_EPS 1e-5

// C (M, N) = alpha * op(A) op(B) + beta * C, op = transpose when ta / tb != 0.
// lda, ldb, ldc are row strides.
void cpu_gemm(int ta, int tb, int64_t M, int64_t N, int64_t K, real alpha,
              const real *A, int64_t lda, const real *B, int64_t ldb,
              real beta, real *C, int64_t ldc);

// y (M, out) = x (M, in) W^T + b (+ y if accumulate). b may be NULL.
void cpu_linear_fwd(int64_t M, int in, int out, const pf_linear_p *p, const real *x, real *y, int accumulate);
// dW += dy^T x; db += column sums of dy (if g->b); dx += dy W (if dx).
void cpu_linear_bwd(int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                    const real *x, const real *dy, real *dx);

// y (M, c) = (x - mean) * rstd * w + b. mean, rstd (M) are written when non-NULL.
void cpu_ln_fwd(int64_t M, int c, const pf_layernorm_p *p, const real *x, real *y,
                real *mean, real *rstd);
// dx += d/dx, dw += sum dy * xhat, db += sum dy (g may be NULL: no parameter grads).
void cpu_ln_bwd(int64_t M, int c, const pf_layernorm_p *p, pf_layernorm_p *g,
                const real *x, const real *dy, real *dx);

static inline real cpu_sigmoid(real x) { return (real)1 / ((real)1 + exp(-x)); }

// y[i] += x[i]
void cpu_axpy(int64_t n, real a, const real *x, real *y);
// Transpose the first two axes: x (A, B, C) -> y (B, A, C).
void cpu_transpose01(int64_t A, int64_t B, int64_t C, const real *x, real *y);

#endif
