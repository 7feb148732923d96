// cu_trimul_side_wgp.cu: the triangle multiplication's gated sides, weight-stationary and
// persistent on Hopper warpgroup MMA (PF_TRIMUL_SIDES=5 or unset: the default since session 17; sm_90a
// only). The job and the bits of k_tm_sides_wg (cu_trimul_side_wg.cu, form 4):
// A (C, M) = mask * sigmoid(zl W_ag^T + b_ag) * (zl W_ap^T + b_ap), B likewise, channel-major.
// Why: k_tm_sides_wg's blocks (128 positions each) stream the whole packed weight (128 KiB at
// c_z 128, C 128) from L2 through a 4-stage ring, 8192 blocks x 128 KiB = 1 GiB of L2 reads per
// call at N = 1024, and each block pays a prologue (rows, fragments) that nothing overlaps.
// Here:
// - grid: one wave of persistent blocks (one per SM at c_z 128); block = NWG consumer
//   warpgroups (up to 4; no producer warp, no block-wide barrier after the start);
// - the packed weight (ts_pack_weights form 2, trwg_off's core-matrix layout, all tiles) by
//   bulk copies into shared memory ONCE per block, on one mbarrier;
// - each warpgroup owns its 64-position tiles (grid-stride over the warpgroups of the grid):
//   its zl rows (64, KP + TS_PAD) by cp.async, the A fragments by ldmatrix into registers,
//   then the NEXT tile's rows are requested into the same buffer (the fragments hold this
//   tile's), so the load runs under this tile's products and epilogues;
// - per 32-channel column tile j: wgmma m64n64k16 x KP / 16 (the same instruction sequence,
//   descriptors and k order as k_tm_sides_wg's tw_ring_product: the same fp32 sums), with
//   tile j + 1's product issued before tile j's epilogue (two accumulators) so that the
//   tensor cores run under the gate; the epilogue is form 4's tsw_epilogue itself
//   (cu_trimul_side_wg.cuh: the same expressions, the same bits).
// A, B bit-identical to form 4's (test_cuda --only trimul_wgp checks it); the backward's
// side gradient stays k_tm_sides_wg<KP, true> (form 4's), its recompute of A, B takes this.
// PF_TRIMUL_LNIN=1 (cu_tm_sides_ln): k_tm_sides_wgp<KP, true> loads z rows in zl's place and
// LayerNorms each tile's rows in its warpgroup's buffer with form 4's LN variant's device
// functions (cu_trimul_lnin.cuh), writing zl (and the saved z) out: the same bits again.
#include "cu_trimul_side.cuh"
#include "cu_trimul_side_wg.cuh"
#include "cu_trimul_lnin.cuh"
#include "cu_wg_ring.cuh"
#include "cuda_backend.h"

#define TSWP_MAXWG 4  // consumer warpgroups per block at most (__launch_bounds__ 512: 128 registers)

// Shared memory: the weight (tiles x (64, KP), trwg_off layout), then per warpgroup its rows
// (64, KP + TS_PAD) and its 4 warps' staging tiles (32, TSW_SO), then the weight's mbarrier.
struct tswp_layout {
    int64_t wbytes, per_wg, bar, bytes;
};
static inline tswp_layout tswp_layout_of(int KP, int tiles, int nwg) {
    tswp_layout l;
    l.wbytes = (int64_t)tiles * 64 * KP * 2;
    l.per_wg = (int64_t)64 * (KP + TS_PAD) * 2 + 4 * 32 * TSW_SO * 2;
    l.bar = l.wbytes + nwg * l.per_wg;
    l.bytes = l.bar + 16;
    return l;
}

#if S9_HAVE_WGMMA

// Every column tile of the warpgroup's 64 positions: tile j + 1's product in flight while
// tile j's epilogue runs. Tile j's accumulator is copied out of the MMA's registers (accn)
// into accc before j + 1 is issued into accn: with two accumulators taking turns as the
// MMA's (acc0 / acc1) ptxas serialized every wgmma (C7514; docs/ATTENTION_SM90.md saw the same).
template <int KP, bool BIAS>
__device__ __forceinline__ void tswp_tiles(const uint32_t (&af)[KP / 16][4], const float (&m)[2], const ts_args &a,
                                           const unsigned char *w, bf16 *st, int64_t rw0) {
    float accn[32], accc[32];
    tswp_issue<KP>(accn, af, w, 0);
    for (int j = 0; j < a.tiles; j++) {
        wg_mma_wait<0>();
        s9_wg_hold<32>(accn);
#pragma unroll
        for (int i = 0; i < 32; i++) accc[i] = accn[i];
        s9_wg_hold<32>(accc);
        if (j + 1 < a.tiles) tswp_issue<KP>(accn, af, w, j + 1);
        tsw_epilogue<BIAS>(accc, m, a, j, st, rw0);
    }
    wg_mma_wait<0>();  // nothing in flight here; tells ptxas so before af is loaded again
}

// A warpgroup's loop over its 64-position tiles t = t0, t0 + stride, .. of T (rows of its
// first tile already requested into xs). LN (PF_TRIMUL_LNIN): the rows are z's, LayerNormed
// in xs (zl and the saved z written out) before the fragments are read; the next tile's z
// rows are requested after that, as zl's are without LN.
template <int KP, bool LN>
__device__ __forceinline__ void tswp_consumer(const ts_args &a, const unsigned char *w, bf16 *xs, bf16 *st,
                                              int64_t t0, int64_t stride, int64_t T) {
    constexpr int sk = KP + TS_PAD;
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, warp = tid >> 5, lane = threadIdx.x & 31;
    for (int64_t t = t0; t < T; t += stride) {
        const int64_t pos0 = t * 64, rw0 = pos0 + 16 * warp;
        uint32_t af[KP / 16][4];
        float m[2];
        fa_wait<0>();
        tswp_wg_sync(wg);  // every thread's rows landed
        if constexpr (LN) {
            tsw_ln_rows<KP, 64, 4>(a, xs, pos0, warp);
            tswp_wg_sync(wg);  // every row normalised before the fragments are read
        }
        const bf16 *ap = xs + (16 * warp + (lane & 15)) * sk + (lane >> 4) * 8;
#pragma unroll
        for (int kk = 0; kk < KP / 16; kk++) ts_ldsm4(af[kk], ap + 16 * kk);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            int64_t p = rw0 + (lane >> 2) + 8 * u;
            m[u] = p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
        }
        tswp_wg_sync(wg);  // every warp's fragments read before the next rows overwrite xs
        if (t + stride < T) {
            tswp_load_rows<KP>(xs, a.zl, a.c_z, a.M, (t + stride) * 64, tid);
            fa_commit();
        }
        if (a.bias) tswp_tiles<KP, true>(af, m, a, w, st, rw0);
        else tswp_tiles<KP, false>(af, m, a, w, st, rw0);  // AF3: no bias loads and adds per element
    }
}
#endif

// Launched on sm_90 only (ts_wg_applies); compiled for sm_80 it traps. blockDim: 128 NWG;
// shared memory tswp_layout_of(KP, a.tiles, NWG). LN (PF_TRIMUL_LNIN): a.zl holds z,
// LayerNormed per tile (tswp_consumer; zl written out).
template <int KP, bool LN = false>
__global__ void __launch_bounds__(128 * TSWP_MAXWG, 1) k_tm_sides_wgp(ts_args a) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char tswp_sm[];
    const int nwg = blockDim.x >> 7, wg = threadIdx.x >> 7;
    const int64_t wbytes = (int64_t)a.tiles * 64 * KP * 2;
    const int64_t per_wg = (int64_t)64 * (KP + TS_PAD) * 2 + 4 * 32 * TSW_SO * 2;
    uint64_t *wbar = (uint64_t *)(tswp_sm + wbytes + nwg * per_wg);
    if (threadIdx.x == 0) {
        wg_bar_init(wbar, 1);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // the whole weight, one bulk copy per column tile
        const uint32_t tile = 64 * KP * 2;
        tw_expect(wbar, (uint32_t)wbytes);
        for (int j = 0; j < a.tiles; j++)
            tw_bulk_g2s(tswp_sm + (int64_t)j * tile, (const unsigned char *)a.w + (int64_t)j * tile, tile, wbar);
    }
    unsigned char *mine = tswp_sm + wbytes + wg * per_wg;
    bf16 *xs = (bf16 *)mine, *st = (bf16 *)(mine + (int64_t)64 * (KP + TS_PAD) * 2) + ((threadIdx.x >> 5) & 3) * 32 * TSW_SO;
    const int64_t T = (a.M + 63) / 64, t0 = (int64_t)blockIdx.x * nwg + wg, stride = (int64_t)gridDim.x * nwg;
    if (t0 < T) {
        tswp_load_rows<KP>(xs, a.zl, a.c_z, a.M, t0 * 64, threadIdx.x & 127);
        fa_commit();
    }
    wg_bar_wait(wbar, 0);  // every thread: the weight landed (and no block exits before its copies end)
    __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
    tswp_consumer<KP, LN>(a, tswp_sm, xs, st, t0, stride, T);
#else
    __trap();
#endif
}

// Warpgroups per block: as many (up to TSWP_MAXWG) as fit next to the weight; 0: the weight
// does not fit (form 4 then).
static int tswp_nwg(int KP, int tiles, int optin) {
    for (int nwg = TSWP_MAXWG; nwg >= 1; nwg--)
        if (tswp_layout_of(KP, tiles, nwg).bytes <= optin) return nwg;
    return 0;
}

static int64_t g_tswp_runs = 0, g_tswp_ln_runs = 0;  // k_tm_sides_wgp launches so far (tests): all, LN
extern "C" int64_t pf_cuda_trimul_sides_wgp_runs(pf_backend *be) {
    (void)be;
    return g_tswp_runs;
}
extern "C" int64_t pf_cuda_trimul_sides_wgp_ln_runs(pf_backend *be) {
    (void)be;
    return g_tswp_ln_runs;
}

// One wave of persistent blocks, at most one per NWG position tiles and at most `grid`
// where grid > 0 (tests: each warpgroup loops over several tiles).
template <int K, bool LN>
static void tswp_launch(cu_impl *c, const ts_args *a, int nwg, int grid) {
    const int bytes = (int)tswp_layout_of(K, a->tiles, nwg).bytes, threads = 128 * nwg;
    int64_t T = (a->M + 63) / 64, need = (T + nwg - 1) / nwg;
    unsigned blocks = ts_wave_blocks(c, k_tm_sides_wgp<K, LN>, threads, bytes, need, grid);
    k_tm_sides_wgp<K, LN><<<blocks, threads, bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    g_tswp_runs++;
    if (LN) g_tswp_ln_runs++;
}

int ts_sides_wgp(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2], const void *zl,
                 const void *mask, void *A, void *B, const pf_layernorm_p *ln, void *zl_out, void *cp) {
    int KP = ts_depth(c_z), grid, dev = 0, optin = 0;
    (void)ts_sides_form(&grid);
    if (!ts_wg_applies(KP)) return 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    const int sides = lin[1][0] ? 2 : 1, tiles = sides * ((C + 31) / 32), nwg = tswp_nwg(KP, tiles, optin);
    if (!nwg || !ts_applies(c, M, c_z, C, zl, (int)tswp_layout_of(KP, tiles, nwg).bytes)) return 0;
    size_t mark = cu_pool_mark(c);
    ts_args a;
    memset(&a, 0, sizeof a);
    ts_pack_weights(c, c_z, C, 32, KP, sides, lin, 2, &a);
    a.zl = (const bf16 *)zl, a.mask = (const bf16 *)mask, a.M = M;
    if (ln) ts_args_ln(&a, ln, zl_out, cp, KP);
    a.out[0] = (bf16 *)A, a.out[1] = (bf16 *)(B ? B : A);
    a.vec = M % 8 == 0 && !((uintptr_t)A & 15) && !(B && ((uintptr_t)B & 15));
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) {
            if (ln) tswp_launch<K, true>(c, &a, nwg, grid);
            else tswp_launch<K, false>(c, &a, nwg, grid);
        } else {
            pf_die("k_tm_sides_wgp: depth %d (ts_wg_applies: 16..128)", KP);
        }
    });
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}
