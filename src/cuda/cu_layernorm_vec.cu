// cu_layernorm_vec.cu: LayerNorm forward / backward with 16-byte row access, for
// C in {32, 64, 128, 256} (c_z = 128, c_m = 64, c_s = 256 ...). LPR = C / 8 lanes
// share a row, each holding 8 consecutive channels; a warp takes 32 / LPR rows at
// once. The one-channel-per-lane kernels of cu_prim.cu (2-byte loads in bf16) took
// about 0.2 ms per (2^20, 128) bf16 forward on the H200 where the bytes need ~0.13
// (ncu, session 8); they remain the path for other C and unaligned buffers.
//
// Same contract as cu_prim.cu's kernels: statistics in fp32 recomputed by the
// backward; the backward loads everything of a row before it writes (dx may be x when
// overwritten), and its parameter-gradient partials (nb, 2, C) are summed per block in
// a fixed slot order, then over blocks by k_reduce_parts: no atomics, same bits every
// run (not the same bits as the scalar kernels: the sums run in another order).
#include "cu_lnv.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"

#define LNV_WARPS 8

// Rows in groups of 32 / LPR per warp, grid-stride; every lane runs the same trip count
// (rows past M load zeros and store nothing), so the shuffles stay warp-uniform.
// cp (PF_LN_SAVE, may be NULL): x copied there as it is read (the caller's saved input).
template <typename T, int LPR>
__global__ void __launch_bounds__(32 * LNV_WARPS)
    k_ln_fwd_v(int64_t M, const float *w, const float *b, const T *x, T *y, T *cp) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR;
    int lane = threadIdx.x & 31, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = w[c0 + j], br[j] = b[c0 + j];
    int64_t stride = (int64_t)gridDim.x * LNV_WARPS * RPW;
    for (int64_t rb = ((int64_t)blockIdx.x * LNV_WARPS + (threadIdx.x >> 5)) * RPW; rb < M; rb += stride) {
        int64_t row = rb + lane / LPR;
        bool ok = row < M;
        float v[8], mu, rs;
        lnv_load(x, row * C + c0, ok, v);
        if (cp && ok) st8(cp, row * C + c0, v);  // T -> fp32 -> T: the same bits (NaN payloads aside)
        lnv_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = (v[j] - mu) * rs * wr[j] + br[j];
        if (ok) st8(y, row * C + c0, v);
    }
}

// part: (gridDim.x, 2, C) partial sums of dy * xhat and dy over the block's contiguous rows.
template <typename T, int LPR>
__global__ void __launch_bounds__(32 * LNV_WARPS) k_ln_bwd_v(int64_t M, const float *w, const T *x, const T *dy, T *dx,
                                                             float *part, int acc) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR, SLOTS = LNV_WARPS * RPW;
    __shared__ float red[SLOTS][2][C];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, c0 = (lane % LPR) * 8;
    float wr[8], aw[8], ab[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = w[c0 + j], aw[j] = ab[j] = 0.f;
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    for (int64_t rb = r0 + (int64_t)wid * RPW; rb < r1; rb += SLOTS) {
        int64_t row = rb + lane / LPR, i = row * C + c0;
        bool ok = row < r1;
        float v[8], g[8], dxo[8], mu, rs;
        lnv_load(x, i, ok, v);
        lnv_load(dy, i, ok, g);
        lnv_load(dx, i, ok && dx && acc, dxo);
        lnv_stats<LPR>(v, mu, rs);
        float s1 = 0, s2 = 0;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float xh = (v[j] - mu) * rs, dxh = g[j] * wr[j];
            v[j] = xh;
            s1 += dxh;
            s2 += dxh * xh;
            aw[j] += g[j] * xh;
            ab[j] += g[j];
        }
        if (dx) {
            s1 = lnv_row_sum<LPR>(s1) * (1.f / C);
            s2 = lnv_row_sum<LPR>(s2) * (1.f / C);
#pragma unroll
            for (int j = 0; j < 8; j++) dxo[j] += rs * (g[j] * wr[j] - s1 - v[j] * s2);
            if (ok) st8(dx, i, dxo);
        }
    }
    if (!part) return;
    int slot = wid * RPW + lane / LPR;
#pragma unroll
    for (int j = 0; j < 8; j++) red[slot][0][c0 + j] = aw[j], red[slot][1][c0 + j] = ab[j];
    __syncthreads();
    for (int t = threadIdx.x; t < 2 * C; t += blockDim.x) {
        int k = t / C, ch = t % C;
        float s = 0;
        for (int u = 0; u < SLOTS; u++) s += red[u][k][ch];
        part[((int64_t)blockIdx.x * 2 + k) * C + ch] = s;
    }
}

// PF_LN_VEC=0 turns these kernels off (A/B runs); anything else but 1 is an error.
static int lnv_enabled(void) {
    static int on = -1;
    if (on < 0) on = cu_env_flag("PF_LN_VEC", 1, "off", "on, the default");
    return on;
}

static int lnv_fwd(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y, void *cp) {
    int lpr = lnv_lpr(C);
    if (!lpr || !lnv_enabled() || !cu_vec_ok(M * C, x, y, cp)) return 0;
    int64_t groups = (M + 32 / lpr - 1) / (32 / lpr);
    // a bounded grid: each warp loops over several row groups, so its weight loads are
    // paid once (one group per warp measured 0.21 ms per (2^20, 128) bf16 call, ncu)
    unsigned nb = cu_blocks(groups, LNV_WARPS);
    if (nb > 2048) nb = 2048;
    lnv_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        CU_DISPATCH(c, T, k_ln_fwd_v<T, LPR><<<nb, 32 * LNV_WARPS, 0, c->stream>>>(M, p->w, p->b, (const T *)x, (T *)y,
                                                                                  (T *)cp));
    });
    CU_LAUNCHED();
    return 1;
}

int cu_ln_vec_rows(int C) {
    return lnv_lpr(C) && lnv_enabled();
}

int cu_ln_fwd_vec(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y) {
    return lnv_fwd(c, M, C, p, x, y, NULL);
}

// PF_LN_SAVE: process-wide, read at the first call; pf_cuda_set_ln_save (tests).
static int g_ls = -1;
static int64_t g_ls_runs;
extern "C" void pf_cuda_set_ln_save(pf_backend *be, int on) {
    (void)be;
    g_ls = on == 0 || on == 1 ? on : -1;  // else: PF_LN_SAVE / the default again
}
extern "C" int64_t pf_cuda_ln_save_runs(pf_backend *be) {
    (void)be;
    return g_ls_runs;
}

int cu_ln_fwd_save(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y, void *cp) {
    if (g_ls < 0)
        g_ls = cu_env_flag("PF_LN_SAVE", 1, "the LayerNorm, then a copy of its input",
                           "the copy written by the LayerNorm's kernel: the default");
    if (!g_ls || !cp || M <= 0 || !lnv_fwd(c, M, C, p, x, y, cp)) return 0;
    g_ls_runs++;
    return 1;
}

int cu_ln_bwd_vec(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, const void *dy, void *dx,
                  float *part, int nb, int acc) {
    int lpr = lnv_lpr(C);
    if (!lpr || !lnv_enabled() || !cu_vec_ok(M * C, x, dy, dx)) return 0;
    lnv_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        CU_DISPATCH(c, T, k_ln_bwd_v<T, LPR><<<nb, 32 * LNV_WARPS, 0, c->stream>>>(M, p->w, (const T *)x, (const T *)dy,
                                                                                  (T *)dx, part, acc));
    });
    CU_LAUNCHED();
    return 1;
}
