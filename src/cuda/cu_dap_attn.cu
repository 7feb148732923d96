// cu_dap_attn.cu: attention whose pair bias comes from this rank's rows only
// (backend.h: attn_dap; the CPU reference is cpu_attention.c's dap path). The
// module is cu_attention.cu's, through the same pieces of rows (cu_attn.cuh,
// cu_attn_rows.cu); only the bias differs: each rank
// projects the R = L / P rows of the (L, L, H) bias logits it holds the source of
// (its rows of z, or of x itself for PF_BIAS_SELF), straight into its block of the
// whole bias, which one in-place all-gather then completes. Backward: the bias is
// made again the same way (as the unsharded op remakes it: nothing of the L x L
// bias is saved), the core writes the gradient of the whole bias for this rank's
// queries; when the ranks' queries differ (x_sharded) the blocks are
// reduce-scattered (all-to-all, sum in rank order), else every rank already holds
// the total and keeps its block. Pieces are planned against limits divided by P
// (cu_dap_pieces), so a rank's buffers are 1/P of the unsharded op's.
//
// saved: x (B*L, c_in) | z (R*L, c_z) [PAIR] | o (B*L, HC), lse (B, H, L) fp32 [attn_saves_o]
// ws:    zb (L*L, H): bias logits / their gradient [bias] | brecv (L*L, H) [bias]: the
//        gradient's blocks from the group | dzb_acc (L*L, H) fp32 [bias, backward in
//        several row pieces] | biasT (H, L, L) fp32 [bias] | region: one piece at a
//        time (cu_attn.cuh)
#include "cu_dap.cuh"
#include "cu_attn.cuh"

typedef struct {
    void *x, *z, *o;
    float *lse;
} ad_sv;
typedef struct {
    void *zb, *brecv;
    float *acc, *biasT;
    char *region;
    int64_t Rf, Rb, P, Pb;  // rows per piece (forward, backward), bias positions per piece (forward, backward)
} ad_wv;

static int64_t ad_rows(const pf_attn_dims *d, int P) {
    if (P < 1 || d->L % P) pf_die("attn_dap: L = %lld is not a multiple of P = %d", (long long)d->L, P);
    if (d->transpose) pf_die("attn_dap: transposed attention (the sharded executor transposes z instead)");
    if (d->bias == PF_BIAS_SELF && d->B != d->L / P)
        pf_die("attn_dap: PF_BIAS_SELF needs B == L / P (got B %lld, L %lld, P %d)", (long long)d->B, (long long)d->L, P);
    return d->L / P;
}

static int ad_cb(const pf_attn_dims *d) { return d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in; }

static size_t ad_saved(cu_impl *c, const pf_attn_dims *d, int P, void *saved, ad_sv *s) {
    const int64_t R = ad_rows(d, P);
    size_t e = cu_esz(c);
    int64_t M = d->B * d->L, HC = (int64_t)d->H * d->c_h;
    cu_carver cs = {(char *)saved, 0};
    s->x = cu_carve(&cs, (size_t)(M * d->c_in) * e);
    s->z = cu_carve(&cs, d->bias == PF_BIAS_PAIR ? (size_t)(R * d->L * d->c_z) * e : 0);
    int keep = attn_saves_o(c, d);  // else the backward makes them again per piece
    s->o = keep ? cu_carve(&cs, (size_t)(M * HC) * e) : NULL;
    s->lse = keep ? (float *)cu_carve(&cs, sizeof(float) * (size_t)(d->B * d->H * d->L)) : NULL;
    return cs.off;
}

static size_t ad_ws(cu_impl *c, const pf_attn_dims *d, int P, void *ws, ad_wv *w) {
    const int64_t RL = ad_rows(d, P) * d->L;
    int cb = ad_cb(d);
    size_t nb = d->bias ? (size_t)(d->L * d->L * d->H) : 0;
    w->Rf = attn_rows_per_piece(c, d, 1);
    w->Rb = attn_rows_per_piece(c, d, 0);
    w->P = d->bias ? attn_bias_per_piece(c, RL, cb, 1) : 0;
    w->Pb = d->bias ? attn_bias_per_piece(c, RL, cb, 0) : 0;
    cu_carver cw = {(char *)ws, 0};
    w->zb = cu_carve(&cw, nb * cu_esz(c));
    w->brecv = cu_carve(&cw, nb * cu_esz(c));
    w->acc = (float *)cu_carve(&cw, w->Rb < d->B ? nb * sizeof(float) : 0);
    w->biasT = (float *)cu_carve(&cw, nb * sizeof(float));
    w->region = (char *)cu_carve(&cw, 0);
    size_t region = PF_MAX(attn_rows_bytes(c, d, w->Rf, 1), attn_rows_bytes(c, d, w->Rb, 0));
    if (d->bias) region = PF_MAX(region, PF_MAX(attn_bias_bytes(c, w->P, cb, 1), attn_bias_bytes(c, w->Pb, cb, 0)));
    return cw.off + region;
}

pf_mem cu_attn_dap_mem(pf_backend *be, const pf_attn_dims *d, int P) {
    int old = cu_dap_pieces(CU(be), P);
    ad_sv s;
    ad_wv w;
    pf_mem m;
    m.saved = ad_saved(CU(be), d, P, NULL, &s);
    m.ws = m.ws_fwd = ad_ws(CU(be), d, P, NULL, &w);
    cu_dap_pieces(CU(be), old);
    return m;
}

// This rank's rows of the bias logits into its block of zb, the block all-gathered, biasT.
static void ad_bias_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                        const ad_wv *w, const pf_dap_comm *cm) {
    const int64_t RL = d->L / cm->size * d->L;
    const size_t blk = (size_t)(RL * d->H) * cu_esz(c);
    void *mine = (char *)w->zb + (size_t)cm->rank * blk;
    int pair = d->bias == PF_BIAS_PAIR;  // else B == R: x is the rank's rows
    attn_bias_fwd(c, RL, ad_cb(d), d->H, pair ? &p->ln_z : &p->ln, p->bias.w, pair ? (const void *)z : (const void *)x,
                  mine, w->region, w->P, NULL, 0);
    cm->all_gather(cm, mine, w->zb, blk);
    attn_bias_T(c, w->zb, w->biasT, d->L, d->H, 0);
}

void cu_attn_dap_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                     const pf_act *key_mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    if (d->keep) pf_die("attn_dap: no kept core outputs (selective recompute) in the sharded op");
    int old = cu_dap_pieces(c, cm->size);
    ad_sv s;
    ad_wv w;
    memset(&s, 0, sizeof s);
    ad_ws(c, d, cm->size, ws, &w);
    if (saved) {
        ad_saved(c, d, cm->size, saved, &s);
        cu_copy_act(c, s.x, x, d->B * d->L * d->c_in);
        if (d->bias == PF_BIAS_PAIR) cu_copy_act(c, s.z, z, d->L / cm->size * d->L * d->c_z);
    }
    if (d->bias) ad_bias_fwd(c, d, p, x, z, &w, cm);
    attn_rows_fwd(c, d, p, x, key_mask, d->bias ? w.biasT : NULL, out, s.o, s.lse, w.region, w.Rf, 0, 0);
    cu_dap_pieces(c, old);
}

// The gradient of this rank's block of the bias logits: w->zb holds the whole (L*L, H)
// for this rank's queries; when the ranks' queries differ (x_sharded) the blocks are
// reduce-scattered (all-to-all, sum in rank order), else this rank's block is the total.
typedef struct {
    cu_impl *c;
    const pf_attn_dims *d;
    const pf_attn_p *p;
    pf_attn_p *g;
    const ad_wv *w;
    const pf_dap_comm *cm;
    int x_sharded;
} ad_ctx;
static const void *ad_dzb_mine(const ad_ctx *a) {
    const int64_t RL = a->d->L / a->cm->size * a->d->L;
    const size_t blk = (size_t)(RL * a->d->H) * cu_esz(a->c);
    if (!a->x_sharded) return (const char *)a->w->zb + (size_t)a->cm->rank * blk;
    a->cm->all_to_all(a->cm, a->w->zb, a->w->brecv, blk);  // block q of every rank's gradient goes to rank q
    cu_dap_sum_blocks(a->c, a->w->brecv, a->cm->size, RL * a->d->H, 1, a->w->brecv);
    return a->w->brecv;
}
// PF_BIAS_SELF in one row piece: into the projections' d_xln (cu_attn.cuh).
static const void *ad_self_dzb(void *ctx) { return ad_dzb_mine((const ad_ctx *)ctx); }

void cu_attn_dap_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                     const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws,
                     const pf_dap_comm *cm, int x_sharded) {
    cu_impl *c = CU(be);
    int old = cu_dap_pieces(c, cm->size);
    ad_sv s;
    ad_wv w;
    ad_saved(c, d, cm->size, (void *)saved, &s);
    ad_ws(c, d, cm->size, ws, &w);
    if (d->bias) ad_bias_fwd(c, d, p, (const pf_act *)s.x, (const pf_act *)s.z, &w, cm);  // the forward's bias again
    ad_ctx ac = {c, d, p, g, &w, cm, x_sharded};
    attn_bwd_args a = {d, p, g, s.x, s.o, key_mask, d_out, s.lse, d->bias ? w.biasT : NULL, d_x, w.zb, w.acc,
                       w.region, w.Rb, d->bias == PF_BIAS_SELF ? ad_self_dzb : NULL, &ac, 0, NULL, NULL};
    attn_rows_bwd(c, &a);
    if (d->bias && !(d->bias == PF_BIAS_SELF && w.Rb == d->B)) {
        const int64_t RL = d->L / cm->size * d->L;
        const void *dbl = ad_dzb_mine(&ac);
        if (d->bias == PF_BIAS_PAIR)
            attn_bias_bwd(c, RL, d->c_z, d->H, &p->ln_z, &g->ln_z, &p->bias, &g->bias, s.z, dbl, d_z, w.region, w.Pb);
        else
            attn_bias_bwd(c, RL, d->c_in, d->H, &p->ln, &g->ln, &p->bias, &g->bias, s.x, dbl, d_x, w.region, w.Pb);
    }
    cu_dap_pieces(c, old);
}
