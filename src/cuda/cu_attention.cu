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
//        (forward without saved: g, o, lse, biasT in the dq.. region)
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
    size_t region = cw.off;
    w->dq = cu_carve(&cw, nq);
    w->dk = cu_carve(&cw, nq);
    w->dv = cu_carve(&cw, nq);
    w->D = (float *)cu_carve(&cw, nlse);
    w->d_xln = cu_carve(&cw, nx);
    w->d_zln = cu_carve(&cw, nz);
    int ns = d->bias ? fa_dbias_splits(c->bf16, d->B, d->L, d->H) : 1;
    w->dbias_part = (float *)cu_carve(&cw, ns > 1 ? sizeof(float) * (size_t)ns * (size_t)(LL * d->H) : 0);
    // inference: g, o, lse, biasT live in the backward's region
    size_t inf = region + ((2 * nq + 255) & ~(size_t)255) + ((nlse + 255) & ~(size_t)255) + ((nbT + 255) & ~(size_t)255);
    if (inf > cw.off) cw.off = inf;
    if (!saved && ws) {
        cu_carver ci = {(char *)ws + region, 0};
        s->x = s->z = NULL;
        s->g = cu_carve(&ci, nq);
        s->o = cu_carve(&ci, nq);
        s->lse = (float *)cu_carve(&ci, nlse);
        s->biasT = (float *)cu_carve(&ci, nbT);
    }
    *n_saved = cs.off;
    *n_ws = cw.off;
}

pf_mem cu_attn_mem(pf_backend *be, const pf_attn_dims *d) {
    attn_sv s;
    attn_wv w;
    pf_mem m;
    attn_layout(CU(be), d, NULL, NULL, &s, &w, &m.saved, &m.ws);
    return m;
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

void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
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
