#include "cpu_prim.h"
#include <cblas.h>
#include <string.h>
#include "../core/util.h"

// Results must not depend on the thread count. OpenBLAS splits a product over
// its threads in a way that depends on how many there are, and its edge kernels
// round differently from the main one, so the same element can come out with
// different bits. So the product is cut into row or column blocks chosen from
// the shape alone, and each block is one BLAS call from inside pairfold's own
// parallel loop, where OpenBLAS (OpenMP build) runs serially. The loop is always
// entered as a parallel region (no if clause): outside one, OpenBLAS would start
// its own threads when OMP_NUM_THREADS > 1.
#define GEMM_MIN_BLOCK 32
#define GEMM_MAX_BLOCKS 16
#define GEMM_SERIAL_MNK 65536.0

static void gemm_block(int ta, int tb, int64_t M, int64_t N, int64_t K, real alpha,
                       const real *A, int64_t lda, const real *B, int64_t ldb,
                       real beta, real *C, int64_t ldc) {
    cblas_xgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                (int)M, (int)N, (int)K, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
}

void cpu_gemm(int ta, int tb, int64_t M, int64_t N, int64_t K, real alpha,
              const real *A, int64_t lda, const real *B, int64_t ldb,
              real beta, real *C, int64_t ldc) {
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {  // C = beta * C
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) C[i * ldc + j] = beta == 0 ? 0 : beta * C[i * ldc + j];
        return;
    }
    if (M > INT32_MAX || N > INT32_MAX || K > INT32_MAX || lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX)
        pf_die("cpu_gemm: dimension exceeds the BLAS 32-bit integer range");
    // Small products: one call, no parallel region (whose start costs more than the
    // product). OpenBLAS runs products of M N K <= 4 x 65536 on one thread whatever
    // the thread count (interface/gemm.c: SMP_THRESHOLD_MIN x GEMM_MULTITHREAD_THRESHOLD),
    // so this stays independent of it; the bound here keeps a 4x margin.
    if ((double)M * (double)N * (double)K <= GEMM_SERIAL_MNK) {
        gemm_block(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    // Split the longer side of C into at most GEMM_MAX_BLOCKS blocks of at least
    // GEMM_MIN_BLOCK (a multiple of 16, the widest micro-kernel).
    int by_rows = M >= N;
    int64_t len = by_rows ? M : N;
    int64_t nb = PF_MIN((int64_t)GEMM_MAX_BLOCKS, PF_MAX((int64_t)1, len / GEMM_MIN_BLOCK));
    int64_t blk = ((len + nb - 1) / nb + 15) / 16 * 16;
    nb = (len + blk - 1) / blk;
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < nb; b++) {
        int64_t s = b * blk, n = PF_MIN(blk, len - s);
        if (by_rows)  // rows s.. of op(A) and C
            gemm_block(ta, tb, n, N, K, alpha, ta ? A + s : A + s * lda, lda, B, ldb, beta, C + s * ldc, ldc);
        else          // columns s.. of op(B) and C
            gemm_block(ta, tb, M, n, K, alpha, A, lda, tb ? B + s * ldb : B + s, ldb, beta, C + s, ldc);
    }
}

void cpu_linear_fwd(int64_t M, int in, int out, const pf_linear_p *p, const real *x, real *y, int accumulate) {
    if (p->b) {
        if (!accumulate) {
#pragma omp parallel for schedule(static)
            for (int64_t m = 0; m < M; m++) memcpy(y + m * out, p->b, sizeof(real) * out);
        } else {
#pragma omp parallel for schedule(static)
            for (int64_t m = 0; m < M; m++)
                for (int o = 0; o < out; o++) y[m * out + o] += p->b[o];
        }
        accumulate = 1;
    }
    cpu_gemm(0, 1, M, out, in, 1, x, in, p->w, in, accumulate ? 1 : 0, y, out);
}

void cpu_linear_bwd(int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                    const real *x, const real *dy, real *dx) {
    if (g) {
        cpu_gemm(1, 0, out, in, M, 1, dy, out, x, in, 1, g->w, in);
        if (g->b) {
#pragma omp parallel for schedule(static)
            for (int o = 0; o < out; o++) {
                real s = 0;
                for (int64_t m = 0; m < M; m++) s += dy[m * out + o];
                g->b[o] += s;
            }
        }
    }
    if (dx) cpu_gemm(0, 0, M, in, out, 1, dy, out, p->w, in, 1, dx, in);
}

// Mean and 1/sqrt(variance + eps) of one row (two passes, for accuracy).
static inline void row_stats(const real *xr, int c, real *mu_out, real *rs_out) {
    real mu = 0, var = 0;
    for (int i = 0; i < c; i++) mu += xr[i];
    mu /= c;
    for (int i = 0; i < c; i++) { real d = xr[i] - mu; var += d * d; }
    var /= c;
    *mu_out = mu;
    *rs_out = (real)(1.0 / sqrt(var + PF_LN_EPS));
}

void cpu_ln_fwd(int64_t M, int c, const pf_layernorm_p *p, const real *x, real *y, real *mean, real *rstd) {
#pragma omp parallel for schedule(static)
    for (int64_t m = 0; m < M; m++) {
        const real *xr = x + m * c;
        real *yr = y + m * c;
        real mu, rs;
        row_stats(xr, c, &mu, &rs);
        for (int i = 0; i < c; i++) yr[i] = (xr[i] - mu) * rs * p->w[i] + p->b[i];
        if (mean) mean[m] = mu;
        if (rstd) rstd[m] = rs;
    }
}

void cpu_ln_bwd(int64_t M, int c, const pf_layernorm_p *p, pf_layernorm_p *g,
                const real *x, const real *dy, real *dx) {
    if (dx) {
#pragma omp parallel for schedule(static)
        for (int64_t m = 0; m < M; m++) {
            const real *xr = x + m * c, *dyr = dy + m * c;
            real mu, rs;
            row_stats(xr, c, &mu, &rs);
            // dxhat = dy * w; dx = rs * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))
            real s1 = 0, s2 = 0;
            for (int i = 0; i < c; i++) {
                real xh = (xr[i] - mu) * rs, dxh = dyr[i] * p->w[i];
                s1 += dxh;
                s2 += dxh * xh;
            }
            s1 /= c;
            s2 /= c;
            for (int i = 0; i < c; i++) {
                real xh = (xr[i] - mu) * rs, dxh = dyr[i] * p->w[i];
                dx[m * c + i] += rs * (dxh - s1 - xh * s2);
            }
        }
    }
    if (g) {
        // Statistics per row first (M values each), then per-channel sums in row order.
        real *mu = pf_malloc(sizeof(real) * (size_t)(M > 0 ? M : 1));
        real *rs = pf_malloc(sizeof(real) * (size_t)(M > 0 ? M : 1));
#pragma omp parallel for schedule(static)
        for (int64_t m = 0; m < M; m++) row_stats(x + m * c, c, &mu[m], &rs[m]);
#pragma omp parallel for schedule(static)
        for (int i = 0; i < c; i++) {
            real sw = 0, sb = 0;
            for (int64_t m = 0; m < M; m++) {
                real d = dy[m * c + i];
                sw += d * (x[m * c + i] - mu[m]) * rs[m];
                sb += d;
            }
            g->w[i] += sw;
            g->b[i] += sb;
        }
        pf_free(mu);
        pf_free(rs);
    }
}

void cpu_axpy(int64_t n, real a, const real *x, real *y) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) y[i] += a * x[i];
}

void cpu_transpose01(int64_t A, int64_t B, int64_t C, const real *x, real *y) {
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < B; b++)
        for (int64_t a = 0; a < A; a++) memcpy(y + (b * A + a) * C, x + (a * B + b) * C, sizeof(real) * C);
}
