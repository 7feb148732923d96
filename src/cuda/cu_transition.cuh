// cu_transition.cuh: the transition's pieces shared by cu_transition.cu (the op:
// row chunks, LayerNorm, the output Linear, the weight gradients) and
// cu_transition_fused.cu (the hidden layer as one tensor-core kernel per pass).
#ifndef PF_CU_TRANSITION_CUH
#define PF_CU_TRANSITION_CUH
#include "cu_ops.h"

// Hidden elements per row chunk from PF_TR_CHUNK_M (in units of 2^20, 1..4096; unset:
// 64), read at backend creation; a bad value stops with an error naming the variable.
int64_t cu_tr_chunk_env(void);

// The hidden layer's weights packed for the fused kernels (pool scratch): SwiGLU rows
// [W_a ch 0, W_b ch 0, W_a ch 1, ...] (so that one accumulator pair holds a and b of
// one channel), ReLU the rows of W_a; depth KP (c rounded up to a power of two, zeros
// past c), rows padded with zeros to a multiple of 128. bias likewise, or NULL.
typedef struct {
    const bf16 *w;      // (rows, KP)
    const float *bias;  // (rows) or NULL
    int KP, rows;       // rows: 2 n c (SwiGLU) or n c (ReLU), rounded up to 128
    int form;           // PF_TR_HID: 1 rows as above (k_tr_hidden); 2-6 SwiGLU per 16 rows
                        // [W_a ch 8q..8q+7, W_b of them] (k_tr_hidden2, its forward tile width)
    int grad_h;         // forms 5, 6: cu_tr_hidden_grad_fused writes h (and xl): the backward
                        // recomputes no hidden layer of its own
    const bf16 *wg;     // forms 6, 7 on sm_90: w's rows in wgmma's layout (cu_transition_fused.cuh
                        // trwg_off) for the forward's kernel, k_trwg; else NULL
    int wg_bwd;         // form 6 on sm_90: the backward's grad kernel on wgmma too (k_trwg)
} cu_tr_packed;

// Whether the fused kernels apply: bf16, switched on, c a multiple of 8 up to 256, no
// biases on SwiGLU's a and b (AF3 has none; their gradients would need strided
// column sums), and a device (sm_80+) that gives the blocks their shared memory.
int cu_tr_fused_applies(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p);
// Packs p's lin_a (and lin_b) into pool scratch (the caller releases the pool), or finds them
// packed in PF_WCACHE's kept buffer (cu_small.cuh).
void cu_tr_pack(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, cu_tr_packed *pk);
// h (R, n c) = act(xl (R, c) W^T + b) * mask[row] (mask may be NULL): SwiGLU
// silu(a) * b, ReLU max(a, 0), formed in fp32 registers, h written once. With ln, xl
// is x and the LayerNorm runs in the kernel's prologue (xl written to xl_out when
// not NULL).
void cu_tr_hidden_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                        const void *xl, const pf_layernorm_p *ln, void *xl_out, const void *mask, void *h);
// From dh (R, n c) times mask[row] (mask may be NULL), a and b recomputed from xl:
// SwiGLU [da | db] (R, 2 n c) (da in columns [0, n c)), ReLU da (R, n c). Written, not
// accumulated. With pk->grad_h also h, the forward's (times mask, the same bits), written
// over dh; then with ln, xl is x and the LayerNorm runs in the prologue (xl written to
// xl_out), as cu_tr_hidden_fused's. ln without pk->grad_h is an error.
void cu_tr_hidden_grad_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                             const void *xl, const pf_layernorm_p *ln, void *xl_out, const void *mask, void *dh,
                             void *dab);

// ---- PF_TR_WGO: the forward's hidden layer and output projection in one kernel ----------
// (cu_transition_wgo.cu). Whether it takes this chunk: PF_TR_WGO on, forms 6 / 7's wgmma
// weights (pk->wg), the LayerNorm in the prologue (tr_fused 1), SwiGLU without a, b biases,
// c 64 or 128, n c 128, 256 or 512, x and out 16-byte aligned.
int cu_trwo_applies(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, const pf_transition_p *p,
                    const void *x, const void *out);
// out (M, c) = (h W_out^T + b_out) * omask[row], h = silu(xl W_a^T) (xl W_b^T) * hmask[row],
// xl = LN(x); hmask, omask may be NULL.
void cu_trwo_forward(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                     const void *x, const void *hmask, const void *omask, void *out);

// ---- PF_TR_WGB: dh made in the backward's hidden-layer kernel (cu_transition_wgb.cu) -------
// Whether it takes this chunk: PF_TR_WGB on, form 6's wgmma backward (pk->wg_bwd, grad_h), the
// LayerNorm in the prologue, SwiGLU without a, b biases, c 64 or 128, x and dy 16-byte aligned.
int cu_trwb_applies(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, const pf_transition_p *p,
                    const void *x, const void *dy);
// From x and dy (M, c): xl = LN(x) into xl_out, h (M, n c) (times hmask, as the forward's) and
// [da | db] (M, 2 n c) of dh = dy W_out times hmask; hmask may be NULL.
void cu_trwb_grad(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                  const void *x, const void *dy, const void *hmask, void *xl_out, void *h, void *dab);

#endif
