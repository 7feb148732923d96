// cu_core_attn.cu: the attention core alone (modules.h, pf_core_attn_dims) on the
// GPU, through the fused online-softmax kernels of cu_flash.cu (fa_forward,
// fa_backward), which the attention module uses too.
//
// The caller's layout is cuEquivariance's, q (B, N, H, L, D); the kernels read
// positions with the H*D channels of a position together, (N, L, H, D), and the
// bias transposed, (H, key, query) fp32. So each batch element is permuted into
// the scratch, run as one fa call over its N rows, and permuted back: one extra
// pass over q, k, v, o (memory-bound, small next to the L^2 core).
//
// ws (per batch element, reused): q, k, v, o, dO, dq, dk, dv (N, L, H, D) act |
//   biasT (H, L, L) fp32 | dbias (L*L, H) act | D (N, H, L) fp32 |
//   bias-gradient partials (splits, H, L, L) fp32 [bf16 with a bias]
#include "cu_ops.h"
#include "cu_flash.cuh"

typedef struct {
    void *q, *k, *v, *o, *dO, *dq, *dk, *dv, *dbias;
    float *biasT, *D, *dbias_part;
} ca_ws;

static size_t ca_layout(cu_impl *c, const pf_core_attn_dims *d, void *ws, ca_ws *w) {
    size_t e = cu_esz(c);
    int64_t LL = d->L * d->L;
    size_t nq = (size_t)(d->N * d->L * d->H * d->D) * e;
    int ns = fa_dbias_splits(c->bf16, d->N, d->L, d->H, c->n_sm);
    cu_carver cw = {(char *)ws, 0};
    void **act[] = {&w->q, &w->k, &w->v, &w->o, &w->dO, &w->dq, &w->dk, &w->dv};
    for (int i = 0; i < 8; i++) *act[i] = cu_carve(&cw, nq);
    w->biasT = (float *)cu_carve(&cw, sizeof(float) * (size_t)(LL * d->H));
    w->dbias = cu_carve(&cw, (size_t)(LL * d->H) * e);
    w->D = (float *)cu_carve(&cw, sizeof(float) * (size_t)(d->N * d->H * d->L));
    w->dbias_part = (float *)cu_carve(&cw, ns > 1 ? sizeof(float) * (size_t)ns * (size_t)(LL * d->H) : 0);
    return cw.off;
}

size_t cu_core_attn_ws(pf_backend *be, const pf_core_attn_dims *d) {
    ca_ws w;
    return ca_layout(CU(be), d, NULL, &w);
}

// to_pf 1: src (N, H, L, D) -> dst (N, L, H, D); 0: the reverse. A copy, no rounding.
template <typename T>
__global__ void k_ca_perm(const T *src, T *dst, int64_t N, int H, int64_t L, int D, int to_pf) {
    int64_t n = N * H * L * D;
    GRID_STRIDE(i, n) {
        int64_t c = i % D, r = i / D, a, b, row;  // dst index i = ((row, a), b, c)
        if (to_pf) {  // dst (row, l, h, c)
            int64_t h = r % H, l = (r / H) % L;
            row = r / ((int64_t)H * L), a = l, b = h;
            dst[i] = src[((row * H + b) * L + a) * D + c];
        } else {      // dst (row, h, l, c)
            int64_t l = r % L, h = (r / L) % H;
            row = r / ((int64_t)H * L), a = h, b = l;
            dst[i] = src[((row * L + b) * H + a) * D + c];
        }
    }
}

// biasT[h][key][query] = bias[h][query][key]
__global__ void k_ca_biasT(const float *bias, float *bT, int64_t L, int H) {
    GRID_STRIDE(i, L * L * H) {
        int64_t q = i % L, k = (i / L) % L, h = i / (L * L);
        bT[i] = bias[(h * L + q) * L + k];
    }
}

// d_bias[h][query][key] = dbias[(query * L + key) * H + h] (the kernels' layout)
template <typename T>
__global__ void k_ca_dbias(const T *db, float *out, int64_t L, int H) {
    GRID_STRIDE(i, L * L * H) {
        int64_t qk = i % (L * L), h = i / (L * L);
        out[i] = ld(db, qk * H + h);
    }
}

static void ca_perm(cu_impl *c, const pf_core_attn_dims *d, const void *src, void *dst, int to_pf) {
    int64_t n = d->N * d->H * d->L * d->D;
    CU_DISPATCH(c, T, k_ca_perm<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((const T *)src, (T *)dst, d->N, d->H,
                                                                             d->L, d->D, to_pf));
    CU_LAUNCHED();
}

// The arguments of one batch element b: its N rows, its bias and mask.
static fa_args ca_args(cu_impl *c, const pf_core_attn_dims *d, const ca_ws *w, const real *bias, const pf_act *mask,
                       const float *lse, int64_t b) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.B = d->N;
    a.L = d->L;
    a.H = d->H;
    a.ch = d->D;
    a.HC = (int64_t)d->H * d->D;
    a.rstride = d->L;
    a.pstride = 1;
    a.scale = d->scale;
    a.mask = mask ? (const char *)mask + (size_t)(b * d->N * d->L) * cu_esz(c) : NULL;
    a.lse = (float *)lse + b * d->N * d->H * d->L;
    if (bias) {
        int64_t LL = d->L * d->L;
        k_ca_biasT<<<cu_blocks(LL * d->H, 256), 256, 0, c->stream>>>(bias + b * d->H * LL, w->biasT, d->L, d->H);
        CU_LAUNCHED();
        a.biasT = w->biasT;
    }
    a.q = w->q, a.k = w->k, a.v = w->v;
    return a;
}

static void ca_check(const pf_core_attn_dims *d) {
    if (d->D < 1 || d->D > 64) pf_die("core_attn: D = %d outside [1, 64] (the CUDA attention kernels)", d->D);
}

void cu_core_attn_fwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k, const pf_act *v,
                      const real *bias, const pf_act *mask, pf_act *o, float *lse, void *ws) {
    cu_impl *c = CU(be);
    ca_check(d);
    ca_ws w;
    ca_layout(c, d, ws, &w);
    size_t blk = (size_t)(d->N * d->H * d->L * d->D) * cu_esz(c);  // bytes of one batch element
    for (int64_t b = 0; b < d->B; b++) {
        ca_perm(c, d, (const char *)q + b * blk, w.q, 1);
        ca_perm(c, d, (const char *)k + b * blk, w.k, 1);
        ca_perm(c, d, (const char *)v + b * blk, w.v, 1);
        fa_args a = ca_args(c, d, &w, bias, mask, lse, b);
        a.out_o = w.o;
        fa_forward(c, &a);
        ca_perm(c, d, w.o, (char *)o + b * blk, 0);
    }
}

void cu_core_attn_bwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k, const pf_act *v,
                      const real *bias, const pf_act *mask, const pf_act *o, const float *lse, const pf_act *d_o,
                      pf_act *dq, pf_act *dk, pf_act *dv, real *d_bias, void *ws) {
    cu_impl *c = CU(be);
    ca_check(d);
    if (d_bias && !bias) pf_die("core_attn_bwd: d_bias without a bias");
    ca_ws w;
    ca_layout(c, d, ws, &w);
    size_t blk = (size_t)(d->N * d->H * d->L * d->D) * cu_esz(c);
    int64_t LL = d->L * d->L;
    for (int64_t b = 0; b < d->B; b++) {
        ca_perm(c, d, (const char *)q + b * blk, w.q, 1);
        ca_perm(c, d, (const char *)k + b * blk, w.k, 1);
        ca_perm(c, d, (const char *)v + b * blk, w.v, 1);
        ca_perm(c, d, (const char *)o + b * blk, w.o, 1);
        ca_perm(c, d, (const char *)d_o + b * blk, w.dO, 1);
        fa_args a = ca_args(c, d, &w, bias, mask, lse, b);
        a.o = w.o, a.dO = w.dO, a.D = w.D;
        a.dq = w.dq, a.dk = w.dk, a.dv = w.dv;
        a.dbias = bias ? w.dbias : NULL;
        a.dbias_part = w.dbias_part;
        fa_rowdot(c, &a, w.D);
        fa_backward(c, &a);
        if (dq) ca_perm(c, d, w.dq, (char *)dq + b * blk, 0);
        if (dk) ca_perm(c, d, w.dk, (char *)dk + b * blk, 0);
        if (dv) ca_perm(c, d, w.dv, (char *)dv + b * blk, 0);
        if (d_bias) {
            CU_DISPATCH(c, T, k_ca_dbias<T><<<cu_blocks(LL * d->H, 256), 256, 0, c->stream>>>((const T *)w.dbias,
                                                                                             d_bias + b * d->H * LL,
                                                                                             d->L, d->H));
            CU_LAUNCHED();
        }
    }
}
