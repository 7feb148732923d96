// cu_attention.cu: the attention module (modules.h, pf_attn_dims) on the GPU:
// LayerNorms and projections through cuBLASLt over all B*L positions in x's
// stored layout, the core through the fused online-softmax kernels of
// cu_flash.cu (no L x L logits per row in memory), gating and output Linear.
//
// saved: x (B*L, c_in) | z (L*L, c_z) [PAIR] | g = sigmoid gate (B*L, HC) |
//        o (B*L, HC) | lse (B, H, L) fp32 | biasT (H, L, L) fp32 [bias]
// ws:    xln | zln [PAIR] | zb (L*L, H): bias logits / their gradient | q, k, v |
//        og / d og / d g | dO | dq, dk, dv | D (B, H, L) fp32 | d_xln | d_zln [PAIR] |
//        bias-gradient partials (splits, H, L, L) fp32 [bf16, bias]
// (the forward without saved has its own layout: attn_inf below)
// q, k, v are recomputed from LN(x) in the backward (three GEMMs) rather than
// saved: saved memory is what grows with the number of blocks.
#include "cu_ops.h"
#include "cu_flash.cuh"

typedef struct {
    void *x, *z, *g, *o;
    float *lse, *biasT;
} attn_sv;
typedef struct {
    void *xln, *zln, *zb, *q, *k, *v, *og, *dO, *dq, *dk, *dv, *d_xln, *d_zln;
    float *D, *dbias_part;
} attn_wv;

static void attn_layout(cu_impl *c, const pf_attn_dims *d, void *saved, void *ws, attn_sv *s, attn_wv *w,
                        size_t *n_saved, size_t *n_ws) {
    if (d->bias == PF_BIAS_SELF && d->B != d->L) pf_die("attn: PF_BIAS_SELF needs B == L");
    size_t e = cu_esz(c);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, LL = d->L * d->L;
    size_t nx = (size_t)M * d->c_in * e, nq = (size_t)M * HC * e;
    size_t nz = d->bias == PF_BIAS_PAIR ? (size_t)LL * d->c_z * e : 0;
    size_t nlse = sizeof(float) * (size_t)(d->B * d->H * d->L);
    size_t nbT = d->bias ? sizeof(float) * (size_t)(LL * d->H) : 0;
    cu_carver cs = {(char *)saved, 0};
    s->x = cu_carve(&cs, nx);
    s->z = cu_carve(&cs, nz);
    s->g = cu_carve(&cs, nq);
    s->o = cu_carve(&cs, nq);
    s->lse = (float *)cu_carve(&cs, nlse);
    s->biasT = (float *)cu_carve(&cs, nbT);
    cu_carver cw = {(char *)ws, 0};
    w->xln = cu_carve(&cw, nx);
    w->zln = cu_carve(&cw, nz);
    w->zb = cu_carve(&cw, d->bias ? (size_t)LL * d->H * e : 0);
    w->q = cu_carve(&cw, nq);
    w->k = cu_carve(&cw, nq);
    w->v = cu_carve(&cw, nq);
    w->og = cu_carve(&cw, nq);
    w->dO = cu_carve(&cw, nq);
    w->dq = cu_carve(&cw, nq);
    w->dk = cu_carve(&cw, nq);
    w->dv = cu_carve(&cw, nq);
    w->D = (float *)cu_carve(&cw, nlse);
    w->d_xln = cu_carve(&cw, nx);
    w->d_zln = cu_carve(&cw, nz);
    int ns = d->bias ? fa_dbias_splits(c->bf16, d->B, d->L, d->H) : 1;
    w->dbias_part = (float *)cu_carve(&cw, ns > 1 ? sizeof(float) * (size_t)ns * (size_t)(LL * d->H) : 0);
    *n_saved = cs.off;
    *n_ws = cw.off;
}



// biasT[h][key][query] = zb[bidx(query, key)][h]
template <typename T>
__global__ void k_bias_T(const T *zb, float *bT, int64_t L, int H, int tr) {
    int64_t n = L * L * H;
    GRID_STRIDE(i, n) {
        int64_t q = i % L, k = (i / L) % L;
        int h = (int)(i / (L * L));
        int64_t idx = tr ? k * L + q : q * L + k;
        bT[i] = ld(zb, idx * H + h);
    }
}

static fa_args attn_args(const pf_attn_dims *d, const void *key_mask) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.B = d->B;
    a.L = d->L;
    a.H = d->H;
    a.ch = d->c_h;
    a.HC = (int64_t)d->H * d->c_h;
    a.rstride = d->transpose ? 1 : d->L;
    a.pstride = d->transpose ? d->B : 1;
    a.bias_tr = d->bias == PF_BIAS_SELF && d->transpose;
    a.scale = (float)(1.0 / sqrt((double)d->c_h));
    a.mask = key_mask;
    return a;
}

// q, k, v from xln (and the gate when g_out != NULL)
static void attn_proj(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const attn_wv *w, void *g_out) {
    int64_t M = d->B * d->L;
    int HC = d->H * d->c_h;
    cu_linear_fwd(c, M, d->c_in, HC, &p->q, w->xln, w->q, 0);
    cu_linear_fwd(c, M, d->c_in, HC, &p->k, w->xln, w->k, 0);
    cu_linear_fwd(c, M, d->c_in, HC, &p->v, w->xln, w->v, 0);
    if (g_out) {
        cu_linear_fwd(c, M, d->c_in, HC, &p->g, w->xln, g_out, 0);
        cu_sigmoid(c, g_out, M * HC);
    }
}

// ---- forward without saved (inference): pieces of rows ------------------------
// The B rows attend independently, so LayerNorm, projections, the fused core, the
// gate and the output projection run over pieces of R rows; only the bias, zb
// (L*L, H) and biasT (H, L, L) fp32, is made whole first, from pieces of
// positions. A transposed op (its rows are x's second axis) copies a piece's
// columns into a contiguous (L, R, c_in) buffer, its key mask likewise, and the
// output back. One piece (up to 8 GiB of piece buffers) is the forward that
// saves, op for op.
// ws_fwd: zb | biasT | region: bias pass { ln (P, c) } or row piece
//         { xln (R*L, c_in) | q, k, v, g, o, og (R*L, HC) | lse (R, H, L) fp32 |
//           gathered: xc, oc (R*L, c_in), mc (R*L) }
typedef struct {
    void *zb;
    float *biasT;
    char *region;
    int64_t R, P;  // rows per piece, bias positions per piece
    int gather;    // transposed and more than one piece
} attn_inf;

static size_t al256(size_t n) { return (n + 255) & ~(size_t)255; }

static size_t attn_piece_bytes(cu_impl *c, const pf_attn_dims *d, int64_t R, int gather) {
    size_t e = cu_esz(c), RL = (size_t)(R * d->L), HC = (size_t)d->H * (size_t)d->c_h;
    size_t n = al256(RL * (size_t)d->c_in * e) + 6 * al256(RL * HC * e) + al256(sizeof(float) * (size_t)(R * d->H * d->L));
    if (gather) n += 2 * al256(RL * (size_t)d->c_in * e) + al256(RL * e);
    return n;
}

static size_t attn_inf_layout(cu_impl *c, const pf_attn_dims *d, void *ws, attn_inf *w) {
    size_t e = cu_esz(c);
    int64_t LL = d->L * d->L;
    double per_row = (double)attn_piece_bytes(c, d, 1, d->transpose) - 3 * 255.0;
    w->R = cu_chunk_units(c, d->B, per_row > 1 ? per_row : 1, 1);
    w->gather = d->transpose && w->R < d->B;
    int cb = d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in;
    w->P = d->bias ? cu_chunk_units(c, LL, (double)cb * (double)e, 1) : 0;
    cu_carver cv = {(char *)ws, 0};
    w->zb = cu_carve(&cv, d->bias ? (size_t)(LL * d->H) * e : 0);
    w->biasT = (float *)cu_carve(&cv, d->bias ? sizeof(float) * (size_t)(LL * d->H) : 0);
    w->region = (char *)cu_carve(&cv, 0);
    size_t piece = attn_piece_bytes(c, d, w->R, w->gather), bias_pass = al256((size_t)(w->P * cb) * e);
    cv.off += piece > bias_pass ? piece : bias_pass;
    return cv.off;
}

// zb = Linear(LN(z or x)) over pieces of positions, then biasT.
static void attn_inf_bias(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                          const attn_inf *w) {
    size_t e = cu_esz(c);
    int64_t LL = d->L * d->L;
    int pair = d->bias == PF_BIAS_PAIR, cb = pair ? d->c_z : d->c_in;
    const char *src = (const char *)(pair ? z : x);
    pf_linear_p nb = {p->bias.w, NULL};
    for (int64_t p0 = 0; p0 < LL; p0 += w->P) {
        int64_t n = LL - p0 < w->P ? LL - p0 : w->P;
        cu_ln_fwd(c, n, cb, pair ? &p->ln_z : &p->ln, src + (size_t)(p0 * cb) * e, w->region);
        cu_linear_fwd(c, n, cb, d->H, &nb, w->region, (char *)w->zb + (size_t)(p0 * d->H) * e, 0);
    }
    int tr = d->bias == PF_BIAS_SELF && d->transpose;
    CU_DISPATCH(c, T, k_bias_T<T><<<cu_blocks(LL * d->H, 256), 256, 0, c->stream>>>((const T *)w->zb, w->biasT, d->L, d->H, tr));
    CU_LAUNCHED();
}

// (L, n) columns r0.. of a transposed (L, B, ch) tensor <-> a contiguous (L, n, ch) one.
static void cols_copy(cu_impl *c, void *dst, const void *src, const pf_attn_dims *d, int64_t r0, int64_t n, int ch,
                      int gather) {
    size_t e = cu_esz(c), w = (size_t)(n * ch) * e, wide = (size_t)(d->B * ch) * e;
    char *off = (char *)(gather ? src : dst) + (size_t)(r0 * ch) * e;
    if (gather) CU_CHECK(cudaMemcpy2DAsync(dst, w, off, wide, w, (size_t)d->L, cudaMemcpyDeviceToDevice, c->stream));
    else CU_CHECK(cudaMemcpy2DAsync(off, wide, src, w, w, (size_t)d->L, cudaMemcpyDeviceToDevice, c->stream));
}

// Rows r0 .. r0 + n of the attention (inference).
static void attn_inf_piece(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x,
                           const pf_act *key_mask, pf_act *out, const attn_inf *w, int64_t r0, int64_t n) {
    size_t e = cu_esz(c);
    pf_attn_dims dp = *d;
    dp.B = n;
    int64_t RL = n * d->L, HC = (int64_t)d->H * d->c_h;
    cu_carver cv = {w->region, 0};
    attn_wv v;
    memset(&v, 0, sizeof v);
    v.xln = cu_carve(&cv, (size_t)(RL * d->c_in) * e);
    v.q = cu_carve(&cv, (size_t)(RL * HC) * e);
    v.k = cu_carve(&cv, (size_t)(RL * HC) * e);
    v.v = cu_carve(&cv, (size_t)(RL * HC) * e);
    void *g = cu_carve(&cv, (size_t)(RL * HC) * e), *o = cu_carve(&cv, (size_t)(RL * HC) * e);
    v.og = cu_carve(&cv, (size_t)(RL * HC) * e);
    float *lse = (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L));
    const void *xs = d->transpose ? (const void *)x : (const void *)((const char *)x + (size_t)(r0 * d->L * d->c_in) * e);
    const void *ms = key_mask && !d->transpose ? (const void *)((const char *)key_mask + (size_t)(r0 * d->L) * e)
                                               : (const void *)key_mask;
    void *dst = d->transpose ? (void *)out : (void *)((char *)out + (size_t)(r0 * d->L * d->c_in) * e);
    if (w->gather) {
        void *xc = cu_carve(&cv, (size_t)(RL * d->c_in) * e), *mc = cu_carve(&cv, (size_t)RL * e);
        dst = cu_carve(&cv, (size_t)(RL * d->c_in) * e);
        cols_copy(c, xc, x, d, r0, n, d->c_in, 1);
        if (key_mask) cols_copy(c, mc, key_mask, d, r0, n, 1, 1);
        xs = xc;
        ms = key_mask ? mc : NULL;
    }
    cu_ln_fwd(c, RL, d->c_in, &p->ln, xs, v.xln);
    attn_proj(c, &dp, p, &v, g);
    fa_args a = attn_args(&dp, ms);
    a.q = v.q; a.k = v.k; a.v = v.v;
    a.biasT = d->bias ? w->biasT : NULL;
    a.out_o = o;
    a.lse = lse;
    fa_forward(c, &a);
    cu_mul(c, v.og, g, o, RL * HC);
    cu_linear_fwd(c, RL, (int)HC, d->c_in, &p->o, v.og, dst, 0);
    if (w->gather) cols_copy(c, out, dst, d, r0, n, d->c_in, 0);
}

static void attn_fwd_pieces(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                            const pf_act *key_mask, pf_act *out, void *ws) {
    attn_inf w;
    attn_inf_layout(c, d, ws, &w);
    if (d->bias) attn_inf_bias(c, d, p, x, z, &w);
    for (int64_t r0 = 0; r0 < d->B; r0 += w.R) attn_inf_piece(c, d, p, x, key_mask, out, &w, r0, d->B - r0 < w.R ? d->B - r0 : w.R);
}

pf_mem cu_attn_mem(pf_backend *be, const pf_attn_dims *d) {
    attn_sv s;
    attn_wv w;
    attn_inf wi;
    pf_mem m;
    attn_layout(CU(be), d, NULL, NULL, &s, &w, &m.saved, &m.ws);
    m.ws_fwd = attn_inf_layout(CU(be), d, NULL, &wi);
    if (m.ws_fwd > m.ws) m.ws = m.ws_fwd;
    return m;
}

void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    if (!saved) {
        attn_fwd_pieces(c, d, p, x, z, key_mask, out, ws);
        return;
    }
    attn_sv s;
    attn_wv w;
    size_t ns, nw;
    attn_layout(c, d, saved, ws, &s, &w, &ns, &nw);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, LL = d->L * d->L;
    if (saved) {
        cu_copy_act(c, s.x, x, M * d->c_in);
        if (d->bias == PF_BIAS_PAIR) cu_copy_act(c, s.z, z, LL * d->c_z);
    }
    cu_ln_fwd(c, M, d->c_in, &p->ln, x, w.xln);
    attn_proj(c, d, p, &w, s.g);
    if (d->bias) {
        pf_linear_p nb = {p->bias.w, NULL};
        if (d->bias == PF_BIAS_PAIR) {
            cu_ln_fwd(c, LL, d->c_z, &p->ln_z, z, w.zln);
            cu_linear_fwd(c, LL, d->c_z, d->H, &nb, w.zln, w.zb, 0);
        } else {
            cu_linear_fwd(c, LL, d->c_in, d->H, &nb, w.xln, w.zb, 0);
        }
        int tr = d->bias == PF_BIAS_SELF && d->transpose;
        CU_DISPATCH(c, T, k_bias_T<T><<<cu_blocks(LL * d->H, 256), 256, 0, c->stream>>>((const T *)w.zb, s.biasT, d->L, d->H, tr));
        CU_LAUNCHED();
    }
    fa_args a = attn_args(d, key_mask);
    a.q = w.q; a.k = w.k; a.v = w.v;
    a.biasT = d->bias ? s.biasT : NULL;
    a.out_o = s.o;
    a.lse = s.lse;
    fa_forward(c, &a);
    cu_mul(c, w.og, s.g, s.o, M * HC);
    cu_linear_fwd(c, M, (int)HC, d->c_in, &p->o, w.og, out, 0);
}

void cu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                 const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    attn_sv s;
    attn_wv w;
    size_t ns, nw;
    attn_layout(c, d, (void *)saved, ws, &s, &w, &ns, &nw);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, LL = d->L * d->L;
    cu_ln_fwd(c, M, d->c_in, &p->ln, s.x, w.xln);
    attn_proj(c, d, p, &w, NULL);
    // out = og W_o^T + b_o; og = g * o
    cu_mul(c, w.og, s.g, s.o, M * HC);
    cu_fill(c, w.dO, 0.f, M * HC);
    cu_linear_bwd(c, M, (int)HC, d->c_in, &p->o, &g->o, w.og, d_out, w.dO);  // dO = d og
    cu_gate_bwd(c, w.dO, s.g, s.o, w.dO, w.og, M * HC);                      // og <- d g_pre, dO <- d o

    fa_args a = attn_args(d, key_mask);
    a.q = w.q; a.k = w.k; a.v = w.v; a.o = s.o; a.dO = w.dO;
    a.biasT = d->bias ? s.biasT : NULL;
    a.lse = s.lse;
    a.D = w.D;
    a.dq = w.dq; a.dk = w.dk; a.dv = w.dv;
    a.dbias = d->bias ? w.zb : NULL;
    a.dbias_part = w.dbias_part;
    fa_rowdot(c, &a, w.D);
    fa_backward(c, &a);

    cu_fill(c, w.d_xln, 0.f, M * d->c_in);
    cu_linear_bwd(c, M, d->c_in, (int)HC, &p->q, &g->q, w.xln, w.dq, w.d_xln);
    cu_linear_bwd(c, M, d->c_in, (int)HC, &p->k, &g->k, w.xln, w.dk, w.d_xln);
    cu_linear_bwd(c, M, d->c_in, (int)HC, &p->v, &g->v, w.xln, w.dv, w.d_xln);
    cu_linear_bwd(c, M, d->c_in, (int)HC, &p->g, &g->g, w.xln, w.og, w.d_xln);
    if (d->bias == PF_BIAS_SELF) {
        cu_linear_bwd(c, LL, d->c_in, d->H, &p->bias, &g->bias, w.xln, w.zb, w.d_xln);
    } else if (d->bias == PF_BIAS_PAIR) {
        cu_ln_fwd(c, LL, d->c_z, &p->ln_z, s.z, w.zln);
        cu_fill(c, w.d_zln, 0.f, LL * d->c_z);
        cu_linear_bwd(c, LL, d->c_z, d->H, &p->bias, &g->bias, w.zln, w.zb, w.d_zln);
        cu_ln_bwd(c, LL, d->c_z, &p->ln_z, &g->ln_z, s.z, w.d_zln, d_z);
    }
    cu_ln_bwd(c, M, d->c_in, &p->ln, &g->ln, s.x, w.d_xln, d_x);
}
