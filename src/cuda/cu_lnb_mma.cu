// cu_lnb_mma.cu: the attention's bias logits zb (n, H) = LN(src) W_bias^T on tensor cores
// (bf16, C = 64 or 128 channels, H <= 16; PF_LNB_MMA=1 or unset, the default since session 23).
//
// Why: the FFMA kernels of cu_attn_fuse.cu (k_lnb_fwd_p, k_lnb_fwd_p2) form each head's dot
// product per lane and reduce it across the row's lanes with shuffles: one long dependent
// chain per warp. ncu at N = 512 (session 23 call 1): k_lnb_fwd_p2 (the single attention's 16
// heads) 97.5 us per (2^18, 128) call at 0.89 TB/s, where its bytes need ~25 us; k_lnb_fwd_p
// (triangle attention, 4 heads, xln written) 58 us at 2.29 TB/s against ~40.
//
// Here a warp owns 16-row tiles: the rows land by cp.async in a per-warp ring of LM_ST tiles
// (LM_ST - 1 loads in flight while one is computed); each thread reads its mma A-fragment elements
// (rows g and g + 8, channels 16 k + 2 t, + 1, + 8, + 9), forms the LayerNorm statistics over
// its 32 (or 16) values and the quad's (two shuffles), normalises and rounds to bf16 (as the
// FFMA kernels round xln), and multiplies by W_bias (bf16, B fragments in registers, rows past
// H zero) with m16n8k16: H <= 8 one n-tile, <= 16 two. xln goes back through the tile for
// 16-byte stores; copy (the raw rows) leaves from the tile before. Not the FFMA kernels' bits
// (mma sums in its own order): within the bf16 tolerance of the CPU reference (test_cuda's
// attention groups), and the same bits run to run (no atomics, fixed order).
#include "cu_lnb_mma.cuh"
#include "cu_env.cuh"

template <int C, int NT>
__global__ void __launch_bounds__(32 * LM_WARPS, 3)
    k_lnb_mma(int64_t M, int H, const float *lw, const float *lb, const float *wb, const bf16 *x, bf16 *zb, bf16 *cp,
              bf16 *xln) {
    constexpr int KS = C / 16, SK = lm_layout<C>::SK;
    extern __shared__ __align__(16) unsigned char lm_sm[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    bf16 *ring = reinterpret_cast<bf16 *>(lm_sm) + (size_t)warp * LM_ST * 16 * SK;
    float *lnw = reinterpret_cast<float *>(lm_sm + lm_layout<C>::ring), *lnb = lnw + C;
    for (int i = threadIdx.x; i < C; i += blockDim.x) lnw[i] = lw[i], lnb[i] = lb[i];
    uint32_t bw[NT][KS][2];
    lm_bias_fragments<C, NT>(wb, H, bw);
    __syncthreads();
    const int64_t tiles = (M + 15) / 16, stride = (int64_t)gridDim.x * LM_WARPS;
    const int64_t t0 = (int64_t)blockIdx.x * LM_WARPS + warp;
    const int64_t n_it = t0 < tiles ? (tiles - 1 - t0) / stride + 1 : 0;  // warp-uniform
    auto stage = [&](int64_t i) {
        if (i < n_it) lm_load<C>(ring + (i % LM_ST) * 16 * SK, x, (t0 + i * stride) * 16, M);
        fa_commit();
    };
#pragma unroll
    for (int i = 0; i < LM_ST - 1; i++) stage(i);
    for (int64_t i = 0; i < n_it; i++) {
        stage(i + LM_ST - 1);
        fa_wait<LM_ST - 1>();  // tile i landed (the later groups may be in flight)
        __syncwarp();
        bf16 *s = ring + (i % LM_ST) * 16 * SK;
        const int64_t row0 = (t0 + i * stride) * 16;
        if (cp) lm_store<C>(cp, s, row0, M);
        uint32_t af[KS][4];
        lm_ln_fragments<C>(s, lnw, lnb, af);
        if (xln) {
            __syncwarp();  // every lane's reads of the raw rows (and copy's) done
#pragma unroll
            for (int kk = 0; kk < KS; kk++)
#pragma unroll
                for (int e = 0; e < 2; e++)
#pragma unroll
                    for (int hh = 0; hh < 2; hh++)
                        *reinterpret_cast<uint32_t *>(s + (g + 8 * hh) * SK + 16 * kk + 2 * t + 8 * e) = af[kk][hh + 2 * e];
            __syncwarp();
            lm_store<C>(xln, s, row0, M);
        }
        lm_zb<C, NT>(af, bw, zb, row0, M, H);
        __syncwarp();  // the tile read (and xln's stores from it) before stage(i + LM_ST) refills it
    }
    fa_wait<0>();
}

// PF_LNB_MMA: 1 or unset this kernel where it applies (the default), 0 the FFMA kernels;
// parsed at the first call; pf_cuda_set_lnb_mma (tests: -1 back to the variable / default).
static int g_lnb_mma = -1;
static int64_t g_lnb_mma_runs;
extern "C" void pf_cuda_set_lnb_mma(pf_backend *be, int on) {
    (void)be;
    g_lnb_mma = on == 0 || on == 1 ? on : -1;
}
extern "C" int64_t pf_cuda_lnb_mma_runs(pf_backend *be) {
    (void)be;
    return g_lnb_mma_runs;
}

template <int C, int NT>
static void lm_launch(cu_impl *c, unsigned nb, int64_t n, int H, const pf_layernorm_p *ln, const real *w_bias,
                      const void *src, void *zb, void *copy, void *xln) {
    static unsigned done;  // devices with the shared-memory attribute set
    int dev = 0;
    CU_CHECK(cudaGetDevice(&dev));
    if (dev >= 32 || !(done >> dev & 1u)) {
        CU_CHECK(cudaFuncSetAttribute(k_lnb_mma<C, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)lm_layout<C>::bytes));
        if (dev < 32) done |= 1u << dev;
    }
    k_lnb_mma<C, NT><<<nb, 32 * LM_WARPS, lm_layout<C>::bytes, c->stream>>>(
        n, H, ln->w, ln->b, w_bias, (const bf16 *)src, (bf16 *)zb, (bf16 *)copy, (bf16 *)xln);
}

int attn_lnb_fwd_mma(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, const real *w_bias,
                     const void *src, void *zb, void *copy, void *xln, int max_blocks) {
    if (g_lnb_mma < 0) g_lnb_mma = cu_env_flag("PF_LNB_MMA", 1, "the FFMA bias kernels", "tensor cores, the default");
    if (!g_lnb_mma || !c->bf16 || (cb != 64 && cb != 128) || H < 1 || H > 16 || n <= 0 || ((uintptr_t)zb & 3)) return 0;
    // one wave (3 blocks per SM: registers), each warp looping over its tiles: with more blocks
    // (1056, 2.7 waves, session 23 call 2) the last wave ran part-empty and every warp filled its
    // ring for only ~4 tiles
    int64_t tiles = (n + 15) / 16, want = (tiles + LM_WARPS - 1) / LM_WARPS, wave = 3 * (int64_t)(c->n_sm > 0 ? c->n_sm : 1);
    unsigned nb = (unsigned)(want < wave ? want : wave);
    if (max_blocks > 0 && nb > (unsigned)max_blocks) nb = (unsigned)max_blocks;
    if (cb == 64) {
        if (H <= 8) lm_launch<64, 1>(c, nb, n, H, ln, w_bias, src, zb, copy, xln);
        else lm_launch<64, 2>(c, nb, n, H, ln, w_bias, src, zb, copy, xln);
    } else {
        if (H <= 8) lm_launch<128, 1>(c, nb, n, H, ln, w_bias, src, zb, copy, xln);
        else lm_launch<128, 2>(c, nb, n, H, ln, w_bias, src, zb, copy, xln);
    }
    CU_LAUNCHED();
    g_lnb_mma_runs++;
    return 1;
}
