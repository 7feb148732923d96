// cu_transition.cu: transition block (ReLU, AF2 Alg. 9/15; SwiGLU, AF3 Alg. 11).
// saved: x (M, c). The hidden layer (n or 2n times x) is recomputed by the
// backward rather than kept, and both passes run over chunks of R rows (the
// rows are independent), so the workspace is xl (R, c) | a, b, h (R, nc) |
// dy, dxl (R, c) rather than 3 n times the input: at N = 1024 (M = 2^20 pair
// rows, c = 128, n = 4) 3.75 GiB would otherwise be the largest workspace of a
// Pairformer block. Chunks run in order: gradients stay deterministic.
#include "cu_ops.h"
#include "cu_vec.cuh"

#define TR_CHUNK_ELEMS ((int64_t)1 << 22)  // hidden elements per chunk (R * n * c)

static int64_t tr_rows(const pf_transition_dims *d) {
    int64_t nc = (int64_t)d->n * d->c;
    int64_t r = nc > 0 ? TR_CHUNK_ELEMS / nc : d->M;
    if (r < 1) r = 1;
    return r < d->M ? r : (d->M > 0 ? d->M : 1);
}

typedef struct { void *xl, *a, *b, *h, *dy, *dxl; } tr_ws;

static size_t tr_layout(cu_impl *c, const pf_transition_dims *d, void *ws, tr_ws *w) {
    size_t e = cu_esz(c);
    int64_t M = tr_rows(d), nc = (int64_t)d->n * d->c;
    cu_carver cv = {(char *)ws, 0};
    w->xl = cu_carve(&cv, (size_t)(M * d->c) * e);
    w->a = cu_carve(&cv, (size_t)(M * nc) * e);
    w->b = d->act == PF_ACT_SWIGLU ? cu_carve(&cv, (size_t)(M * nc) * e) : NULL;
    w->h = cu_carve(&cv, (size_t)(M * nc) * e);
    w->dy = cu_carve(&cv, (size_t)(M * d->c) * e);
    w->dxl = cu_carve(&cv, (size_t)(M * d->c) * e);
    return cv.off;
}

pf_mem cu_transition_mem(pf_backend *be, const pf_transition_dims *d) {
    tr_ws w;
    pf_mem m;
    m.ws = tr_layout(CU(be), d, NULL, &w);
    m.saved = (size_t)(d->M * d->c) * cu_esz(CU(be));
    m.ws_fwd = m.ws;  // already pieces of rows: the same workspace serves inference
    return m;
}

template <typename T>
__global__ void k_act_fwd(const T *a, const T *b, T *h, int64_t n) {
    GRID_STRIDE(i, n) {
        float x = ld(a, i);
        st(h, i, b ? x * sigmoidf_(x) * ld(b, i) : fmaxf(x, 0.f));
    }
}
template <typename T>
__global__ void k_act_fwd_v(const T *a, const T *b, T *h, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float x[CU_VEC], y[CU_VEC];
        ld8(a, i, x);
        if (b) {
            ld8(b, i, y);
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) y[k] = x[k] * sigmoidf_(x[k]) * y[k];
        } else {
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) y[k] = fmaxf(x[k], 0.f);
        }
        st8(h, i, y);
    }
}
// a <- da, b <- db from dh
template <typename T>
__global__ void k_act_bwd(T *a, T *b, const T *dh, int64_t n) {
    GRID_STRIDE(i, n) {
        float x = ld(a, i), g = ld(dh, i);
        if (b) {
            float s = sigmoidf_(x), bv = ld(b, i);
            st(a, i, g * bv * s * (1.f + x * (1.f - s)));
            st(b, i, g * x * s);
        } else {
            st(a, i, x > 0 ? g : 0.f);
        }
    }
}

template <typename T>
__global__ void k_act_bwd_v(T *a, T *b, const T *dh, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float x[CU_VEC], g[CU_VEC], bv[CU_VEC];
        ld8(a, i, x);
        ld8(dh, i, g);
        if (b) {
            ld8(b, i, bv);
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) {
                float s = sigmoidf_(x[k]);
                float da = g[k] * bv[k] * s * (1.f + x[k] * (1.f - s));
                bv[k] = g[k] * x[k] * s;
                x[k] = da;
            }
            st8(b, i, bv);
        } else {
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) x[k] = x[k] > 0 ? g[k] : 0.f;
        }
        st8(a, i, x);
    }
}

static void tr_hidden(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const void *x,
                      const tr_ws *w, void *h) {
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    cu_ln_fwd(c, M, d->c, &p->ln, x, w->xl);
    cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_a, w->xl, w->a, 0);
    if (d->act == PF_ACT_SWIGLU) cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_b, w->xl, w->b, 0);
    if (cu_vec_ok(M * nc, w->a, w->b, h))
        CU_DISPATCH(c, T, k_act_fwd_v<T><<<cu_vec_blocks(M * nc), 256, 0, c->stream>>>(
                              (const T *)w->a, (const T *)w->b, (T *)h, M * nc));
    else
        CU_DISPATCH(c, T, k_act_fwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                              (const T *)w->a, (const T *)w->b, (T *)h, M * nc));
    CU_LAUNCHED();
}

// Rows [m0, m0 + r) of a (M, c) act tensor / of a (M) mask.
static const void *rows_at(cu_impl *c, const void *p, int64_t m0, int ch) {
    return p ? (const char *)p + (size_t)(m0 * ch) * cu_esz(c) : NULL;
}

void cu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t R = tr_rows(d), nc = (int64_t)d->n * d->c;
    for (int64_t m0 = 0; m0 < d->M; m0 += R) {
        pf_transition_dims dc = *d;
        dc.M = R < d->M - m0 ? R : d->M - m0;
        void *oc = (void *)rows_at(c, out, m0, d->c);
        tr_hidden(c, &dc, p, rows_at(c, x, m0, d->c), &w, w.h);
        cu_linear_fwd(c, dc.M, (int)nc, d->c, &p->lin_out, w.h, oc, 0);
        if (mask) cu_row_mask(c, oc, oc, rows_at(c, mask, m0, 1), dc.M, d->c);
    }
    if (saved) cu_copy_act(c, saved, x, d->M * d->c);
}

void cu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       pf_transition_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                       pf_act *d_x, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t R = tr_rows(d), nc = (int64_t)d->n * d->c;
    for (int64_t m0 = 0; m0 < d->M; m0 += R) {
        pf_transition_dims dc = *d;
        int64_t M = dc.M = R < d->M - m0 ? R : d->M - m0;
        const void *xc = rows_at(c, saved, m0, d->c);
        tr_hidden(c, &dc, p, xc, &w, w.h);
        const void *dy = rows_at(c, d_out, m0, d->c);
        if (mask) { cu_row_mask(c, w.dy, dy, rows_at(c, mask, m0, 1), M, d->c); dy = w.dy; }
        cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, &g->lin_out, w.h, dy, NULL);
        cu_fill(c, w.h, 0.f, M * nc);
        cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, NULL, NULL, dy, w.h);  // dh
        if (cu_vec_ok(M * nc, w.a, w.b, w.h))
            CU_DISPATCH(c, T, k_act_bwd_v<T><<<cu_vec_blocks(M * nc), 256, 0, c->stream>>>(
                                  (T *)w.a, (T *)w.b, (const T *)w.h, M * nc));
        else
            CU_DISPATCH(c, T, k_act_bwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                                  (T *)w.a, (T *)w.b, (const T *)w.h, M * nc));
        CU_LAUNCHED();
        cu_fill(c, w.dxl, 0.f, M * d->c);
        cu_linear_bwd(c, M, d->c, (int)nc, &p->lin_a, &g->lin_a, w.xl, w.a, w.dxl);
        if (d->act == PF_ACT_SWIGLU) cu_linear_bwd(c, M, d->c, (int)nc, &p->lin_b, &g->lin_b, w.xl, w.b, w.dxl);
        cu_ln_bwd(c, M, d->c, &p->ln, &g->ln, xc, w.dxl, d_x ? (void *)rows_at(c, d_x, m0, d->c) : NULL);
    }
}
