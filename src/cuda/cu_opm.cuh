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
// dir 0: P (bi, N, c*c) from C (bi*c, N*c) = a_blk^T b; dir 1: the inverse.
void cu_opm_perm(cu_impl *c, void *C, void *P, int64_t bi, int64_t N, int ch, int dir);

#endif
