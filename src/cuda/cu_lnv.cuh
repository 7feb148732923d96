// cu_lnv.cuh: LayerNorm pieces shared by the kernels that normalise rows, so they compute
// the same bits of LN(x): the warp-per-row statistics (cu_prim.cu's LayerNorm, the
// channel-major LN_out of cu_trimul_ln.cu) and the 16-byte-row ones (LPR = C / 8 lanes
// hold a row, 8 consecutive channels each: cu_layernorm_vec.cu, cu_attn_fuse.cu).
#ifndef PF_CU_LNV_CUH
#define PF_CU_LNV_CUH
#include "cu_common.cuh"
#include "cu_vec.cuh"
#include <type_traits>

// One warp's row statistics, shared by the forward and the backward (which
// recomputes them rather than saving them): from the row v (0 past C) in
// registers, mu the mean, rs 1 / sqrt(variance + eps); two passes, fp32.
template <int CPL>
__device__ __forceinline__ void ln_stats(const float (&v)[CPL], int C, int lane, float &mu, float &rs) {
    float s = 0;
#pragma unroll
    for (int j = 0; j < CPL; j++) s += v[j];
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    mu = s / C;
    float q = 0;
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        float d = ch < C ? v[j] - mu : 0.f;
        q += d * d;
    }
#pragma unroll
    for (int o = 16; o; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
    rs = rsqrtf(q / C + LN_EPS);
}

// the sum over the LPR lanes of a row (butterfly: every lane gets it)
template <int LPR>
__device__ __forceinline__ float lnv_row_sum(float s) {
#pragma unroll
    for (int o = LPR / 2; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    return s;
}

// mu and 1 / sqrt(var + eps) of the row whose 8-channel slices the LPR lanes hold (two passes)
template <int LPR>
__device__ __forceinline__ void lnv_stats(const float (&v)[8], float &mu, float &rs) {
    constexpr float inv_c = 1.f / (8 * LPR);
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) s += v[j];
    mu = lnv_row_sum<LPR>(s) * inv_c;
    float q = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float d = v[j] - mu;
        q += d * d;
    }
    rs = rsqrtf(lnv_row_sum<LPR>(q) * inv_c + LN_EPS);
}

// 8 channels from element i, or zeros when !ok
template <typename T>
__device__ __forceinline__ void lnv_load(const T *p, int64_t i, bool ok, float (&v)[8]) {
    if (ok) ld8(p, i, v);
    else {
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = 0.f;
    }
}

// lanes per row for C channels, 0 where these kernels do not apply
static inline int lnv_lpr(int C) { return C == 32 || C == 64 || C == 128 || C == 256 ? C / 8 : 0; }

// launch(std::integral_constant<int, LPR>) for lpr in {4, 8, 16, 32}
template <typename F>
static void lnv_by_lpr(int lpr, F launch) {
    switch (lpr) {
    case 4: launch(std::integral_constant<int, 4>()); break;
    case 8: launch(std::integral_constant<int, 8>()); break;
    case 16: launch(std::integral_constant<int, 16>()); break;
    default: launch(std::integral_constant<int, 32>()); break;
    }
}
#endif
