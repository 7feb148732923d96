// cpu_pwavg_dap.c: MSA pair-weighted averaging (AF3 Alg. 10; cpu_pwavg.c has the
// math) on one rank's columns of a column-sharded MSA (axial parallelism,
// backend.h: pwavg_dap). Rank r holds m[:, r n .. (r + 1) n) (S, n, c_m) and rows
// [r n, (r + 1) n) of z (n, N, c_z), the same tokens:
//   ml = LN(m); v, g on its columns                               (S, n, H*c_h)
//   w_ij = softmax_j(LN_z(z_ij) W_b^T) for its rows i             (H, n, N)
//   o_si = g_si * sum_j w_ij v_sj needs v of every column j: v is all-gathered
//   and permuted to (H, N, S, c_h), so the average is one GEMM per head,
//   u_h (n, S*c_h) = w_h (n, N) v_h (N, S*c_h); out = o W_o^T.
// Backward: dv_h = w_h^T du_h is this rank's share of every column's dv (its
// rows i of w): reduce-scattered (all-to-all of column blocks, then a sum in
// rank order: the same bits on every run) back to the owner of column j. dz of
// its rows and dm of its columns are local. Parameter gradients are this rank's
// share (its columns' positions, its rows of z).
//
// saved: m (S, n, c_m) | z (n, N, c_z), copies of the inputs; the backward
//        recomputes every intermediate.
// ws:    ml, dml (S, n, c_m) | vl, gq, ut, o (S, n, H*c_h) | vt (H, N, S, c_h) |
//        zl, dzl (n, N, c_z) | bb (n, N, H) | w, dw (H, n, N) | T1, T2 (S, N, H*c_h):
//        the collectives' buffers.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    int64_t S, N, n;  // MSA rows, all columns, this rank's columns (= rows of z)
    int P, cm, cz, H, ch, hc;
} pd_sz;

typedef struct {
    real *ml, *dml, *vl, *gq, *ut, *o, *vt, *zl, *dzl, *bb, *w, *dw, *T1, *T2;
} pd_ws;

static pd_sz pd_sizes(const pf_pwavg_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("pwavg_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    pd_sz s = {.S = d->S, .N = d->N, .n = d->N / P, .P = P, .cm = d->c_m, .cz = d->c_z, .H = d->H, .ch = d->c_h,
               .hc = d->H * d->c_h};
    return s;
}

static pd_ws pd_carve(const pd_sz *s, void *ws) {
    const int64_t Sn = s->S * s->n, SN = s->S * s->N, nN = s->n * s->N;
    pd_ws w;
    real *p = ws;
    w.ml = p;  p += Sn * s->cm;
    w.dml = p; p += Sn * s->cm;
    w.vl = p;  p += Sn * s->hc;
    w.gq = p;  p += Sn * s->hc;
    w.ut = p;  p += Sn * s->hc;
    w.o = p;   p += Sn * s->hc;
    w.vt = p;  p += SN * s->hc;
    w.zl = p;  p += nN * s->cz;
    w.dzl = p; p += nN * s->cz;
    w.bb = p;  p += nN * s->H;
    w.w = p;   p += nN * s->H;
    w.dw = p;  p += nN * s->H;
    w.T1 = p;  p += SN * s->hc;
    w.T2 = p;
    return w;
}

pf_mem cpu_pwavg_dap_mem(pf_backend *be, const pf_pwavg_dims *d, int P) {
    (void)be;
    pd_sz s = pd_sizes(d, P);
    const int64_t Sn = s.S * s.n, SN = s.S * s.N, nN = s.n * s.N;
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(Sn * s.cm + nN * s.cz);
    m.ws = sizeof(real) * (size_t)(2 * Sn * s.cm + 4 * Sn * s.hc + 3 * SN * s.hc + 2 * nN * s.cz + 3 * nN * s.H);
    m.ws_fwd = m.ws;
    return m;
}

// Offset of element (s, j, h, e) in the (H, J, S, c_h) layout of J columns.
static inline int64_t pd_tidx(const pd_sz *z, int64_t J, int64_t s, int64_t j, int64_t h, int64_t e) {
    return ((h * J + j) * z->S + s) * z->ch + e;
}

// Everything up to u: ml; v gathered into vt (H, N, S, c_h); g (pre-sigmoid) in gq;
// zl, bb; w (H, n, N); ut (H, n, S, c_h).
static void pd_forward_core(const pd_sz *s, const pf_pwavg_p *p, const real *m, const real *z, const real *mask,
                            const pd_ws *w, const pf_dap_comm *cm) {
    const int64_t Sn = s->S * s->n, nN = s->n * s->N, N = s->N, n = s->n, Sch = s->S * s->ch;
    cpu_ln_fwd(Sn, s->cm, &p->ln, m, w->ml, NULL, NULL);
    cpu_linear_fwd(Sn, s->cm, s->hc, &p->v, w->ml, w->vl, 0);
    cm->all_gather(cm, w->vl, w->T1, sizeof(real) * (size_t)(Sn * s->hc));  // [q][S][n][H][c_h]
#pragma omp parallel for schedule(static)
    for (int64_t hj = 0; hj < s->H * N; hj++) {
        const int64_t h = hj / N, j = hj % N, q = j / n, jl = j % n;
        for (int64_t r = 0; r < s->S; r++)
            memcpy(w->vt + pd_tidx(s, N, r, j, h, 0), w->T1 + q * Sn * s->hc + ((r * n + jl) * s->H + h) * s->ch,
                   sizeof(real) * (size_t)s->ch);
    }
    cpu_linear_fwd(Sn, s->cm, s->hc, &p->g, w->ml, w->gq, 0);
    cpu_ln_fwd(nN, s->cz, &p->ln_z, z, w->zl, NULL, NULL);
    cpu_linear_fwd(nN, s->cz, s->H, &p->b, w->zl, w->bb, 0);  // (n, N, H)
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < s->H * n; hi++) {  // softmax over j of each row (h, i), masked as cpu_pwavg.c
        const int64_t h = hi / n, i = hi % n;
        real *r = w->w + hi * N;
        real mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < N; j++) {
            r[j] = (!mask || mask[j] != 0) ? w->bb[(i * N + j) * s->H + h] : -PF_MASK_INF;
            if (r[j] > mx) mx = r[j];
        }
        for (int64_t j = 0; j < N; j++) { r[j] = (real)exp(r[j] - mx); sum += r[j]; }
        for (int64_t j = 0; j < N; j++) r[j] /= sum;
    }
    for (int64_t h = 0; h < s->H; h++)
        cpu_gemm(0, 0, n, Sch, N, 1, w->w + h * nN, N, w->vt + h * N * Sch, Sch, 0, w->ut + h * n * Sch, Sch);
}

// o (S, n, H, c_h) = sigmoid(g) * u, u read from its (H, n, S, c_h) layout.
static void pd_gate(const pd_sz *s, const real *g, const real *ut, real *o) {
    const int64_t n = s->n;
#pragma omp parallel for schedule(static)
    for (int64_t sn = 0; sn < s->S * n; sn++)
        for (int64_t h = 0; h < s->H; h++)
            for (int64_t e = 0; e < s->ch; e++) {
                const int64_t q = (sn * s->H + h) * s->ch + e;
                o[q] = cpu_sigmoid(g[q]) * ut[pd_tidx(s, n, sn / n, sn % n, h, e)];
            }
}

void cpu_pwavg_dap_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m_v,
                       const pf_act *z_v, const pf_act *mask_v, pf_act *out_v, void *saved, void *ws,
                       const pf_dap_comm *cm) {
    (void)be;
    pd_sz s = pd_sizes(d, cm->size);
    const real *m = CPU_CR(m_v);        // (S, n, c_m)
    const real *z = CPU_CR(z_v);        // (n, N, c_z)
    const int64_t Sn = s.S * s.n, nN = s.n * s.N;
    pd_ws w = pd_carve(&s, ws);
    pd_forward_core(&s, p, m, z, CPU_CR(mask_v), &w, cm);
    pd_gate(&s, w.gq, w.ut, w.o);
    cpu_linear_fwd(Sn, s.hc, s.cm, &p->o, w.o, CPU_R(out_v), 0);
    if (saved) {
        memcpy(saved, m, sizeof(real) * (size_t)(Sn * s.cm));
        memcpy((real *)saved + Sn * s.cm, z, sizeof(real) * (size_t)(nN * s.cz));
    }
}

// dv of every column (vt, this rank's share) summed back to the owners: T1
// [q][S][n][H][c_h] holds the columns of rank q; after the all-to-all T2 [q]
// holds rank q's share of this rank's columns, added in rank order into dv.
static void pd_reduce_scatter_dv(const pd_sz *s, const pd_ws *w, real *dv, const pf_dap_comm *cm) {
    const int64_t Sn = s->S * s->n, blk = Sn * s->hc, N = s->N, n = s->n;
#pragma omp parallel for schedule(static)
    for (int64_t hj = 0; hj < s->H * N; hj++) {
        const int64_t h = hj / N, j = hj % N, q = j / n, jl = j % n;
        for (int64_t r = 0; r < s->S; r++)
            memcpy(w->T1 + q * blk + ((r * n + jl) * s->H + h) * s->ch, w->vt + pd_tidx(s, N, r, j, h, 0),
                   sizeof(real) * (size_t)s->ch);
    }
    cm->all_to_all(cm, w->T1, w->T2, sizeof(real) * (size_t)blk);
    memcpy(dv, w->T2, sizeof(real) * (size_t)blk);
    for (int q = 1; q < s->P; q++) cpu_axpy(blk, 1, w->T2 + q * blk, dv);
}

// o = sigmoid(g) * u: gq becomes d g (pre-sigmoid), ut d u, in place; dO (S, n, H, c_h).
static void pd_gate_bwd(const pd_sz *s, const real *dO, real *gq, real *ut) {
    const int64_t n = s->n;
#pragma omp parallel for schedule(static)
    for (int64_t sn = 0; sn < s->S * n; sn++)
        for (int64_t h = 0; h < s->H; h++)
            for (int64_t e = 0; e < s->ch; e++) {
                const int64_t q = (sn * s->H + h) * s->ch + e, t = pd_tidx(s, n, sn / n, sn % n, h, e);
                real sg = cpu_sigmoid(gq[q]);
                gq[q] = dO[q] * ut[t] * sg * (1 - sg);
                ut[t] = dO[q] * sg;
            }
}

void cpu_pwavg_dap_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                       const pf_act *mask_v, const void *saved, const pf_act *d_out_v, pf_act *d_m_v,
                       pf_act *d_z_v, void *ws, const pf_dap_comm *cm) {
    (void)be;
    pd_sz s = pd_sizes(d, cm->size);
    const int64_t Sn = s.S * s.n, nN = s.n * s.N, N = s.N, n = s.n, Sch = s.S * s.ch;
    const real *m = saved;                            // (S, n, c_m)
    const real *z = (const real *)saved + Sn * s.cm;  // (n, N, c_z)
    const real *mask = CPU_CR(mask_v);                // (N) or NULL
    const real *d_out = CPU_CR(d_out_v);              // (S, n, c_m)
    pd_ws w = pd_carve(&s, ws);
    pd_forward_core(&s, p, m, z, mask, &w, cm);
    pd_gate(&s, w.gq, w.ut, w.o);
    cpu_linear_bwd(Sn, s.hc, s.cm, &p->o, &g->o, w.o, d_out, NULL);
    memset(w.o, 0, sizeof(real) * (size_t)(Sn * s.hc));
    cpu_linear_bwd(Sn, s.hc, s.cm, &p->o, NULL, NULL, d_out, w.o);  // o now holds d o
    pd_gate_bwd(&s, w.o, w.gq, w.ut);
    // u_h = w_h v_h: dw_h = du_h v_h^T (n, N), dv_h = w_h^T du_h (N, S*c_h) into vt.
    for (int64_t h = 0; h < s.H; h++) {
        real *vth = w.vt + h * N * Sch, *duh = w.ut + h * n * Sch;
        cpu_gemm(0, 1, n, N, Sch, 1, duh, Sch, vth, Sch, 0, w.dw + h * nN, N);
        cpu_gemm(1, 0, N, Sch, n, 1, w.w + h * nN, N, duh, Sch, 0, vth, Sch);
    }
    // Softmax backward per row (h, i) into d bb (n, N, H); masked logits were constants.
#pragma omp parallel for schedule(static)
    for (int64_t hi = 0; hi < s.H * n; hi++) {
        const int64_t h = hi / n, i = hi % n;
        const real *r = w.w + hi * N, *dr = w.dw + hi * N;
        real dot = 0;
        for (int64_t j = 0; j < N; j++) dot += r[j] * dr[j];
        for (int64_t j = 0; j < N; j++) w.bb[(i * N + j) * s.H + h] = (!mask || mask[j] != 0) ? r[j] * (dr[j] - dot) : 0;
    }
    memset(w.dzl, 0, sizeof(real) * (size_t)(nN * s.cz));
    cpu_linear_bwd(nN, s.cz, s.H, &p->b, &g->b, w.zl, w.bb, w.dzl);
    cpu_ln_bwd(nN, s.cz, &p->ln_z, &g->ln_z, z, w.dzl, d_z_v ? CPU_R(d_z_v) : NULL);
    real *dv = w.vl;  // (S, n, H, c_h): v of the rank's columns is no longer needed
    pd_reduce_scatter_dv(&s, &w, dv, cm);
    memset(w.dml, 0, sizeof(real) * (size_t)(Sn * s.cm));
    cpu_linear_bwd(Sn, s.cm, s.hc, &p->v, &g->v, w.ml, dv, w.dml);
    cpu_linear_bwd(Sn, s.cm, s.hc, &p->g, &g->g, w.ml, w.gq, w.dml);
    cpu_ln_bwd(Sn, s.cm, &p->ln, &g->ln, m, w.dml, d_m_v ? CPU_R(d_m_v) : NULL);
}
