// cpu_global_attn.c: MSA column-wise global attention, AF2 Alg. 19 (extra-MSA
// stack), following OpenFold's MSAColumnGlobalAttention / GlobalAttention.
// m (S, N, c_in) is attended along S for every column n, mask (S, N):
//   mln = LN(m)
//   q_n = (sum_s mask_sn mln_sn / (sum_s mask_sn + 1e-10)) W_q^T / sqrt(c_h)  (H, c_h)
//   k_sn, v_sn = mln_sn W_k^T, mln_sn W_v^T          one shared head (c_h)
//   a_nh = softmax_s(mask_sn ? q_nh . k_sn : -1e9),     o_nh = sum_s a_nhs v_sn
//   g_sn = sigmoid(mln_sn W_g^T + b_g)                 (H*c_h)
//   out_sn = (g_sn * o_n) W_o^T + b_o
// (modules.h masking rule: a masked key's logit is replaced by -1e9, where
// OpenFold adds 1e9 (mask - 1); identical unless a column is fully masked, which
// then averages v uniformly and sends no gradient to q or k.)
// Projections are BLAS calls over all S*N positions; the per-column products are
// small plain loops inside one OpenMP loop over columns (OpenBLAS is never called
// from inside a parallel region).
//
// saved (reals, in order):
//   m  (S*N, c_in)   input, for the LayerNorm backward
//   q  (N, H*c_h)    scaled by 1/sqrt(c_h)
//   k  (S*N, c_h), v (S*N, c_h)
//   g  (S*N, H*c_h)  sigmoid gate
//   o  (N, H*c_h)    attention output before gating
//   P  (N, H, S)     softmax probabilities
// ws (reals, in order), shared by fwd and bwd:
//   mln (S*N, c_in), qm (N, c_in) masked mean of mln, og (S*N, H*c_h),
//   then slots used by fwd with saved == NULL for q, k, v, g, o, P and by bwd
//   for their gradients (same shapes, same order), then d_qm (N, c_in), d_mln (S*N, c_in).
#include <math.h>
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

#ifdef PF_DOUBLE
#define GATTN_EXP exp
#else
#define GATTN_EXP expf
#endif

#define GATTN_EPS 1e-10  // OpenFold GlobalAttention eps of the masked mean

typedef struct {
    int64_t S, N, M, HC;                 // M = S*N positions, HC = H*c_h
    int64_t nm, nqm, nq, nk, ng, np;     // element counts: m, qm, q / o, k / v, g / og, P
} gattn_sz;

static gattn_sz gattn_sizes(const pf_global_attn_dims *d) {
    gattn_sz s;
    s.S = d->S;
    s.N = d->N;
    s.M = d->S * d->N;
    s.HC = (int64_t)d->H * d->c_h;
    s.nm = s.M * d->c_in;
    s.nqm = s.N * d->c_in;
    s.nq = s.N * s.HC;
    s.nk = s.M * d->c_h;
    s.ng = s.M * s.HC;
    s.np = s.N * d->H * s.S;
    return s;
}

typedef struct { real *q, *k, *v, *g, *o, *P; } gattn_acts;  // also their gradients

static real *gattn_acts_view(const gattn_sz *s, real *b, gattn_acts *a) {
    a->q = b; b += s->nq;
    a->k = b; b += s->nk;
    a->v = b; b += s->nk;
    a->g = b; b += s->ng;
    a->o = b; b += s->nq;
    a->P = b; b += s->np;
    return b;
}

typedef struct { real *mln, *qm, *og, *d_qm, *d_mln; gattn_acts a; } gattn_ws;

static gattn_ws gattn_ws_view(const gattn_sz *s, real *b) {
    gattn_ws w;
    w.mln = b; b += s->nm;
    w.qm = b; b += s->nqm;
    w.og = b; b += s->ng;
    b = gattn_acts_view(s, b, &w.a);
    w.d_qm = b; b += s->nqm;
    w.d_mln = b;
    return w;
}

pf_mem cpu_global_attn_mem(pf_backend *be, const pf_global_attn_dims *d) {
    gattn_sz s = gattn_sizes(d);
    const int64_t acts = 2 * s.nq + 2 * s.nk + s.ng + s.np;
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(s.nm + acts);
    m.ws = sizeof(real) * (size_t)(2 * s.nm + 2 * s.nqm + s.ng + acts);
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}

// mln (S*N, c) -> qm (N, c): masked mean over s, summed in s order per column.
static void gattn_masked_mean(const gattn_sz *s, int c, const real *mln, const real *mask, real *qm) {
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < s->N; n++) {
        real *qn = qm + n * c, den = 0;
        for (int i = 0; i < c; i++) qn[i] = 0;
        for (int64_t t = 0; t < s->S; t++) {
            const real mk = mask ? mask[t * s->N + n] : 1;
            const real *x = mln + (t * s->N + n) * c;
            for (int i = 0; i < c; i++) qn[i] += x[i] * mk;
            den += mk;
        }
        const real inv = (real)(1.0 / ((double)den + GATTN_EPS));
        for (int i = 0; i < c; i++) qn[i] *= inv;
    }
}

void cpu_global_attn_fwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                         const pf_act *m_, const pf_act *mask_, pf_act *out, void *saved, void *ws) {
    gattn_sz s = gattn_sizes(d);
    gattn_ws w = gattn_ws_view(&s, CPU_R(ws));
    const real *m = CPU_CR(m_), *mask = mask_ ? CPU_CR(mask_) : NULL;
    const int c_in = d->c_in, H = d->H, ch = d->c_h, HC = (int)s.HC;
    const int64_t S = s.S, N = s.N;
    gattn_acts a = w.a;  // inference: activations live in the workspace
    if (saved) {
        memcpy(saved, m, sizeof(real) * (size_t)s.nm);
        gattn_acts_view(&s, CPU_R(saved) + s.nm, &a);
    }

    cpu_ln_fwd(s.M, c_in, &p->ln, m, w.mln, NULL, NULL);  // (S*N, c_in)
    gattn_masked_mean(&s, c_in, w.mln, mask, w.qm);       // (N, c_in)
    cpu_linear_fwd(N, c_in, HC, &p->q, w.qm, a.q, 0);     // (N, H*c_h)
    const real qscale = (real)(1.0 / sqrt((double)ch));
    for (int64_t i = 0; i < s.nq; i++) a.q[i] *= qscale;
    cpu_linear_fwd(s.M, c_in, ch, &p->k, w.mln, a.k, 0);  // (S*N, c_h)
    cpu_linear_fwd(s.M, c_in, ch, &p->v, w.mln, a.v, 0);
    cpu_linear_fwd(s.M, c_in, HC, &p->g, w.mln, a.g, 0);  // (S*N, H*c_h)
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.ng; i++) a.g[i] = cpu_sigmoid(a.g[i]);

#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; n++)
        for (int h = 0; h < H; h++) {
            const real *qh = a.q + n * HC + h * ch;
            real *Ph = a.P + (n * H + h) * S;  // (S)
            for (int64_t t = 0; t < S; t++) {
                const real *kt = a.k + (t * N + n) * ch;
                real acc = 0;
                for (int c = 0; c < ch; c++) acc += qh[c] * kt[c];
                Ph[t] = mask && mask[t * N + n] == 0 ? -PF_MASK_INF : acc;
            }
            real mx = Ph[0], sum = 0;
            for (int64_t t = 1; t < S; t++) mx = Ph[t] > mx ? Ph[t] : mx;
            for (int64_t t = 0; t < S; t++) { Ph[t] = GATTN_EXP(Ph[t] - mx); sum += Ph[t]; }
            const real inv = 1 / sum;
            real *oh = a.o + n * HC + h * ch;
            for (int c = 0; c < ch; c++) oh[c] = 0;
            for (int64_t t = 0; t < S; t++) {
                Ph[t] *= inv;
                const real *vt = a.v + (t * N + n) * ch;
                for (int c = 0; c < ch; c++) oh[c] += Ph[t] * vt[c];
            }
        }

#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.M; i++) {
        const real *on = a.o + (i % N) * HC;
        for (int j = 0; j < HC; j++) w.og[i * HC + j] = a.g[i * HC + j] * on[j];
    }
    cpu_linear_fwd(s.M, HC, c_in, &p->o, w.og, CPU_R(out), 0);  // (S*N, c_in)
}

void cpu_global_attn_bwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                         pf_global_attn_p *g, const pf_act *mask_, const void *saved,
                         const pf_act *d_out, pf_act *d_m, void *ws) {
    gattn_sz s = gattn_sizes(d);
    gattn_ws w = gattn_ws_view(&s, CPU_R(ws));
    const real *m = (const real *)saved, *mask = mask_ ? CPU_CR(mask_) : NULL;
    gattn_acts a, da = w.a;  // saved activations, their gradients
    gattn_acts_view(&s, (real *)saved + s.nm, &a);
    const int c_in = d->c_in, H = d->H, ch = d->c_h, HC = (int)s.HC;
    const int64_t S = s.S, N = s.N;
    const real qscale = (real)(1.0 / sqrt((double)ch));

    cpu_ln_fwd(s.M, c_in, &p->ln, m, w.mln, NULL, NULL);
    gattn_masked_mean(&s, c_in, w.mln, mask, w.qm);

    // out = og W_o^T + b_o; da.g first holds d og
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.M; i++) {
        const real *on = a.o + (i % N) * HC;
        for (int j = 0; j < HC; j++) {
            w.og[i * HC + j] = a.g[i * HC + j] * on[j];
            da.g[i * HC + j] = 0;
        }
    }
    cpu_linear_bwd(s.M, HC, c_in, &p->o, &g->o, w.og, CPU_CR(d_out), da.g);
    // og_sn = g_sn * o_n: d o_n = sum_s d og_sn * g_sn; d g_pre = d og * o * g (1 - g)
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; n++) {
        real *don = da.o + n * HC;
        const real *on = a.o + n * HC;
        for (int j = 0; j < HC; j++) don[j] = 0;
        for (int64_t t = 0; t < S; t++) {
            const int64_t i = (t * N + n) * HC;
            for (int j = 0; j < HC; j++) {
                const real gi = a.g[i + j], dog = da.g[i + j];
                don[j] += dog * gi;
                da.g[i + j] = dog * on[j] * gi * (1 - gi);
            }
        }
    }

    // Per column: dlogits = P (dP - sum P dP) with dP_s = d o . v_s; then dq, dk, dv.
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; n++) {
        for (int h = 0; h < H; h++) {
            const real *Ph = a.P + (n * H + h) * S, *doh = da.o + n * HC + h * ch;
            real *dSh = da.P + (n * H + h) * S, dot = 0;
            for (int64_t t = 0; t < S; t++) {
                const real *vt = a.v + (t * N + n) * ch;
                real acc = 0;
                for (int c = 0; c < ch; c++) acc += doh[c] * vt[c];
                dSh[t] = acc;
                dot += Ph[t] * acc;
            }
            real *dqh = da.q + n * HC + h * ch;
            for (int c = 0; c < ch; c++) dqh[c] = 0;
            for (int64_t t = 0; t < S; t++) {
                dSh[t] = mask && mask[t * N + n] == 0 ? 0 : Ph[t] * (dSh[t] - dot);
                const real *kt = a.k + (t * N + n) * ch;
                for (int c = 0; c < ch; c++) dqh[c] += dSh[t] * kt[c];
            }
            for (int c = 0; c < ch; c++) dqh[c] *= qscale;  // d of the unscaled q
        }
        for (int64_t t = 0; t < S; t++) {
            real *dkt = da.k + (t * N + n) * ch, *dvt = da.v + (t * N + n) * ch;
            for (int c = 0; c < ch; c++) { dkt[c] = 0; dvt[c] = 0; }
            for (int h = 0; h < H; h++) {
                const real ds = da.P[(n * H + h) * S + t], pr = a.P[(n * H + h) * S + t];
                const real *qh = a.q + n * HC + h * ch, *doh = da.o + n * HC + h * ch;
                for (int c = 0; c < ch; c++) { dkt[c] += ds * qh[c]; dvt[c] += pr * doh[c]; }
            }
        }
    }

    memset(w.d_qm, 0, sizeof(real) * (size_t)s.nqm);
    cpu_linear_bwd(N, c_in, HC, &p->q, &g->q, w.qm, da.q, w.d_qm);
    // masked mean: d mln_sn = d qm_n * mask_sn / (sum_s mask_sn + eps)
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; n++) {
        real den = 0;
        for (int64_t t = 0; t < S; t++) den += mask ? mask[t * N + n] : 1;
        const real inv = (real)(1.0 / ((double)den + GATTN_EPS));
        for (int64_t t = 0; t < S; t++) {
            const real f = (mask ? mask[t * N + n] : 1) * inv;
            real *dx = w.d_mln + (t * N + n) * c_in;
            for (int i = 0; i < c_in; i++) dx[i] = f * w.d_qm[n * c_in + i];
        }
    }
    cpu_linear_bwd(s.M, c_in, ch, &p->k, &g->k, w.mln, da.k, w.d_mln);
    cpu_linear_bwd(s.M, c_in, ch, &p->v, &g->v, w.mln, da.v, w.d_mln);
    cpu_linear_bwd(s.M, c_in, HC, &p->g, &g->g, w.mln, da.g, w.d_mln);
    cpu_ln_bwd(s.M, c_in, &p->ln, &g->ln, m, w.d_mln, d_m ? CPU_R(d_m) : NULL);
}
