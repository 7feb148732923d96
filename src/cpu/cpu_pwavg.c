// cpu_pwavg.c: MSA pair-weighted averaging, AF3 Alg. 10:
//   ml = LN(m); v = ml W_v^T, g = sigmoid(ml W_g^T)           (S, N, H, c_h)
//   w_ij = softmax_j(mask_j ? LN_z(z_ij) W_b^T : -1e9)           (H, N, N)
//   o_si = g_si * sum_j w_ij v_sj;  out = o W_o^T              (S, N, c_m)
//
// The average runs as one GEMM per head over all sequences at once: with v
// permuted to (H, N, S, c_h), u_h (N, S*c_h) = w_h (N, N) v_h (N, S*c_h).
//
// saved: m (S, N, c_m) | z (N, N, c_z), copies of the inputs; the backward
//        recomputes every intermediate (projections, softmax, average).
// ws:    ml, dml (S, N, c_m) | t[0] .. t[3] (S, N, H*c_h each) | zl, dzl (N, N, c_z) |
//        bb (N, N, H) | w, dw (H, N, N). The four (S, N, H*c_h) buffers are the
//        big ones (H*c_h = 4 c_m in AF3); each is reused as noted where used.
//        The forward uses all but dml, t[3], dzl, dw.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    real *ml, *dml, *t[4], *zl, *dzl, *bb, *w, *dw;
} pw_ws;

static pw_ws pw_carve(const pf_pwavg_dims *d, void *ws) {
    const int64_t SN = d->S * d->N, NN = d->N * d->N, hc = (int64_t)d->H * d->c_h;
    pw_ws w;
    real *p = ws;
    w.ml = p;  p += SN * d->c_m;
    w.dml = p; p += SN * d->c_m;
    for (int k = 0; k < 4; k++) { w.t[k] = p; p += SN * hc; }
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
    m.ws = sizeof(real) * (size_t)(2 * SN * d->c_m + 4 * SN * hc + 2 * NN * d->c_z + 3 * NN * d->H);
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}

// Offset in the (H, N, S, c_h) layout of element (s, n, h, e) of the (S, N, H, c_h) layout.
static inline int64_t pw_tidx(const pf_pwavg_dims *d, int64_t s, int64_t n, int64_t h, int64_t e) {
    return ((h * d->N + n) * d->S + s) * d->c_h + e;
}

// (S, N, H, c_h) <-> (H, N, S, c_h); to_t != 0 goes left to right.
static void pw_perm(const pf_pwavg_dims *d, const real *src, real *dst, int to_t) {
    const int64_t S = d->S, N = d->N, H = d->H, ch = d->c_h;
#pragma omp parallel for schedule(static)
    for (int64_t hn = 0; hn < H * N; hn++) {
        const int64_t h = hn / N, n = hn % N;
        for (int64_t s = 0; s < S; s++) {
            const int64_t a = ((s * N + n) * H + h) * ch, t = pw_tidx(d, s, n, h, 0);
            if (to_t) memcpy(dst + t, src + a, sizeof(real) * (size_t)ch);
            else memcpy(dst + a, src + t, sizeof(real) * (size_t)ch);
        }
    }
}

// Everything up to u = sum_j w_ij v_sj: ml; zl; w (H, N, N); vt = v permuted
// (H, N, S, c_h) in t[1]; ut (H, N, S, c_h) in t[2]; g (S, N, H, c_h), before
// its sigmoid, in t[0] (which held v on the way).
static void pw_forward_core(const pf_pwavg_dims *d, const pf_pwavg_p *p, const real *m, const real *z,
                            const real *mask, const pw_ws *w) {
    const int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, H = d->H, Sch = S * d->c_h;
    const int hc = d->H * d->c_h;
    real *vt = w->t[1], *ut = w->t[2];
    cpu_ln_fwd(SN, d->c_m, &p->ln, m, w->ml, NULL, NULL);
    cpu_linear_fwd(SN, d->c_m, hc, &p->v, w->ml, w->t[0], 0);
    pw_perm(d, w->t[0], vt, 1);
    cpu_linear_fwd(SN, d->c_m, hc, &p->g, w->ml, w->t[0], 0);
    cpu_ln_fwd(NN, d->c_z, &p->ln_z, z, w->zl, NULL, NULL);
    cpu_linear_fwd(NN, d->c_z, d->H, &p->b, w->zl, w->bb, 0);  // (N, N, H)
    // Softmax over j of each row (h, i).
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < H * N; hi++) {
        const int64_t h = hi / N, i = hi % N;
        real *r = w->w + hi * N;
        real mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < N; j++) {
            r[j] = (!mask || mask[j] != 0) ? w->bb[(i * N + j) * H + h] : -PF_MASK_INF;  // masked: replaced
            if (r[j] > mx) mx = r[j];
        }
        for (int64_t j = 0; j < N; j++) { r[j] = (real)exp(r[j] - mx); sum += r[j]; }
        for (int64_t j = 0; j < N; j++) r[j] /= sum;
    }
    for (int64_t h = 0; h < H; h++)
        cpu_gemm(0, 0, N, Sch, N, 1, w->w + h * NN, N, vt + h * N * Sch, Sch, 0, ut + h * N * Sch, Sch);
}

// o (S, N, H, c_h) = sigmoid(g) * u, with u read from its (H, N, S, c_h) layout.
static void pw_gate(const pf_pwavg_dims *d, const real *g, const real *ut, real *o) {
    const int64_t N = d->N, H = d->H, ch = d->c_h;
#pragma omp parallel for schedule(static)
    for (int64_t sn = 0; sn < d->S * N; sn++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t e = 0; e < ch; e++) {
                const int64_t q = (sn * H + h) * ch + e;
                o[q] = cpu_sigmoid(g[q]) * ut[pw_tidx(d, sn / N, sn % N, h, e)];
            }
}

void cpu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p,
                   const pf_act *m_v, const pf_act *z_v, const pf_act *mask_v, pf_act *out_v,
                   void *saved, void *ws) {
    const real *m = CPU_CR(m_v);        // (S, N, c_m)
    const real *z = CPU_CR(z_v);        // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);  // (N) or NULL
    real *out = CPU_R(out_v);           // (S, N, c_m)
    const int64_t SN = d->S * d->N, NN = d->N * d->N;
    const int hc = d->H * d->c_h;
    pw_ws w = pw_carve(d, ws);
    pw_forward_core(d, p, m, z, mask, &w);
    pw_gate(d, w.t[0], w.t[2], w.t[0]);  // o (S, N, H, c_h) over g, elementwise
    cpu_linear_fwd(SN, hc, d->c_m, &p->o, w.t[0], out, 0);
    if (saved) {
        memcpy(saved, m, sizeof(real) * (size_t)(SN * d->c_m));
        memcpy((real *)saved + SN * d->c_m, z, sizeof(real) * (size_t)(NN * d->c_z));
    }
}

void cpu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                   const pf_act *mask_v, const void *saved, const pf_act *d_out_v,
                   pf_act *d_m_v, pf_act *d_z_v, void *ws) {
    const int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, H = d->H, ch = d->c_h, Sch = S * ch;
    const int hc = d->H * d->c_h;
    const real *m = saved;                              // (S, N, c_m)
    const real *z = (const real *)saved + SN * d->c_m;  // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);                  // (N) or NULL
    const real *d_out = CPU_CR(d_out_v);                // (S, N, c_m)
    pw_ws w = pw_carve(d, ws);
    pw_forward_core(d, p, m, z, mask, &w);
    real *gq = w.t[0], *vt = w.t[1], *ut = w.t[2], *o = w.t[3];

    // out = o W_o^T: the weight gradient needs o, then o holds do (S, N, H, c_h).
    pw_gate(d, gq, ut, o);
    cpu_linear_bwd(SN, hc, d->c_m, &p->o, &g->o, o, d_out, NULL);
    memset(o, 0, sizeof(real) * (size_t)(SN * hc));
    cpu_linear_bwd(SN, hc, d->c_m, &p->o, NULL, NULL, d_out, o);
    const real *dO = o;
    // o = sigmoid(g) * u: g becomes d g (pre-sigmoid), ut becomes d ut, in place.
#pragma omp parallel for schedule(static)
    for (int64_t sn = 0; sn < SN; sn++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t e = 0; e < ch; e++) {
                const int64_t q = (sn * H + h) * ch + e, t = pw_tidx(d, sn / N, sn % N, h, e);
                real sg = cpu_sigmoid(gq[q]);
                gq[q] = dO[q] * ut[t] * sg * (1 - sg);
                ut[t] = dO[q] * sg;
            }

    // u_h = w_h v_h: dw_h = du_h v_h^T, dv_h = w_h^T du_h (into vt once dw_h is done).
    for (int64_t h = 0; h < H; h++) {
        real *vth = vt + h * N * Sch, *duh = ut + h * N * Sch;
        cpu_gemm(0, 1, N, N, Sch, 1, duh, Sch, vth, Sch, 0, w.dw + h * NN, N);
        cpu_gemm(1, 0, N, Sch, N, 1, w.w + h * NN, N, duh, Sch, 0, vth, Sch);
    }
    // Softmax backward per row (h, i), then d bb (N, N, H). Masked logits were
    // replaced by a constant, so no gradient reaches their bias.
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < H * N; hi++) {
        const int64_t h = hi / N, i = hi % N;
        const real *r = w.w + hi * N;
        const real *dr = w.dw + hi * N;
        real dot = 0;
        for (int64_t j = 0; j < N; j++) dot += r[j] * dr[j];
        for (int64_t j = 0; j < N; j++)
            w.bb[(i * N + j) * H + h] = (!mask || mask[j] != 0) ? r[j] * (dr[j] - dot) : 0;
    }
    memset(w.dzl, 0, sizeof(real) * (size_t)(NN * d->c_z));
    cpu_linear_bwd(NN, d->c_z, d->H, &p->b, &g->b, w.zl, w.bb, w.dzl);
    cpu_ln_bwd(NN, d->c_z, &p->ln_z, &g->ln_z, z, w.dzl, d_z_v ? CPU_R(d_z_v) : NULL);

    real *dv = o;  // (S, N, H, c_h): do is no longer needed
    pw_perm(d, vt, dv, 0);
    memset(w.dml, 0, sizeof(real) * (size_t)(SN * d->c_m));
    cpu_linear_bwd(SN, d->c_m, hc, &p->v, &g->v, w.ml, dv, w.dml);
    cpu_linear_bwd(SN, d->c_m, hc, &p->g, &g->g, w.ml, gq, w.dml);
    cpu_ln_bwd(SN, d->c_m, &p->ln, &g->ln, m, w.dml, d_m_v ? CPU_R(d_m_v) : NULL);
}
