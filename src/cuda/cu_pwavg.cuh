// cu_pwavg.cuh: pair-weighted averaging's kernels (cu_pwavg.cu) that the
// sharded entry (cu_dap_pwavg.cu) runs too. Layouts: v, g, o (S, N, H, c_h);
// vt, ut (H, N, S, c_h); bb (R, N, H) logits of R rows i over N columns j;
// w (H, R, N).
#ifndef PF_CU_PWAVG_CUH
#define PF_CU_PWAVG_CUH
#include "cu_ops.h"

// (S, N, H, c_h) <-> (H, N, S, c_h); to_t != 0 goes left to right.
void cu_pw_perm(cu_impl *c, const void *src, void *dst, int64_t S, int64_t N, int H, int ch, int to_t);
// w[h, i, :] = softmax_j(bb[i, j, h], masked j replaced), one warp per row (h, i).
void cu_pw_softmax(cu_impl *c, const void *bb, const void *mask, void *w, int64_t R, int64_t N, int H);
// bb[i, j, h] = w (dw - sum_j w dw) per row (h, i); 0 at masked j.
void cu_pw_softmax_bwd(cu_impl *c, const void *w, const void *dw, const void *mask, void *bb, int64_t R, int64_t N,
                       int H);
// mode 0: o = sigmoid(g) * u; mode 1: g <- d g (pre-sigmoid), u <- d u from dO (o's layout).
// S, N: the o layout's rows and columns (ut is (H, N, S, c_h)).
void cu_pw_gate(cu_impl *c, void *g, void *ut, void *o, const void *dO, int64_t S, int64_t N, int H, int ch, int mode);

#endif
