// cu_small.cuh: the faster forms of small passes in cu_small.cu (each behind its switch).
#ifndef PF_CU_SMALL_CUH
#define PF_CU_SMALL_CUH
#include "cu_common.cuh"

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

#endif
