// cu_attn_lnproj.cu: the attention module's input LayerNorm, pair-bias logits and q|k|v|g projections as one
// Hopper pass (PF_ATTN_LNPROJ=1 or unset: where it applies; 0: the two-kernel path).
//
// Why: the one-GEMM projection path (cu_attn_proj.cu) ran k_lnb_mma (cu_lnb_mma.cu: reads x, writes LN(x) and
// zb = LN(x) W_bias^T) and then a cuBLASLt GEMM (reads LN(x), writes [q|k|v|g] = LN(x) W_cat^T + b_cat), in the
// forward and again in the backward's recompute. At N = 1024 (H100, ncu, session 57) that is 0.26 + 0.50 ms each
// time, and LN(x)'s write and read (2 x 256 MB) are a third of those bytes. Here a warpgroup copies 64 rows of x
// into shared memory, forms LN(x) as the A fragments in registers with k_lnb_mma's arithmetic (lm_ln_fragments:
// the same bits), zb by mma.sync as k_lnb_mma does (lm_zb: the same bits), and multiplies by W_cat, which stays
// in shared memory for the whole persistent block (k_attn_gate_out_wg's forward structure: 64-row tiles of the
// weight in cu_wg_ring.cuh's K-major core-matrix layout, one wgmma m64n64 chain per tile, the bias added and the
// row written through a staging tile as 16-byte stores). LN(x) is written only where asked (the backward's weight
// gradient reads it); the copy of x (the module's saved input) from the same read, as k_lnb_mma.
// The products sum in wgmma's order, not cuBLASLt's: [q|k|v|g] is within rounding of the GEMM path, not its bits.
//
// PF_ATTN_LNPROJ: 1 or unset this kernel where it applies, 0 the two-kernel path. (Session 58 also wrote a pipelined
// form, 2: weight tile j + 1's product issued before tile j's epilogue, the same bits; timed in session 60 on an H100
// it was level with 1, the triangle module's f+b 15.51 / 15.55 against 15.50 / 15.48 ms at 1024, and was removed:
// the code is at e661a1c. And a form whose rows left by bulk copies, 64 bytes a row from half-tile staging: 0.915 ms
// a launch at 1024 against 0.741; removed in session 58.)
// Applies: bf16, compute capability 9, c_in = 128, 4 HC a multiple of 64 up to 512 (the weight fits shared
// memory), 1 <= H <= 16 bias heads, 16-byte aligned rows.
#include "cu_attn_gate_wg.cuh"
#include "cu_lnb_mma.cuh"
#include "cu_env.cuh"

#define ALP_WG 3  // warpgroups per block: the weight (128 KiB at 4 HC = 512) and 3 x 26 KiB of rows and staging

struct alp_args {
    const unsigned char *w;  // W_cat (4 HC, 128): tiles x (64 rows, 128), trwg_off layout
    int tiles;               // 4 HC / 64
    int64_t M;               // positions
    const bf16 *x;           // (M, 128); TR: the ending node's x (L, L, 128), read as x^T (M = L^2, ago_rows_t)
    const float *lnw, *lnb;  // the LayerNorm's weight and bias (128)
    const float *wb;         // W_bias (H, 128)
    int H;
    const bf16 *bias;        // b_cat (4 HC) or NULL
    bf16 *X;                 // [q|k|v|g] (M, 4 HC), rows ldx apart
    int64_t ldx;
    bf16 *zb;                // (M, H)
    bf16 *cp, *xln;          // (M, 128): x's copy, LN(x); either may be NULL
    uint32_t L;              // TR only (last: the other fields' offsets, and so the plain forms' SASS, as before)
};

// Shared memory per block: the weight, then per warpgroup its 64 rows (128 + TS_PAD) and its 4 warps' staging
// tiles (16, AGO_SO), then the weight's mbarrier, the LayerNorm's weight and bias (fp32, 128 each) and b_cat
// (fp32, 64 tiles; zeros where none).
static constexpr int64_t alp_per_wg = (int64_t)64 * (128 + TS_PAD) * 2 + 4 * 16 * AGO_SO * 2;
static int64_t alp_bytes(int tiles, int nwg) {
    return (int64_t)tiles * 64 * 128 * 2 + nwg * alp_per_wg + 16 + 1024 + (int64_t)tiles * 64 * 4;
}

#if S9_HAVE_WGMMA
// Tile j's output columns 64 j.. of the warp's 16 positions = acc + bias, ago_rows_epilogue's values and bits in
// fewer instructions (call 3, session 58: ~300 a tile in that form, from its 16 bias loads and conversions with
// their bounds and the 64-bit addresses per store): the bias as fp32 pairs from the block's copy bs (zeros where
// b_cat is NULL: acc + 0, as that form adds), the rows through the warp's staging tile st (16, AGO_SO) as 16-byte
// stores at xo (this lane's row lane / 8, columns 8 (lane & 7)..) + it ld4 (4 rows further each), where bit it of ok.
__device__ __forceinline__ void alp_epilogue(const float (&acc)[32], const float *bs, bf16 *xo, int64_t ld4,
                                             unsigned ok, int j, bf16 *st) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const float2 b = *reinterpret_cast<const float2 *>(bs + 64 * j + 8 * i + 2 * t);
#pragma unroll
        for (int hh = 0; hh < 2; hh++)
            *reinterpret_cast<__nv_bfloat162 *>(st + (g + 8 * hh) * AGO_SO + 8 * i + 2 * t) =
                __floats2bfloat162_rn(acc[4 * i + 2 * hh] + b.x, acc[4 * i + 2 * hh + 1] + b.y);
    }
    __syncwarp();
#pragma unroll
    for (int it = 0; it < 4; it++) {
        const uint4 v = *reinterpret_cast<const uint4 *>(st + ((lane >> 3) + 4 * it) * AGO_SO + 8 * (lane & 7));
        if (ok >> it & 1) *reinterpret_cast<uint4 *>(xo + it * ld4 + 64 * j) = v;
    }
    __syncwarp();  // st read before the next tile's writes
}
#endif

// NT: W_bias's n8 tiles (H <= 8 one, <= 16 two); TR: x's rows in x^T's order (the ending node without its x^T
// copy: every output, cp included, is then the x^T frame's, the same bits as a run on x^T). Launched on sm_90 only
// (attn_lnproj_applies); compiled for sm_80 it traps.
template <int NT, bool TR = false>
__global__ void __launch_bounds__(128 * ALP_WG, 1) k_attn_lnproj_wg(alp_args a) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char alp_sm[];
    constexpr int KP = 128, sk = KP + TS_PAD, KS = KP / 16;
    static_assert(sk == lm_layout<KP>::SK, "lm_ln_fragments reads rows lm_layout's stride apart");
    const int nwg = blockDim.x >> 7, wg = threadIdx.x >> 7, tid = threadIdx.x & 127, warp = tid >> 5;
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int64_t wbytes = (int64_t)a.tiles * 64 * KP * 2;
    uint64_t *wbar = (uint64_t *)(alp_sm + wbytes + nwg * alp_per_wg);
    float *lnw = (float *)(wbar + 2), *lnb = lnw + KP, *bs = lnb + KP;  // float2 reads: 8-byte aligned here
    for (int i = threadIdx.x; i < KP; i += blockDim.x) lnw[i] = a.lnw[i], lnb[i] = a.lnb[i];
    for (int i = threadIdx.x; i < 64 * a.tiles; i += blockDim.x) bs[i] = a.bias ? __bfloat162float(a.bias[i]) : 0.f;
    if (threadIdx.x == 0) {
        wg_bar_init(wbar, 1);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // the whole weight, one bulk copy per tile
        const uint32_t tile = 64 * KP * 2;
        tw_expect(wbar, (uint32_t)wbytes);
        for (int j = 0; j < a.tiles; j++) tw_bulk_g2s(alp_sm + (int64_t)j * tile, a.w + (int64_t)j * tile, tile, wbar);
    }
    unsigned char *mine = alp_sm + wbytes + wg * alp_per_wg;
    bf16 *xs = (bf16 *)mine, *ws = xs + 16 * warp * sk;  // the warpgroup's rows, the warp's 16 of them
    bf16 *st = (bf16 *)(mine + 64 * sk * 2) + warp * 16 * AGO_SO;
    uint32_t bw[NT][KS][2];
    lm_bias_fragments<KP, NT>(a.wb, a.H, bw);
    const int64_t T = (a.M + 63) / 64, t0 = (int64_t)blockIdx.x * nwg + wg, stride = (int64_t)gridDim.x * nwg;
    auto load = [&](int64_t tt) {
        if constexpr (TR) ago_load_rows<KP>(xs, a.x, KP, a.M, tt * 64, tid, ago_rows_t{a.L, 0u});
        else ago_load_rows<KP>(xs, a.x, KP, a.M, tt * 64, tid);
        fa_commit();
    };
    if (t0 < T) load(t0);
    wg_bar_wait(wbar, 0);  // the weight landed (and no block exits before its copies end)
    __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
    for (int64_t tt = t0; tt < T; tt += stride) {
        const int64_t rw0 = tt * 64 + 16 * warp;
        fa_wait<0>();
        tswp_wg_sync(wg);  // every thread's rows landed
        if (a.cp) ago_store_rows<KP>(a.cp, KP, ws, sk, a.M, rw0);
        uint32_t af[KS][4];
        lm_ln_fragments<KP>(ws, lnw, lnb, af);
        if (a.xln) {  // LN(x) back over the warp's rows (k_lnb_mma's order), then out as 16-byte rows
            __syncwarp();  // every lane's reads of the raw rows (and the copy's) done
#pragma unroll
            for (int kk = 0; kk < KS; kk++)
#pragma unroll
                for (int e = 0; e < 2; e++)
#pragma unroll
                    for (int hh = 0; hh < 2; hh++)
                        *reinterpret_cast<uint32_t *>(ws + (g + 8 * hh) * sk + 16 * kk + 2 * t + 8 * e) =
                            af[kk][hh + 2 * e];
            __syncwarp();
            ago_store_rows<KP>(a.xln, KP, ws, sk, a.M, rw0);
        }
        lm_zb<KP, NT>(af, bw, a.zb, rw0, a.M, a.H);
        tswp_wg_sync(wg);  // every warp done with the rows before the next tile's copies
        if (tt + stride < T) load(tt + stride);
        const int64_t r0 = rw0 + (lane >> 3);  // this lane's first row of the stores
        bf16 *xo = a.X + r0 * a.ldx + 8 * (lane & 7);
        unsigned ok = 0;
#pragma unroll
        for (int it = 0; it < 4; it++) ok |= (unsigned)(r0 + 4 * it < a.M) << it;
        for (int j = 0; j < a.tiles; j++) {
            float acc[32];
            ago_product<KP>(acc, af, alp_sm, j);
            alp_epilogue(acc, bs, xo, 4 * a.ldx, ok, j, st);
        }
    }
#else
    __trap();
#endif
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
static cu_setting alp_mode = {-1, "PF_ATTN_LNPROJ", 0, 1, 1,
                               "0 (k_lnb_mma and the projection GEMM apart) or 1 (one LayerNorm + projections kernel "
                               "where it applies, the default)"};
static int64_t g_alp_runs;
extern "C" void pf_cuda_set_attn_lnproj(pf_backend *be, int on) {
    (void)be;
    cu_setting_set(&alp_mode, on);  // outside 0..1: PF_ATTN_LNPROJ / the default again
}
extern "C" int64_t pf_cuda_attn_lnproj_runs(pf_backend *be) {
    (void)be;
    return g_alp_runs;
}

int attn_lnproj_applies(cu_impl *c, int c_in, int HC, int H) {
    return cu_setting_get(&alp_mode) && c->bf16 && c_in == 128 && HC % 16 == 0 && 4 * HC <= 512 && H >= 1 && H <= 16 &&
           tw_ring_applies(128);
}

extern "C" int pf_cuda_attn_lnproj_applies(pf_backend *be, int c_in, int HC, int H) {
    return attn_lnproj_applies(CU(be), c_in, HC, H);
}

int attn_lnproj(cu_impl *c, int64_t M, int HC, int H, const pf_layernorm_p *ln, const real *w_bias, const void *wcat,
                const void *bcat, const void *x, int64_t xt_L, void *zb, void *X, int64_t ldx, void *cp, void *xln) {
    if (M <= 0 || !attn_lnproj_applies(c, 128, HC, H)) return 0;
    if (xt_L && (xt_L < 1 || xt_L * xt_L != M || M >= ((int64_t)1 << 31))) return 0;  // ago_rows_t's 32-bit positions
    if (!ago_aligned(x, 128) || !ago_aligned(X, ldx) || (cp && !ago_aligned(cp, 128)) ||
        (xln && !ago_aligned(xln, 128)) || ((uintptr_t)zb & 3))
        return 0;
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    const int tiles = 4 * HC / 64;
    int nwg = ALP_WG;
    while (nwg > 0 && alp_bytes(tiles, nwg) > optin) nwg--;
    if (!nwg) return 0;
    size_t mark = cu_pool_mark(c);
    bf16 *w = (bf16 *)cu_pool_get(c, (size_t)tiles * 64 * 128 * 2);
    ago_pack_rows(c, w, (const bf16 *)wcat, 4 * HC, 128, tiles);
    alp_args a;
    memset(&a, 0, sizeof a);
    a.w = (const unsigned char *)w, a.tiles = tiles, a.M = M, a.x = (const bf16 *)x, a.L = (uint32_t)xt_L;
    a.lnw = ln->w, a.lnb = ln->b, a.wb = w_bias, a.H = H, a.bias = (const bf16 *)bcat;
    a.X = (bf16 *)X, a.ldx = ldx, a.zb = (bf16 *)zb, a.cp = (bf16 *)cp, a.xln = (bf16 *)xln;
    const int threads = 128 * nwg, bytes = (int)alp_bytes(tiles, nwg);
    const int64_t need = ((M + 63) / 64 + nwg - 1) / nwg;
#define ALP_GO(NT, TR)                                                                      \
    do {                                                                                    \
        unsigned nb = ts_wave_blocks(c, k_attn_lnproj_wg<NT, TR>, threads, bytes, need, 0); \
        k_attn_lnproj_wg<NT, TR><<<nb, threads, bytes, c->stream>>>(a);                     \
    } while (0)
    if (H <= 8) {
        if (xt_L) ALP_GO(1, true);
        else ALP_GO(1, false);
    } else {
        if (xt_L) ALP_GO(2, true);
        else ALP_GO(2, false);
    }
#undef ALP_GO
    CU_LAUNCHED();
    cu_pool_release(c, mark);
    g_alp_runs++;
    return 1;
}
#endif
