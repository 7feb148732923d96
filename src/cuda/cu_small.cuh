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

#endif
