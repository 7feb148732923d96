// cu_trimul_outw.cuh: what the output part's Hopper kernels share (PF_TRIMUL_OUTW; cu_trimul_outw.cu:
// k_tm_outfw, the forward, and the host side; cu_trimul_outwb.cu: k_tm_outbw, the backward): the
// shared-memory layout, the arguments, the tile loaders, the A fragments (X's channel-major staging by
// ldmatrix.trans, LN_out on them in registers), the K-major product and the block start.
#ifndef PF_CU_TRIMUL_OUTW_CUH
#define PF_CU_TRIMUL_OUTW_CUH
#include "cu_trimul.cuh"
#include "cu_trimul_side.cuh"
#include "cu_trimul_side_wg.cuh"
#include "cu_trimul_out3.cuh"
#include "cu_vec.cuh"

#define OW_C 128               // c = c_z
#define OW_NWG 2               // warpgroups per block (the forward may take 3): up to 255 registers each
#define OW_XS (64 + TS_PAD)    // X's staging row stride (a channel's 64 positions): ldmatrix rows on distinct banks
#define OW_ZS (OW_C + TS_PAD)  // zl's staging row stride
#define OW_WT (64 * OW_C)      // elements of one packed weight tile

// Shared memory (bytes): the packed weight (4 tiles), b_z and b_g (256) and LN_out's weight and bias
// (256) in fp32, per warpgroup X's staging (128 x OW_XS; the backward with 2 warpgroups two: the next
// tile's comes in while this one's is still needed for LN_out's backward; with 3 one, refilled after dX
// is stored: three of two buffers would not fit), zl's (64 x OW_ZS) and the backward's d out
// (64 x OW_ZS), the weight's mbarrier. The backward with 3 warpgroups: 227,344 bytes (sm_90: 232,448).
template <bool BWD, int NWG = OW_NWG>
struct ow_smem {
    static constexpr int PAR = 4 * OW_WT * 2, WG0 = PAR + 512 * 4;
    static constexpr int XB = 128 * OW_XS * 2, RB = 64 * OW_ZS * 2;
    static constexpr int XBUF = BWD && NWG == 2 ? 2 : 1;  // X staging buffers per warpgroup
    static constexpr int PER_WG = BWD ? XBUF * XB + 2 * RB : XB + RB;
    static constexpr int BAR = WG0 + NWG * PER_WG, BYTES = BAR + 16;
    static_assert(!BWD || XBUF * XB >= 4 * NWG * 2 * OW_C * 4, "the LN_out parameter sums fit warpgroup 0's X buffers");
};

struct ow_args {
    const bf16 *X;              // (128, ldx) channel-major: positions [0, M)
    bf16 *dX;                   // backward: the same layout (may be X)
    int64_t ldx, M;
    const bf16 *zl, *dout;      // (M, 128); dout: backward
    const bf16 *w;              // ow_pack's weight (4 tiles)
    const float *bias;          // b_z, b_g (256) as bf16 values, channel order
    const float *ln_w, *ln_b;   // LN_out (128); ln_b may be NULL
    bf16 *out;                  // forward: (M, 128)
    bf16 *xl, *dy, *dgp, *dzl;  // backward: (M, 128) outputs
    float *part;                // backward: (gridDim.x, 2, 128): sum dxl * xhat, sum dxl
};

// Packed row r = 8 j + 2 t + e of a tile holds channel 16 t + 2 j + e of its 64.
__host__ __device__ __forceinline__ int ow_perm(int r) { return 16 * ((r >> 1) & 3) + 2 * (r >> 3) + (r & 1); }

#if S9_HAVE_WGMMA
// The warp's 16 positions (rows 16 w..) of X's staging as the y product's A fragments: xf[kk] holds
// channels 16 kk .. 16 kk + 15 as k ([0] row g, channels 16 kk + 2 t, + 1; [1] row g + 8; [2], [3]
// channels 16 kk + 8 + 2 t, + 1), by ldmatrix.trans (the staging's rows are channels).
__device__ __forceinline__ void ow_x_frags(uint32_t (&xf)[8][4], const bf16 *xs, int w) {
    const int lane = threadIdx.x & 31;
    const bf16 *xp = xs + ((lane & 7) + 8 * (lane >> 4)) * OW_XS + 16 * w + 8 * ((lane >> 3) & 1);
#pragma unroll
    for (int kk = 0; kk < 8; kk++) ts_ldsm4t(xf[kk], xp + 16 * kk * OW_XS);
}
// The warp's 16 rows of zl's staging as the g product's A fragments.
__device__ __forceinline__ void ow_z_frags(uint32_t (&zf)[8][4], const bf16 *zs, int w) {
    const int lane = threadIdx.x & 31;
    const bf16 *zp = zs + (16 * w + (lane & 15)) * OW_ZS + (lane >> 4) * 8;
#pragma unroll
    for (int kk = 0; kk < 8; kk++) ts_ldsm4(zf[kk], zp + 16 * kk);
}

// Sum over the thread's quad (the 4 threads of a row: all 128 channels); every lane the same bits.
__device__ __forceinline__ float ow_quad_sum(float s) {
    s += __shfl_xor_sync(0xffffffffu, s, 1);
    return s + __shfl_xor_sync(0xffffffffu, s, 2);
}

// LN_out of the fragments' two rows in place (h = 0: row g, registers [0], [2]; h = 1: row g + 8,
// [1], [3]): mean, then the centred sum of squares, each over the thread's 32 channels in order and
// then the quad; per element k_tm_ln_cm_fwd's expression and rounding. mu, rs: the rows' mean and
// 1 / std (the backward keeps them).
__device__ __forceinline__ void ow_ln(uint32_t (&xf)[8][4], const float *lnw, const float *lnb, float (&mu)[2],
                                      float (&rs)[2]) {
    const int t = threadIdx.x & 3;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        float s = 0.f;
#pragma unroll
        for (int kk = 0; kk < 8; kk++)
#pragma unroll
            for (int u = 0; u < 2; u++) s += t3_lo(xf[kk][2 * u + h]) + t3_hi(xf[kk][2 * u + h]);
        mu[h] = ow_quad_sum(s) / OW_C;
        float d2 = 0.f;
#pragma unroll
        for (int kk = 0; kk < 8; kk++)
#pragma unroll
            for (int u = 0; u < 2; u++) {
                const float d0 = t3_lo(xf[kk][2 * u + h]) - mu[h], d1 = t3_hi(xf[kk][2 * u + h]) - mu[h];
                d2 += d0 * d0 + d1 * d1;
            }
        rs[h] = rsqrtf(ow_quad_sum(d2) / OW_C + LN_EPS);
    }
#pragma unroll
    for (int kk = 0; kk < 8; kk++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const int ch = 16 * kk + 8 * u + 2 * t;
            const float2 wv = *reinterpret_cast<const float2 *>(lnw + ch), bv = *reinterpret_cast<const float2 *>(lnb + ch);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const uint32_t x = xf[kk][2 * u + h];
                const float y0 = __fmaf_rn(__fmul_rn(__fsub_rn(t3_lo(x), mu[h]), rs[h]), wv.x, bv.x);
                const float y1 = __fmaf_rn(__fmul_rn(__fsub_rn(t3_hi(x), mu[h]), rs[h]), wv.y, bv.y);
                xf[kk][2 * u + h] = fa_pack2(y0, y1);
            }
        }
}

// acc = A (the warp's 16 rows x 128: fragments af) times the packed weight tile wt (64 rows x 128,
// K-major core matrices: LBO 128 B, SBO 2 KB), 8 wgmma m64n64k16, the first not reading acc; issued,
// not committed (tswp_issue's sequence).
__device__ __forceinline__ void ow_product(float (&acc)[32], const uint32_t (&af)[8][4], const unsigned char *wt) {
    const uint64_t d = s9_desc(wt, 128, OW_C * 16);
    wg_n64_first(acc, af[0], d);
#pragma unroll
    for (int kk = 1; kk < 8; kk++) s9_wg_n64(acc, af[kk], d + ((kk * 256) >> 4), 1);
}

// The y, g products in half tiles (k_tm_outbw<3>, k_tm_outbw_dwz, k_tm_outfw<4>): acc (64 positions x the packed rows 32 q .. 32 q + 31 of
// the weight tile wt: 4 SBO, 8 KB, into it) = af times them, 8 wgmma m64n32k16 (the same k order per
// element as ow_product's), issued, not committed. Accumulator register 4 i + 2 h + e: packed row 32 q +
// 8 i + 2 t + e, i.e. pair j = 4 q + i of ow_product's.
__device__ __forceinline__ void ow_product_half(float (&acc)[16], const uint32_t (&af)[8][4], const unsigned char *wt,
                                                int q) {
    const uint64_t d = s9_desc(wt + q * 4 * OW_C * 16, 128, OW_C * 16);
    wg_n32_first(acc, af[0], d);
#pragma unroll
    for (int kk = 1; kk < 8; kk++) wg_n32(acc, af[kk], d + ((kk * 256) >> 4));
}
// The zl staging of those forms: rows [p0, p0 + 64) of zl (M, 128) in wgmma's K-major core-matrix layout (8
// rows x 16 bytes per 128-byte core matrix; LBO 128 B along the channels, SBO 2 KB per 8 rows), the A
// operand of the g products by descriptor; cp.async by the warpgroup's 128 threads, zeros past M, not
// committed.
__device__ __forceinline__ void ow_load_zl_km(bf16 *s, const bf16 *zl, int64_t M, int64_t p0, int tid) {
#pragma unroll
    for (int it = 0; it < 8; it++) {
        const int i = tid + it * 128, r = i >> 4, k = i & 15;
        const int ok = p0 + r < M;
        fa_cp16z(s + ((r >> 3) * 16 + k) * 64 + (r & 7) * 8, ok ? zl + (p0 + r) * 128 + 8 * k : zl, ok ? 16 : 0);
    }
}
// ow_product_half with A = that staging (zs) by descriptor.
__device__ __forceinline__ void ow_product_half_ss(float (&acc)[16], const bf16 *zs, const unsigned char *wt, int q) {
    const uint64_t da = s9_desc(zs, 128, OW_C * 16), db = s9_desc(wt + q * 4 * OW_C * 16, 128, OW_C * 16);
    wg_ss_n32_first(acc, da, db);
#pragma unroll
    for (int kk = 1; kk < 8; kk++) wg_ss_n32(acc, da + ((kk * 256) >> 4), db + ((kk * 256) >> 4));
}
// Both channel tiles' y, g products in half tiles (32 accumulator registers live, not 128), the g products'
// A zl's staging zs by descriptor; epi(ay, ag, jt, q) after each half's wait: the gate and out (k_tm_outfw<4>)
// or the gate's backward (k_tm_outbw<3>, k_tm_outbw_dwz).
template <typename F>
__device__ __forceinline__ void ow_halves(const uint32_t (&xf)[8][4], const bf16 *zs, const unsigned char *sm, F epi) {
#pragma unroll
    for (int jt = 0; jt < 2; jt++)
#pragma unroll
        for (int q = 0; q < 2; q++) {
            float ay[16], ag[16];
            __syncwarp();
            s9_wg_fence();  // the fragments (and the last half's accumulator reads) before the products
            ow_product_half(ay, xf, sm + jt * OW_WT * 2, q);
            ow_product_half_ss(ag, zs, sm + (2 + jt) * OW_WT * 2, q);
            s9_wg_commit();
            wg_mma_wait<0>();
            s9_wg_hold<16>(ay), s9_wg_hold<16>(ag);
            epi(ay, ag, jt, q);
        }
}
// Block start: the weight's mbarrier, the parameters into shared memory, the weight's bulk copies.
// The caller waits on the mbarrier (at L::BAR) before the first product. L: a layout with PAR and BAR.
template <typename L>
__device__ __forceinline__ void ow_start_at(const ow_args &a, unsigned char *sm) {
    uint64_t *wbar = (uint64_t *)(sm + L::BAR);
    float *par = (float *)(sm + L::PAR);
    if (threadIdx.x == 0) {
        wg_bar_init(wbar, 1);
        wg_fence_mbarrier_init();
    }
    for (int i = threadIdx.x; i < 2 * OW_C; i += blockDim.x) par[i] = a.bias[i];
    for (int i = threadIdx.x; i < OW_C; i += blockDim.x)
        par[2 * OW_C + i] = a.ln_w[i], par[3 * OW_C + i] = a.ln_b ? a.ln_b[i] : 0.f;
    __syncthreads();
    if (threadIdx.x == 0) {
        tw_expect(wbar, 4 * OW_WT * 2);
        for (int j = 0; j < 4; j++) tw_bulk_g2s(sm + j * OW_WT * 2, a.w + j * OW_WT, OW_WT * 2, wbar);
    }
}
template <bool BWD, int NWG = OW_NWG>
__device__ __forceinline__ void ow_start(const ow_args &a, unsigned char *sm) {
    ow_start_at<ow_smem<BWD, NWG>>(a, sm);
}
#endif


// The backward's launch (cu_trimul_outwb.cu): k_tm_outbw with nwg (2 or 3) warpgroups per block on one
// wave of persistent blocks (at most `grid` where grid > 0), a.part from pool scratch (the caller marks
// the pool). Returns the blocks.
unsigned cu_tm_outbw_launch(cu_impl *c, ow_args *a, int grid, int nwg);
// The fused-dW_z form (cu_trimul_outwd.cu, PF_TRIMUL_OUTW_DWZ): k_tm_outbw_dwz on one wave, then its
// per-block sums of d y^T xl (pool scratch, a kernel argument of their own: a field more in ow_args
// changed k_tm_outbw<2>'s machine code) added to dwz_out (128 x 128 fp32, (out, in)) in block order; a.part
// from pool scratch. xl and d y are not written (a.xl, a.dy unused). Returns the blocks.
unsigned cu_tm_outbw_dwz_launch(cu_impl *c, ow_args *a, int grid, float *dwz_out);
int cu_tm_outbw_dwz_smem(void);  // its shared memory per block (bytes)

#endif
