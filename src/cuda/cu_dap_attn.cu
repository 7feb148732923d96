// cu_dap_attn.cu: attention whose pair bias comes from this rank's rows only
// (backend.h: attn_dap; the CPU reference is cpu_attention.c's dap path). The
// module is cu_attention.cu's (LayerNorm and projections through cuBLASLt, the
// fused online-softmax core of cu_flash.cu); only the bias differs: each rank
// projects the R = L / P rows of the (L, L, H) bias logits it holds the source of
// (its rows of z, or of x itself for PF_BIAS_SELF), straight into its block of the
// whole bias, which one in-place all-gather then completes. Backward: the core
// writes the gradient of the whole bias for this rank's queries; when the ranks'
// queries differ (x_sharded) the blocks are reduce-scattered (all-to-all, sum in
// rank order), else every rank already holds the total and keeps its block.
//
// saved: x (B*L, c_in) | z (R*L, c_z) [PAIR] | g (B*L, HC) | o (B*L, HC) |
//        lse (B, H, L) fp32 | biasT (H, L, L) fp32 [bias]
// ws:    xln | zln (R*L, c_z) [PAIR] | zb (L*L, H): bias logits / their gradient |
//        brecv (L*L, H) [bias]: the gradient's blocks from the group | q, k, v |
//        og | dO | dq, dk, dv | D (B, H, L) fp32 | d_xln | d_zln [PAIR] |
//        bias-gradient partials (cu_flash.cuh)
// A forward without saved (inference) takes a temporary saved region.
#include "cu_dap.cuh"
#include "cu_flash.cuh"

typedef struct {
    void *x, *z, *g, *o;
    float *lse, *biasT;
} ad_sv;
typedef struct {
    void *xln, *zln, *zb, *brecv, *q, *k, *v, *og, *dO, *dq, *dk, *dv, *d_xln, *d_zln;
    float *D, *dbias_part;
} ad_wv;

static int64_t ad_rows(const pf_attn_dims *d, int P) {
    if (P < 1 || d->L % P) pf_die("attn_dap: L = %lld is not a multiple of P = %d", (long long)d->L, P);
    if (d->transpose) pf_die("attn_dap: transposed attention (the sharded executor transposes z instead)");
    if (d->bias == PF_BIAS_SELF && d->B != d->L / P)
        pf_die("attn_dap: PF_BIAS_SELF needs B == L / P (got B %lld, L %lld, P %d)", (long long)d->B, (long long)d->L, P);
    return d->L / P;
}

static void ad_layout(cu_impl *c, const pf_attn_dims *d, int P, void *saved, void *ws, ad_sv *s, ad_wv *w,
                      size_t *n_saved, size_t *n_ws) {
    const int64_t R = ad_rows(d, P);
    size_t e = cu_esz(c);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, LL = d->L * d->L;
    size_t nx = (size_t)M * d->c_in * e, nq = (size_t)M * HC * e;
    size_t nz = d->bias == PF_BIAS_PAIR ? (size_t)(R * d->L) * d->c_z * e : 0;
    size_t nlse = sizeof(float) * (size_t)(d->B * d->H * d->L);
    size_t nbT = d->bias ? sizeof(float) * (size_t)(LL * d->H) : 0, nb = d->bias ? (size_t)(LL * d->H) * e : 0;
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
    w->zb = cu_carve(&cw, nb);
    w->brecv = cu_carve(&cw, nb);
    void **q[] = {&w->q, &w->k, &w->v, &w->og, &w->dO, &w->dq, &w->dk, &w->dv};
    for (int i = 0; i < 8; i++) *q[i] = cu_carve(&cw, nq);
    w->D = (float *)cu_carve(&cw, nlse);
    w->d_xln = cu_carve(&cw, nx);
    w->d_zln = cu_carve(&cw, nz);
    int ns = d->bias ? fa_dbias_splits(c->bf16, d->B, d->L, d->H) : 1;
    w->dbias_part = (float *)cu_carve(&cw, ns > 1 ? sizeof(float) * (size_t)ns * (size_t)(LL * d->H) : 0);
    *n_saved = cs.off;
    *n_ws = cw.off;
}

// biasT[h][key][query] = zb[query * L + key][h] (cu_attention.cu's, untransposed)
template <typename T>
__global__ void k_dap_bias_T(const T *zb, float *bT, int64_t L, int H) {
    GRID_STRIDE(i, L * L * H) {
        int64_t q = i % L, k = (i / L) % L;
        int h = (int)(i / (L * L));
        bT[i] = ld(zb, (q * L + k) * H + h);
    }
}

static fa_args ad_args(const pf_attn_dims *d, const void *key_mask) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.B = d->B;
    a.L = d->L;
    a.H = d->H;
    a.ch = d->c_h;
    a.HC = (int64_t)d->H * d->c_h;
    a.rstride = d->L;
    a.pstride = 1;
    a.scale = (float)(1.0 / sqrt((double)d->c_h));
    a.mask = key_mask;
    return a;
}

static void ad_proj(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const ad_wv *w, void *g_out) {
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

pf_mem cu_attn_dap_mem(pf_backend *be, const pf_attn_dims *d, int P) {
    ad_sv s;
    ad_wv w;
    pf_mem m;
    ad_layout(CU(be), d, P, NULL, NULL, &s, &w, &m.saved, &m.ws);
    m.ws_fwd = m.ws;
    return m;
}

// This rank's rows of the bias logits into its block of zb, the block all-gathered, biasT.
static void ad_bias_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *z, const ad_sv *s,
                        const ad_wv *w, const pf_dap_comm *cm) {
    const int64_t R = d->L / cm->size, RL = R * d->L, LL = d->L * d->L;
    const size_t blk = (size_t)(RL * d->H) * cu_esz(c);
    void *mine = (char *)w->zb + (size_t)cm->rank * blk;
    pf_linear_p nb = {p->bias.w, NULL};
    if (d->bias == PF_BIAS_PAIR) {
        cu_ln_fwd(c, RL, d->c_z, &p->ln_z, z, w->zln);
        cu_linear_fwd(c, RL, d->c_z, d->H, &nb, w->zln, mine, 0);
    } else {
        cu_linear_fwd(c, RL, d->c_in, d->H, &nb, w->xln, mine, 0);  // B == R: x is the rank's rows
    }
    cm->all_gather(cm, mine, w->zb, blk);
    CU_DISPATCH(c, T, k_dap_bias_T<T><<<cu_blocks(LL * d->H, 256), 256, 0, c->stream>>>((const T *)w->zb, s->biasT,
                                                                                          d->L, d->H));
    CU_LAUNCHED();
}

void cu_attn_dap_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                     const pf_act *key_mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    ad_sv s;
    ad_wv w;
    size_t ns, nw;
    ad_layout(c, d, cm->size, NULL, NULL, &s, &w, &ns, &nw);
    void *tmp = saved ? NULL : be->alloc(be, ns);  // inference: a saved region for this call only
    ad_layout(c, d, cm->size, saved ? saved : tmp, ws, &s, &w, &ns, &nw);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, R = d->L / cm->size;
    cu_copy_act(c, s.x, x, M * d->c_in);
    if (d->bias == PF_BIAS_PAIR) cu_copy_act(c, s.z, z, R * d->L * d->c_z);
    cu_ln_fwd(c, M, d->c_in, &p->ln, x, w.xln);
    ad_proj(c, d, p, &w, s.g);
    if (d->bias) ad_bias_fwd(c, d, p, z, &s, &w, cm);
    fa_args a = ad_args(d, key_mask);
    a.q = w.q; a.k = w.k; a.v = w.v;
    a.biasT = d->bias ? s.biasT : NULL;
    a.out_o = s.o;
    a.lse = s.lse;
    fa_forward(c, &a);
    cu_mul(c, w.og, s.g, s.o, M * HC);
    cu_linear_fwd(c, M, (int)HC, d->c_in, &p->o, w.og, out, 0);
    if (tmp) be->free(be, tmp);
}

// d logits of the bias (w->zb, the whole (L*L, H) for this rank's queries) back to
// the bias source's rows on this rank.
static void ad_bias_bwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const ad_sv *s,
                        const ad_wv *w, pf_act *d_z, const pf_dap_comm *cm, int x_sharded) {
    const int64_t R = d->L / cm->size, RL = R * d->L;
    const size_t blk = (size_t)(RL * d->H) * cu_esz(c);
    const void *dbl = (const char *)w->zb + (size_t)cm->rank * blk;
    if (x_sharded) {  // reduce-scatter: block q of every rank's gradient goes to rank q
        cm->all_to_all(cm, w->zb, w->brecv, blk);
        cu_dap_sum_blocks(c, w->brecv, cm->size, RL * d->H, 1, w->brecv);
        dbl = w->brecv;
    }
    if (d->bias == PF_BIAS_SELF) {
        cu_linear_bwd(c, RL, d->c_in, d->H, &p->bias, &g->bias, w->xln, dbl, w->d_xln);
    } else {
        cu_ln_fwd(c, RL, d->c_z, &p->ln_z, s->z, w->zln);
        cu_fill(c, w->d_zln, 0.f, RL * d->c_z);
        cu_linear_bwd(c, RL, d->c_z, d->H, &p->bias, &g->bias, w->zln, dbl, w->d_zln);
        cu_ln_bwd(c, RL, d->c_z, &p->ln_z, &g->ln_z, s->z, w->d_zln, d_z);
    }
}

void cu_attn_dap_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                     const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws,
                     const pf_dap_comm *cm, int x_sharded) {
    cu_impl *c = CU(be);
    ad_sv s;
    ad_wv w;
    size_t ns, nw;
    ad_layout(c, d, cm->size, (void *)saved, ws, &s, &w, &ns, &nw);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h;
    cu_ln_fwd(c, M, d->c_in, &p->ln, s.x, w.xln);
    ad_proj(c, d, p, &w, NULL);
    cu_mul(c, w.og, s.g, s.o, M * HC);  // out = og W_o^T + b_o; og = g * o
    cu_fill(c, w.dO, 0.f, M * HC);
    cu_linear_bwd(c, M, (int)HC, d->c_in, &p->o, &g->o, w.og, d_out, w.dO);  // dO = d og
    cu_gate_bwd(c, w.dO, s.g, s.o, w.dO, w.og, M * HC);                      // og <- d g_pre, dO <- d o

    fa_args a = ad_args(d, key_mask);
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
    if (d->bias) ad_bias_bwd(c, d, p, g, &s, &w, d_z, cm, x_sharded);
    cu_ln_bwd(c, M, d->c_in, &p->ln, &g->ln, s.x, w.d_xln, d_x);
}
