// cu_lnb_mma.cuh: the device pieces of the attention's bias logits on tensor cores (cu_lnb_mma.cu's k_lnb_mma),
// shared with the LayerNorm + projections kernel (cu_attn_lnproj.cu), so that both make LN(x) and zb with the same
// arithmetic: the same bits.
#ifndef PF_CU_LNB_MMA_CUH
#define PF_CU_LNB_MMA_CUH
#include "cu_attn.cuh"
#include "cu_lnv.cuh"
#include "cu_mma.cuh"

#define LM_WARPS 4
#define LM_ST 4  // tiles per warp's ring: three in flight while one is computed

template <int C>
struct lm_layout {
    static constexpr int SK = C + 8;                                       // tile row stride (bf16): conflict-free fragments
    static constexpr size_t ring = (size_t)LM_WARPS * LM_ST * 16 * SK * 2;  // bytes
    static constexpr size_t bytes = ring + 2 * C * sizeof(float);          // + LN weight and bias
};

// Over the 16 x C / 8 16-byte pieces of a 16-row tile (a warp, 16 C / 256 per lane): f(r, c8, row, ok), row =
// row0 + r, ok = row < M; lm_load and lm_store's shared walk.
template <int C, typename F>
__device__ __forceinline__ void lm_pieces(int64_t row0, int64_t M, F f) {
    constexpr int CH = C / 8;
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < 16 * CH / 32; j++) {
        int q = j * 32 + lane, r = q / CH, c8 = (q % CH) * 8;
        int64_t row = row0 + r;
        f(r, c8, row, row < M);
    }
}

// 16 rows (from row0) of x into the tile s (16, SK) by cp.async; zeros past M.
template <int C>
__device__ __forceinline__ void lm_load(bf16 *s, const bf16 *x, int64_t row0, int64_t M) {
    constexpr int SK = lm_layout<C>::SK;
    lm_pieces<C>(row0, M, [&](int r, int c8, int64_t row, bool ok) {
        fa_cp16z(s + r * SK + c8, ok ? x + row * C + c8 : x, ok ? 16 : 0);
    });
}

// The tile s's 16 rows (from row0) into out (row stride C): 16-byte runs, rows below M.
template <int C>
__device__ __forceinline__ void lm_store(bf16 *out, const bf16 *s, int64_t row0, int64_t M) {
    constexpr int SK = lm_layout<C>::SK;
    lm_pieces<C>(row0, M, [&](int r, int c8, int64_t row, bool ok) {
        if (ok) *reinterpret_cast<uint4 *>(out + row * C + c8) = *reinterpret_cast<const uint4 *>(s + r * SK + c8);
    });
}

// The warp's tile s (16 rows, stride SK) LayerNormed (lnw, lnb: weight and bias) into this thread's
// m16n8k16 A fragments af, rounded to bf16 as the FFMA kernels round xln; each row's statistics
// over the thread's 2 KS x 2 pairs and its quad's (two shuffles).
template <int C>
__device__ __forceinline__ void lm_ln_fragments(const bf16 *s, const float *lnw, const float *lnb,
                                                uint32_t (&af)[C / 16][4]) {
    constexpr int KS = C / 16, SK = lm_layout<C>::SK;
    constexpr float inv_c = 1.f / C;
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    // this thread's fragment elements: v[hh][kk][j], row g + 8 hh, channel 16 kk + 2 t + (j & 1) + 8 (j >> 1)
    float v[2][KS][4];
#pragma unroll
    for (int hh = 0; hh < 2; hh++)
#pragma unroll
        for (int kk = 0; kk < KS; kk++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                __nv_bfloat162 p = *reinterpret_cast<const __nv_bfloat162 *>(s + (g + 8 * hh) * SK + 16 * kk + 2 * t + 8 * e);
                v[hh][kk][2 * e] = __low2float(p);
                v[hh][kk][2 * e + 1] = __high2float(p);
            }
    float mu[2], rs[2];
#pragma unroll
    for (int hh = 0; hh < 2; hh++) {
        float a = 0;
#pragma unroll
        for (int kk = 0; kk < KS; kk++)
#pragma unroll
            for (int j = 0; j < 4; j++) a += v[hh][kk][j];
        a += __shfl_xor_sync(0xffffffffu, a, 1);
        a += __shfl_xor_sync(0xffffffffu, a, 2);
        mu[hh] = a * inv_c;
        float q = 0;
#pragma unroll
        for (int kk = 0; kk < KS; kk++)
#pragma unroll
            for (int j = 0; j < 4; j++) {
                float d = v[hh][kk][j] - mu[hh];
                q += d * d;
            }
        q += __shfl_xor_sync(0xffffffffu, q, 1);
        q += __shfl_xor_sync(0xffffffffu, q, 2);
        rs[hh] = rsqrtf(q * inv_c + LN_EPS);
    }
    // A fragments: a0 (g, 2t), a1 (g + 8, 2t), a2 (g, 2t + 8), a3 (g + 8, 2t + 8)
#pragma unroll
    for (int kk = 0; kk < KS; kk++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
            int c = 16 * kk + 2 * t + 8 * e;
            float2 w = *reinterpret_cast<const float2 *>(lnw + c), b = *reinterpret_cast<const float2 *>(lnb + c);
#pragma unroll
            for (int hh = 0; hh < 2; hh++)
                af[kk][hh + 2 * e] = fa_pack2((v[hh][kk][2 * e] - mu[hh]) * rs[hh] * w.x + b.x,
                                              (v[hh][kk][2 * e + 1] - mu[hh]) * rs[hh] * w.y + b.y);
        }
}

// acc[n] (rows g, g + 8 of the tile at row0; heads 8 n + 2 t, + 1) into zb (M, H) as bf16, rows
// below M, heads below H (pairs where H is even).
template <int NT>
__device__ __forceinline__ void lm_store_zb(const float (&acc)[NT][4], bf16 *zb, int64_t row0, int64_t M, int H) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int n = 0; n < NT; n++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            int64_t row = row0 + g + 8 * hh;
            int h = 8 * n + 2 * t;
            if (row >= M || h >= H) continue;
            bf16 *o = zb + row * H + h;
            if (h + 1 < H && !(H & 1)) *reinterpret_cast<__nv_bfloat162 *>(o) = __floats2bfloat162_rn(acc[n][2 * hh], acc[n][2 * hh + 1]);
            else {
                o[0] = __float2bfloat16(acc[n][2 * hh]);
                if (h + 1 < H) o[1] = __float2bfloat16(acc[n][2 * hh + 1]);
            }
        }
}

// W_bias (H, C) fp32 rows 8 n + g as this thread's bf16 m16n8k16 B fragments: (k 16 kk + 2 t, + 1) and
// (+ 8, + 9); zero rows past H.
template <int C, int NT>
__device__ __forceinline__ void lm_bias_fragments(const float *wb, int H, uint32_t (&bw)[NT][C / 16][2]) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int n = 0; n < NT; n++) {
        int h = 8 * n + g;
#pragma unroll
        for (int kk = 0; kk < C / 16; kk++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                int c = 16 * kk + 2 * t + 8 * e;
                bw[n][kk][e] = h < H ? fa_pack2(wb[h * C + c], wb[h * C + c + 1]) : 0u;
            }
    }
}

// zb of the warp's 16 rows (from row0) = the A fragments af (LN(x), lm_ln_fragments) times W_bias's fragments bw
// (lm_bias_fragments), bf16 into zb (M, H)
template <int C, int NT>
__device__ __forceinline__ void lm_zb(const uint32_t (&af)[C / 16][4], const uint32_t (&bw)[NT][C / 16][2], bf16 *zb,
                                      int64_t row0, int64_t M, int H) {
    float acc[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++) {
#pragma unroll
        for (int j = 0; j < 4; j++) acc[n][j] = 0.f;
#pragma unroll
        for (int kk = 0; kk < C / 16; kk++) fa_mma16816(acc[n], af[kk], bw[n][kk][0], bw[n][kk][1]);
    }
    lm_store_zb<NT>(acc, zb, row0, M, H);
}

#endif
