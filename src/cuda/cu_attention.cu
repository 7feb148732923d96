// cu_attention.cu: the attention module (modules.h, pf_attn_dims) on the GPU:
// LayerNorms and projections through cuBLASLt, the core through the fused
// online-softmax kernels of cu_flash.cu (no L x L logits per row in memory),
// gating and output Linear, all over pieces of rows (cu_attn.cuh, cu_attn_rows.cu).
//
// saved: x (B*L, c_in) | z (L*L, c_z) [PAIR] | o (B*L, HC), lse (B, H, L) fp32 [attn_saves_o]
// keep (pf_attn_dims.keep, selective recompute): o | lse, in place of saved's (then unused);
//        kept: the forward skips the core (attn_rows_fwd) and uses them.
// ws:    zb (L*L, H): bias logits, then their gradient [bias] | biasT (H, L, L) fp32 [bias] |
//        dzb_acc (L*L, H) fp32 [bias, backward in several row pieces] |
//        region: one piece at a time (bias pass, forward rows, backward rows, bias backward)
// The forward without saved (inference) needs zb | biasT | region of the forward (ws_fwd).
// What the backward can recompute is not saved: the gate, q, k, v (GEMMs from
// LN(x), per piece) and the bias logits (LN of x or z and one GEMM over the
// positions); when the backward runs in pieces and o is over the piece limit (large
// problems) also the core's o and lse (its forward once more per piece). A block at N = 6144 keeps x of each
// triangle attention (one z-sized copy) instead of x, g, o and fp32 biases (3.1),
// and the backward's buffers are pieces of rows (about 2 GiB each) instead of ~11
// z-sized copies.
#include "cu_attn.cuh"

typedef struct {
    void *x, *z, *o;
    float *lse;
} attn_sv;
typedef struct {
    void *zb;
    float *biasT, *acc;
    char *region;
    int64_t R, P, Pb;  // rows per piece, bias positions per piece (forward pass, backward pass)
} attn_wv;

// (The ending node computed as the starting node on x^T, PF_ATTN_END_T=1, gave no gain
// beyond the run-to-run spread for one x-sized buffer more, session 13: removed in session 15.)

static int bias_channels(const pf_attn_dims *d) { return d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in; }

static size_t attn_saved_layout(cu_impl *c, const pf_attn_dims *d, void *saved, attn_sv *s) {
    if (d->bias == PF_BIAS_SELF && d->B != d->L) pf_die("attn: PF_BIAS_SELF needs B == L");
    size_t e = cu_esz(c);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h, LL = d->L * d->L;
    cu_carver cs = {(char *)saved, 0};
    s->x = cu_carve(&cs, (size_t)(M * d->c_in) * e);
    s->z = cu_carve(&cs, d->bias == PF_BIAS_PAIR ? (size_t)(LL * d->c_z) * e : 0);
    int keep = attn_saves_o(c, d);
    s->o = keep ? cu_carve(&cs, (size_t)(M * HC) * e) : NULL;
    s->lse = keep ? (float *)cu_carve(&cs, sizeof(float) * (size_t)(d->B * d->H * d->L)) : NULL;
    return cs.off;
}

// o | lse in keep (selective recompute; attn_saves_o's o, so only where it saves o).
static size_t attn_keep_layout(cu_impl *c, const pf_attn_dims *d, void *keep, attn_sv *s) {
    cu_carver cs = {(char *)keep, 0};
    s->o = cu_carve(&cs, (size_t)(d->B * d->L * d->H * d->c_h) * cu_esz(c));
    s->lse = (float *)cu_carve(&cs, sizeof(float) * (size_t)(d->B * d->H * d->L));
    return cs.off;
}

size_t cu_attn_keep_bytes(pf_backend *be, const pf_attn_dims *d) {
    attn_sv s;
    return attn_saves_o(CU(be), d) ? attn_keep_layout(CU(be), d, NULL, &s) : 0;
}

// bwd 0: the forward's layout (zb | biasT | region); 1: the backward's.
static size_t attn_ws_layout(cu_impl *c, const pf_attn_dims *d, void *ws, attn_wv *w, int bwd) {
    int64_t LL = d->L * d->L;
    int cb = bias_channels(d);
    size_t nb = d->bias ? (size_t)(LL * d->H) : 0;
    w->R = attn_rows_per_piece(c, d, !bwd);
    w->P = d->bias ? attn_bias_per_piece(c, LL, cb, 1) : 0;
    w->Pb = d->bias ? attn_bias_per_piece(c, LL, cb, 0) : 0;
    int pieces = w->R < d->B;
    cu_carver cv = {(char *)ws, 0};
    w->zb = cu_carve(&cv, nb * cu_esz(c));
    w->biasT = (float *)cu_carve(&cv, nb * sizeof(float));
    w->acc = (float *)cu_carve(&cv, bwd && pieces ? nb * sizeof(float) : 0);
    w->region = (char *)cu_carve(&cv, 0);
    size_t region = attn_rows_bytes(c, d, w->R, !bwd);
    if (d->bias) region = PF_MAX(region, attn_bias_bytes(c, w->P, cb, 1));
    if (bwd && (d->bias == PF_BIAS_PAIR || (d->bias && pieces))) region = PF_MAX(region, attn_bias_bytes(c, w->Pb, cb, 0));
    return cv.off + region;
}

pf_mem cu_attn_mem(pf_backend *be, const pf_attn_dims *d) {
    attn_sv s;
    attn_wv w;
    pf_mem m;
    m.saved = attn_saved_layout(CU(be), d, NULL, &s);
    m.ws_fwd = attn_ws_layout(CU(be), d, NULL, &w, 0);
    m.ws = PF_MAX(m.ws_fwd, attn_ws_layout(CU(be), d, NULL, &w, 1));
    return m;
}

// zb = Linear(LN(z or x)) over pieces of positions, then biasT; copy (may be NULL) = the
// bias's source. Returns 1 when LN(x) of every row is left at the region's start for the
// rows (fused, PF_BIAS_SELF, rows and bias in one piece each: one LayerNorm pass of x).
static int attn_make_bias(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *z,
                          const attn_wv *w, void *copy, int fwd) {
    int pair = d->bias == PF_BIAS_PAIR;
    int keep = !pair && attn_rows_per_piece(c, d, fwd) >= d->B;
    int kept = attn_bias_fwd(c, d->L * d->L, bias_channels(d), d->H, pair ? &p->ln_z : &p->ln, p->bias.w,
                             pair ? z : x, w->zb, w->region, w->P, copy, keep);
    attn_bias_T(c, w->zb, w->biasT, d->L, d->H, d->bias == PF_BIAS_SELF && d->transpose);
    return kept;
}

void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    attn_wv w;
    attn_ws_layout(c, d, ws, &w, 0);
    attn_sv s;
    memset(&s, 0, sizeof s);
    if (saved) {  // the bias's source is copied by the bias pass, from the read it makes anyway
        attn_saved_layout(c, d, saved, &s);
        if (d->bias != PF_BIAS_SELF) cu_copy_act(c, s.x, x, d->B * d->L * d->c_in);
    }
    if (d->keep) attn_keep_layout(c, d, d->keep, &s);
    // kept: the bias pass still runs (cheap next to the core): it copies the bias's source
    // to saved and may leave LN(x) for the rows, the same bits as the first forward's
    int xln_ready = 0;
    if (d->bias) xln_ready = attn_make_bias(c, d, p, x, z, &w, d->bias == PF_BIAS_PAIR ? s.z : s.x, 1);
    attn_rows_fwd(c, d, p, x, key_mask, d->bias ? w.biasT : NULL, out, s.o, s.lse, w.region, w.R, xln_ready);
}

// PF_BIAS_SELF in one piece: the bias's gradient joins the projections' in d_xln
// (one LayerNorm backward, as the whole module has always run).
static const void *self_dzb(void *ctx) { return ctx; }

void cu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                 const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    attn_sv s;
    attn_wv w;
    attn_saved_layout(c, d, (void *)saved, &s);
    if (d->keep) attn_keep_layout(c, d, d->keep, &s);
    attn_ws_layout(c, d, ws, &w, 1);
    int xln_ready = d->bias ? attn_make_bias(c, d, p, s.x, s.z, &w, NULL, 0) : 0;
    attn_bwd_args a = {d, p, g, s.x, s.o, key_mask, d_out, s.lse, d->bias ? w.biasT : NULL, d_x, w.zb, w.acc,
                       w.region, w.R, d->bias == PF_BIAS_SELF ? self_dzb : NULL, w.zb, xln_ready};
    attn_rows_bwd(c, &a);
    int64_t LL = d->L * d->L;
    if (d->bias == PF_BIAS_PAIR)
        attn_bias_bwd(c, LL, d->c_z, d->H, &p->ln_z, &g->ln_z, &p->bias, &g->bias, s.z, w.zb, d_z, w.region, w.Pb);
    else if (d->bias == PF_BIAS_SELF && w.R < d->B)
        attn_bias_bwd(c, LL, d->c_in, d->H, &p->ln, &g->ln, &p->bias, &g->bias, s.x, w.zb, d_x, w.region, w.Pb);
}
