// cu_transition.cu: transition block (ReLU, AF2 Alg. 9/15; SwiGLU, AF3 Alg. 11).
// saved: x (M, c). The hidden layer (n or 2n times x) is recomputed by the
// backward rather than kept. ws: xl (M, c) | a, b, h (M, nc) | dy, dxl (M, c).
#include "cu_ops.h"

typedef struct { void *xl, *a, *b, *h, *dy, *dxl; } tr_ws;

static size_t tr_layout(cu_impl *c, const pf_transition_dims *d, void *ws, tr_ws *w) {
    size_t e = cu_esz(c);
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
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
    return m;
}

template <typename T>
__global__ void k_act_fwd(const T *a, const T *b, T *h, int64_t n) {
    GRID_STRIDE(i, n) {
        float x = ld(a, i);
        st(h, i, b ? x * sigmoidf_(x) * ld(b, i) : fmaxf(x, 0.f));
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

static void tr_hidden(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const void *x,
                      const tr_ws *w, void *h) {
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    cu_ln_fwd(c, M, d->c, &p->ln, x, w->xl);
    cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_a, w->xl, w->a, 0);
    if (d->act == PF_ACT_SWIGLU) cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_b, w->xl, w->b, 0);
    CU_DISPATCH(c, T, k_act_fwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                          (const T *)w->a, (const T *)w->b, (T *)h, M * nc));
    CU_LAUNCHED();
}

void cu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    tr_hidden(c, d, p, x, &w, w.h);
    cu_linear_fwd(c, M, (int)nc, d->c, &p->lin_out, w.h, out, 0);
    if (mask) cu_row_mask(c, out, out, mask, M, d->c);
    if (saved) cu_copy_act(c, saved, x, M * d->c);
}

void cu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       pf_transition_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                       pf_act *d_x, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    tr_hidden(c, d, p, saved, &w, w.h);
    const void *dy = d_out;
    if (mask) { cu_row_mask(c, w.dy, d_out, mask, M, d->c); dy = w.dy; }
    cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, &g->lin_out, w.h, dy, NULL);
    cu_fill(c, w.h, 0.f, M * nc);
    cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, NULL, NULL, dy, w.h);  // dh
    CU_DISPATCH(c, T, k_act_bwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                          (T *)w.a, (T *)w.b, (const T *)w.h, M * nc));
    CU_LAUNCHED();
    cu_fill(c, w.dxl, 0.f, M * d->c);
    cu_linear_bwd(c, M, d->c, (int)nc, &p->lin_a, &g->lin_a, w.xl, w.a, w.dxl);
    if (d->act == PF_ACT_SWIGLU) cu_linear_bwd(c, M, d->c, (int)nc, &p->lin_b, &g->lin_b, w.xl, w.b, w.dxl);
    cu_ln_bwd(c, M, d->c, &p->ln, &g->ln, saved, w.dxl, d_x);
}
