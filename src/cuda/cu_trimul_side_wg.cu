// cu_trimul_side_wg.cu: the triangle multiplication's gated sides on Hopper warpgroup MMA
// (PF_TRIMUL_SIDES=3 and 4; issue 11; sm_90a only), the job of k_tm_sides2 (cu_trimul_side.cu):
// A (C, M) = mask * sigmoid(zl W_ag^T + b_ag) * (zl W_ap^T + b_ap), B likewise, channel-
// major. k_tm_sides2's mma.sync tiles run at ~281 TFLOP/s on the H200 with a block-wide
// barrier between product, epilogue and stores; here, as the transition's k_trwg
// (cu_transition_wg.cu, whose weight ring this shares: cu_wg_ring.cuh):
// - block = 2 consumer warpgroups (64 positions each: one wgmma M) + 1 producer warp,
//   128 positions; two blocks per SM (~98 KiB of shared memory each at c_z 128);
// - prologue (consumers): the block's zl rows by cp.async, each warp's A fragments (its 16
//   positions x KP) by ldmatrix into registers, once (KP / 4 registers), and its mask values;
//   the rows' shared memory then serves as the warps' staging tiles;
// - producer (one thread): the packed weight in column tiles of 64 rows (32 channels: p and
//   g of 4 groups of 8, k_tm_sides2's form 1 order) in wgmma's core-matrix layout
//   (ts_pack_weights form 2), one bulk copy per tile into a ring of 4 stages;
// - consumers, per tile: wgmma m64n64k16 x KP / 16, the stage released, the gate in fp32
//   registers with ts_epilogue_t's expression per element (acc columns 16 q + 2 t + e and
//   8 on: tp and tg of channel 8 q + 2 t + e), bf16 into the warp's staging tile channel-
//   major (32 channels x 16 positions), then 16-byte stores of 8 positions of a channel.
//   No block-wide barrier after the prologue: warpgroups and blocks drift apart, one's
//   epilogue overlapping another's product.
// Not bit-identical to k_tm_sides2 (wgmma's fp32 summation order over k differs from
// mma.sync's); within the trimul tolerances (test_cuda's CPU comparisons). The backward
// recomputes A, B with this kernel too; its side gradient (k_tm_side_grad2's job) runs on
// the same structure with PF_TRIMUL_SIDES=4 (k_tm_sides_wg<KP, true>, below).
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"
#include "cuda_backend.h"

#define TSW_SO 24  // staging row stride (bf16) per channel: the warp's 2-byte stores conflict-free
#define TSW_GO 72  // the backward's [d tp | d tg] staging row stride (bf16): word 36 g + t + 4 q, no conflicts

// Shared memory: the weight ring (ST x (64, KP), trwg_off layout), the block's rows
// (128, KP + TS_PAD) later the warps' staging tiles (8 x (32, TSW_SO): the forward's gated
// tile or the backward's dS tile; the backward's (16, TSW_GO) [d tp | d tg] after it),
// full[ST], empty[ST].
template <int KP, bool BWD>
struct tsw_layout {
    static constexpr int CONS = 256, ROWS = 128, THREADS = CONS + 32, ST = 4, depth = KP;
    static constexpr int WST = 32 * TSW_SO + (BWD ? 16 * TSW_GO : 0);  // a warp's staging (bf16)
    static constexpr size_t tile = (size_t)64 * KP * 2;
    static constexpr size_t X = ST * tile;
    static constexpr size_t rows = (size_t)ROWS * (KP + TS_PAD) * 2, stage = (size_t)8 * WST * 2;
    static constexpr size_t bar = X + (rows > stage ? rows : stage);
    static constexpr size_t bytes = bar + 2 * ST * 8;
    static_assert(tile % 128 == 0 && X % 16 == 0 && bar % 16 == 0, "alignment");
};

#if S9_HAVE_WGMMA
// The block's zl rows into xs (zeros past M and c_z), then the warp's 16 positions as
// wgmma A fragments (af) and their mask values (m: 0 past M).
template <int KP>
__device__ __forceinline__ void tsw_rows(const ts_args &a, bf16 *xs, int64_t pos0, uint32_t (&af)[KP / 16][4],
                                         float (&m)[2]) {
    constexpr int sk = KP + TS_PAD;
    ts_load_rows_u<KP, 128, 256>(xs, a.zl, a.c_z, a.M, pos0);
    fa_commit();
    fa_wait<0>();
    tw_cons_sync<256>();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const bf16 *ap = xs + (16 * warp + (lane & 15)) * sk + (lane >> 4) * 8;
#pragma unroll
    for (int kk = 0; kk < KP / 16; kk++) ts_ldsm4(af[kk], ap + 16 * kk);
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t p = pos0 + 16 * warp + (lane >> 2) + 8 * u;
        m[u] = p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
    }
    tw_cons_sync<256>();  // every warp's fragments read before the rows become staging tiles
}

// Tile j's gated 32 channels of the warp's 16 positions (first rw0) from acc (m64n64: for
// q, columns 16 q + 2 t + e are tp and 16 q + 8 + 2 t + e tg of channel 8 q + 2 t + e; rows
// g, g + 8) via st (32, TSW_SO) into out rows cbase.., 16-byte runs where a.vec.
__device__ __forceinline__ void tsw_epilogue(const float (&acc)[32], const float (&m)[2], const ts_args &a, int j,
                                             bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const float *bias = a.bias ? a.bias + (int64_t)j * 64 : NULL;
    const float hm[2] = {0.5f * m[0], 0.5f * m[1]};  // mask / 2 at rows g, g + 8
#pragma unroll
    for (int q = 0; q < 4; q++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
            const int col = 16 * q + 2 * t + e, ch = 8 * q + 2 * t + e;
            float bp = bias ? __ldg(bias + col) : 0.f, hbg = bias ? 0.5f * __ldg(bias + col + 8) : 0.f;
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                float th = ts_tanh(fmaf(0.5f, acc[8 * q + 4 + 2 * hh + e], hbg));  // tanh((tg + b_g) / 2)
                float v = fmaf(hm[hh], th, hm[hh]) * (acc[8 * q + 2 * hh + e] + bp);
                st[ch * TSW_SO + g + 8 * hh] = __float2bfloat16(v);
            }
        }
    __syncwarp();
    bf16 *out = j < a.nct ? a.out[0] : a.out[1];
    const int cbase = (j % a.nct) * 32;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 32 channels x 2 runs of 8 positions
        const int i = lane + 32 * it, ch = i >> 1, h8 = 8 * (i & 1);
        const int64_t p = rw0 + h8;
        if (cbase + ch >= a.C || p >= a.M) continue;
        const bf16 *s = st + ch * TSW_SO + h8;
        bf16 *d = out + (int64_t)(cbase + ch) * a.M + p;
        if (a.vec) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && p + e < a.M; e++) d[e] = s[e];
    }
    __syncwarp();  // st read before the next tile's writes
}

// ---- PF_TRIMUL_SIDES=4: the side gradient (k_tm_side_grad2's job) on the same kernel ----
// One side's [tp | tg] recomputed per 32-channel tile, then d tp = dS m s, d tg = dS m tp
// s (1 - s) (s = sigmoid(tg), tb_epilogue_p's expressions per element) row-major into
// tpg (M, 2C). The warp's dS tile (32 channels x its 16 positions, channel-major) comes by
// cp.async into its staging tile while the tile's product runs (issued after the last
// tile's epilogue), [d tp | d tg] leaves through a second staging tile as 16-byte runs of
// channels.

// dS of tile j (channels 32 j.., the warp's 16 positions from rw0) into ds (32, TSW_SO);
// zeros past C and M. 16-byte cp.async where a.vec (committed; waited for in the
// epilogue), else plain loads.
__device__ __forceinline__ void tsw_fetch_ds(bf16 *ds, const ts_args &a, int j, int64_t rw0) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 32 channels x 2 runs of 8 positions
        const int i = lane + 32 * it, ch = 32 * j + (i >> 1), h8 = 8 * (i & 1);
        const int64_t p = rw0 + h8;
        const int in = ch < a.C;
        bf16 *d = ds + (i >> 1) * TSW_SO + h8;
        const bf16 *src = a.dS + (int64_t)(in ? ch : 0) * a.M + p;
        if (a.vec) {
            const int ok = in && p < a.M;
            fa_cp16z(d, ok ? src : a.dS, ok ? 16 : 0);
        } else {
            for (int e = 0; e < 8; e++) d[e] = in && p + e < a.M ? src[e] : __float2bfloat16(0.f);
        }
    }
    fa_commit();
}

// [d tp | d tg] of tile j (the warp's 16 positions x 32 channels) into a.tpg via the
// staging tile after the dS tile (16, TSW_GO); then tile j + 1's dS fetched.
__device__ __forceinline__ void tsw_bwd_epilogue(const float (&acc)[32], const float (&m)[2], const ts_args &a,
                                                 int j, bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const float *bias = a.bias ? a.bias + (int64_t)j * 64 : NULL;
    bf16 *go = st + 32 * TSW_SO;
    fa_wait<0>();
    __syncwarp();  // the warp's dS copies landed
#pragma unroll
    for (int q = 0; q < 4; q++) {
        float bp[2], hbg[2];
#pragma unroll
        for (int e = 0; e < 2; e++) {
            const int col = 16 * q + 2 * t + e;
            bp[e] = bias ? __ldg(bias + col) : 0.f;
            hbg[e] = bias ? 0.5f * __ldg(bias + col + 8) : 0.f;
        }
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            float dp[2], dg[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int ch = 8 * q + 2 * t + e;
                float tp = acc[8 * q + 2 * hh + e] + bp[e];
                float s = fmaf(0.5f, ts_tanh(fmaf(0.5f, acc[8 * q + 4 + 2 * hh + e], hbg[e])), 0.5f);
                float d = __bfloat162float(st[ch * TSW_SO + g + 8 * hh]) * m[hh];
                dp[e] = d * s;
                dg[e] = d * tp * s * (1.f - s);
            }
            bf16 *o = go + (g + 8 * hh) * TSW_GO + 8 * q + 2 * t;
            *reinterpret_cast<__nv_bfloat162 *>(o) = __floats2bfloat162_rn(dp[0], dp[1]);
            *reinterpret_cast<__nv_bfloat162 *>(o + 32) = __floats2bfloat162_rn(dg[0], dg[1]);
        }
    }
    __syncwarp();  // go written; every read of the dS tile done
#pragma unroll
    for (int it = 0; it < 4; it++) {  // 16 rows x [4 runs of d tp | 4 of d tg]
        const int i = lane + 32 * it, row = i >> 3, seg = (i >> 2) & 1, c8 = 8 * (i & 3), ch = 32 * j + c8;
        const int64_t p = rw0 + row;
        if (p >= a.M || ch >= a.C) continue;
        const bf16 *s = go + row * TSW_GO + 32 * seg + c8;
        bf16 *d = a.tpg + p * 2 * a.C + seg * a.C + ch;
        if (a.vec_out) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && ch + e < a.C; e++) d[e] = s[e];
    }
    __syncwarp();  // go read before the next tile's writes
    if (j + 1 < a.tiles) tsw_fetch_ds(st, a, j + 1, rw0);
}

template <int KP, bool BWD>
__device__ __forceinline__ void tsw_consumer(const ts_args &a, unsigned char *sm, int64_t pos0) {
    typedef tsw_layout<KP, BWD> L;
    uint32_t af[KP / 16][4];
    float m[2];
    tsw_rows<KP>(a, (bf16 *)(sm + L::X), pos0, af, m);
    const int warp = threadIdx.x >> 5;
    const int64_t rw0 = pos0 + 16 * warp;
    bf16 *st = (bf16 *)(sm + L::X) + warp * L::WST;
    if (BWD) tsw_fetch_ds(st, a, 0, rw0);
    for (int j = 0; j < a.tiles; j++) {
        float acc[32];
        tw_ring_product<L, KP>(acc, af, sm, j);
        if (BWD) tsw_bwd_epilogue(acc, m, a, j, st, rw0);
        else tsw_epilogue(acc, m, a, j, st, rw0);
    }
}
#endif

// Launched on sm_90 only (ts_wg_applies); compiled for sm_80 it traps.
// BWD: the side gradient (PF_TRIMUL_SIDES=4), else the forward sides.
template <int KP, bool BWD>
__global__ void __launch_bounds__(288, 2) k_tm_sides_wg(ts_args a) {
#if S9_HAVE_WGMMA
    typedef tsw_layout<KP, BWD> L;
    extern __shared__ __align__(128) unsigned char tsw_sm[];
    tw_ring_init<L>(tsw_sm);
    if (threadIdx.x >= L::CONS) tw_producer<L>(a.w, a.tiles, tsw_sm);
    else tsw_consumer<KP, BWD>(a, tsw_sm, (int64_t)blockIdx.x * L::ROWS);
#else
    __trap();
#endif
}

int ts_wg_applies(int KP) {
    return tw_ring_applies(KP);
}

int ts_wg_smem_bytes(int KP, int bwd) {
    int bytes = 0;
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) bytes = (int)(bwd ? tsw_layout<K, true>::bytes : tsw_layout<K, false>::bytes);
    });
    return bytes;
}

static int64_t g_tsw_runs = 0, g_tsw_bwd_runs = 0;  // launches so far (tests): forward sides, side gradient
extern "C" int64_t pf_cuda_trimul_sides_wg_runs(pf_backend *be, int bwd) {
    (void)be;
    return bwd ? g_tsw_bwd_runs : g_tsw_runs;
}

extern "C" int pf_cuda_trimul_sides_wg_applies(pf_backend *be, int c_z) {
    (void)be;
    return c_z >= 8 && c_z % 8 == 0 && ts_wg_applies(ts_depth(c_z));
}

template <int K, bool BWD>
static void tsw_launch(cu_impl *c, const ts_args *a) {
    typedef tsw_layout<K, BWD> L;
    CU_CHECK(cudaFuncSetAttribute(k_tm_sides_wg<K, BWD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_tm_sides_wg<K, BWD><<<(unsigned)((a->M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    if (BWD) g_tsw_bwd_runs++;
    else g_tsw_runs++;
}

void ts_wg_launch(cu_impl *c, const ts_args *a, int KP, int bwd) {
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) {
            if (bwd) tsw_launch<K, true>(c, a);
            else tsw_launch<K, false>(c, a);
        } else {
            pf_die("k_tm_sides_wg: depth %d (ts_wg_applies: 16..128)", KP);
        }
    });
}
