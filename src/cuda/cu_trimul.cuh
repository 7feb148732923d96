// cu_trimul.cuh: the triangle multiplication's tile kernels (cu_trimul_tiles.cu)
// and its output part (cu_trimul_out.cu), over M positions that need not form a
// square (the row-sharded update, cu_dap_trimul.cu, uses them on its rows). Used
// by cu_trimul.cu and cu_dap_trimul.cu.
#ifndef PF_CU_TRIMUL_CUH
#define PF_CU_TRIMUL_CUH
#include "cu_common.cuh"

// A (C, M) channel-major = mask * sigmoid(zl W_g^T) * (zl W_p^T); tp, tg (M, C) scratch
// (not written when cu_tm_sides_fused takes it; likewise tpg below).
void cu_tm_side(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg, const void *zl,
                const void *mask, void *tp, void *tg, void *A);
// Both sides of a piece as one tensor-core kernel (cu_trimul_side.cu): A (C, M) from
// a_p, a_g and B (C, M) from b_p, b_g (bp, bg, B NULL: side a alone), zl read once,
// the gate in fp32 from the products, no scratch. Returns 0 without launching when
// the kernel does not apply (fp32 mode, turned off, c_z not a multiple of 8 or over
// 256, zl not 16-byte aligned, a device before sm_80): the caller runs the unfused path.
int cu_tm_sides_fused(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *ap, const pf_linear_p *ag,
                      const pf_linear_p *bp, const pf_linear_p *bg, const void *zl, const void *mask, void *A,
                      void *B);
// PF_TRIMUL_LNIN (cu_trimul.cu): both sides as cu_tm_sides_fused's Hopper kernel
// (k_tm_sides_wgp under PF_TRIMUL_SIDES=5, else / where it does not fit k_tm_sides_wg) from z (M, c_z) instead of zl: zl = LN(z) (ln) computed in its prologue with
// cu_ln_fwd's arithmetic (the same bits) and written to zl, z copied to cp (NULL: not), then
// A, B as from that zl (the same bits as cu_tm_sides_fused on it). 0 (nothing launched) where
// it does not apply (not sm_90, fp32, c_z over 128 or not a multiple of 8, PF_TRIMUL_SIDES 1
// or 2, buffers not 16-byte aligned).
int cu_tm_sides_ln(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                   const pf_layernorm_p *ln, const void *z, void *zl, void *cp, const void *mask, void *A, void *B);
// One side's [d tp | d tg] (M, 2C; rows ld_tpg apart, 2C or more) into tpg from zl and dS (C, M)
// as one tensor-core kernel (cu_trimul_side_bwd.cu: tp, tg recomputed in fp32, never stored);
// 0 where it does not apply (as cu_tm_sides_fused).
int cu_tm_side_grad_fused(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                          const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg);
// From dS (C, M): tp <- dS m sigmoid(tg), tg <- dS m tp s (1 - s), in (M, C).
void cu_tm_side_grad(cu_impl *c, int64_t M, int C, const void *mask, const void *dS, void *tp, void *tg);
// The same side with its two projections as one GEMM: tpg (M, 2C) scratch = [tp | tg].
void cu_tm_side_cat(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                    const void *zl, const void *mask, void *tpg, void *A);
// One side's backward from dS (C, M): tp, tg recomputed into tpg (M, 2C) as one GEMM,
// their gradients in place (both as one kernel where cu_tm_side_grad_fused applies), then dzl (M, c_z) += [d tp | d tg] [W_p; W_g] (one GEMM)
// and the parameter gradients gp, gg += (one GEMM into fp32 scratch).
void cu_tm_side_bwd_cat(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, const void *zl, const void *mask, const void *dS,
                        void *tpg, void *dzl);
// PF_TRIMUL_BWDCAT (cu_trimul.cu): both sides' backward of C channels (lin, grad: {{a_p, a_g},
// {b_p, b_g}}; dA, dB (C, M)) with their gradients in one matrix G (M, 4C) = [d tp_a | d tg_a |
// d tp_b | d tg_b] (the fused side gradient, rows 4C apart; G may hold A, B, dX: they are read
// before), then dzl += G [W_ap; W_ag; W_bp; W_bg] as one product of depth 4C (dzl read and
// written once instead of twice, one rounding) and the four weight gradients as one GEMM G^T zl
// (zl read once instead of twice). 0 (nothing launched) where the fused side gradient does not
// apply: the caller runs cu_tm_side_bwd_cat per side.
int cu_tm_sides_bwd_cat4(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                         pf_linear_p *const grad[2][2], const void *zl, const void *mask, const void *dA,
                         const void *dB, void *G, void *dzl);
// PF_TRIMUL_GDW (cu_trimul_gdw.cu; 2, the default since session 49): after cu_tm_sides_bwd_cat4's
// side gradients, dzl (M, 128) += G (M, 512) wcat (512, 128) and dw[k] (128 x 128 fp32) += G's columns [128 k,
// 128 k + 128)^T zl, both from one read of G by k_tm_gdw (c = c_z = 128, no biases; the caller checks those).
// cu_tm_gdw_mode: 0 where it does not apply (the setting 0, fp32, not sm_90, buffers not 16-byte aligned), 2 where
// G is to be written in tile order (tm_gdw_off: the setting 2 and M a multiple of 64), else 1 (row-major G).
int cu_tm_gdw_mode(cu_impl *c, int64_t M, const void *G, const void *zl, const void *dzl);
void cu_tm_gdw(cu_impl *c, int64_t M, const void *G, int tiled, const void *zl, const void *wcat, void *dzl,
               float *const dw[4]);
// PF_TRIMUL_SG2 (k_tm_sg2, cu_trimul_side_wg.cu): both sides' backward of a piece of C
// channels at once (lin, grad: {{a_p, a_g}, {b_p, b_g}}; dA, dB (C, M)): one kernel
// recomputes [tp | tg] of both sides, writes side a's [d tp | d tg] into tpg_a (M, 2C) and
// side b's d tp, d tg into dtp_b, dtg_b (M, C each), and adds both sides' products with
// the weights to dzl in fp32 (one rounding); then the weight and bias gradients as
// cu_tm_side_bwd_cat's (side b's as a GEMM and a column sum per weight). 0 (nothing
// done) where it does not apply (Hopper, c_z <= 128, bf16, PF_TRIMUL_SIDES 4).
int cu_tm_sides_bwd_sg2(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                        pf_linear_p *const grad[2][2], const void *zl, const void *mask, const void *dA,
                        const void *dB, void *tpg_a, void *dtp_b, void *dtg_b, void *dzl);
// to_cm: in (R, C) -> out (C, R); else the reverse. rs: the row-major side's row
// stride (C for a whole tensor; more for C columns of a wider one), in's when
// to_cm, out's otherwise.
void cu_tm_transpose(cu_impl *c, const void *in, void *out, int64_t R, int C, int to_cm, int64_t rs);
// out *= sigmoid(gate)
void cu_tm_gate_out(cu_impl *c, void *out, const void *gate, int64_t n);
// Its backward from the pre-activation g (out = sigmoid(g) y), in place:
// g <- d y = dy sigmoid(g), y <- d g = dy y sigmoid'(g).
void cu_tm_gate_bwd(cu_impl *c, const void *dy, void *g, void *y, int64_t n);

// Rows [c0, c0 + n) of a Linear's weight and bias: the projection to those output channels.
static inline pf_linear_p cu_tm_rows_of(const pf_linear_p *p, int in, int c0) {
    pf_linear_p r = {p->w + (int64_t)c0 * in, p->b ? p->b + c0 : NULL};
    return r;
}

// PF_TRIMUL_FUSED=3: x's buffer holds the contraction's X channel-major (c, M), LN_out
// reads it there and its backward leaves dX there (no transposes; docs/TRIMUL.md).
static inline int cu_tm_cm(const cu_impl *c) { return c->trimul_fused == 3; }

// LayerNorm over positions [0, n) of a channel-major X (C, ld) (cu_trimul_ln.cu):
// y (n, C) position-major = LN(x) without the transpose (PF_TRIMUL_FUSED=3).
void cu_tm_ln_cm_fwd(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, const void *X, int64_t ld, void *y);
// Its backward from dy (n, C): dX <- dx, channel-major (C, ld) as X (the layout dA, dB
// take; dX may be X: in place, the same bits); g (may be NULL) += the parameter
// gradients (fixed order).
void cu_tm_ln_cm_bwd_set(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, pf_layernorm_p *g, const void *X,
                         void *dX, int64_t ld, const void *dy);

// g (may be NULL) += the LayerNorm parameter gradients summed over nb block partials
// (nb, 2, C) [sum dy * xhat | sum dy], in block order (k_tm_ln_parts).
void cu_tm_ln_parts_add(cu_impl *c, int nb, int C, const float *part, pf_layernorm_p *g);

// The output part, out = sigmoid(Linear_g(zl)) * Linear_z(LN_out(x)), over M
// positions (zl and out (M, c_z)) in pieces of positions carved from [region,
// region + bytes); bytes of one position: cu_tm_out_row_bytes (bwd: of the
// backward), plus 4 * 256 for the carves' alignment. ldx 0: x is (M, c)
// position-major; else x is the contraction's X channel-major (c, ldx), ldx >= M,
// read through cu_tm_ln_cm_fwd (no transpose).
size_t cu_tm_out_row_bytes(int c, int c_z, size_t es, int bwd);
void cu_tm_out_fwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *x, int64_t ldx,
                   const void *zl, void *region, size_t bytes, pf_act *out);
// Its backward: dx (the gradient before LN_out, in x's layout; dx may be x: in place,
// the same bits) written, dzl = the gate projection's part (written: its first term),
// and the gradients of LN_out, Linear_z, Linear_g accumulated.
void cu_tm_out_bwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *x,
                   void *dx, int64_t ldx, const void *zl, void *dzl, void *region, size_t bytes, const pf_act *d_out);

// PF_TRIMUL_OUT=1 or 2 (cu_trimul_outk.cu: k_tm_out2, k_tm_out3; default 0): the output
// part's two projections and its gate as one tensor-core kernel over M positions, xl
// (M, cx) and zl (M, cz) read once. Forward: out (M, cz) = sigmoid(zl W_g^T + b_g) * (xl W_z^T + b_z). Backward from
// dy = d out: y <- d g (the gate pre-activation's gradient), g <- d y (cu_tm_gate_bwd's
// outputs, (M, cz) each). Return 0 without launching where the kernel does not apply
// (switched off, fp32, c or c_z not a multiple of 8 or over 256, unaligned rows, before
// sm_80): the caller runs the GEMMs and the gate kernel.
int cu_tm_out_fused_fwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        void *out);
int cu_tm_out_fused_bwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        const void *dy, void *y, void *g);

// PF_TRIMUL_OUTB (cu_trimul_outb.cu): the output part's forward over n positions as one kernel
// (k_tm_outf: LN_out from X channel-major in its prologue, then k_tm_out3's products and gate:
// the same bits as cu_tm_ln_cm_fwd and k_tm_out3) into out (n, 128), where it applies as below.
int cu_tm_out_fwd_ln(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const void *X, int64_t ldx,
                     const void *zl, void *out);
// PF_TRIMUL_OUTW (cu_trimul_outw.cu): the same forward with its products on Hopper warpgroup MMA
// (k_tm_outfw, PF_TRIMUL_OUTW >= 1; LN_out on the A fragments; not k_tm_outf's bits), where it
// applies (as above, on a compute capability 9 device); cu_tm_out_fwd_ln tries it first. 0 (nothing
// launched) elsewhere.
int cu_tm_out_fwd_wg(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const void *X, int64_t ldx,
                     const void *zl, void *out);
// Its backward as one kernel (k_tm_outb) where cx = cz = 128, bf16, X channel-major (ldx a multiple of 8), 16-byte
// aligned buffers and a device with 211 KB of shared memory per block (sm_90): LN_out
// recomputed from X, y and the gate, the gate's backward, dxl = dy W_z, dzl = dgp W_g (written),
// LN_out's backward into dX (dX may be X) and its parameter gradients (g, may be NULL); xl, dy
// (the gate's output gradient) and dgp (the gate pre-activation's) are written (n, 128) for the
// caller's weight gradients. 0 (nothing launched) where it does not apply; 2 where dW_z was also added
// into g->z.w and xl, dy were not written (PF_TRIMUL_OUTW_DWZ: the caller skips dW_z's GEMM).
int cu_tm_out_bwd_ln(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *X,
                        void *dX, int64_t ldx, const void *zl, void *dzl, const void *dout, void *xl, void *dy,
                        void *dgp);
// The backward likewise (k_tm_outbw, PF_TRIMUL_OUTW 2; cu_tm_out_bwd_ln tries it first): the same
// job, arguments and return values as cu_tm_out_bwd_ln (2: k_tm_outbw_dwz ran), not k_tm_outb's bits.
int cu_tm_out_bwd_wg(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *X,
                     void *dX, int64_t ldx, const void *zl, void *dzl, const void *dout, void *xl, void *dy, void *dgp);
// Whether cu_tm_out_bwd_ln would take k_tm_outbw_dwz (return 2) for positions [0, n) with these parameters, X
// layout, zl and buffers (al: their addresses or'ed), and so for any piece of them starting at a multiple of 8
// positions: the caller then need not hold xl and dy (cu_tm_out_bwd's pieces for dgp alone). xl NULL in
// cu_tm_out_bwd_ln: that form or nothing (0).
int cu_tm_out_bwd_ln_dwz(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const pf_trimul_p *g,
                         const void *X, int64_t ldx, const void *zl, uintptr_t al);
int cu_tm_out_bwd_wg_dwz(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const pf_trimul_p *g,
                         const void *X, int64_t ldx, const void *zl, uintptr_t al);

#endif
