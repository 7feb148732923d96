// cu_opm.cuh: the outer product mean's pieces (cu_opm.cu) that the sharded
// entry (cu_dap_opm.cu) runs too.
#ifndef PF_CU_OPM_CUH
#define PF_CU_OPM_CUH
#include "cu_ops.h"

// Rows i per block of the output (at most `rows`): the block's outer products,
// bi N c^2 activations, stay under the op's limit.
int64_t cu_opm_block(int64_t rows, int64_t N, int c);
// norm[i] = 1 / (1e-3 + norm[i]) (have_mask: norm holds the mask overlaps), else 1 / (1e-3 + S).
void cu_opm_norm(cu_impl *c, float *norm, int64_t n, float S, int have_mask);
// y[r, :] = x[r, :] * s[r] (M rows of C activations; fp32 scale; y may be x)
void cu_opm_row_scale(cu_impl *c, void *y, const void *x, const float *s, int64_t M, int C);
// C (bi*c, N*c) from P (bi, N, c*c): the backward's dP in the layout of a_blk^T b (dC), for da and db.
void cu_opm_perm_to_c(cu_impl *c, void *C, const void *P, int64_t bi, int64_t N, int ch);
// P' (bi, N, c2, c1): the outer products of rows i of a_blk (S, bi*c; leading dimension lda) with
// b (S, N*c), channels in (c2, c1) order: one GEMM per row i, batched with b shared (no permute).
void cu_opm_outer_t(cu_impl *c, const void *a_blk, int64_t lda, const void *b, int64_t S, int64_t bi, int64_t N,
                    int ch, void *Pt);
// wt (c_z, c^2): linear_out's weight (act type) with its input columns in P''s (c2, c1) order
void cu_opm_w_t(cu_impl *c, const pf_linear_p *o, int cz, int ch, void *wt);
// out (M, c_z) = P' wt^T + o->b
void cu_opm_out_t(cu_impl *c, int64_t M, int cz, int ch, const pf_linear_p *o, const void *Pt, const void *wt,
                  void *out);
// dwt (c_z, c^2) fp32 = dpre^T P' (first) or += it; g->b += dpre's column sums
void cu_opm_out_t_dw(cu_impl *c, int64_t M, int cz, int ch, const void *Pt, const void *dpre, float *dwt, int first,
                     pf_linear_p *g);
// gw (c_z, c^2) fp32 += dwt in W_o's (c1, c2) order
void cu_opm_dw_t_add(cu_impl *c, const float *dwt, int cz, int ch, float *gw);

#endif
