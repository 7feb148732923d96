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
//        mt (B*L), t (B*L, c_in) [ending node in its own frame, attn_end_t] |
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
#include "cu_dap.cuh"  // cu_pos_pack: the square transpose
#include "cu_env.cuh"

typedef struct {
    void *x, *z, *o;
    float *lse;
} attn_sv;
typedef struct {
    void *zb, *mt, *t;
    float *biasT, *acc;
    char *region;
    int64_t R, P, Pb;  // rows per piece, bias positions per piece (forward pass, backward pass)
} attn_wv;

// ---- the ending node in its own frame (PF_ATTN_END_T) ------------------------------------
// A transposed op's core reads a row's positions B * H c_h elements apart (1 MB at N = 1024,
// c_h 32, 4 heads, bf16): the ending node's forward core took 4.40 ms against 3.48 for the
// starting node's, its bias gradient 4.8 against 3.8 (ncu, session 13). In its own frame the
// ending node is the starting node on x^T (as OpenFold computes it): x^T once into saved (the
// copy the forward makes anyway), the untransposed path on it (the bias from x^T, not
// transposed), the output back through one transposing pass; the backward transposes d_out
// into t, and t takes d_x^T once d_out is spent (self_dzb_t), the LayerNorm's backward adds
// to it and t goes back into d_x. Where: PF_BIAS_SELF transposed (the ending node) with the
// forward and the backward in one piece of rows each (then ws holds one more x-sized buffer
// and the transposed mask); elsewhere the gathering path below. Bits: those of the starting
// node on x^T (test_cuda compares); not those of the other path (the weight gradients' sums
// over positions run in another order).
static int g_end_t = -1;  // -1: PF_ATTN_END_T, read at the first call
static int64_t g_end_t_runs;

extern "C" void pf_cuda_set_attn_end_t(pf_backend *be, int on) {
    (void)be;
    g_end_t = on == 0 || on == 1 ? on : -1;  // else: PF_ATTN_END_T / the default again
}
extern "C" int64_t pf_cuda_attn_end_t_runs(pf_backend *be) {
    (void)be;
    return g_end_t_runs;
}

static int attn_end_t(cu_impl *c, const pf_attn_dims *d) {
    if (g_end_t < 0) g_end_t = cu_env_flag("PF_ATTN_END_T", 0, "the ending node on the transposed layout",
                                           "the ending node as the starting node on x^T, in one piece");
    return g_end_t && d->transpose && d->bias == PF_BIAS_SELF && d->B == d->L &&
           attn_rows_per_piece(c, d, 1) >= d->B && attn_rows_per_piece(c, d, 0) >= d->B;
}

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
    int end_t = attn_end_t(c, d);
    w->mt = cu_carve(&cv, end_t ? (size_t)(d->B * d->L) * cu_esz(c) : 0);
    w->t = cu_carve(&cv, end_t ? (size_t)(d->B * d->L * d->c_in) * cu_esz(c) : 0);
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

// dst (B, L, ch) = src (L, B, ch) transposed (B == L): x^T, the mask's, the gradients'.
static void end_t_xpose(cu_impl *c, const pf_attn_dims *d, const void *src, void *dst, int ch) {
    cu_pos_pack(c, src, dst, d->L, d->L, 1, (size_t)ch * cu_esz(c));
}

// The ending node's forward in its own frame (attn_end_t): x^T into saved (or ws's t without
// saved), the mask's transpose into mt, then the starting node's forward on them; its output,
// out^T, goes to the region's first buffer (the rows' LN(x^T), spent once the projections have
// read it: cu_attn_rows.cu carves it first in every forward piece) and back into out.
static void attn_fwd_end_t(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *key_mask,
                           void *out, void *saved, const attn_wv *w) {
    pf_attn_dims dt = *d;
    dt.transpose = 0;
    attn_sv s;
    memset(&s, 0, sizeof s);
    if (saved) attn_saved_layout(c, d, saved, &s);
    if (d->keep) attn_keep_layout(c, d, d->keep, &s);  // selective recompute: o, lse there
    void *xt = saved ? s.x : w->t;  // (B, L, c_in)
    end_t_xpose(c, d, x, xt, d->c_in);
    if (key_mask) end_t_xpose(c, d, key_mask, w->mt, 1);
    int xln_ready = attn_make_bias(c, &dt, p, xt, NULL, w, NULL, 1);
    attn_rows_fwd(c, &dt, p, xt, key_mask ? w->mt : NULL, w->biasT, w->region, s.o, s.lse, w->region, w->R,
                  xln_ready);
    end_t_xpose(c, d, w->region, out, d->c_in);
    g_end_t_runs++;
}

void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    attn_wv w;
    attn_ws_layout(c, d, ws, &w, 0);
    if (attn_end_t(c, d)) {
        attn_fwd_end_t(c, d, p, x, key_mask, out, saved, &w);
        return;
    }
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

// The ending node's backward in its own frame (attn_fwd_end_t): d_out^T into t; when the
// rows call self_dzb_t (after the core's backward, before the LayerNorm's: d_out^T spent),
// t takes d_x^T, to which the LayerNorm's backward adds (the starting node's d_x contract
// on x^T), and t goes back into d_x.
typedef struct {
    cu_impl *c;
    const pf_attn_dims *d;
    void *zb, *d_x, *t;
} end_t_ctx;
static const void *self_dzb_t(void *ctx) {
    end_t_ctx *e = (end_t_ctx *)ctx;
    if (e->d_x) end_t_xpose(e->c, e->d, e->d_x, e->t, e->d->c_in);
    return e->zb;
}

static void attn_bwd_end_t(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const void *key_mask,
                           const attn_sv *s, const void *d_out, void *d_x, const attn_wv *w) {
    pf_attn_dims dt = *d;
    dt.transpose = 0;
    int xln_ready = attn_make_bias(c, &dt, p, s->x, NULL, w, NULL, 0);
    if (key_mask) end_t_xpose(c, d, key_mask, w->mt, 1);
    end_t_xpose(c, d, d_out, w->t, d->c_in);
    end_t_ctx e = {c, d, w->zb, d_x, w->t};
    // d_out and d_x both at t: the rows read d_out before self_dzb_t and write d_x after it
    attn_bwd_args a = {&dt, p, g, s->x, s->o, key_mask ? w->mt : NULL, w->t, s->lse, w->biasT, d_x ? w->t : NULL,
                       w->zb, w->acc, w->region, w->R, self_dzb_t, &e, xln_ready};
    attn_rows_bwd(c, &a);
    if (d_x) end_t_xpose(c, d, w->t, d_x, d->c_in);
    g_end_t_runs++;
}

void cu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                 const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    attn_sv s;
    attn_wv w;
    attn_saved_layout(c, d, (void *)saved, &s);
    if (d->keep) attn_keep_layout(c, d, d->keep, &s);
    attn_ws_layout(c, d, ws, &w, 1);
    if (attn_end_t(c, d)) {
        attn_bwd_end_t(c, d, p, g, key_mask, &s, d_out, d_x, &w);
        return;
    }
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
