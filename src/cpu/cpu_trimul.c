// cpu_trimul.c: triangle multiplicative update, AF2 Alg. 11 (outgoing) / 12
// (incoming) and AF3 Alg. 12 / 13 (NULL biases), as OpenFold's
// TriangleMultiplicativeUpdate:
//   zl = LN_in(z)                                             (N, N, c_z)
//   a = mask * sigmoid(zl W_ag^T) * (zl W_ap^T); b likewise   (N, N, c)
//   outgoing x_ij = sum_k a_ik b_jk; incoming x_ij = sum_k a_ki b_kj
//   out = sigmoid(zl W_g^T) * (LN_out(x) W_z^T)               (N, N, c_z)
//
// The contraction runs channel-major: a, b, x as (c, N, N), one N x N GEMM per
// channel (outgoing X = A B^T, incoming X = A^T B). Nothing N^3 is stored.
//
// saved: z (N, N, c_z) | x (N, N, c). x is kept because recomputing it is the
//        O(N^3 c) contraction; everything else (LN_in, the five projections,
//        LN_out) is recomputed by the backward.
// ws:    zl, y, gate, dzl (N, N, c_z each) | e[0] .. e[4] (N*N*c each); the
//        forward uses zl, gate, e[0] .. e[3] (e[1] holds x when saved is NULL).
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    real *zl, *y, *gate, *dzl;  // (N*N, c_z)
    real *e[5];                 // (N*N*c), layouts as noted where used
} tm_ws;

static tm_ws tm_carve(const pf_trimul_dims *d, void *ws) {
    const int64_t NN = d->N * d->N;
    tm_ws w;
    real *p = ws;
    w.zl = p;   p += NN * d->c_z;
    w.y = p;    p += NN * d->c_z;
    w.gate = p; p += NN * d->c_z;
    w.dzl = p;  p += NN * d->c_z;
    for (int k = 0; k < 5; k++) { w.e[k] = p; p += NN * d->c; }
    return w;
}

pf_mem cpu_trimul_mem(pf_backend *be, const pf_trimul_dims *d) {
    const int64_t NN = d->N * d->N;
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(NN * (d->c_z + d->c));
    m.ws = sizeof(real) * (size_t)(NN * (4 * (int64_t)d->c_z + 5 * (int64_t)d->c));
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}

// One side's projections: tp = zl W_p^T, tg = zl W_g^T (N*N, c).
static void tm_proj(const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                    const real *zl, real *tp, real *tg) {
    const int64_t NN = d->N * d->N;
    cpu_linear_fwd(NN, d->c_z, d->c, lp, zl, tp, 0);
    cpu_linear_fwd(NN, d->c_z, d->c, lg, zl, tg, 0);
}

// Channel-major gated side: A[ch, ij] = mask_ij * sigmoid(tg[ij, ch]) * tp[ij, ch], A (c, N*N).
static void tm_side(const pf_trimul_dims *d, const real *mask, const real *tp, const real *tg, real *A) {
    const int64_t NN = d->N * d->N, c = d->c;
#pragma omp parallel for schedule(static)
    for (int64_t ch = 0; ch < c; ch++)
        for (int64_t ij = 0; ij < NN; ij++)
            A[ch * NN + ij] = (mask ? mask[ij] : 1) * cpu_sigmoid(tg[ij * c + ch]) * tp[ij * c + ch];
}

void cpu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p,
                    const pf_act *z_v, const pf_act *mask_v, pf_act *out_v, void *saved, void *ws) {
    const real *z = CPU_CR(z_v);        // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);  // (N, N) or NULL
    real *out = CPU_R(out_v);           // (N, N, c_z)
    const int64_t N = d->N, NN = N * N, c = d->c;
    const int cz = d->c_z;
    tm_ws w = tm_carve(d, ws);
    real *A = w.e[2], *B = w.e[3], *X = w.e[0];  // (c, N, N) each
    real *x = saved ? (real *)saved + NN * cz : w.e[1];  // (N, N, c)

    cpu_ln_fwd(NN, cz, &p->ln_in, z, w.zl, NULL, NULL);
    tm_proj(d, &p->a_p, &p->a_g, w.zl, w.e[0], w.e[1]);
    tm_side(d, mask, w.e[0], w.e[1], A);
    tm_proj(d, &p->b_p, &p->b_g, w.zl, w.e[0], w.e[1]);
    tm_side(d, mask, w.e[0], w.e[1], B);
    for (int64_t ch = 0; ch < c; ch++) {
        const real *Ac = A + ch * NN, *Bc = B + ch * NN;
        if (d->incoming) cpu_gemm(1, 0, N, N, N, 1, Ac, N, Bc, N, 0, X + ch * NN, N);
        else cpu_gemm(0, 1, N, N, N, 1, Ac, N, Bc, N, 0, X + ch * NN, N);
    }
    cpu_transpose01(c, NN, 1, X, x);  // (c, N*N) -> (N*N, c)

    real *xl = A;  // (N, N, c): A is no longer needed
    cpu_ln_fwd(NN, (int)c, &p->ln_out, x, xl, NULL, NULL);
    cpu_linear_fwd(NN, (int)c, cz, &p->z, xl, out, 0);
    cpu_linear_fwd(NN, cz, cz, &p->g, w.zl, w.gate, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < NN * cz; q++) out[q] *= cpu_sigmoid(w.gate[q]);
    if (saved) memcpy(saved, z, sizeof(real) * (size_t)(NN * cz));
}

// Gradient of one side's projections from dS (c, N*N), the gradient of its gated
// product; tp, tg (N*N, c) hold the recomputed projections and are overwritten.
static void tm_side_bwd(const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, const real *mask, const real *dS,
                        const tm_ws *w, real *tp, real *tg) {
    const int64_t NN = d->N * d->N, c = d->c;
    tm_proj(d, lp, lg, w->zl, tp, tg);
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < NN; ij++)
        for (int64_t ch = 0; ch < c; ch++) {
            real ds = dS[ch * NN + ij] * (mask ? mask[ij] : 1);
            real s = cpu_sigmoid(tg[ij * c + ch]), vp = tp[ij * c + ch];
            tp[ij * c + ch] = ds * s;                 // d (zl W_p^T)
            tg[ij * c + ch] = ds * vp * s * (1 - s);  // d (zl W_g^T)
        }
    cpu_linear_bwd(NN, d->c_z, (int)c, lp, gp, w->zl, tp, w->dzl);
    cpu_linear_bwd(NN, d->c_z, (int)c, lg, gg, w->zl, tg, w->dzl);
}

void cpu_trimul_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                    const pf_act *mask_v, const void *saved, const pf_act *d_out_v, pf_act *d_z_v, void *ws) {
    const int64_t N = d->N, NN = N * N, c = d->c;
    const int cz = d->c_z;
    const real *z = saved;                // (N, N, c_z)
    const real *x = z + NN * cz;          // (N, N, c)
    const real *mask = CPU_CR(mask_v);    // (N, N) or NULL
    const real *d_out = CPU_CR(d_out_v);  // (N, N, c_z)
    tm_ws w = tm_carve(d, ws);
    real **e = w.e;

    // Output gate and projection: out = sigmoid(gate) * y.
    cpu_ln_fwd(NN, cz, &p->ln_in, z, w.zl, NULL, NULL);
    cpu_ln_fwd(NN, (int)c, &p->ln_out, x, e[0], NULL, NULL);  // xl (N, N, c)
    cpu_linear_fwd(NN, (int)c, cz, &p->z, e[0], w.y, 0);
    cpu_linear_fwd(NN, cz, cz, &p->g, w.zl, w.gate, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < NN * cz; q++) {
        real s = cpu_sigmoid(w.gate[q]);
        w.y[q] = d_out[q] * w.y[q] * s * (1 - s);  // d gate (pre-sigmoid)
        w.gate[q] = d_out[q] * s;                  // d y
    }
    memset(w.dzl, 0, sizeof(real) * (size_t)(NN * cz));
    cpu_linear_bwd(NN, cz, cz, &p->g, &g->g, w.zl, w.y, w.dzl);
    memset(e[1], 0, sizeof(real) * (size_t)(NN * c));
    cpu_linear_bwd(NN, (int)c, cz, &p->z, &g->z, e[0], w.gate, e[1]);  // d xl (N, N, c)
    memset(e[0], 0, sizeof(real) * (size_t)(NN * c));
    cpu_ln_bwd(NN, (int)c, &p->ln_out, &g->ln_out, x, e[1], e[0]);    // dx (N, N, c)
    real *dX = e[1];  // (c, N, N)
    cpu_transpose01(NN, c, 1, e[0], dX);

    // The contraction: recompute A, B (c, N, N) into e[3], e[4], then dA, dB into e[0], e[2].
    real *A = e[3], *B = e[4], *dA = e[0], *dB = e[2];
    tm_proj(d, &p->a_p, &p->a_g, w.zl, e[0], e[2]);
    tm_side(d, mask, e[0], e[2], A);
    tm_proj(d, &p->b_p, &p->b_g, w.zl, e[0], e[2]);
    tm_side(d, mask, e[0], e[2], B);
    for (int64_t ch = 0; ch < c; ch++) {
        const real *Ac = A + ch * NN, *Bc = B + ch * NN, *dXc = dX + ch * NN;
        if (d->incoming) {  // X = A^T B: dA = B dX^T, dB = A dX
            cpu_gemm(0, 1, N, N, N, 1, Bc, N, dXc, N, 0, dA + ch * NN, N);
            cpu_gemm(0, 0, N, N, N, 1, Ac, N, dXc, N, 0, dB + ch * NN, N);
        } else {  // X = A B^T: dA = dX B, dB = dX^T A
            cpu_gemm(0, 0, N, N, N, 1, dXc, N, Bc, N, 0, dA + ch * NN, N);
            cpu_gemm(1, 0, N, N, N, 1, dXc, N, Ac, N, 0, dB + ch * NN, N);
        }
    }
    // A, B are free: their slots hold each side's recomputed projections in turn.
    tm_side_bwd(d, &p->a_p, &p->a_g, &g->a_p, &g->a_g, mask, dA, &w, e[3], e[4]);
    tm_side_bwd(d, &p->b_p, &p->b_g, &g->b_p, &g->b_g, mask, dB, &w, e[3], e[4]);
    cpu_ln_bwd(NN, cz, &p->ln_in, &g->ln_in, z, w.dzl, d_z_v ? CPU_R(d_z_v) : NULL);
}
