// cu_small.cuh: the faster forms of small passes in cu_small.cu (each behind its switch).
#ifndef PF_CU_SMALL_CUH
#define PF_CU_SMALL_CUH
#include "cu_common.cuh"
#include "cuda_backend.h"  // PF_WC_*

// PF_REDUCE_STAGED: o_k[ch] += (scale: *scale *) the sum over nb partials (nb, K, C)
// in block order (k_reduce_parts, k_lnb_reduce); outputs o0 (k 0), o1 (k 1), o2 + (k - 2) C,
// NULL ones skipped. PF_BIAS_T: attn_bias_T's biasT from zb. Both return 0 when switched off
// or not applicable (the caller's kernel runs), 1 when they ran (the same bits).
int cu_reduce_parts(cu_impl *c, int nb, int K, int C, const float *part, float *o0, float *o1, float *o2,
                    const float *scale);
int cu_bias_T_tiled(cu_impl *c, const void *zb, float *biasT, int64_t L, int H, int tr);
// PF_GATE_ROWDOT (cu_attn_proj.cu): attn_gate_bwd_ld (cu_attn.cuh) that also writes the core
// backward's D (B, H, L) fp32 (fa_rowdot's, the same bits) for the positions pos = r L + l (tr 0)
// or l pstride + r (tr 1); 0 when off or not applicable (c_h / 8 not a power of two up to 32):
// nothing launched, the caller runs attn_gate_bwd_ld and fa_rowdot.
int attn_gate_bwd_ld_D(cu_impl *c, const void *dy, const void *gp, const void *o, void *og, void *dO, void *dg,
                       int64_t ldz, int64_t M, int HC, int ch, float *D, int H, int64_t L, int tr, int64_t pstride);
// PF_WCACHE: a persistent buffer of bytes for weights derived from the parameters (packed or
// concatenated), found by its signature (sig_n <= 128 bytes: the source pointers and the layout,
// no padding bytes left unset); *build = 1 when the caller must fill it now on c->stream (new,
// or the parameters were written since; also with NULL). NULL when off or without bf16 weight
// copies: the caller derives them into scratch per call as before.
// site: PF_WC_* (cuda_backend.h; the tests' per-site counters).
void *cu_wcache(cu_impl *c, int site, const void *sig, size_t sig_n, size_t bytes, int *build);
size_t cu_wcache_bytes(const cu_impl *c);  // c's buffers (peak memory)
void cu_wcache_free(cu_impl *c);
// PF_LN_SAVE (cu_layernorm_vec.cu): y = LN(x) (M, C) with x also copied to cp (a module's
// saved input) by the same 16-byte-row kernel: cu_ln_fwd's bits, one pass over x fewer. 0 when
// off or not applicable (nothing launched: the caller runs cu_ln_fwd and the copy).
int cu_ln_fwd_save(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y, void *cp);
// Whether cu_ln_fwd of rows of C channels takes the 16-byte-row kernel k_ln_fwd_v (C 32, 64,
// 128 or 256, PF_LN_VEC on) given 16-byte aligned buffers, else cu_prim.cu's k_ln_fwd: the
// kernels that compute LN_in in their prologue (PF_TRIMUL_LNIN) follow the same arithmetic.
int cu_ln_vec_rows(int C);
// PF_DW_ACC (cu_small.cu): whether back-to-back weight gradients are accumulated by their GEMM
// (cu_attn_proj.cu, cu_trimul_tiles.cu); _ran counts the calls that did (tests).
int cu_dw_acc_on(void);
void cu_dw_acc_ran(void);

#endif
