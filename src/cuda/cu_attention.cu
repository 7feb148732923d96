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
//        mt (B*L), t (B*L, c_in) [the ending node on x^T, PF_ATTN_END_T] |
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
#include "cu_env.cuh"
#include "cu_flash_bwd_wg.cuh"

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

// ---- the ending node as the starting node on x^T (PF_ATTN_END_T) -------------------------
// A transposed op's core reads a row's positions B * H c_h elements apart, and in several
// row pieces each piece gathers its columns (cu_attn_rows.cu): the ending node cost 19.89 ms
// f+b against the starting node's 18.66 at N = 1024, 153.2 against 138.1 at 2048 (H200,
// session 16). Here it is the starting node on x^T (as OpenFold computes it): x^T once into
// saved (or t without saved), the mask's transpose into mt, the untransposed path on them in
// its own row pieces (the bias from x^T, not transposed), out^T back into out; the backward
// transposes d_out into t, each piece fills its rows of t with d_x^T once it has read its
// rows of d_out (dx_rows), the LayerNorm's backward (and with several pieces the bias's) adds
// to them, and t goes back into d_x. Where: PF_BIAS_SELF transposed (the ending node), whole
// or in pieces; ws holds one more x-sized buffer and the mask's transpose. Bits: those of the
// starting node on x^T (test_cuda compares); not those of the transposed path (the weight
// gradients' sums over positions run in another order). Session 13 had it in one piece only
// (20.64 -> 20.21 ms at N = 1024, slower at 512).
// PF_ATTN_END_T: 0 the transposed path, 1 on wherever it applies, 2 or unset (the default since
// session 16) on at N >= END_T_MIN_L only. Measured (H200, session 16, call 3, `PF_ATTN_END_T=0/1
// bench_cuda_ops --ops tri_attn_end --sizes 512,1024,2048 --reps 5`, twice): f+b 3.187 / 19.74-19.80 /
// 153.7-153.9 ms with 0, 3.29-3.33 / 19.20-19.32 / 142.3-143.0 with 1 (slower at 512: hence 2);
// op peak +66 / +258 / +1030 MiB.
#define END_T_MIN_L 1024
static int g_end_t = -1;  // -1: PF_ATTN_END_T, read at the first call
static int64_t g_end_t_runs;

extern "C" void pf_cuda_set_attn_end_t(pf_backend *be, int mode) {
    (void)be;
    g_end_t = mode >= 0 && mode <= 2 ? mode : -1;  // else: PF_ATTN_END_T / the default again
}
extern "C" int64_t pf_cuda_attn_end_t_runs(pf_backend *be) {
    (void)be;
    return g_end_t_runs;
}
// PF_ATTN_END_INPLACE (session 60; the default): the ending node's forward without its x^T and out^T copies where
// the kernels around them apply: k_attn_lnproj_wg reads x's rows in x^T's order (ago_rows_t) and writes the saved
// x^T from that read, k_attn_gate_out_wg writes out's rows in place of out^T's. At N = 1024 (c_in 128, bf16) each
// copy is a 256 MiB read and write (0.18 ms on an H100); the same bits (test_cuda compares). H100, N 1024: the
// ending node's forward 3.71-3.73 -> 3.47 ms, f+b 16.30-16.42 -> 16.09-16.11 (BENCHMARKS.md "Session 60").
static cu_setting end_inplace = {-1, "PF_ATTN_END_INPLACE", 0, 1, 1,
                                 "0 (the ending node's forward through x^T and out^T copies) or 1 (x read and out "
                                 "written in place where the kernels apply, the default)"};
static int64_t g_end_inplace_runs[2];  // x read in place, out written in place
extern "C" void pf_cuda_set_attn_end_inplace(pf_backend *be, int on) {
    (void)be;
    cu_setting_set(&end_inplace, on);  // outside 0..1: PF_ATTN_END_INPLACE / the default again
}
extern "C" int64_t pf_cuda_attn_end_inplace_runs(pf_backend *be, int which) {
    (void)be;
    return which == 0 || which == 1 ? g_end_inplace_runs[which] : 0;
}
// the wgmma one-pass backward (cu_flash_bwd_wg.cu, PF_ATTN_BWD_WG): its launches, and
// whether this device runs it
extern "C" int64_t pf_cuda_attn_bwd_wg_runs(pf_backend *be) {
    (void)be;
    return fa_bwd_wg_runs();
}
// the warp-specialised wgmma forward (cu_flash_fwd_ws.cu, PF_ATTN_FWD_WS=1): its launches
extern "C" int64_t pf_cuda_attn_fwd_ws_runs(pf_backend *be) {
    (void)be;
    return fa_sm90_forward_ws_runs();
}
// k_s9_fwd_half's forms of sessions 61 and 63 (cu_flash_sm90_tma.cu): set, and its launches by form
extern "C" void pf_cuda_set_attn_fwd_half_forms(pf_backend *be, int ao, int sb, int fx) {
    (void)be;
    fa_sm90_half_forms_set(ao, sb, fx);
}
extern "C" int64_t pf_cuda_attn_fwd_half_runs(pf_backend *be, int form) {
    (void)be;
    return fa_sm90_half_runs(form);
}
extern "C" int pf_cuda_attn_bwd_wg_device(pf_backend *be) {
    (void)be;
    return fa_bwd_wg_device();
}

static int end_t_env(void) {
    const char *e = getenv("PF_ATTN_END_T");
    if (!e || !*e) return 2;
    if (!strcmp(e, "0") || !strcmp(e, "1") || !strcmp(e, "2")) return e[0] - '0';
    pf_die("PF_ATTN_END_T=%s: expected 0 (the ending node on the transposed layout), 1 (as the starting node "
           "on x^T) or 2 (1 at N >= %d only: the default)", e, END_T_MIN_L);
}

static int attn_end_t(const pf_attn_dims *d) {
    if (g_end_t < 0) g_end_t = end_t_env();
    return g_end_t && d->transpose && d->bias == PF_BIAS_SELF && d->B == d->L && (g_end_t == 1 || d->L >= END_T_MIN_L);
}

// dst rows r0 + blockIdx.y of the transpose of a square (L, L) tensor of w units per
// position: dst[r][l] = src[l][r]. Writes in order; each position's units are read together
// (a row of dst per blockIdx.y: 32-bit index arithmetic within it).
template <typename U>
__global__ void k_end_t_rows(const U *src, U *dst, int64_t L, int64_t r0, unsigned w) {
    int64_t r = r0 + blockIdx.y;
    unsigned n_row = (unsigned)L * w;  // units in one row of dst
    U *dr = dst + (size_t)r * n_row;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_row; i += gridDim.x * blockDim.x) {
        unsigned l = i / w, u = i - l * w;
        dr[i] = src[((size_t)l * (size_t)L + (size_t)r) * w + u];
    }
}

template <typename U>
static void end_t_launch(cu_impl *c, const void *src, void *dst, int64_t L, int64_t r0, int64_t n, size_t row) {
    unsigned w = (unsigned)(row / sizeof(U));
    if ((double)L * w >= 4294967296.0) pf_die("attn end_t: a row of %lld positions of %zu bytes", (long long)L, row);
    for (int64_t y0 = 0; y0 < n; y0 += 65535) {  // gridDim.y's limit
        dim3 grid(cu_blocks(L * w, 256), (unsigned)PF_MIN(n - y0, (int64_t)65535));
        k_end_t_rows<U><<<grid, 256, 0, c->stream>>>((const U *)src, (U *)dst, L, r0 + y0, w);
        CU_LAUNCHED();
    }
}

// Rows r0 .. r0 + n of dst = src^T for square (L, L, ch) act tensors (x, the mask, the
// gradients); 16-byte moves where the rows and pointers allow. src and dst must not overlap.
static void end_t_rows(cu_impl *c, const void *src, void *dst, int64_t L, int64_t r0, int64_t n, int ch) {
    size_t row = (size_t)ch * cu_esz(c);
    uintptr_t al = (uintptr_t)src | (uintptr_t)dst;
    if (row % 16 == 0 && al % 16 == 0) end_t_launch<uint4>(c, src, dst, L, r0, n, row);
    else if (row % 4 == 0 && al % 4 == 0) end_t_launch<uint32_t>(c, src, dst, L, r0, n, row);
    else end_t_launch<uint16_t>(c, src, dst, L, r0, n, row);
}
static void end_t_xpose(cu_impl *c, const pf_attn_dims *d, const void *src, void *dst, int ch) {
    end_t_rows(c, src, dst, d->L, 0, d->L, ch);
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
// The ending node on x^T (attn_end_t): the starting node's layout (its pieces) with mt | t.
static size_t attn_ws_layout(cu_impl *c, const pf_attn_dims *d_in, void *ws, attn_wv *w, int bwd) {
    pf_attn_dims dt = *d_in;
    int end_t = attn_end_t(d_in);
    if (end_t) dt.transpose = 0;
    const pf_attn_dims *d = &dt;
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
// rows (fused, PF_BIAS_SELF, rows and bias in one piece each: one LayerNorm pass of x), 2
// when the rows' projections are made too (attn_bias_proj_fwd; o_saved: the backward's o).
// x_t: x is the ending node's original frame, read as x^T (d the x^T frame's): only where
// attn_bias_proj_fwd applies; -1 where it does not (nothing done: the caller makes x^T).
static int attn_make_bias(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, int x_t,
                          const void *z, const attn_wv *w, void *copy, int fwd, int o_saved) {
    int pair = d->bias == PF_BIAS_PAIR;
    int keep = !pair && attn_rows_per_piece(c, d, fwd) >= d->B;
    int kept = keep ? attn_bias_proj_fwd(c, d, p, x, x_t, w->zb, w->region, w->P, copy, fwd, o_saved) : 0;
    if (x_t && !kept) return -1;
    if (!kept)
        kept = attn_bias_fwd(c, d->L * d->L, bias_channels(d), d->H, pair ? &p->ln_z : &p->ln, p->bias.w, pair ? z : x,
                             w->zb, w->region, w->P, copy, keep);
    attn_bias_T(c, w->zb, w->biasT, d->L, d->H, d->bias == PF_BIAS_SELF && d->transpose);
    return kept;
}

// The ending node's forward on x^T (attn_end_t): x^T into saved (t without saved), the mask's
// into mt, the starting node's forward on them with out^T into t (into out without saved:
// then out^T goes through t, x^T spent, back into out). PF_ATTN_END_INPLACE: x read as x^T by
// the projections' kernel (which writes saved's x^T from that read; without saved, x^T is
// never made: the rows read only the projections) and out written in place, where they apply.
static void attn_fwd_end_t(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *key_mask,
                           void *out, void *saved, const attn_wv *w) {
    pf_attn_dims dt = *d;
    dt.transpose = 0;
    attn_sv s;
    memset(&s, 0, sizeof s);
    if (saved) attn_saved_layout(c, d, saved, &s);
    if (d->keep) attn_keep_layout(c, d, d->keep, &s);  // selective recompute: o, lse there (x^T's frame)
    void *xt = saved ? s.x : w->t, *ot = saved ? w->t : out;  // (B*L, c_in)
    const int inplace = cu_setting_get(&end_inplace);
    int xln_ready = inplace ? attn_make_bias(c, &dt, p, x, 1, NULL, w, saved ? xt : NULL, 1, 1) : -1;
    if (xln_ready < 0) {
        end_t_xpose(c, d, x, xt, d->c_in);
        xln_ready = attn_make_bias(c, &dt, p, xt, 0, NULL, w, NULL, 1, 1);
    } else {
        g_end_inplace_runs[0]++;
    }
    if (key_mask) end_t_xpose(c, d, key_mask, w->mt, 1);
    const int out_t = inplace && attn_rows_out_t_ok(c, &dt, out, w->R);
    attn_rows_fwd(c, &dt, p, xt, key_mask ? w->mt : NULL, w->biasT, out_t ? out : ot, s.o, s.lse, w->region, w->R,
                  xln_ready, out_t);
    if (out_t) {
        g_end_inplace_runs[1]++;
    } else if (saved) {
        end_t_xpose(c, d, w->t, out, d->c_in);
    } else {
        end_t_xpose(c, d, out, w->t, d->c_in);
        CU_CHECK(cudaMemcpyAsync(out, w->t, (size_t)(d->B * d->L * d->c_in) * cu_esz(c), cudaMemcpyDeviceToDevice,
                                 c->stream));
    }
    g_end_t_runs++;
}

void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    attn_wv w;
    attn_ws_layout(c, d, ws, &w, 0);
    if (attn_end_t(d)) {
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
    if (d->bias) xln_ready = attn_make_bias(c, d, p, x, 0, z, &w, d->bias == PF_BIAS_PAIR ? s.z : s.x, 1, 1);
    attn_rows_fwd(c, d, p, x, key_mask, d->bias ? w.biasT : NULL, out, s.o, s.lse, w.region, w.R, xln_ready, 0);
}

// PF_BIAS_SELF in one piece: the bias's gradient joins the projections' in d_xln
// (one LayerNorm backward, as the whole module has always run).
static const void *self_dzb(void *ctx) { return ctx; }

// The ending node's backward on x^T (attn_fwd_end_t): d_out^T into t; each row piece fills
// its rows of t with d_x^T (end_t_dx_rows: after its last read of d_out^T's rows, before its
// LayerNorm's backward adds to them: the starting node's d_x contract on x^T), with several
// pieces the bias's backward over x^T adds to t too, and t goes back into d_x.
typedef struct {
    cu_impl *c;
    int64_t L;
    int c_in;
    const void *d_x;
    void *t;
} end_t_ctx;
static void end_t_dx_rows(void *ctx, int64_t r0, int64_t n) {
    end_t_ctx *e = (end_t_ctx *)ctx;
    end_t_rows(e->c, e->d_x, e->t, e->L, r0, n, e->c_in);
}

static void attn_bwd_end_t(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const void *key_mask,
                           const attn_sv *s, const void *d_out, void *d_x, const attn_wv *w) {
    pf_attn_dims dt = *d;
    dt.transpose = 0;
    int xln_ready = attn_make_bias(c, &dt, p, s->x, 0, NULL, w, NULL, 0, s->o != NULL);
    if (key_mask) end_t_xpose(c, d, key_mask, w->mt, 1);
    end_t_xpose(c, d, d_out, w->t, d->c_in);
    end_t_ctx e = {c, d->L, d->c_in, d_x, w->t};
    // d_out^T and d_x^T both in t: a piece reads its d_out^T rows before end_t_dx_rows
    attn_bwd_args a = {&dt, p, g, s->x, s->o, key_mask ? w->mt : NULL, w->t, s->lse, w->biasT, d_x ? w->t : NULL,
                       w->zb, w->acc, w->region, w->R, self_dzb, w->zb, xln_ready, end_t_dx_rows, &e};
    attn_rows_bwd(c, &a);
    if (w->R < d->B)
        attn_bias_bwd(c, d->L * d->L, d->c_in, d->H, &p->ln, &g->ln, &p->bias, &g->bias, s->x, w->zb,
                      d_x ? w->t : NULL, w->region, w->Pb);
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
    if (attn_end_t(d)) {
        attn_bwd_end_t(c, d, p, g, key_mask, &s, d_out, d_x, &w);
        return;
    }
    int xln_ready = d->bias ? attn_make_bias(c, d, p, s.x, 0, s.z, &w, NULL, 0, s.o != NULL) : 0;
    attn_bwd_args a = {d, p, g, s.x, s.o, key_mask, d_out, s.lse, d->bias ? w.biasT : NULL, d_x, w.zb, w.acc,
                       w.region, w.R, d->bias == PF_BIAS_SELF ? self_dzb : NULL, w.zb, xln_ready, NULL, NULL};
    attn_rows_bwd(c, &a);
    int64_t LL = d->L * d->L;
    if (d->bias == PF_BIAS_PAIR)
        attn_bias_bwd(c, LL, d->c_z, d->H, &p->ln_z, &g->ln_z, &p->bias, &g->bias, s.z, w.zb, d_z, w.region, w.Pb);
    else if (d->bias == PF_BIAS_SELF && w.R < d->B)
        attn_bias_bwd(c, LL, d->c_in, d->H, &p->ln, &g->ln, &p->bias, &g->bias, s.x, w.zb, d_x, w.region, w.Pb);
}
