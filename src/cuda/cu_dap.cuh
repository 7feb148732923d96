// cu_dap.cuh: the CUDA backend's sharded ops for axial parallelism (backend.h,
// attn_dap / trimul_dap / dap_transpose / opm_dap / pwavg_dap; src/model/dap.h). Each is the CPU
// reference's math (cpu_attention.c, cpu_trimul_dap.c) on the kernels of the
// unsharded op; the collectives come from the group's pf_dap_comm (cu_nccl.cu:
// NCCL on the backend's stream) and move activations as stored (bf16 as bf16).
// Reduce-scatters are an all-to-all and a sum in rank order (cu_dap_sum_blocks),
// so the result does not depend on NCCL's reduction order.
#ifndef PF_CU_DAP_CUH
#define PF_CU_DAP_CUH
#include "cu_ops.h"
#include "cu_trimul.cuh"  // the tile kernels over the rank's rows

// The sharded entries plan and run their pieces (cu_chunk_units) against the default
// limits divided by P: a rank holds 1/P of the problem, so its pieces are 1/P of the
// unsharded op's and the rank's plan scales as the one-GPU plan / P (sizes only:
// the same bits every run). Sets the divisor; returns the one to restore.
static inline int cu_dap_pieces(cu_impl *c, int P) {
    int old = c->chunk_div;
    c->chunk_div = P;
    return old;
}

// cu_dap_common.cu
// out (batch, n) activations = for each k the sum over q of blocks (batch, P, n), added
// in rank order in fp32 and rounded once (batch 1: out may be block 0).
void cu_dap_sum_blocks(cu_impl *c, const void *blocks, int P, int64_t n, int64_t batch, void *out);
// dir 0: full (S, P n, C) activations from the group's column shards, blocks
// [q][S][n][C] (an all-gather's output); dir 1: blocks from full (an all-to-all's input).
void cu_dap_cols(cu_impl *c, void *full, void *blocks, int64_t S, int64_t n, int P, int C, int dir);
// cu_dap_xpose.cu
// snd[q][j][i] = x[i][q n + j] for x (n, N, row bytes) and q < P (the pack before
// dap_transpose's all-to-all; 16-byte moves where row and pointers allow). P = 1, n = N:
// snd is the transpose of a square (N, N, row) tensor (also the ending node's frame,
// cu_attention.cu). x and snd must not overlap.
void cu_pos_pack(cu_impl *c, const void *x, void *snd, int64_t n, int64_t N, int P, size_t row);
// Sets the sharded entries of be (called by pf_cuda_install_collectives).
void pf_cuda_install_dap(pf_backend *be);

// cu_dap_attn.cu
pf_mem cu_attn_dap_mem(pf_backend *be, const pf_attn_dims *d, int P);
void cu_attn_dap_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                     const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cu_attn_dap_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *mask,
                     const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws,
                     const pf_dap_comm *c, int x_sharded);

// cu_dap_trimul.cu
pf_mem cu_trimul_dap_mem(pf_backend *be, const pf_trimul_dims *d, int P);
void cu_trimul_dap_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                       const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cu_trimul_dap_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                       const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws,
                       const pf_dap_comm *c);

// cu_dap_opm.cu
pf_mem cu_opm_dap_mem(pf_backend *be, const pf_opm_dims *d, int P);
void cu_opm_dap_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m, const pf_act *mask,
                    pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cu_opm_dap_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask,
                    const void *saved, const pf_act *d_out, pf_act *d_m, void *ws, const pf_dap_comm *c);

// cu_dap_pwavg.cu
pf_mem cu_pwavg_dap_mem(pf_backend *be, const pf_pwavg_dims *d, int P);
void cu_pwavg_dap_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m, const pf_act *z,
                      const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cu_pwavg_dap_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g, const pf_act *mask,
                      const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z, void *ws,
                      const pf_dap_comm *c);

// cu_dap_xpose.cu
void cu_dap_transpose(pf_backend *be, const pf_dap_comm *c, int64_t N, int C, const pf_act *x, pf_act *out, void *ws);

#endif
