// testlib.h: the smallest test framework that does the job. Each check prints
// one line on failure; tl_finish prints the verdict line "N passed, M failed"
// and returns the process exit code.
#ifndef PF_TESTLIB_H
#define PF_TESTLIB_H
#include <stdint.h>
#include "../src/core/real.h"
#include "../src/backend/modules.h"

extern int tl_passed, tl_failed;
extern int tl_verbose;

// Record one check. Prints "ok   name" (verbose) or "FAIL name: detail".
void tl_check(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tl_finish(void);

// Random test data: a pool freed by tl_pool_reset.
real *tl_rand(int64_t n, double scale, uint64_t seed);  // normal * scale
real *tl_zeros(int64_t n);
real *tl_copy(const real *x, int64_t n);
void tl_pool_reset(void);
// Mask of 0/1 with about frac zeros, at least one 1 in every row of length row.
real *tl_mask(int64_t n, int64_t row, double frac, uint64_t seed);

// Allocate a Linear / LayerNorm with random parameters and zeroed gradients,
// registering both so gradient checks can find them.
void tl_linear(pf_linear_p *p, pf_linear_p *g, int out, int in, int bias, uint64_t seed);
void tl_layernorm(pf_layernorm_p *p, pf_layernorm_p *g, int c, uint64_t seed);

// Tensors registered for a gradient check: value, analytic gradient, size, name.
typedef struct { const char *name; real *x, *g; int64_t n; } tl_tensor;
#define TL_MAX_TENSORS 64
typedef struct { tl_tensor t[TL_MAX_TENSORS]; int n; } tl_tensors;
void tl_add(tl_tensors *ts, const char *name, real *x, real *g, int64_t n);
void tl_add_linear(tl_tensors *ts, const char *name, pf_linear_p *p, pf_linear_p *g, int out, int in);
void tl_add_layernorm(tl_tensors *ts, const char *name, pf_layernorm_p *p, pf_layernorm_p *g, int c);
void tl_zero_grads(tl_tensors *ts);

// Central differences in float64. loss(ctx) runs the forward and returns a
// scalar. For each tensor, up to max_samples coordinates (all when fewer) are
// perturbed by +-h; the error of a tensor is
//   max_i |numeric_i - analytic_i| / max(max_j |analytic_j|, 1e-30)
// over the sampled i (j over the whole tensor). Returns the worst tensor's error
// and records one check per tensor against tol. A tensor whose analytic
// gradient is all zero passes only if every numeric derivative is below 1e-8.
double tl_gradcheck(const char *label, double (*loss)(void *ctx), void *ctx,
                    tl_tensors *ts, int max_samples, double tol);

double tl_max_abs_diff(const real *a, const real *b, int64_t n);
double tl_max_abs(const real *a, int64_t n);
double tl_rel_err(const real *a, const real *ref, int64_t n);  // max|a-ref| / max|ref|
// The distogram head's bin probabilities in double: ref (N, N, nb) = softmax(A_ij + A_ji + b), A = z W^T,
// z (N, N, cz), W (nb, cz), b (nb); nb <= 256 (the predictions' reference in test_model and test_cuda)
void tl_disto_probs(const real *z, const real *w, const real *b, int64_t N, int64_t nb, int64_t cz, double *ref);
double tl_dot(const real *a, const real *b, int64_t n);

#endif
