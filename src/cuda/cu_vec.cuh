// cu_vec.cuh: 16-byte accesses for the memory-bound kernels.
//
// The elementwise kernels move bytes and do almost no arithmetic, so their speed
// is the number of bytes each memory instruction carries: one bf16 per thread
// (2 bytes) reached about a third of the card's bandwidth (ncu, N = 1024
// triangle multiplication: k_fill 0.32 ms for a 256 MB write, k_side_fwd 0.63 ms
// for 768 MB). Here a thread moves 8 activations at a time: one 16-byte access
// in bf16, two in fp32. Launchers check alignment and size first
// (cu_vec_ok) and fall back to the scalar kernels otherwise, so slices at odd
// offsets stay correct. The arithmetic per element is unchanged (fp32), so the
// results are bit-identical to the scalar kernels.
#ifndef PF_CU_VEC_CUH
#define PF_CU_VEC_CUH
#include "cu_common.cuh"

#define CU_VEC 8  // activations per vector access

// The 8 bf16 of a 16-byte vector as fp32 (ld8's conversion), and back (st8's rounding).
__device__ __forceinline__ void unpack8(const uint4 &u, float *v) {
    const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&u);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        float2 f = __bfloat1622float2(h[k]);
        v[2 * k] = f.x;
        v[2 * k + 1] = f.y;
    }
}
__device__ __forceinline__ uint4 pack8(const float *v) {
    uint4 u;
    __nv_bfloat162 *h = reinterpret_cast<__nv_bfloat162 *>(&u);
#pragma unroll
    for (int k = 0; k < 4; k++) h[k] = __floats2bfloat162_rn(v[2 * k], v[2 * k + 1]);
    return u;
}
__device__ __forceinline__ void ld8(const bf16 *p, int64_t i, float *v) {
    const uint4 u = *reinterpret_cast<const uint4 *>(p + i);  // named: the load passed straight to unpack8
    unpack8(u, v);                                             // became 2-byte loads in the PTX (nvcc 13)
}
__device__ __forceinline__ void ld8(const float *p, int64_t i, float *v) {
    float4 a = *reinterpret_cast<const float4 *>(p + i), b = *reinterpret_cast<const float4 *>(p + i + 4);
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
    v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
}
// 16 bytes to global memory (p 16-byte aligned) as one st.global.v4, by hand: a uint4 store
// through a cast can reach the PTX as four 4-byte stores (4x the store instructions and L2
// sector writes; nvcc 13, session 47).
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ void stg16(void *p, const uint4 &u) {
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w)
                 : "memory");
}
#endif
// 8 fp32 as bf16 to global memory (p + i 16-byte aligned; every caller's p is global) as one
// 16-byte store: stg16, since the plain uint4 store reached the PTX as four 4-byte stores in
// k_ln_fwd_v, k_lnb_fwd_p2, k_tm_sides_wgp's LayerNorm and others (nvcc 13; session 47).
__device__ __forceinline__ void st8(bf16 *p, int64_t i, const float *v) { stg16(p + i, pack8(v)); }
__device__ __forceinline__ void st8(float *p, int64_t i, const float *v) {
    *reinterpret_cast<float4 *>(p + i) = make_float4(v[0], v[1], v[2], v[3]);
    *reinterpret_cast<float4 *>(p + i + 4) = make_float4(v[4], v[5], v[6], v[7]);
}

// Whether n elements at each of the (non-NULL) pointers can be walked in
// 8-element vectors: n a multiple of 8 and every pointer 16-byte aligned.
static inline int cu_vec_ok(int64_t n, const void *a, const void *b = NULL, const void *c = NULL,
                            const void *d = NULL) {
    const void *p[4] = {a, b, c, d};
    if (n % CU_VEC) return 0;
    for (int k = 0; k < 4; k++)
        if (p[k] && ((uintptr_t)p[k] & 15)) return 0;
    return 1;
}

// Blocks for n / 8 vectors of 256 threads (grid-stride loops cover the rest).
static inline unsigned cu_vec_blocks(int64_t n) { return cu_blocks(n / CU_VEC, 256); }

// The attention gate's backward on one vector (k_gate_bwd_og_v, k_gate_bwd_ld): in, d the
// output gradient, gi the gate's pre-activation, o the ungated output; out, with s =
// sigmoid(gi): p = d o s (1 - s) (the gate's gradient), o = s o (the gated output), d = d s.
__device__ __forceinline__ void gate_bwd8(float *d, float *gi, float *o, float *p) {
#pragma unroll
    for (int k = 0; k < CU_VEC; k++) {
        gi[k] = sigmoidf_(gi[k]);
        p[k] = d[k] * o[k] * gi[k] * (1.f - gi[k]);
        o[k] = gi[k] * o[k];
        d[k] = d[k] * gi[k];
    }
}

#define GRID_STRIDE_VEC(i, n)                                                             \
    for (int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * CU_VEC; i < (n); \
         i += (int64_t)gridDim.x * blockDim.x * CU_VEC)

#endif
