// cu_struct.cuh: shared pieces of the CUDA structure module (cu_ipa.cu,
// cu_structure.cu, cu_struct_prim.cu). The module's per-residue tensors (s,
// frames, angles, IPA projections) are fp32 in both modes: they are small (N
// rows) and the frames compose over 8 layers; the pair tensor z and its
// gradient stay in the activation type (bf16 in training), the convention of
// the other ops. Every reduction has one owner thread or a fixed tree (no atomics).
#ifndef PF_CU_STRUCT_CUH
#define PF_CU_STRUCT_CUH
#include "cu_common.cuh"

// ---- fp32 primitives (cu_struct_prim.cu) -------------------------------------
// Linear / LayerNorm on fp32 rows whatever the activation type (weights fp32).
void cu_lin32_fwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, const float *x, float *y,
                  int accumulate);
void cu_lin32_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const float *x,
                  const float *dy, float *dx);
void cu_ln32_fwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, const float *x, float *y);
void cu_ln32_bwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, pf_layernorm_p *g, const float *x,
                 const float *dy, float *dx);
void cu_relu32(cu_impl *c, const float *x, float *y, int64_t n);           // y = max(x, 0)
void cu_relu32_bwd(cu_impl *c, const float *x, float *dy, int64_t n);      // dy = 0 where x <= 0
void cu_add32(cu_impl *c, float *y, const float *x, int64_t n);            // y += x
void cu_axpby32(cu_impl *c, float *y, const float *a, float sa, const float *b, float sb, int64_t n);  // y = sa a + sb b (NULL a or b: 0)
void cu_act_to_f32(cu_impl *c, const void *x, float *y, int64_t n);        // act -> fp32
void cu_f32_to_act(cu_impl *c, const float *x, void *y, int64_t n, int accumulate);  // fp32 -> act (= or +=)

// ---- invariant point attention (cu_ipa.cu) -----------------------------------
// The core on fp32 s / out / d_s (z, d_z, mask in the activation type). saved
// and ws bytes from cu_ipa_sizes; d_s, d_R, d_t accumulate (NULL: not wanted).
void cu_ipa_sizes(const cu_impl *c, const pf_ipa_dims *d, size_t *saved, size_t *ws);
void cu_ipa_core_fwd(cu_impl *c, const pf_ipa_dims *d, const pf_ipa_p *p, const float *s, const void *z,
                     const float *R, const float *t, const void *mask, float *out, void *saved, void *ws);
void cu_ipa_core_bwd(cu_impl *c, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const float *s,
                     const void *z, const float *R, const float *t, const void *mask, const void *saved,
                     const float *d_out, float *d_s, void *d_z, float *d_R, float *d_t, void *ws);

// Deterministic block reductions (fixed tree); sh holds blockDim.x / 32 floats.
// Every thread of the block calls them and gets the result.
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float block_sum(float v, float *sh) {
    const int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();  // sh may still be read by a previous call
    if (l == 0) sh[w] = v;
    __syncthreads();
    float r = 0;
    for (int k = 0; k < nw; k++) r += sh[k];
    return r;
}
__device__ __forceinline__ float block_max(float v, float *sh) {
    const int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
    v = warp_max(v);
    __syncthreads();
    if (l == 0) sh[w] = v;
    __syncthreads();
    float r = -INFINITY;
    for (int k = 0; k < nw; k++) r = fmaxf(r, sh[k]);
    return r;
}
__device__ __forceinline__ float softplusf_(float x) { return x > 20.f ? x : log1pf(expf(x)); }

#endif
