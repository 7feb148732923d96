// cu_attn_lnb.cuh: the device pieces of the fused LayerNorm + pair-bias kernels
// (cu_attn_fuse.cu: k_lnb_fwd_p) that k_lnproj (cu_attn_lnproj.cu) shares, so that both
// compute the same bits of LN(x) and of the bias logits.
#ifndef PF_CU_ATTN_LNB_CUH
#define PF_CU_ATTN_LNB_CUH
#include "cu_common.cuh"

template <typename T> __device__ __forceinline__ float lnb_rnd(float v);
template <> __device__ __forceinline__ float lnb_rnd<float>(float v) { return v; }
template <> __device__ __forceinline__ float lnb_rnd<bf16>(float v) { return __bfloat162float(__float2bfloat16(v)); }

// One butterfly step (offset O) of the reduce-scatter over N heads kept: lanes with bit O set
// keep the upper half, send the lower; s_l + s_(l^O) as lnv_row_sum adds them (the same bits).
// base: the first head kept; plain: the offsets summed without halving (lanes equal there).
template <int O, int N, int HB>
__device__ __forceinline__ void lnb_rs(float (&s)[HB], int lane, int &base, int &plain) {
    if constexpr (O > 0) {
        if constexpr (N > 1) {
            constexpr int HALF = N / 2;
            bool up = lane & O;
#pragma unroll
            for (int k = 0; k < HALF; k++) {
                float send = up ? s[k] : s[k + HALF], keep = up ? s[k + HALF] : s[k];
                s[k] = keep + __shfl_xor_sync(0xffffffffu, send, O);
            }
            base += up ? HALF : 0;
            lnb_rs<O / 2, HALF, HB>(s, lane, base, plain);
        } else {
            s[0] += __shfl_xor_sync(0xffffffffu, s[0], O);
            plain |= O;
            lnb_rs<O / 2, 1, HB>(s, lane, base, plain);
        }
    }
}

// W_bias (H, C) into shared memory as lnb_weights does, each row h split in halves: channels
// q * 8 + 0..3 at h * C + q * 4, q * 8 + 4..7 at h * C + C / 2 + q * 4. A row's 16 lanes then
// read 256 contiguous bytes per 16-byte load (2 shared-memory wavefronts) where the plain
// layout's 32-byte lane stride costs 4; rows past H are zeros.
template <typename T, int C>
__device__ __forceinline__ void lnb_weights_split(float *ws, const float *wb, int H, int total) {
    for (int t = threadIdx.x; t < total; t += blockDim.x) {
        int h = t / C, r = t % C, c = (r % (C / 2)) / 4 * 8 + r / (C / 2) * 4 + r % 4;
        ws[t] = h < H ? lnb_rnd<T>(wb[h * C + c]) : 0.f;
    }
    __syncthreads();
}
template <int C>
__device__ __forceinline__ void lnb_wrow(const float *ws, int h, int c0, float (&w)[8]) {
    const float4 a = *reinterpret_cast<const float4 *>(ws + h * C + c0 / 2);
    const float4 b = *reinterpret_cast<const float4 *>(ws + h * C + C / 2 + c0 / 2);
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w, w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
}

// s = v . w (8 channels) in k_lnb_fwd's order (its compiled form: v1 w1, then fma from v0 on)
__device__ __forceinline__ float lnb_dot8(const float (&v)[8], const float (&w)[8]) {
    float s = __fmul_rn(v[1], w[1]);
    s = __fmaf_rn(v[0], w[0], s);
#pragma unroll
    for (int j = 2; j < 8; j++) s = __fmaf_rn(v[j], w[j], s);
    return s;
}

#endif
