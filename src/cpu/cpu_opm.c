// cpu_opm.c: outer product mean, AF2 Alg. 10 as OpenFold's OuterProductMean:
//   a, b = (LN(m) W^T + bias) * mask                            (S, N, c)
//   o_ij[c1 * c + c2] = sum_s a_si[c1] b_sj[c2]                   (N, N, c*c)
//   out_ij = (o_ij W_o^T + b_o) / (1e-3 + sum_s mask_si mask_sj)  (N, N, c_z)
//
// Viewing a and b as (S, N*c) matrices, o is the (N*c, N*c) product a^T b with
// rows (i, c1) and columns (j, c2). It is formed for a block of rows i at a
// time and permuted to (i, j, c1*c+c2) for linear_out, so the (N, N, c*c)
// tensor (8x the pair representation at c = 32, c_z = 128) never exists whole.
//
// saved: m (S, N, c_m), a copy of the input. The backward recomputes LN(m),
//        a, b and o; o is too big to keep and its recomputation is one GEMM.
// ws:    ml (S, N, c_m) | a, b (S, N, c) | norm (N, N) | C, P (bi*N*c*c each) |
//        dpre (bi*N, c_z) | da, db (S, N, c) | dml (S, N, c_m)
//        with bi rows i per block (opm_block); the forward uses ml .. P.
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

#define OPM_EPS 1e-3
#define OPM_BLOCK_ELEMS ((int64_t)1 << 22)  // elements of one block of o (16 MiB in fp32)

// Rows i per block: as many as fit OPM_BLOCK_ELEMS, at least one.
static int64_t opm_block(const pf_opm_dims *d) {
    int64_t row = d->N * d->c * d->c;
    int64_t bi = row > 0 ? OPM_BLOCK_ELEMS / row : 1;
    return PF_MAX(1, PF_MIN(d->N, bi));
}

typedef struct {
    real *ml, *a, *b, *norm, *C, *P, *dpre, *da, *db, *dml;
} opm_ws;

static opm_ws opm_carve(const pf_opm_dims *d, void *ws) {
    const int64_t S = d->S, N = d->N, bi = opm_block(d);
    opm_ws w;
    real *p = ws;
    w.ml = p;   p += S * N * d->c_m;
    w.a = p;    p += S * N * d->c;
    w.b = p;    p += S * N * d->c;
    w.norm = p; p += N * N;
    w.C = p;    p += bi * N * d->c * d->c;
    w.P = p;    p += bi * N * d->c * d->c;
    w.dpre = p; p += bi * N * d->c_z;
    w.da = p;   p += S * N * d->c;
    w.db = p;   p += S * N * d->c;
    w.dml = p;
    return w;
}

pf_mem cpu_opm_mem(pf_backend *be, const pf_opm_dims *d) {
    const int64_t S = d->S, N = d->N, bi = opm_block(d);
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(S * N * d->c_m);
    m.ws = sizeof(real) * (size_t)(2 * S * N * d->c_m + 4 * S * N * d->c + N * N +
                                   2 * bi * N * d->c * d->c + bi * N * d->c_z);
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}

// ml = LN(m); a, b = linear(ml) * mask; norm = 1 / (eps + mask^T mask).
static void opm_prologue(const pf_opm_dims *d, const pf_opm_p *p, const real *m, const real *mask,
                         const opm_ws *w) {
    const int64_t S = d->S, N = d->N, SN = S * N;
    const int c = d->c;
    cpu_ln_fwd(SN, d->c_m, &p->ln, m, w->ml, NULL, NULL);
    cpu_linear_fwd(SN, d->c_m, c, &p->a, w->ml, w->a, 0);
    cpu_linear_fwd(SN, d->c_m, c, &p->b, w->ml, w->b, 0);
    if (mask) {
#pragma omp parallel for schedule(static)
        for (int64_t q = 0; q < SN; q++)
            for (int k = 0; k < c; k++) {
                w->a[q * c + k] *= mask[q];
                w->b[q * c + k] *= mask[q];
            }
        cpu_gemm(1, 0, N, N, S, 1, mask, N, mask, N, 0, w->norm, N);  // (N, N)
    } else {
        for (int64_t q = 0; q < N * N; q++) w->norm[q] = (real)S;
    }
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < N * N; q++) w->norm[q] = (real)(1.0 / (OPM_EPS + (double)w->norm[q]));
}

// For rows i0 .. i0+bi-1: C (bi*c, N*c) = a[:, i-block]^T b, then its permutation
// P (bi, N, c*c) with P[ii, j, c1*c + c2] = C[ii*c + c1, j*c + c2].
static void opm_outer_block(const pf_opm_dims *d, const opm_ws *w, int64_t i0, int64_t bi) {
    const int64_t S = d->S, N = d->N, c = d->c, Nc = N * c;
    cpu_gemm(1, 0, bi * c, Nc, S, 1, w->a + i0 * c, Nc, w->b, Nc, 0, w->C, Nc);
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < bi * N; ij++) {
        int64_t ii = ij / N, j = ij % N;
        for (int64_t c1 = 0; c1 < c; c1++)
            for (int64_t c2 = 0; c2 < c; c2++)
                w->P[ij * c * c + c1 * c + c2] = w->C[(ii * c + c1) * Nc + j * c + c2];
    }
}

void cpu_opm_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p,
                 const pf_act *m_v, const pf_act *mask_v, pf_act *out_v, void *saved, void *ws) {
    const real *m = CPU_CR(m_v);        // (S, N, c_m)
    const real *mask = CPU_CR(mask_v);  // (S, N) or NULL
    real *out = CPU_R(out_v);           // (N, N, c_z)
    const int64_t S = d->S, N = d->N, bi_max = opm_block(d);
    const int c = d->c, cz = d->c_z;
    opm_ws w = opm_carve(d, ws);
    opm_prologue(d, p, m, mask, &w);
    for (int64_t i0 = 0; i0 < N; i0 += bi_max) {
        int64_t bi = PF_MIN(bi_max, N - i0);
        opm_outer_block(d, &w, i0, bi);
        real *o = out + i0 * N * cz;  // (bi, N, c_z)
        cpu_linear_fwd(bi * N, c * c, cz, &p->o, w.P, o, 0);
#pragma omp parallel for schedule(static)
        for (int64_t ij = 0; ij < bi * N; ij++)
            for (int k = 0; k < cz; k++) o[ij * cz + k] *= w.norm[i0 * N + ij];
    }
    if (saved) memcpy(saved, m, sizeof(real) * (size_t)(S * N * d->c_m));
}

void cpu_opm_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g,
                 const pf_act *mask_v, const void *saved, const pf_act *d_out_v, pf_act *d_m_v, void *ws) {
    const real *m = saved;                // (S, N, c_m)
    const real *mask = CPU_CR(mask_v);    // (S, N) or NULL
    const real *d_out = CPU_CR(d_out_v);  // (N, N, c_z)
    const int64_t S = d->S, N = d->N, SN = S * N, bi_max = opm_block(d);
    const int64_t c = d->c, Nc = N * c;
    const int cz = d->c_z;
    opm_ws w = opm_carve(d, ws);
    opm_prologue(d, p, m, mask, &w);
    memset(w.db, 0, sizeof(real) * (size_t)(SN * c));
    for (int64_t i0 = 0; i0 < N; i0 += bi_max) {
        int64_t bi = PF_MIN(bi_max, N - i0);
        opm_outer_block(d, &w, i0, bi);
        // dpre (bi, N, c_z) = d_out / (eps + sum_s mask mask): the gradient before the division.
        const real *dob = d_out + i0 * N * cz;
#pragma omp parallel for schedule(static)
        for (int64_t ij = 0; ij < bi * N; ij++)
            for (int k = 0; k < cz; k++) w.dpre[ij * cz + k] = dob[ij * cz + k] * w.norm[i0 * N + ij];
        // Weight gradient from P, then P is overwritten by dP (bi, N, c*c).
        cpu_linear_bwd(bi * N, (int)(c * c), cz, &p->o, &g->o, w.P, w.dpre, NULL);
        memset(w.P, 0, sizeof(real) * (size_t)(bi * N * c * c));
        cpu_linear_bwd(bi * N, (int)(c * c), cz, &p->o, NULL, NULL, w.dpre, w.P);
        // dC (bi*c, N*c), the inverse permutation, into C.
#pragma omp parallel for schedule(static)
        for (int64_t ij = 0; ij < bi * N; ij++) {
            int64_t ii = ij / N, j = ij % N;
            for (int64_t c1 = 0; c1 < c; c1++)
                for (int64_t c2 = 0; c2 < c; c2++)
                    w.C[(ii * c + c1) * Nc + j * c + c2] = w.P[ij * c * c + c1 * c + c2];
        }
        // C = a_blk^T b: da[:, blk] = b dC^T (disjoint per block), db += a_blk dC (blocks in order).
        cpu_gemm(0, 1, S, bi * c, Nc, 1, w.b, Nc, w.C, Nc, 0, w.da + i0 * c, Nc);
        cpu_gemm(0, 0, S, Nc, bi * c, 1, w.a + i0 * c, Nc, w.C, Nc, 1, w.db, Nc);
    }
    if (mask) {
#pragma omp parallel for schedule(static)
        for (int64_t q = 0; q < SN; q++)
            for (int64_t k = 0; k < c; k++) {
                w.da[q * c + k] *= mask[q];
                w.db[q * c + k] *= mask[q];
            }
    }
    memset(w.dml, 0, sizeof(real) * (size_t)(SN * d->c_m));
    cpu_linear_bwd(SN, d->c_m, (int)c, &p->a, &g->a, w.ml, w.da, w.dml);
    cpu_linear_bwd(SN, d->c_m, (int)c, &p->b, &g->b, w.ml, w.db, w.dml);
    cpu_ln_bwd(SN, d->c_m, &p->ln, &g->ln, m, w.dml, d_m_v ? CPU_R(d_m_v) : NULL);
}
