// cu_attn.cuh: the attention module's pieces (cu_attn_rows.cu), shared by the op
// (cu_attention.cu) and its row-sharded variant (cu_dap_attn.cu), which differ
// only in where the pair bias comes from and where its gradient goes.
//
// The B rows attend independently, so LayerNorm, projections, the fused core
// (cu_flash.cuh), the gate and the output projection run over pieces of R rows;
// only the bias logits are shared by every row: they are made whole first (zb
// (L*L, H) act, then biasT (H, L, L) fp32), from pieces of positions, and their
// gradient is the sum over all rows, complete only after the last row piece.
// A transposed op (its rows are x's second axis) copies a piece's columns into
// contiguous (L, R, c) buffers when there is more than one piece ("gather").
// Piece sizes come from cu_chunk_units (sizes only): the same bits every run, and
// one piece below CU_CHUNK_ABOVE, which is the whole module op for op.
#ifndef PF_CU_ATTN_CUH
#define PF_CU_ATTN_CUH
#include "cu_ops.h"

// Rows per piece of the forward (fwd != 0) or of the backward, and whether
// those pieces gather columns.
int64_t attn_rows_per_piece(cu_impl *c, const pf_attn_dims *d, int fwd);
static inline int attn_gathers(const pf_attn_dims *d, int64_t R) { return d->transpose && R < d->B; }
// Whether the forward saves the core's o and lse: unless the backward runs in pieces and
// o is over the piece limit (large problems: then the backward runs the core's forward
// again on each piece, about a third of the core backward's work).
int attn_saves_o(cu_impl *c, const pf_attn_dims *d);
// Bytes of one piece's buffers (fwd or bwd) for R rows.
size_t attn_rows_bytes(cu_impl *c, const pf_attn_dims *d, int64_t R, int fwd);

// Positions per piece of a bias pass over n_pos positions of cb channels:
// forward (LayerNorm output) or backward (LayerNorm output and its gradient).
int64_t attn_bias_per_piece(cu_impl *c, int64_t n_pos, int cb, int fwd);
static inline size_t attn_bias_bytes(cu_impl *c, int64_t P, int cb, int fwd) {
    return (((size_t)(P * cb) * cu_esz(c) + 255) & ~(size_t)255) * (fwd ? 1 : 2);
}

// zb (n_pos, H) = LN(src) W_bias^T over pieces of P positions of src (n_pos, cb);
// region: attn_bias_bytes(P, cb, 1). copy (may be NULL) = src as well (the forward's saved
// copy, from the same read when fused). keep_ln (fused path, one piece): LN(src) is left at
// region's start; returns 1 when it was (else 0).
int attn_bias_fwd(cu_impl *c, int64_t n_pos, int cb, int H, const pf_layernorm_p *ln, const real *w_bias,
                  const void *src, void *zb, char *region, int64_t P, void *copy, int keep_ln);
// attn_bias_fwd with the rows' projections in the same pass (cu_attn_lnproj.cu) where the bias comes from x itself
// (PF_BIAS_SELF), rows and bias are one piece each and the rows take the one-GEMM projection path (cu_attn_proj.cu;
// the backward's needs o saved: o_saved): zb, [q|k|v|g] into the rows' interleaved buffer in region (where
// attn_rows_fwd / attn_rows_bwd carve it) and, in the backward (fwd 0), LN(x) at region's start; copy as
// attn_bias_fwd's. Returns 2 (pass it to the rows as xln_ready: they skip the LayerNorm and the projection GEMM)
// or 0 where it does not apply (nothing done). x_t: x is the ending node's original (L, L, c_in), read as x^T
// (d is then the x^T frame's: transpose 0), every output x^T's, copy included.
int attn_bias_proj_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, int x_t, void *zb,
                       char *region, int64_t P, void *copy, int fwd, int o_saved);
// cu_attn_lnproj.cu: PF_ATTN_LNPROJ on and the kernel's shapes (bf16, sm_90, c_in 128, 4 HC <= 512, H <= 16)
int attn_lnproj_applies(cu_impl *c, int c_in, int HC, int H);
// zb (M, H) = LN(x) W_bias^T, X (M, 4 HC; rows ldx apart) = LN(x) W_cat^T + b_cat (wcat (4 HC, 128) bf16, bcat
// (4 HC) bf16 or NULL: attn_proj_cat's), cp = x and xln = LN(x) (M, 128) where not NULL; 0 where it does not
// apply. xt_L > 0: x is (xt_L, xt_L, 128) read as its transpose (M = xt_L^2 < 2^31; the outputs x^T's).
int attn_lnproj(cu_impl *c, int64_t M, int HC, int H, const pf_layernorm_p *ln, const real *w_bias, const void *wcat,
                const void *bcat, const void *x, int64_t xt_L, void *zb, void *X, int64_t ldx, void *cp, void *xln);
// The backward of attn_bias_fwd for dzb (n_pos, H): g_bias, g_ln += ..., d_src += ...
// (may be NULL); region: attn_bias_bytes(P, cb, 0).
void attn_bias_bwd(cu_impl *c, int64_t n_pos, int cb, int H, const pf_layernorm_p *ln, pf_layernorm_p *g_ln,
                   const pf_linear_p *bias, pf_linear_p *g_bias, const void *src, const void *dzb, void *d_src,
                   char *region, int64_t P);
// biasT[h][key][query] = zb[bidx(query, key)][h]; bidx = key * L + query when tr.
void attn_bias_T(cu_impl *c, const void *zb, float *biasT, int64_t L, int H, int tr);

// Forward of every row in pieces of R: out (x's layout) = the module without its
// bias logits, which biasT (or NULL) brings. o_sv (x's layout, HC channels) and
// lse_sv (B, H, L) fp32 receive the core's output and log-sum-exp when not NULL
// (the forward that saves). region: attn_rows_bytes(R, fwd). xln_ready (one piece
// only): LN(x) of every row is at region's start already (attn_bias_fwd's keep_ln); 2: and
// q, k, v, g in the one-GEMM path's buffer (attn_bias_proj_fwd).
// d->keep && d->kept (selective recompute): o_sv and lse_sv hold the core's outputs
// already: the core and the q, k, v projections are skipped.
// out_t: out is the ending node's original frame (d the x^T frame's), written in place (attn_rows_out_t_ok first).
void attn_rows_fwd(cu_impl *c, const pf_attn_dims *d, const pf_attn_p *p, const void *x, const void *key_mask,
                   const float *biasT, void *out, void *o_sv, float *lse_sv, char *region, int64_t R, int xln_ready,
                   int out_t);
// Whether attn_rows_fwd can write out in place (out_t) for d (the x^T frame) in pieces of R rows: the one-GEMM
// path with the gate in the output projection's wgmma (attn_gate_out_wg_t_ok)
int attn_rows_out_t_ok(cu_impl *c, const pf_attn_dims *d, const void *out, int64_t R);

// Backward of every row in pieces of R, from the saved x, o and lse (o, lse NULL when
// not saved, attn_saves_o: then made again per piece):
// parameter gradients of ln, q, k, v, g, o, d_x += (NULL: not wanted), and the bias
// logits' gradient dzb (L*L, H) act (stored order of the bias, written) when biasT.
// Several pieces sum their gradients of the bias in dzb_acc (L*L, H) fp32, in
// piece order. One piece: self_dzb(ctx) (when set) is called after the core's backward,
// with dzb complete, and returns the gradient of the bias logits made from x itself
// (PF_BIAS_SELF), which joins the projections' d_xln before the one LayerNorm backward
// (fused: in the same kernel); with several pieces the caller runs attn_bias_bwd over x
// instead. xln_ready (one piece only): LN(x) is at region's start already. dx_rows (may be
// NULL) is called with each piece's rows (r0, n) before the piece's d_x rows are first
// written and after its last read of d_out's rows (d_out and d_x may then share a buffer):
// the ending node as the starting node on x^T fills them with d_x^T there (cu_attention.cu).
typedef struct {
    const pf_attn_dims *d;
    const pf_attn_p *p;
    pf_attn_p *g;
    const void *x, *o, *key_mask, *d_out;
    const float *lse, *biasT;
    void *d_x, *dzb;
    float *dzb_acc;
    char *region;
    int64_t R;
    const void *(*self_dzb)(void *ctx);
    void *ctx;
    int xln_ready;
    void (*dx_rows)(void *ctx, int64_t r0, int64_t n);
    void *dx_ctx;
} attn_bwd_args;
void attn_rows_bwd(cu_impl *c, const attn_bwd_args *a);

// ---- the fused passes (cu_attn_fuse.cu), PF_ATTN_FUSE -------------------------------
// Whether they run (PF_ATTN_FUSE=0 / pf_cuda_set_attn_module_fused(be, 0): the old path).
int attn_fuse_on(void);
// og = gate * o: fused, the projection left the gate's pre-activation in g (no sigmoid
// pass) and the sigmoid runs here; else g is the gate (cu_mul).
void attn_gate_mul(cu_impl *c, void *og, const void *g, const void *o, int64_t n);
// Fused path only, from dy = d og and the pre-activation gp: og = sigmoid(gp) * x, dy <- d x,
// gp <- d gp (in place, one pass).
void attn_gate_bwd_og(cu_impl *c, void *dy, void *gp, const void *x, void *og, int64_t n);
// cu_linear_bwd with dx written (set: beta 0, fused; the old path fills it with zeros first)
// or accumulated, and the bias's column sum through 16-byte loads when fused.
void attn_linear_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const void *x,
                     const void *dy, void *dx, int set);
// zb (n, H) = LN(src) W_bias^T in one kernel, copy (may be NULL) = src, xln (may be NULL) =
// LN(src); returns 0 (nothing done) where it does not apply (off, cb not 32, 64, 128 or 256,
// H > 16, unaligned buffers).
int attn_lnb_fwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, const real *w_bias, const void *src,
                 void *zb, void *copy, void *xln);
// attn_lnb_fwd's tensor-core form (cu_lnb_mma.cu: bf16, cb 64 or 128, H <= 16; PF_LNB_MMA),
// at most max_blocks blocks when > 0 (tests); returns 0 (nothing done) where it does not apply.
int attn_lnb_fwd_mma(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, const real *w_bias,
                     const void *src, void *zb, void *copy, void *xln, int max_blocks);
// Its backward with the LayerNorm's other gradient d_ln (may be NULL): dy = d_ln + dzb W_bias,
// d_src (may be NULL) += LN backward of dy, g_ln, g_bias (may be NULL) += their gradients
// (recomputing LN(src)); returns 0 where it does not apply (as attn_lnb_fwd, H > 8, Linear
// biases).
int attn_lnb_bwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, pf_layernorm_p *g_ln,
                 const pf_linear_p *bias, pf_linear_p *g_bias, const void *src, const void *d_ln, const void *dzb,
                 void *d_src);
// out (N) += the column sums of x (M, N), rows ldx apart (ldx a multiple of 8 when not N).
void attn_colsum_add_ld(cu_impl *c, int64_t M, int N, const void *x, int64_t ldx, float *out);

// cu_trimul_gdw.cu (k_tm_gdw's TMA form, PF_ATTN_PROJ_BWD): d_xln = G W_cat and dw[k] += G[:, 128 k ..]^T xln from
// one read of G = [dq|dk|dv|dg] (row stride ldg) where c_in and HC are 128 on sm_90 in bf16; 1 where it ran, else 0.
int cu_gdw_attn(cu_impl *c, int64_t M, int c_in, int HC, const void *G, int64_t ldg, const void *xln,
                const void *wcat, void *d_xln, float *const dw[4]);

// ---- the projections as one GEMM (cu_attn_proj.cu), PF_ATTN_PROJ ----------------------
// Whether they run in the forward (fwd) or the backward: PF_ATTN_PROJ / pf_cuda_set_attn_proj
// 1 both, 2 the forward only, 3 the backward only, 0 neither (the default, the four GEMMs).
int attn_proj_on(int fwd);
void attn_proj_ran(void);  // counts the pieces that took the path (tests)
// W_cat (4 HC, c_in) = [W_q; W_k; W_v; W_g] and b_cat (4 HC, or NULL when none of the four has a
// bias) in the act type, in pool memory (the caller releases it).
void attn_proj_cat(cu_impl *c, const pf_attn_p *p, int c_in, int HC, const void **w, const void **b);
// og (M, HC) = sigmoid(g) * o, g rows ldz and o rows ldo apart; oc (may be NULL) = o as (M, HC).
void attn_gate_mul_ld(cu_impl *c, void *og, const void *g, const void *o, int64_t ldz, int64_t ldo, void *oc,
                      int64_t M, int HC);
// The gate's backward from dy = d og and the pre-activation gp (rows ldz apart) and o (M, HC):
// og = s o, dO = dy s, dg = d gp (rows ldz apart; dO may overwrite gp, dg dy).
void attn_gate_bwd_ld(cu_impl *c, const void *dy, const void *gp, const void *o, void *og, void *dO, void *dg,
                      int64_t ldz, int64_t M, int HC);
// The gate and the output projection on Hopper wgmma (cu_attn_gate_wg.cu, PF_ATTN_GATE_WG): out (M,
// c_in) = (sigmoid(g) o) W_o^T + b_o with g rows ldg and o rows ldo apart, oc (may be NULL) = o as
// (M, HC); og never stored. out_L > 0: out is the ending node's original (out_L, out_L, c_in) frame and position p
// of the rows is x^T's position out_p0 + p, written in place (ago_rows_t; the module's out^T copy not made). 0 where
// it does not apply (the caller runs the two-kernel path).
int attn_gate_out_wg(cu_impl *c, const pf_linear_p *lo, int64_t M, int HC, int c_in, const void *g, int64_t ldg,
                     const void *o, int64_t ldo, void *oc, void *out, int64_t out_L, int64_t out_p0);
// Whether attn_gate_out_wg writes an out_L frame in place for these shapes and this out (then it does for every
// piece of the one-GEMM path, whose g and o rows are 16-byte aligned by construction)
int attn_gate_out_wg_t_ok(cu_impl *c, int HC, int c_in, const void *out, int64_t L);
// Its backward: d og = dy W_o (dy (M, c_in)) kept in registers, then the gate's backward into rows ldz
// apart (gp: g_pre in, dO out; og = s o; dg) and D (attn_gate_bwd_ld_D's). 0 where it does not apply, 1
// when it ran, 2 when (PF_ATTN_GATE_WG=3, dwo given) it also added W_o's gradient d_out^T og to dwo (c_in,
// HC) fp32, the column sums of d_out to dbo and of dg to dbg (the biases' gradients, fp32; either NULL), and did
// not write og.
int attn_gate_bwd_wg(cu_impl *c, const pf_linear_p *lo, float *dwo, float *dbo, float *dbg, int64_t M, int HC,
                     int c_in, const void *dy, void *gp, const void *o, void *og, void *dg, int64_t ldz, int ch,
                     float *D, int H, int64_t L, int tr, int64_t pstride);
// PF_AGD_BIAS_SUMS (1, the default; 0 for A/B runs): whether the callers pass dbo, dbg to attn_gate_bwd_wg
int attn_gate_bias_sums_on(void);
// From dz = [dq|dk|dv|dg] (M, 4 HC; rows ldz apart): d_xln (M, c_in) written, the four weight
// and bias gradients += (one GEMM each for d_xln and the weights); g_bias_done: the gate's bias gradient is
// already in (attn_gate_bwd_wg's 2), not summed again.
void attn_proj_bwd(cu_impl *c, int64_t M, int c_in, int HC, const pf_attn_p *p, pf_attn_p *g, const void *xln,
                   const void *dz, int64_t ldz, void *d_xln, int g_bias_done);

#endif
