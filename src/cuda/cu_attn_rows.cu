// cu_attn_rows.cu: the attention module over pieces of rows and its bias over
// pieces of positions (cu_attn.cuh), for cu_attention.cu and cu_dap_attn.cu.
//
// Forward piece:  xln (R*L, c_in) | q, k, v, g, o, og (R*L, HC) | lse (R, H, L) fp32 |
//                 gathered: xc, outc (R*L, c_in), mc (R*L)
// Backward piece: xln | q, k, v, g (dq once the gate's backward has run; fused: d g_pre) |
//                 og (d g_pre; fused: g * o, then dq) |
//                 dO | dk, dv (R*L, HC) | D (R, H, L) fp32 | d_xln (R*L, c_in) |
//                 bias-gradient partials (splits, H, L, L) fp32 [bf16, bias] |
//                 gathered: xc, doc, dxc (R*L, c_in), mc (R*L) | in pieces: o (R*L, HC),
//                 lse (R, H, L) fp32 (the core's forward again: o is not saved then)
// q, k, v and the gate are recomputed from LN(x) in the backward (four GEMMs)
// rather than saved: saved memory is what grows with the number of blocks.
#include "cu_attn.cuh"
#include "cu_flash.cuh"
#include "cu_small.cuh"

static size_t al256(size_t n) { return (n + 255) & ~(size_t)255; }

// Bytes of the per-row buffers of R rows: gather, a transposed op's columns in pieces;
// remake, the backward's o and lse made again (cu_attn.cuh). align 0: the exact sum.
static double rows_bytes(cu_impl *c, const pf_attn_dims *d, int64_t R, int fwd, int gather, int remake, int align) {
    size_t e = cu_esz(c), RL = (size_t)(R * d->L), HC = (size_t)d->H * (size_t)d->c_h;
    size_t x = RL * (size_t)d->c_in * e, q = RL * HC * e, lse = sizeof(float) * (size_t)(R * d->H * d->L), m = RL * e;
    if (align) x = al256(x), q = al256(q), lse = al256(lse), m = al256(m);
    if (fwd) return (double)x + 6.0 * q + lse + (gather ? 2.0 * x + m : 0);
    return 2.0 * x + 8.0 * q + lse + (gather ? 3.0 * x + m : 0) + (gather || remake ? (double)q : 0) + (remake ? lse : 0);
}

// The bias gradient's partials for pieces of at most R rows: fa_dbias_splits of R ranges; a
// smaller last piece is capped at that count (dbias_split_cap), so this is enough for every piece.
static int dbias_split_cap(cu_impl *c, const pf_attn_dims *d, int64_t R) {
    return d->bias ? fa_dbias_splits(c->bf16, R, d->L, d->H, c->n_sm) : 1;
}
static size_t dbias_part_bytes(cu_impl *c, const pf_attn_dims *d, int64_t R) {
    int ns = dbias_split_cap(c, d, R);
    return ns > 1 ? al256(sizeof(float) * (size_t)ns * (size_t)(d->L * d->L * d->H)) : 0;
}

static int rows_whole(cu_impl *c, const pf_attn_dims *d, int fwd) {
    double whole = rows_bytes(c, d, 1, fwd, 0, 0, 0);
    return cu_chunk_units(c, d->B, whole > 1 ? whole : 1, 1) >= d->B;
}

// o (and lse) are made again only when the backward runs in pieces and o alone is over
// the piece limit (CU_CHUNK_ABOVE): at N = 6144 (9 GiB per triangle attention), not at
// 2048, where the extra core forward (~30% of the core backward) would cost time for
// memory that is not short.
int attn_saves_o(cu_impl *c, const pf_attn_dims *d) {
    double o = (double)(d->B * d->L) * (double)d->H * (double)d->c_h * (double)cu_esz(c);
    return rows_whole(c, d, 0) || o <= cu_chunk_limit(c, CU_CHUNK_ABOVE);
}

// Whole when the whole's buffers fit (CU_CHUNK_ABOVE); pieces hold a little more per row.
int64_t attn_rows_per_piece(cu_impl *c, const pf_attn_dims *d, int fwd) {
    if (rows_whole(c, d, fwd)) return d->B > 0 ? d->B : 1;
    return cu_chunk_units(c, d->B, rows_bytes(c, d, 1, fwd, d->transpose, !fwd && !attn_saves_o(c, d), 0), 1);
}

size_t attn_rows_bytes(cu_impl *c, const pf_attn_dims *d, int64_t R, int fwd) {
    size_t n = (size_t)rows_bytes(c, d, R, fwd, attn_gathers(d, R), !fwd && !attn_saves_o(c, d), 1);
    return fwd ? n : n + dbias_part_bytes(c, d, R);
}

int64_t attn_bias_per_piece(cu_impl *c, int64_t n_pos, int cb, int fwd) {
    return cu_chunk_units(c, n_pos, (double)cb * (double)cu_esz(c) * (fwd ? 1 : 2), 1);
}

// ---- the bias logits ---------------------------------------------------------------

int attn_bias_fwd(cu_impl *c, int64_t n_pos, int cb, int H, const pf_layernorm_p *ln, const real *w_bias,
                  const void *src, void *zb, char *region, int64_t P, void *copy, int keep_ln) {
    size_t e = cu_esz(c);
    pf_linear_p nb = {(real *)w_bias, NULL};
    int kept = keep_ln && P >= n_pos;
    for (int64_t p0 = 0; p0 < n_pos; p0 += P) {
        int64_t n = n_pos - p0 < P ? n_pos - p0 : P;
        const char *sp = (const char *)src + (size_t)(p0 * cb) * e;
        char *cp = copy ? (char *)copy + (size_t)(p0 * cb) * e : NULL, *zp = (char *)zb + (size_t)(p0 * H) * e;
        if (attn_lnb_fwd(c, n, cb, H, ln, w_bias, sp, zp, cp, kept ? region : NULL)) continue;
        if (cp) cu_copy_act(c, cp, sp, n * cb);
        cu_ln_fwd(c, n, cb, ln, sp, region);
        cu_linear_fwd(c, n, cb, H, &nb, region, zp, 0);
    }
    return kept && attn_fuse_on();  // the unfused path leaves LN(src) there too, unused (as before)
}

void attn_bias_bwd(cu_impl *c, int64_t n_pos, int cb, int H, const pf_layernorm_p *ln, pf_layernorm_p *g_ln,
                   const pf_linear_p *bias, pf_linear_p *g_bias, const void *src, const void *dzb, void *d_src,
                   char *region, int64_t P) {
    size_t e = cu_esz(c);
    char *lnp = region, *dp = region + al256((size_t)(P * cb) * e);
    for (int64_t p0 = 0; p0 < n_pos; p0 += P) {
        int64_t n = n_pos - p0 < P ? n_pos - p0 : P;
        const char *sp = (const char *)src + (size_t)(p0 * cb) * e, *dzp = (const char *)dzb + (size_t)(p0 * H) * e;
        char *dsp = d_src ? (char *)d_src + (size_t)(p0 * cb) * e : NULL;
        if (attn_lnb_bwd(c, n, cb, H, ln, g_ln, bias, g_bias, sp, NULL, dzp, dsp)) continue;
        cu_ln_fwd(c, n, cb, ln, sp, lnp);
        attn_linear_bwd(c, n, cb, H, bias, g_bias, lnp, dzp, dp, 1);
        cu_ln_bwd(c, n, cb, ln, g_ln, sp, dp, dsp);
    }
}

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

void attn_bias_T(cu_impl *c, const void *zb, float *biasT, int64_t L, int H, int tr) {
    if (cu_bias_T_tiled(c, zb, biasT, L, H, tr)) return;
    CU_DISPATCH(c, T, k_bias_T<T><<<cu_blocks(L * L * H, 256), 256, 0, c->stream>>>((const T *)zb, biasT, L, H, tr));
    CU_LAUNCHED();
}

// acc = x (first) or acc += x: the bias gradient summed over the pieces in piece order.
template <typename T>
__global__ void k_acc_f32(float *acc, const T *x, int64_t n, int first) {
    GRID_STRIDE(i, n) acc[i] = first ? ld(x, i) : acc[i] + ld(x, i);
}
template <typename T>
__global__ void k_f32_to_act(T *y, const float *x, int64_t n) { GRID_STRIDE(i, n) st(y, i, x[i]); }

// ---- rows ------------------------------------------------------------------------

static fa_args rows_args(const pf_attn_dims *d, int64_t n, int gather, const void *key_mask) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.B = n;
    a.L = d->L;
    a.H = d->H;
    a.ch = d->c_h;
    a.HC = (int64_t)d->H * d->c_h;
    // transposed: position l of row r at l * (rows stored) + r
    a.rstride = d->transpose ? 1 : d->L;
    a.pstride = d->transpose ? (gather ? n : d->B) : 1;
    a.bias_tr = d->bias == PF_BIAS_SELF && d->transpose;
    a.scale = (float)(1.0 / sqrt((double)d->c_h));
    a.mask = key_mask;
    return a;
}

// (L, n) columns r0.. of a transposed (L, B, ch) tensor <-> a contiguous (L, n, ch) one.
static void cols_copy(cu_impl *c, void *dst, const void *src, const pf_attn_dims *d, int64_t r0, int64_t n, int ch,
                      int gather) {
    size_t e = cu_esz(c), w = (size_t)(n * ch) * e, wide = (size_t)(d->B * ch) * e;
    char *off = (char *)(gather ? src : dst) + (size_t)(r0 * ch) * e;
    if (gather) CU_CHECK(cudaMemcpy2DAsync(dst, w, off, wide, w, (size_t)d->L, cudaMemcpyDeviceToDevice, c->stream));
    else CU_CHECK(cudaMemcpy2DAsync(off, wide, src, w, w, (size_t)d->L, cudaMemcpyDeviceToDevice, c->stream));
}

// Rows r0 .. r0 + n of a (B, L, ch) tensor (untransposed), or the whole transposed one.
static const void *rows_at(cu_impl *c, const pf_attn_dims *d, const void *t, int64_t r0, int64_t ch) {
    if (!t || d->transpose) return t;
    return (const char *)t + (size_t)(r0 * d->L * ch) * cu_esz(c);
}

// A piece's view of an input tensor of ch channels: its rows in place, or its columns
// gathered into buf.
static const void *piece_in(cu_impl *c, const pf_attn_dims *d, const void *t, void *buf, int64_t r0, int64_t n,
                            int ch, int gather) {
    if (!t) return NULL;
    if (!gather) return rows_at(c, d, t, r0, ch);
    cols_copy(c, buf, t, d, r0, n, ch, 1);
    return buf;
}

// q, k, v (not when q is NULL: the core's outputs are kept) and g = sigmoid(LN(x) W_g^T +
// b_g) from xln (n rows); fused, g is left before the sigmoid (attn_gate_mul).
static void rows_proj(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, int64_t RL, const void *xln, void *q,
                      void *k, void *v, void *g) {
    int HC = d->H * d->c_h;
    if (q) {
        cu_linear_fwd(c, RL, d->c_in, HC, &p->q, xln, q, 0);
        cu_linear_fwd(c, RL, d->c_in, HC, &p->k, xln, k, 0);
        cu_linear_fwd(c, RL, d->c_in, HC, &p->v, xln, v, 0);
    }
    cu_linear_fwd(c, RL, d->c_in, HC, &p->g, xln, g, 0);
    if (!attn_fuse_on()) cu_sigmoid(c, g, RL * HC);
}

static void rows_fwd_piece(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *key_mask,
                           const float *biasT, void *out, void *o_sv, float *lse_sv, char *region, int gather,
                           int64_t r0, int64_t n, int xln_ready) {
    size_t e = cu_esz(c);
    int64_t RL = n * d->L, HC = (int64_t)d->H * d->c_h;
    cu_carver cv = {region, 0};
    // xln first in every forward piece (attn_make_bias may leave LN(x) at the region's start)
    void *xln = cu_carve(&cv, (size_t)(RL * d->c_in) * e);
    void *q = cu_carve(&cv, (size_t)(RL * HC) * e), *k = cu_carve(&cv, (size_t)(RL * HC) * e);
    void *v = cu_carve(&cv, (size_t)(RL * HC) * e), *g = cu_carve(&cv, (size_t)(RL * HC) * e);
    void *o = cu_carve(&cv, (size_t)(RL * HC) * e), *og = cu_carve(&cv, (size_t)(RL * HC) * e);
    float *lse = (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L));
    void *xc = gather ? cu_carve(&cv, (size_t)(RL * d->c_in) * e) : NULL;
    void *outc = gather ? cu_carve(&cv, (size_t)(RL * d->c_in) * e) : NULL;
    void *mc = gather ? cu_carve(&cv, (size_t)RL * e) : NULL;
    if (o_sv && !gather) o = (void *)rows_at(c, d, o_sv, r0, HC);
    if (lse_sv) lse = lse_sv + r0 * d->H * d->L;
    const void *xs = piece_in(c, d, x, xc, r0, n, d->c_in, gather);
    const void *ms = piece_in(c, d, key_mask, mc, r0, n, 1, gather);
    void *dst = gather ? outc : (void *)rows_at(c, d, out, r0, d->c_in);
    if (!xln_ready) cu_ln_fwd(c, RL, d->c_in, &p->ln, xs, xln);
    int kept = d->keep && d->kept;  // o and lse in o_sv, lse_sv already (attn_rows_fwd)
    rows_proj(c, d, p, RL, xln, kept ? NULL : q, k, v, g);
    if (kept) {
        o = (void *)piece_in(c, d, o_sv, o, r0, n, (int)HC, gather);
    } else {
        fa_args a = rows_args(d, n, gather, ms);
        a.q = q; a.k = k; a.v = v;
        a.biasT = biasT;
        a.bias_bf16 = c->bf16;  // attn_bias_T of bf16 logits
        a.out_o = o;
        a.lse = lse;
        fa_forward(c, &a);
    }
    attn_gate_mul(c, og, g, o, RL * HC);
    cu_linear_fwd(c, RL, (int)HC, d->c_in, &p->o, og, dst, 0);
    if (gather) {
        cols_copy(c, out, dst, d, r0, n, d->c_in, 0);
        if (o_sv && !kept) cols_copy(c, o_sv, o, d, r0, n, (int)HC, 0);
    }
}

// ---- PF_ATTN_PROJ: the projections as one GEMM over interleaved rows (cu_attn_proj.cu) ----

static void *slot(void *z, int k, int64_t HC, size_t e) { return (char *)z + (size_t)k * (size_t)HC * e; }

// The path's conditions (cu_attn_proj.cu): fused passes on, HC in 8s (16-byte slots), rows in place.
static int proj_ok(const pf_attn_dims *d, int gather, int fwd) {
    int HC = d->H * d->c_h;
    return attn_proj_on(fwd) && attn_fuse_on() && !gather && HC % 8 == 0 && HC <= 2048;
}

// The backward's one-GEMM path where proj_ok, o is saved and k_bwd_lean's 32-bit tile offsets still hold at the
// 8 HC stride (bwl_fits: (L + 256) pstride stride), so the wider rows never move the core to another kernel.
static int proj_bwd_ok(const pf_attn_dims *d, int gather, int o_saved) {
    int64_t ps = d->transpose ? d->B : 1, ldz = 8 * (int64_t)d->H * d->c_h;
    return proj_ok(d, gather, 0) && o_saved && (d->L + 256) * ps * ldz < 2147483647LL - 4096;
}

int attn_bias_proj_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, int x_t, void *zb,
                       char *region, int64_t P, void *copy, int fwd, int o_saved) {
    const int64_t n_pos = d->L * d->L, RL = d->B * d->L, HC = (int64_t)d->H * d->c_h;
    if (d->bias != PF_BIAS_SELF || P < n_pos || RL != n_pos || attn_rows_per_piece(c, d, fwd) < d->B ||
        !(fwd ? proj_ok(d, 0, 1) : proj_bwd_ok(d, 0, o_saved)) || !attn_lnproj_applies(c, d->c_in, (int)HC, d->H))
        return 0;
    size_t e = cu_esz(c), mark = cu_pool_mark(c);
    const int64_t ldx = (fwd ? 5 : 8) * HC;
    cu_carver cv = {region, 0};  // the rows' carve (rows_fwd_piece_cat, rows_bwd_piece_cat): LN(x), then X or Z
    void *xln = cu_carve(&cv, (size_t)(RL * d->c_in) * e);
    void *X = cu_carve(&cv, (size_t)(RL * ldx) * e);
    const void *w, *b;
    attn_proj_cat(c, p, d->c_in, (int)HC, &w, &b);
    int ok = attn_lnproj(c, RL, (int)HC, d->H, &p->ln, p->bias.w, w, b, x, x_t ? d->L : 0, zb, X, ldx, copy,
                         fwd ? NULL : xln);
    cu_pool_release(c, mark);
    return ok ? 2 : 0;
}

// rows_fwd_piece with q, k, v, g from one GEMM into X (RL, 5 HC) = [q|k|v|g|o] per position,
// the core at that stride; o copied to o_sv by the gate's pass. Region: xln | X (5 of
// rows_bytes' q buffers) | og | lse.
static void rows_fwd_piece_cat(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x,
                               const void *key_mask, const float *biasT, void *out, void *o_sv, float *lse_sv,
                               char *region, int64_t r0, int64_t n, int xln_ready, int out_t) {
    size_t e = cu_esz(c);
    int64_t RL = n * d->L, HC = (int64_t)d->H * d->c_h, ldx = 5 * HC;
    cu_carver cv = {region, 0};
    void *xln = cu_carve(&cv, (size_t)(RL * d->c_in) * e);  // first (rows_fwd_piece)
    void *X = cu_carve(&cv, (size_t)(RL * ldx) * e);  // (RL, 5 HC)
    void *og = cu_carve(&cv, (size_t)(RL * HC) * e);
    float *lse = (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L));
    if (lse_sv) lse = lse_sv + r0 * d->H * d->L;
    const void *xs = rows_at(c, d, x, r0, d->c_in), *ms = rows_at(c, d, key_mask, r0, 1);
    if (!xln_ready) cu_ln_fwd(c, RL, d->c_in, &p->ln, xs, xln);
    if (xln_ready != 2) {  // 2: made with LN(x) and the bias logits (attn_bias_proj_fwd)
        size_t mark = cu_pool_mark(c);
        const void *w, *b;
        attn_proj_cat(c, p, d->c_in, (int)HC, &w, &b);
        cu_gemm_bias_act(c, 0, 1, RL, 4 * HC, d->c_in, xln, d->c_in, w, d->c_in, X, ldx, b);  // [q|k|v|g]
        cu_pool_release(c, mark);
    }
    void *oc = o_sv ? (void *)rows_at(c, d, o_sv, r0, HC) : NULL;
    int kept = d->keep && d->kept;  // o and lse in o_sv, lse_sv already: g from the same GEMM, no core
    if (!kept) {
        fa_args a = rows_args(d, n, 0, ms);
        a.HC = ldx;
        a.q = slot(X, 0, HC, e); a.k = slot(X, 1, HC, e); a.v = slot(X, 2, HC, e);
        a.biasT = biasT;
        a.bias_bf16 = c->bf16;
        a.out_o = slot(X, 4, HC, e);
        a.lse = lse;
        fa_forward(c, &a);
    }
    // out = (sigmoid(g) o) W_o^T + b_o, o from the core's slot (its saved copy made on the way) or,
    // kept, from o_sv
    const void *gs = slot(X, 3, HC, e), *os = kept ? oc : slot(X, 4, HC, e);
    int64_t ldo = kept ? HC : ldx;
    void *dst = out_t ? out : (void *)rows_at(c, d, out, r0, d->c_in), *copy = kept ? NULL : oc;
    int ran = attn_gate_out_wg(c, &p->o, RL, (int)HC, d->c_in, gs, ldx, os, ldo, copy, dst, out_t ? d->L : 0,
                               r0 * d->L);
    if (!ran && out_t) pf_die("attn_rows_fwd: out in place where attn_rows_out_t_ok said it applies");
    if (!ran) {
        attn_gate_mul_ld(c, og, gs, os, ldx, ldo, copy, RL, (int)HC);
        cu_linear_fwd(c, RL, (int)HC, d->c_in, &p->o, og, dst, 0);
    }
    attn_proj_ran();
}

int attn_rows_out_t_ok(cu_impl *c, const pf_attn_dims *d, const void *out, int64_t R) {
    return !d->transpose && proj_ok(d, attn_gathers(d, R), 1) &&
           attn_gate_out_wg_t_ok(c, d->H * d->c_h, d->c_in, out, d->L);
}

void attn_rows_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *key_mask,
                   const float *biasT, void *out, void *o_sv, float *lse_sv, char *region, int64_t R, int xln_ready,
                   int out_t) {
    int gather = attn_gathers(d, R);
    if (out_t && !attn_rows_out_t_ok(c, d, out, R)) pf_die("attn_rows_fwd: out in place where it does not apply");
    if (xln_ready && R < d->B) pf_die("attn_rows_fwd: LN(x) ready with %lld rows per piece of %lld", (long long)R,
                                      (long long)d->B);
    if (d->keep && d->kept && (!o_sv || !lse_sv)) pf_die("attn_rows_fwd: kept core outputs without o and lse");
    int cat = proj_ok(d, gather, 1);
    if (xln_ready == 2 && !cat)
        pf_die("attn_rows_fwd: the projections made ahead for the one-GEMM path it does not take");
    for (int64_t r0 = 0; r0 < d->B; r0 += R) {
        int64_t n = d->B - r0 < R ? d->B - r0 : R;
        if (cat) rows_fwd_piece_cat(c, d, p, x, key_mask, biasT, out, o_sv, lse_sv, region, r0, n, xln_ready, out_t);
        else rows_fwd_piece(c, d, p, x, key_mask, biasT, out, o_sv, lse_sv, region, gather, r0, n, xln_ready);
    }
}

typedef struct { void *xln, *q, *k, *v, *g, *og, *dO, *dk, *dv, *d_xln, *xc, *doc, *dxc, *oc, *mc; float *D, *part, *lse; } rows_bw;

// oc: gathered o, or o made again (remake, with lse: rows_bytes).
static void rows_bwd_carve(cu_impl *c, const pf_attn_dims *d, int64_t n, int64_t R, int gather, int remake,
                           char *region, rows_bw *w) {
    size_t e = cu_esz(c), nx = (size_t)(n * d->L * d->c_in) * e, nq = (size_t)(n * d->L * d->H * d->c_h) * e;
    cu_carver cv = {region, 0};
    w->xln = cu_carve(&cv, nx);
    void **q[] = {&w->q, &w->k, &w->v, &w->g, &w->og, &w->dO, &w->dk, &w->dv};
    for (int i = 0; i < 8; i++) *q[i] = cu_carve(&cv, nq);
    w->D = (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L));
    w->d_xln = cu_carve(&cv, nx);
    w->part = (float *)cu_carve(&cv, dbias_part_bytes(c, d, R));  // sized for R >= n rows
    w->xc = gather ? cu_carve(&cv, nx) : NULL;
    w->doc = gather ? cu_carve(&cv, nx) : NULL;
    w->dxc = gather ? cu_carve(&cv, nx) : NULL;
    w->mc = gather ? cu_carve(&cv, (size_t)(n * d->L) * e) : NULL;
    w->oc = gather || remake ? cu_carve(&cv, nq) : NULL;
    w->lse = remake ? (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L)) : NULL;
}

// The LayerNorm's backward of d_xln into dxs (may be NULL), with the bias logits' gradient
// joined where the bias is made from x itself in one piece (attn_bwd_args.self_dzb). d_x is
// written here only, after self_dzb and after the last read of d_out: dx_rows (the ending
// node on x^T, cu_attention.cu) fills the piece's rows of its shared buffer here.
static void rows_bwd_ln(cu_impl *c, const attn_bwd_args *A, int64_t r0, int64_t n, const void *xs, const void *xln,
                        void *d_xln, void *dxs) {
    const pf_attn_dims *d = A->d;
    const pf_attn_p *p = A->p;
    pf_attn_p *g = A->g;
    int64_t RL = n * d->L;
    if (A->dx_rows && dxs) A->dx_rows(A->dx_ctx, r0, n);
    const void *dzb = n == d->B && A->self_dzb ? A->self_dzb(A->ctx) : NULL;
    if (!dzb || !attn_lnb_bwd(c, RL, d->c_in, d->H, &p->ln, &g->ln, &p->bias, &g->bias, xs, d_xln, dzb, dxs)) {
        if (dzb) cu_linear_bwd(c, RL, d->c_in, d->H, &p->bias, &g->bias, xln, dzb, d_xln);
        cu_ln_bwd(c, RL, d->c_in, &p->ln, &g->ln, xs, d_xln, dxs);
    }
}

// Rows r0 .. r0 + n: parameter gradients, d_x, and this piece's bias gradient in a->dzb.
static void rows_bwd_piece(cu_impl *c, const attn_bwd_args *A, int gather, int64_t r0, int64_t n) {
    const pf_attn_dims *d = A->d;
    const pf_attn_p *p = A->p;
    pf_attn_p *g = A->g;
    int64_t RL = n * d->L, HC = (int64_t)d->H * d->c_h;
    rows_bw w;
    rows_bwd_carve(c, d, n, A->R, gather, !A->o, A->region, &w);
    const void *xs = piece_in(c, d, A->x, w.xc, r0, n, d->c_in, gather);
    const void *os = A->o ? piece_in(c, d, A->o, w.oc, r0, n, (int)HC, gather) : w.oc;
    const void *dos = piece_in(c, d, A->d_out, w.doc, r0, n, d->c_in, gather);
    const void *ms = piece_in(c, d, A->key_mask, w.mc, r0, n, 1, gather);
    void *dxs = gather ? (A->d_x ? (void *)piece_in(c, d, A->d_x, w.dxc, r0, n, d->c_in, 1) : NULL)
                       : (void *)rows_at(c, d, A->d_x, r0, d->c_in);
    if (!A->xln_ready) cu_ln_fwd(c, RL, d->c_in, &p->ln, xs, w.xln);
    rows_proj(c, d, p, RL, w.xln, w.q, w.k, w.v, w.g);
    fa_args a = rows_args(d, n, gather, ms);
    a.q = w.q; a.k = w.k; a.v = w.v;
    a.biasT = A->biasT;
    a.bias_bf16 = c->bf16;
    a.lse = A->o ? (float *)A->lse + r0 * d->H * d->L : w.lse;  // read only in the backward
    if (!A->o) {  // not saved: the core's forward on this piece
        a.out_o = w.oc;
        fa_forward(c, &a);
        a.out_o = NULL;
    }
    // out = og W_o^T + b_o; og = g * o. Fused: d og first, then one pass makes og (for W_o's
    // gradient), d o (in dO) and d g_pre (in g's buffer), and dq goes to og's buffer.
    void *dq = w.g, *dg = w.og;  // the gate is spent: its buffer takes dq
    if (attn_fuse_on()) {
        attn_linear_bwd(c, RL, (int)HC, d->c_in, &p->o, NULL, NULL, dos, w.dO, 1);  // dO = d og
        attn_gate_bwd_og(c, w.dO, w.g, os, w.og, RL * HC);
        attn_linear_bwd(c, RL, (int)HC, d->c_in, &p->o, &g->o, w.og, dos, NULL, 0);
        dq = w.og, dg = w.g;
    } else {
        cu_mul(c, w.og, w.g, os, RL * HC);
        attn_linear_bwd(c, RL, (int)HC, d->c_in, &p->o, &g->o, w.og, dos, w.dO, 1);  // dO = d og
        cu_gate_bwd(c, w.dO, w.g, os, w.dO, w.og, RL * HC);                      // og <- d g_pre, dO <- d o
    }

    a.o = os; a.dO = w.dO;
    a.D = w.D;
    a.dq = dq; a.dk = w.dk; a.dv = w.dv;
    a.dbias = A->biasT ? A->dzb : NULL;
    a.dbias_part = w.part;
    a.nsplit_cap = dbias_split_cap(c, d, A->R);
    fa_rowdot(c, &a, w.D);
    fa_backward(c, &a);

    attn_linear_bwd(c, RL, d->c_in, (int)HC, &p->q, &g->q, w.xln, dq, w.d_xln, 1);
    attn_linear_bwd(c, RL, d->c_in, (int)HC, &p->k, &g->k, w.xln, w.dk, w.d_xln, 0);
    attn_linear_bwd(c, RL, d->c_in, (int)HC, &p->v, &g->v, w.xln, w.dv, w.d_xln, 0);
    attn_linear_bwd(c, RL, d->c_in, (int)HC, &p->g, &g->g, w.xln, dg, w.d_xln, 0);
    rows_bwd_ln(c, A, r0, n, xs, w.xln, w.d_xln, dxs);
    if (gather && dxs) cols_copy(c, A->d_x, dxs, d, r0, n, d->c_in, 0);
}

// rows_bwd_piece with the projections as one GEMM (rows_fwd_piece_cat): Z (RL, 8 HC) per
// position [q|k|v|g|dq|dk|dv|dg] (cu_attn_proj.cu: slot 3 takes dO, slot 4 g * o until dq,
// slot 7 d(g * o) until dg). Region: xln | Z (rows_bytes' 8 q buffers) | D | d_xln | part.
static void rows_bwd_piece_cat(cu_impl *c, const attn_bwd_args *A, int64_t r0, int64_t n) {
    const pf_attn_dims *d = A->d;
    const pf_attn_p *p = A->p;
    pf_attn_p *g = A->g;
    size_t e = cu_esz(c), nx = (size_t)(n * d->L * d->c_in) * e;
    int64_t RL = n * d->L, HC = (int64_t)d->H * d->c_h, ldz = 8 * HC;
    cu_carver cv = {A->region, 0};
    void *xln = cu_carve(&cv, nx);
    void *Z = cu_carve(&cv, (size_t)(RL * ldz) * e);
    float *D = (float *)cu_carve(&cv, sizeof(float) * (size_t)(n * d->H * d->L));
    void *d_xln = cu_carve(&cv, nx);
    float *part = (float *)cu_carve(&cv, dbias_part_bytes(c, d, A->R));
    const void *xs = rows_at(c, d, A->x, r0, d->c_in), *os = rows_at(c, d, A->o, r0, HC);
    const void *dos = rows_at(c, d, A->d_out, r0, d->c_in), *ms = rows_at(c, d, A->key_mask, r0, 1);
    void *dxs = (void *)rows_at(c, d, A->d_x, r0, d->c_in);
    if (!A->xln_ready) cu_ln_fwd(c, RL, d->c_in, &p->ln, xs, xln);
    if (A->xln_ready != 2) {  // 2: made with LN(x) and the bias logits (attn_bias_proj_fwd)
        size_t mark = cu_pool_mark(c);
        const void *w, *b;
        attn_proj_cat(c, p, d->c_in, (int)HC, &w, &b);
        cu_gemm_bias_act(c, 0, 1, RL, 4 * HC, d->c_in, xln, d->c_in, w, d->c_in, Z, ldz, b);  // [q|k|v|g]
        cu_pool_release(c, mark);
    }
    // out = og W_o^T + b_o: d og (slot 7), then og (slot 4), dO (slot 3), d g_pre (slot 7)
    // (PF_ATTN_GATE_WG: d og in the wgmma's registers, the gate's backward and D in its epilogue; 3: and
    // W_o's gradient and b_o's and b_g's, og not written: ago 2)
    fa_args a = rows_args(d, n, 0, ms);
    const int bsums = attn_gate_bias_sums_on();
    const int ago = attn_gate_bwd_wg(c, &p->o, (float *)g->o.w, bsums ? (float *)g->o.b : NULL,
                                     bsums ? (float *)g->g.b : NULL, RL, (int)HC,
                                     d->c_in, dos, slot(Z, 3, HC, e), os, slot(Z, 4, HC, e), slot(Z, 7, HC, e), ldz,
                                     d->c_h, D, d->H, d->L, d->transpose, a.pstride);
    int withD = ago > 0;
    if (!withD) {
        const void *wo = cu_weight(c, p->o.w, (size_t)d->c_in * (size_t)HC);
        cu_gemm(c, 0, 0, RL, HC, d->c_in, 1.f, dos, CU_ACT, d->c_in, wo, CU_ACT, HC, 0.f, slot(Z, 7, HC, e), CU_ACT,
                ldz, 1, 0, 0, 0, NULL);
        withD = attn_gate_bwd_ld_D(c, slot(Z, 7, HC, e), slot(Z, 3, HC, e), os, slot(Z, 4, HC, e),
                                   slot(Z, 3, HC, e), slot(Z, 7, HC, e), ldz, RL, (int)HC, d->c_h, D, d->H, d->L,
                                   d->transpose, a.pstride);
    }
    if (!withD)
        attn_gate_bwd_ld(c, slot(Z, 7, HC, e), slot(Z, 3, HC, e), os, slot(Z, 4, HC, e), slot(Z, 3, HC, e),
                         slot(Z, 7, HC, e), ldz, RL, (int)HC);
    if (ago != 2)
        cu_gemm(c, 1, 0, d->c_in, HC, RL, 1.f, dos, CU_ACT, d->c_in, slot(Z, 4, HC, e), CU_ACT, ldz, 1.f, g->o.w,
                CU_F32, HC, 1, 0, 0, 0, NULL);  // W_o's gradient (attn_linear_bwd's)
    const int bias_done = ago == 2 && bsums;  // b_o's and b_g's gradients summed in the gate's kernel
    if (g->o.b && !bias_done) attn_colsum_add_ld(c, RL, d->c_in, dos, d->c_in, g->o.b);

    a.HC = ldz;
    a.q = slot(Z, 0, HC, e); a.k = slot(Z, 1, HC, e); a.v = slot(Z, 2, HC, e);
    a.biasT = A->biasT;
    a.bias_bf16 = c->bf16;
    a.lse = (float *)A->lse + r0 * d->H * d->L;
    a.o = os; a.dO = slot(Z, 3, HC, e);
    a.D = D;
    a.dq = slot(Z, 4, HC, e); a.dk = slot(Z, 5, HC, e); a.dv = slot(Z, 6, HC, e);
    a.dbias = A->biasT ? A->dzb : NULL;
    a.dbias_part = part;
    a.nsplit_cap = dbias_split_cap(c, d, A->R);
    if (!withD) fa_rowdot_ld(c, &a, D, HC);  // o (saved) HC apart, dO ldz apart
    fa_backward(c, &a);
    attn_proj_bwd(c, RL, d->c_in, (int)HC, p, g, xln, slot(Z, 4, HC, e), ldz, d_xln, bias_done);
    rows_bwd_ln(c, A, r0, n, xs, xln, d_xln, dxs);
    attn_proj_ran();
}

void attn_rows_bwd(cu_impl *c, const attn_bwd_args *a) {
    const pf_attn_dims *d = a->d;
    int gather = attn_gathers(d, a->R), pieces = a->R < d->B;
    int64_t nb = d->L * d->L * d->H;
    if (a->xln_ready && pieces) pf_die("attn_rows_bwd: LN(x) ready with %lld rows per piece of %lld", (long long)a->R,
                                       (long long)d->B);
    int cat = proj_bwd_ok(d, gather, a->o != NULL);
    if (a->xln_ready == 2 && !cat)
        pf_die("attn_rows_bwd: the projections made ahead for the one-GEMM path it does not take");
    for (int64_t r0 = 0; r0 < d->B; r0 += a->R) {
        int64_t n = d->B - r0 < a->R ? d->B - r0 : a->R;
        if (cat) rows_bwd_piece_cat(c, a, r0, n);
        else rows_bwd_piece(c, a, gather, r0, n);
        if (!a->biasT || !pieces) continue;
        CU_DISPATCH(c, T, k_acc_f32<T><<<cu_blocks(nb, 256), 256, 0, c->stream>>>(a->dzb_acc, (const T *)a->dzb, nb, r0 == 0));
        CU_LAUNCHED();
    }
    if (a->biasT && pieces) {
        CU_DISPATCH(c, T, k_f32_to_act<T><<<cu_blocks(nb, 256), 256, 0, c->stream>>>((T *)a->dzb, a->dzb_acc, nb));
        CU_LAUNCHED();
    }
}
