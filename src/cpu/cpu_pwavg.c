// cpu_pwavg.c: MSA pair-weighted averaging, AF3 Alg. 10:
//   ml = LN(m); v = ml W_v^T, g = sigmoid(ml W_g^T)           (S, N, H, c_h)
//   w_ij = softmax_j(LN_z(z_ij) W_b^T - 1e9 (1 - mask_j))      (H, N, N)
//   o_si = g_si * sum_j w_ij v_sj;  out = o W_o^T              (S, N, c_m)
//
// The average runs as one GEMM per head over all sequences at once: with v
// permuted to (H, N, S, c_h), u_h (N, S*c_h) = w_h (N, N) v_h (N, S*c_h).
//
// saved: m (S, N, c_m) | z (N, N, c_z), copies of the inputs; the backward
//        recomputes every intermediate (projections, softmax, average).
// ws:    ml, dml (S, N, c_m) | v, g, u, o, vt, ut (S, N, H*c_h) |
//        zl, dzl (N, N, c_z) | bb (N, N, H) | w, dw (H, N, N)
//        The forward uses all but dml, o, dzl, dw.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    real *ml, *dml, *v, *g, *u, *o, *vt, *ut, *zl, *dzl, *bb, *w, *dw;
} pw_ws;

static pw_ws pw_carve(const pf_pwavg_dims *d, void *ws) {
    const int64_t SN = d->S * d->N, NN = d->N * d->N, hc = (int64_t)d->H * d->c_h;
    pw_ws w;
    real *p = ws;
    w.ml = p;  p += SN * d->c_m;
    w.dml = p; p += SN * d->c_m;
    w.v = p;   p += SN * hc;
    w.g = p;   p += SN * hc;
    w.u = p;   p += SN * hc;
    w.o = p;   p += SN * hc;
    w.vt = p;  p += SN * hc;
    w.ut = p;  p += SN * hc;
    w.zl = p;  p += NN * d->c_z;
    w.dzl = p; p += NN * d->c_z;
    w.bb = p;  p += NN * d->H;
    w.w = p;   p += NN * d->H;
    w.dw = p;
    return w;
}

pf_mem cpu_pwavg_mem(pf_backend *be, const pf_pwavg_dims *d) {
    const int64_t SN = d->S * d->N, NN = d->N * d->N, hc = (int64_t)d->H * d->c_h;
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(SN * d->c_m + NN * d->c_z);
    m.ws = sizeof(real) * (size_t)(2 * SN * d->c_m + 6 * SN * hc + 2 * NN * d->c_z + 3 * NN * d->H);
    return m;
}

// (S, N, H, c_h) <-> (H, N, S, c_h); to_t != 0 goes left to right.
static void pw_perm(const pf_pwavg_dims *d, const real *src, real *dst, int to_t) {
    const int64_t S = d->S, N = d->N, H = d->H, ch = d->c_h;
#pragma omp parallel for schedule(static)
    for (int64_t h = 0; h < H; h++)
        for (int64_t n = 0; n < N; n++)
            for (int64_t s = 0; s < S; s++) {
                const int64_t a = ((s * N + n) * H + h) * ch, t = ((h * N + n) * S + s) * ch;
                if (to_t) memcpy(dst + t, src + a, sizeof(real) * (size_t)ch);
                else memcpy(dst + a, src + t, sizeof(real) * (size_t)ch);
            }
}

// Everything up to u = sum_j w_ij v_sj: ml, v, g (pre-sigmoid), zl, w (H, N, N),
// vt (H, N, S, c_h), ut, and u (S, N, H, c_h).
static void pw_forward_core(const pf_pwavg_dims *d, const pf_pwavg_p *p, const real *m, const real *z,
                            const real *mask, const pw_ws *w) {
    const int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, H = d->H, Sch = S * d->c_h;
    const int hc = d->H * d->c_h;
    cpu_ln_fwd(SN, d->c_m, &p->ln, m, w->ml, NULL, NULL);
    cpu_linear_fwd(SN, d->c_m, hc, &p->v, w->ml, w->v, 0);
    cpu_linear_fwd(SN, d->c_m, hc, &p->g, w->ml, w->g, 0);
    cpu_ln_fwd(NN, d->c_z, &p->ln_z, z, w->zl, NULL, NULL);
    cpu_linear_fwd(NN, d->c_z, d->H, &p->b, w->zl, w->bb, 0);  // (N, N, H)
    // Softmax over j of each row (h, i).
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < H * N; hi++) {
        const int64_t h = hi / N, i = hi % N;
        real *r = w->w + hi * N;
        real mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < N; j++) {
            r[j] = w->bb[(i * N + j) * H + h] - (mask ? PF_MASK_INF * (1 - mask[j]) : 0);
            if (r[j] > mx) mx = r[j];
        }
        for (int64_t j = 0; j < N; j++) { r[j] = (real)exp(r[j] - mx); sum += r[j]; }
        for (int64_t j = 0; j < N; j++) r[j] /= sum;
    }
    pw_perm(d, w->v, w->vt, 1);
    for (int64_t h = 0; h < H; h++)
        cpu_gemm(0, 0, N, Sch, N, 1, w->w + h * NN, N, w->vt + h * N * Sch, Sch, 0, w->ut + h * N * Sch, Sch);
    pw_perm(d, w->ut, w->u, 0);
}

void cpu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p,
                   const pf_act *m_v, const pf_act *z_v, const pf_act *mask_v, pf_act *out_v,
                   void *saved, void *ws) {
    const real *m = CPU_CR(m_v);        // (S, N, c_m)
    const real *z = CPU_CR(z_v);        // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);  // (N) or NULL
    real *out = CPU_R(out_v);           // (S, N, c_m)
    const int64_t SN = d->S * d->N, NN = d->N * d->N, hc = (int64_t)d->H * d->c_h;
    pw_ws w = pw_carve(d, ws);
    pw_forward_core(d, p, m, z, mask, &w);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < SN * hc; q++) w.u[q] *= cpu_sigmoid(w.g[q]);  // u becomes o
    cpu_linear_fwd(SN, (int)hc, d->c_m, &p->o, w.u, out, 0);
    if (saved) {
        memcpy(saved, m, sizeof(real) * (size_t)(SN * d->c_m));
        memcpy((real *)saved + SN * d->c_m, z, sizeof(real) * (size_t)(NN * d->c_z));
    }
}

void cpu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                   const pf_act *mask_v, const void *saved, const pf_act *d_out_v,
                   pf_act *d_m_v, pf_act *d_z_v, void *ws) {
    const int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, H = d->H, Sch = S * d->c_h;
    const int hc = d->H * d->c_h;
    const real *m = saved;                          // (S, N, c_m)
    const real *z = (const real *)saved + SN * d->c_m;  // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);              // (N) or NULL
    const real *d_out = CPU_CR(d_out_v);            // (S, N, c_m)
    pw_ws w = pw_carve(d, ws);
    pw_forward_core(d, p, m, z, mask, &w);

    // out = o W_o^T with o = sigmoid(g) * u; the weight gradient needs o, then o holds do.
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < SN * hc; q++) w.o[q] = cpu_sigmoid(w.g[q]) * w.u[q];
    cpu_linear_bwd(SN, hc, d->c_m, &p->o, &g->o, w.o, d_out, NULL);
    memset(w.o, 0, sizeof(real) * (size_t)(SN * hc));
    cpu_linear_bwd(SN, hc, d->c_m, &p->o, NULL, NULL, d_out, w.o);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < SN * hc; q++) {
        real s = cpu_sigmoid(w.g[q]);
        w.g[q] = w.o[q] * w.u[q] * s * (1 - s);  // d (ml W_g^T)
        w.u[q] = w.o[q] * s;                     // d u
    }

    // u_h = w_h v_h: dw_h = du_h v_h^T, dv_h = w_h^T du_h (into vt once dw_h is done).
    pw_perm(d, w.u, w.ut, 1);
    for (int64_t h = 0; h < H; h++) {
        real *vth = w.vt + h * N * Sch, *duh = w.ut + h * N * Sch;
        cpu_gemm(0, 1, N, N, Sch, 1, duh, Sch, vth, Sch, 0, w.dw + h * NN, N);
        cpu_gemm(1, 0, N, Sch, N, 1, w.w + h * NN, N, duh, Sch, 0, vth, Sch);
    }
    // Softmax backward per row (h, i), then d bb (N, N, H). The -1e9 mask term is
    // a constant shift, so the gradient passes to bb unchanged.
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < H * N; hi++) {
        const int64_t h = hi / N, i = hi % N;
        const real *r = w.w + hi * N;
        real *dr = w.dw + hi * N;
        real dot = 0;
        for (int64_t j = 0; j < N; j++) dot += r[j] * dr[j];
        for (int64_t j = 0; j < N; j++) w.bb[(i * N + j) * H + h] = r[j] * (dr[j] - dot);
    }
    memset(w.dzl, 0, sizeof(real) * (size_t)(NN * d->c_z));
    cpu_linear_bwd(NN, d->c_z, d->H, &p->b, &g->b, w.zl, w.bb, w.dzl);
    cpu_ln_bwd(NN, d->c_z, &p->ln_z, &g->ln_z, z, w.dzl, d_z_v ? CPU_R(d_z_v) : NULL);

    pw_perm(d, w.vt, w.v, 0);  // d v (S, N, H, c_h)
    memset(w.dml, 0, sizeof(real) * (size_t)(SN * d->c_m));
    cpu_linear_bwd(SN, d->c_m, hc, &p->v, &g->v, w.ml, w.v, w.dml);
    cpu_linear_bwd(SN, d->c_m, hc, &p->g, &g->g, w.ml, w.g, w.dml);
    cpu_ln_bwd(SN, d->c_m, &p->ln, &g->ln, m, w.dml, d_m_v ? CPU_R(d_m_v) : NULL);
}
