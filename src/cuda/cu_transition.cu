// cu_transition.cu: transition block (ReLU, AF2 Alg. 9/15; SwiGLU, AF3 Alg. 11).
// saved: x (M, c). The hidden layer (n or 2n times x) is recomputed by the
// backward rather than kept, and both passes run over chunks of R rows (the
// rows are independent), so the workspace is xl (R, c) | a, b, h (R, nc) |
// dy, dxl (R, c) rather than 3 n times the input: at N = 1024 (M = 2^20 pair
// rows, c = 128, n = 4) 3.75 GiB would otherwise be the largest workspace of a
// Pairformer block. Chunks run in order: gradients stay deterministic.
//
// Chunk size: 256 Mi hidden elements (R n c) by default (PF_TR_CHUNK_M), capped so
// that the workspace is at most 8 times the input x (PF_TR_WS_CAP; and never below the
// former fixed 4 Mi elements, 30 MiB at c = 128, n = 4): 2 chunks at N = 512 and 1024,
// 8 at 2048, each with its LN, GEMMs, activation and mask kernels and a weight-gradient
// GEMM per Linear. Session 8 set 64 Mi and twice x (8 chunks at N = 512 and 1024);
// session 19 measured the larger chunks faster on the H200 (PF_TR_WS_CAP=8
// PF_TR_CHUNK_M=256: transition f+b 2.29 / 6.45-6.49 / 26.01 -> 1.67 / 5.91 / 24.32 ms at
// N = 512 / 1024 / 2048; block f+b at 512 12.93 -> 12.34 ms) with the same block peaks:
// the transition's workspace (1.9 GiB at most at c = 128) stays under the triangle
// attention's in a Pairformer block (0.7 / 2.9 / 8.4 GiB at 512 / 1024 / 2048).
//
// bf16 with c a multiple of 8 takes the fused hidden layer (cu_transition_fused.cu):
// h = act(xl W^T) * mask in one kernel (no a, b buffers in the forward), [da | db]
// from dh in one kernel; a mask with no output bias is folded into h (forward) and
// dh (backward), so no row-mask kernels run; the input LayerNorm runs in the forward
// kernel's prologue (xl written out only for the backward's GEMMs). PF_TR_FUSED=0
// keeps the unfused path, PF_TR_FUSED=2 the fused kernels after a LayerNorm kernel.
// PF_TR_HID=5: the backward's grad kernel also writes h (over dh) and xl, and dW_out
// follows it, so the backward runs no forward hidden-layer kernel (the same bits).
// At c 64 / 128 on sm_90 (session 25; the default, off in session 26 only, until a training
// hang was traced to k_two): the forward's hidden layer and output projection in one
// kernel (PF_TR_WGO=1, cu_transition_wgo.cu: no h buffer written or read) and the
// backward's dh made inside its hidden-layer kernel (PF_TR_WGB=1, cu_transition_wgb.cu:
// no dh GEMM, no dh buffer).
#include "cu_transition.cuh"
#include "cu_vec.cuh"
#include "cuda_backend.h"
#include "cu_env.cuh"

#define TR_CHUNK_DEFAULT ((int64_t)256 << 20)  // hidden elements per chunk (R * n * c)
#define TR_CHUNK_FLOOR ((int64_t)1 << 22)     // the former fixed chunk: the cap never goes below it

int64_t cu_tr_chunk_env(void) {
    return (int64_t)cu_env_int("PF_TR_CHUNK_M", 1, 4096, TR_CHUNK_DEFAULT >> 20,
                               "the transition's hidden elements per row chunk in units of 2^20")
           << 20;
}

// PF_TR_WS_CAP: the workspace cap in units of the input's bytes (1..64; default 8 since
// session 19, 2 before): fewer, larger chunks where a Pairformer block's attention workspace
// (about 11 z-sized copies) leaves room. Process-wide, read at the first plan;
// pf_cuda_set_tr_ws_cap (tests).
static int g_tr_ws_cap = -1;
static int tr_ws_cap(void) {
    if (g_tr_ws_cap < 0)
        g_tr_ws_cap =
            (int)cu_env_int("PF_TR_WS_CAP", 1, 64, 8, "the transition's workspace cap in units of its input's bytes");
    return g_tr_ws_cap;
}
extern "C" void pf_cuda_set_tr_ws_cap(pf_backend *be, int k) {
    (void)be;
    g_tr_ws_cap = k >= 1 && k <= 64 ? k : -1;  // else: PF_TR_WS_CAP / the default again
}

// Rows per chunk: the target (c->tr_chunk hidden elements), at most the rows whose
// workspace is PF_TR_WS_CAP (8) times the input's bytes (but at least TR_CHUNK_FLOOR elements), a
// multiple of 128 (the fused kernels' row tile) when above it.
static int64_t tr_rows(const cu_impl *c, const pf_transition_dims *d) {
    int64_t nc = (int64_t)d->n * d->c, per_row = 3 * (int64_t)d->c + 3 * nc;  // ws elements per row
    if (nc <= 0 || d->M <= 0) return d->M > 0 ? d->M : 1;
    int64_t target = (c->tr_chunk > 0 ? c->tr_chunk : TR_CHUNK_DEFAULT) / nc;
    int64_t cap = tr_ws_cap() * d->M * d->c / per_row, floor_rows = TR_CHUNK_FLOOR / nc;
    if (cap < floor_rows) cap = floor_rows;
    int64_t r = target < cap ? target : cap;
    if (r > 128) r -= r % 128;
    if (r < 1) r = 1;
    return r < d->M ? r : d->M;
}

// ab: a | b (R, nc) each (unfused), or the fused backward's [da | db] (R, 2 nc).
typedef struct { void *xl, *ab, *h, *dy, *dxl; } tr_ws;

static size_t tr_layout(cu_impl *c, const pf_transition_dims *d, void *ws, tr_ws *w) {
    size_t e = cu_esz(c);
    int64_t M = tr_rows(c, d), nc = (int64_t)d->n * d->c;
    cu_carver cv = {(char *)ws, 0};
    w->xl = cu_carve(&cv, (size_t)(M * d->c) * e);
    w->ab = cu_carve(&cv, (size_t)(M * nc * (d->act == PF_ACT_SWIGLU ? 2 : 1)) * e);
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

// h (R, nc) and, where need_xl or unfused, xl = LN(x): the fused kernel (pk non-NULL;
// h times hmask; the LayerNorm in its prologue unless tr_fused is 2), or the GEMMs
// into a, b and the activation kernel.
static void tr_hidden(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                      const void *x, const void *hmask, int need_xl, const tr_ws *w) {
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    if (pk && c->tr_fused == 1 && !((uintptr_t)x & 15)) {  // cp.async reads x rows: 16-byte aligned
        cu_tr_hidden_fused(c, d, pk, M, x, &p->ln, need_xl ? w->xl : NULL, hmask, w->h);
        return;
    }
    cu_ln_fwd(c, M, d->c, &p->ln, x, w->xl);
    if (pk) {
        cu_tr_hidden_fused(c, d, pk, M, w->xl, NULL, NULL, hmask, w->h);
        return;
    }
    void *a = w->ab, *b = d->act == PF_ACT_SWIGLU ? (char *)w->ab + (size_t)(M * nc) * cu_esz(c) : NULL;
    cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_a, w->xl, a, 0);
    if (b) cu_linear_fwd(c, M, d->c, (int)nc, &p->lin_b, w->xl, b, 0);
    if (cu_vec_ok(M * nc, a, b, w->h))
        CU_DISPATCH(c, T, k_act_fwd_v<T><<<cu_vec_blocks(M * nc), 256, 0, c->stream>>>(
                              (const T *)a, (const T *)b, (T *)w->h, M * nc));
    else
        CU_DISPATCH(c, T, k_act_fwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                              (const T *)a, (const T *)b, (T *)w->h, M * nc));
    CU_LAUNCHED();
}

// Rows [m0, m0 + r) of a (M, c) act tensor / of a (M) mask.
static const void *rows_at(cu_impl *c, const void *p, int64_t m0, int ch) {
    return p ? (const char *)p + (size_t)(m0 * ch) * cu_esz(c) : NULL;
}

// The fused path's packed weights (pool scratch from the caller's mark) or NULL, and
// whether the mask folds into h: out = mask (h W^T) = (mask h) W^T with no output bias.
static const cu_tr_packed *tr_prepare(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p,
                                      const void *mask, cu_tr_packed *pk, int *fold) {
    *fold = 0;
    if (!cu_tr_fused_applies(c, d, p)) return NULL;
    cu_tr_pack(c, d, p, pk);
    *fold = mask && !p->lin_out.b;
    return pk;
}

void cu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t R = tr_rows(c, d), nc = (int64_t)d->n * d->c;
    size_t mark = cu_pool_mark(c);
    cu_tr_packed pks;
    int fold;
    const cu_tr_packed *pk = tr_prepare(c, d, p, mask, &pks, &fold);
    for (int64_t m0 = 0; m0 < d->M; m0 += R) {
        pf_transition_dims dc = *d;
        dc.M = R < d->M - m0 ? R : d->M - m0;
        void *oc = (void *)rows_at(c, out, m0, d->c);
        const void *mc = rows_at(c, mask, m0, 1), *xc = rows_at(c, x, m0, d->c);
        if (pk && cu_trwo_applies(c, &dc, pk, p, xc, oc)) {  // h never stored (cu_transition_wgo.cu)
            cu_trwo_forward(c, &dc, p, pk, xc, fold ? mc : NULL, mask && !fold ? mc : NULL, oc);
            continue;
        }
        tr_hidden(c, &dc, p, pk, xc, fold ? mc : NULL, 0, &w);
        cu_linear_fwd(c, dc.M, (int)nc, d->c, &p->lin_out, w.h, oc, 0);
        if (mask && !fold) cu_row_mask(c, oc, oc, mc, dc.M, d->c);
    }
    cu_pool_release(c, mark);
    if (saved) cu_copy_act(c, saved, x, d->M * d->c);
}

// dW (out, in) += dy^T x (and the bias gradient) when g; dx = dy W + beta dx when dx.
// dy (R, out) with row stride ldy: da, db side by side in the fused [da | db].
static void tr_lin_bwd(cu_impl *c, int64_t R, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                       const void *x, const void *dy, int64_t ldy, void *dx, float beta) {
    if (g) {
        cu_gemm(c, 1, 0, out, in, R, 1.f, dy, CU_ACT, ldy, x, CU_ACT, in, 1.f, g->w, CU_F32, in, 1, 0, 0, 0, NULL);
        if (g->b && ldy != out) pf_die("cu_transition: a bias gradient from strided rows");  // cu_tr_fused_applies
        if (g->b) cu_colsum_add(c, R, out, dy, CU_ACT, g->b, 1.f);
    }
    if (dx) {
        const void *w = cu_weight(c, p->w, (size_t)out * in);
        cu_gemm(c, 0, 0, R, in, out, 1.f, dy, CU_ACT, ldy, w, CU_ACT, in, beta, dx, CU_ACT, in, 1, 0, 0, 0, NULL);
    }
}

// From dh (w->h): a <- da, b <- db (unfused, in place), or [da | db] (fused).
static void tr_act_bwd(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, const void *hmask,
                       const tr_ws *w) {
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    if (pk) {
        cu_tr_hidden_grad_fused(c, d, pk, M, w->xl, NULL, NULL, hmask, w->h, w->ab);
        return;
    }
    void *a = w->ab, *b = d->act == PF_ACT_SWIGLU ? (char *)w->ab + (size_t)(M * nc) * cu_esz(c) : NULL;
    if (cu_vec_ok(M * nc, a, b, w->h))
        CU_DISPATCH(c, T, k_act_bwd_v<T><<<cu_vec_blocks(M * nc), 256, 0, c->stream>>>(
                              (T *)a, (T *)b, (const T *)w->h, M * nc));
    else
        CU_DISPATCH(c, T, k_act_bwd<T><<<cu_blocks(M * nc, 256), 256, 0, c->stream>>>(
                              (T *)a, (T *)b, (const T *)w->h, M * nc));
    CU_LAUNCHED();
}

// Form 5 (pk->grad_h): from dh (w->h), [da | db] (w->ab), xl (w->xl) and h over dh, by
// one kernel: the LayerNorm in its prologue or apart, on tr_hidden's condition (the same
// xl, so the same h).
static void tr_grad_h(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                      const void *x, const void *hmask, const tr_ws *w) {
    if (c->tr_fused == 1 && !((uintptr_t)x & 15)) {
        cu_tr_hidden_grad_fused(c, d, pk, d->M, x, &p->ln, w->xl, hmask, w->h, w->ab);
        return;
    }
    cu_ln_fwd(c, d->M, d->c, &p->ln, x, w->xl);
    cu_tr_hidden_grad_fused(c, d, pk, d->M, w->xl, NULL, NULL, hmask, w->h, w->ab);
}

// One chunk (d->M rows) of the backward: x, dy, mask, d_x are its rows. Form 5 (late_h)
// takes dW_out after the grad kernel that writes h (each chunk's dW_out GEMM the same
// call on the same h and dy: the gradient's sum in the same order), else after h's
// recompute.
static void tr_bwd_chunk(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, pf_transition_p *g,
                         const cu_tr_packed *pk, int fold, const void *mask, const void *x, const void *dy,
                         void *d_x, const tr_ws *w) {
    int64_t M = d->M, nc = (int64_t)d->n * d->c;
    int late_h = pk && pk->grad_h;
    if (!late_h) tr_hidden(c, d, p, pk, x, fold ? mask : NULL, 1, w);  // folded: h is mask h, the input of lin_out
    if (mask && !fold) {
        cu_row_mask(c, w->dy, dy, mask, M, d->c);
        dy = w->dy;
    }
    if (late_h && cu_trwb_applies(c, d, pk, p, x, dy)) {  // dh never stored (cu_transition_wgb.cu)
        cu_trwb_grad(c, d, p, pk, x, dy, fold ? mask : NULL, w->xl, w->h, w->ab);
        cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, &g->lin_out, w->h, dy, NULL);
    } else if (late_h) {
        tr_lin_bwd(c, M, (int)nc, d->c, &p->lin_out, NULL, NULL, dy, d->c, w->h, 0.f);  // dh, over h
        tr_grad_h(c, d, p, pk, x, fold ? mask : NULL, w);  // h (mask h where folded) over dh
        cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, &g->lin_out, w->h, dy, NULL);
    } else {
        cu_linear_bwd(c, M, (int)nc, d->c, &p->lin_out, &g->lin_out, w->h, dy, NULL);
        tr_lin_bwd(c, M, (int)nc, d->c, &p->lin_out, NULL, NULL, dy, d->c, w->h, 0.f);  // dh, over h
        tr_act_bwd(c, d, pk, fold ? mask : NULL, w);  // folded: dh times the mask there
    }
    int swi = d->act == PF_ACT_SWIGLU;
    int64_t ld = pk && swi ? 2 * nc : nc;  // [da | db] rows, or a and b apart
    const void *db = (const char *)w->ab + (size_t)(pk ? nc : M * nc) * cu_esz(c);
    tr_lin_bwd(c, M, d->c, (int)nc, &p->lin_a, &g->lin_a, w->xl, w->ab, ld, w->dxl, 0.f);
    if (swi) tr_lin_bwd(c, M, d->c, (int)nc, &p->lin_b, &g->lin_b, w->xl, db, ld, w->dxl, 1.f);
    cu_ln_bwd(c, M, d->c, &p->ln, &g->ln, x, w->dxl, d_x);
}

void cu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       pf_transition_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                       pf_act *d_x, void *ws) {
    cu_impl *c = CU(be);
    tr_ws w;
    tr_layout(c, d, ws, &w);
    int64_t R = tr_rows(c, d);
    size_t mark = cu_pool_mark(c);
    cu_tr_packed pks;
    int fold;
    const cu_tr_packed *pk = tr_prepare(c, d, p, mask, &pks, &fold);
    for (int64_t m0 = 0; m0 < d->M; m0 += R) {
        pf_transition_dims dc = *d;
        dc.M = R < d->M - m0 ? R : d->M - m0;
        tr_bwd_chunk(c, &dc, p, g, pk, fold, rows_at(c, mask, m0, 1), rows_at(c, saved, m0, d->c),
                     rows_at(c, d_out, m0, d->c), d_x ? (void *)rows_at(c, d_x, m0, d->c) : NULL, &w);
    }
    cu_pool_release(c, mark);
}
