// cu_trimul_side_wgpb.cu: the triangle multiplication's side gradient, weight-stationary and
// persistent on Hopper warpgroup MMA (PF_TRIMUL_SGWGP=1 under PF_TRIMUL_SIDES 4 and 5; default
// off until measured; sm_90a only). The job and the bits of k_tm_sides_wg<KP, true>
// (cu_trimul_side_wg.cu, form 4): from zl, the mask and dS (C, M) channel-major, one side's
// [tp | tg] recomputed per 32-channel tile, then
//   d tp = dS m s,  d tg = dS m tp s (1 - s)   (s = sigmoid(tg + b_g))
// written row-major into tpg (M, 2C). Why: form 4's blocks (128 positions each) stream the
// packed weight (64 KiB at c_z = C = 128) from L2 through a ring and pay a prologue nothing
// overlaps (0.41 ms per side at N = 1024); k_tm_sides_wgp (cu_trimul_side_wgp.cu) took the same
// step for the forward sides. Structure as k_tm_sides_wgp's:
// - one wave of persistent blocks, up to 4 consumer warpgroups each, the whole packed weight
//   (ts_pack_weights form 2, trwg_off layout) in shared memory once per block (bulk copies
//   on one mbarrier);
// - a warpgroup loops over its 64-position tiles: zl rows by cp.async into its buffer, the
//   A fragments into registers by ldmatrix; column tile j + 1's product issued before tile
//   j's epilogue (two accumulators, the finished one copied out first: C7514);
// - each warp's dS tile (32 channels x its 16 positions) in two staging buffers taking turns:
//   column tile j + 1's is requested before tile j's epilogue; at the last column tile the
//   NEXT position tile's first dS tile instead, landing under the last epilogue;
// - the NEXT position tile's zl rows are requested as soon as every warp has its fragments
//   (the tile's start), by bulk copies on the warpgroup's own mbarrier where rows are whole
//   (c_z = KP: tswb_bulk_rows), so that they land under the tile's four column tiles. Why not
//   cp.async: its groups complete in commit order, so rows requested that early would hold up
//   every dS wait behind them (session 43's stall profile: 8.3% of the kernel's samples waited
//   on rows requested at the last column tile). Else (odd c_z) as cp.async at the last column
//   tile, one group with the first dS tile.
// Per tile the same wgmma sequence (descriptors, k order) as tw_ring_product and the same
// epilogue expressions as tsw_dgrad / tsw_store_dgrad: tpg is form 4's bits (test_cuda --only
// trimul_sgwgp checks dz and every parameter gradient against the switch off). Those device
// pieces (tsw_fetch_ds, tsw_dgrad, tsw_store_dgrad; tswp_load_rows, tswp_issue) are the other
// forms' own, from cu_trimul_side_wg.cuh.
#include "cu_trimul_side.cuh"
#include "cu_trimul_side_wg.cuh"
#include "cu_wg_ring.cuh"
#include "cuda_backend.h"

#define TSWB_MAXWG 4  // consumer warpgroups per block at most (__launch_bounds__ 512: 128 registers)
#define TSWB_WST (2 * 32 * TSW_SO + 16 * TSW_GO)  // a warp's staging (bf16): two dS tiles, then go

// Shared memory: the weight (tiles x (64, KP), trwg_off layout), then per warpgroup its rows
// (64, KP + TS_PAD) and its 4 warps' staging (TSWB_WST each), then the weight's mbarrier and
// one per warpgroup for its rows.
struct tswb_layout {
    int64_t wbytes, per_wg, bar, bytes;
};
static inline tswb_layout tswb_layout_of(int KP, int tiles, int nwg) {
    tswb_layout l;
    l.wbytes = (int64_t)tiles * 64 * KP * 2;
    l.per_wg = (int64_t)64 * (KP + TS_PAD) * 2 + 4 * TSWB_WST * 2;
    l.bar = l.wbytes + nwg * l.per_wg;
    l.bytes = l.bar + 8 * (1 + nwg);
    return l;
}

#if S9_HAVE_WGMMA

// Where a warp is: its staging (two dS tiles, then go), the warpgroup's rows buffer, its first
// position, the running count of column tiles it has taken (its dS buffer: n & 1), the
// warpgroup's next position tile (-1: none), and whether rows come by bulk copies.
struct tswb_warp {
    bf16 *st, *xs;
    int rw0, next, n, bulk;  // positions below 2^31 (ts_side_grad_wgp): 32-bit, registers are short (128)
};

// Rows come whole by bulk copies where a row is the packed depth (no zero channels to fill) and
// zl is 16-byte aligned (both true of every model: c_z 128 or 64).
template <int KP>
__device__ __forceinline__ int tswb_bulk_rows(const ts_args &a) {
    return a.c_z == KP && ((uintptr_t)a.zl & 15) == 0;
}

// The warpgroup's 64 rows from pos0 into xs (64, KP + TS_PAD), one bulk copy per row counted on
// bar; rows past M zeroed by plain stores (ordered before their reads by the barrier after the
// wait). tid: the thread in the warpgroup. Its xs reads (ldmatrix) were done before a warpgroup
// barrier; the proxy fence orders them before the copy engine's writes.
template <int KP>
__device__ __forceinline__ void tswb_request_rows(bf16 *xs, const ts_args &a, int64_t pos0, uint64_t *bar, int tid) {
    const int64_t left = a.M - pos0;
    const int rows = left < 64 ? (int)left : 64;
    wg_fence_proxy_async();
    if (tid == 0) tw_expect(bar, (uint32_t)rows * KP * 2);
    if (tid < rows) {
        tw_bulk_g2s(xs + tid * (KP + TS_PAD), a.zl + (pos0 + tid) * KP, KP * 2, bar);
    } else if (tid < 64) {
#pragma unroll
        for (int k = 0; k < KP / 8; k++) *reinterpret_cast<uint4 *>(xs + tid * (KP + TS_PAD) + 8 * k) = make_uint4(0, 0, 0, 0);
    }
}

// Column tile j + 1's dS tile, or after the last column tile the next position tile's rows (where
// not by bulk copies) and its first dS tile, requested into the other buffer as one cp.async group (possibly empty:
// the wait below counts groups), then this tile's dS waited for (every older group).
template <int KP>
__device__ __forceinline__ void tswb_prefetch(const ts_args &a, const tswb_warp &w, int j) {
    bf16 *dsn = w.st + ((w.n + 1) & 1) * 32 * TSW_SO;
    if (j + 1 < a.tiles) {
        tsw_fetch_ds(dsn, a, a.dS, j + 1, w.rw0);
    } else if (w.next >= 0) {  // every warp's fragments were read from xs (tswb_consumer)
        if (!w.bulk) tswp_load_rows<KP>(w.xs, a.zl, a.c_z, a.M, (int64_t)w.next * 64, threadIdx.x & 127);
        tsw_fetch_ds(dsn, a, a.dS, 0, (int64_t)w.next * 64 + (w.rw0 & 63));
    }
    fa_commit();
    fa_wait<1>();
    __syncwarp();  // the warp's dS copies (or plain stores) of this tile landed
}

// Every column tile of the warpgroup's 64 positions, its dS tile and the next loads requested
// before the epilogue. PIPE (PF_TRIMUL_SGWGP=1): tile j + 1's product in flight while tile j's
// epilogue runs (tswp_tiles' accumulator hand-over: accn is the MMA's, accc the epilogue's;
// ptxas spills 56 bytes at KP 128); else (=2) each product waited for before its epilogue
// (no spills; the block's other warpgroups fill the tensor cores meanwhile).
template <int KP, bool PIPE, bool BIAS>
__device__ __forceinline__ void tswb_tiles(const uint32_t (&af)[KP / 16][4], const float (&m)[2], const ts_args &a,
                                           const unsigned char *w, tswb_warp &wp) {
    float accn[32], accc[32];
    bf16 *go = wp.st + 2 * 32 * TSW_SO;
    if (PIPE) tswp_issue<KP>(accn, af, w, 0);
    for (int j = 0; j < a.tiles; j++, wp.n++) {
        if (!PIPE) tswp_issue<KP>(accn, af, w, j);
        wg_mma_wait<0>();
        s9_wg_hold<32>(accn);
#pragma unroll
        for (int i = 0; i < 32; i++) accc[i] = accn[i];  // !PIPE: a rename
        if (PIPE) {
            s9_wg_hold<32>(accc);
            if (j + 1 < a.tiles) tswp_issue<KP>(accn, af, w, j + 1);
        }
        tswb_prefetch<KP>(a, wp, j);
        uint32_t fd[4][4];  // unused here (k_tm_sg2's A fragments)
        tsw_dgrad<BIAS>(accc, m, a.bias ? a.bias + (int64_t)j * 64 : NULL, wp.st + (wp.n & 1) * 32 * TSW_SO, go, fd);
        __syncwarp();  // go written; every read of the dS tile done (its buffer is refilled next)
        tsw_store_dgrad(a, go, a.tpg, a.tpg + a.C, a.ld_tpg, 32 * j, wp.rw0);
        __syncwarp();  // go read before the next tile's writes
    }
    wg_mma_wait<0>();  // nothing in flight here; tells ptxas so before af is loaded again
}

// A warpgroup's loop over its 64-position tiles t = t0, t0 + stride, .. of T (rows and first
// dS tile of its first tile already requested, into dS buffer 0; rows on rbar where bulk:
// tswb_bulk_rows, decided once by the kernel).
template <int KP, bool PIPE>
__device__ __forceinline__ void tswb_consumer(const ts_args &a, const unsigned char *w, bf16 *xs, bf16 *st,
                                              uint64_t *rbar, int bulk, int64_t t0, int64_t stride, int64_t T) {
    constexpr int sk = KP + TS_PAD;
    const int wg = threadIdx.x >> 7, warp = (threadIdx.x >> 5) & 3, lane = threadIdx.x & 31;
    tswb_warp wp;
    wp.st = st, wp.xs = xs, wp.n = 0, wp.bulk = bulk;
    for (int64_t t = t0, phase = 0; t < T; t += stride, phase ^= 1) {  // phase: rbar's parity
        uint32_t af[KP / 16][4];
        float m[2];
        wp.rw0 = (int)(t * 64 + 16 * warp), wp.next = t + stride < T ? (int)(t + stride) : -1;
        if (wp.bulk) wg_bar_wait(rbar, (uint32_t)phase);  // the rows (the first dS tile: tswb_prefetch's wait)
        else fa_wait<0>();
        tswp_wg_sync(wg);  // every thread's rows landed (and the zeroed ones stored)
        const bf16 *ap = xs + (16 * warp + (lane & 15)) * sk + (lane >> 4) * 8;
#pragma unroll
        for (int kk = 0; kk < KP / 16; kk++) ts_ldsm4(af[kk], ap + 16 * kk);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            int64_t p = wp.rw0 + (lane >> 2) + 8 * u;
            m[u] = p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
        }
        tswp_wg_sync(wg);  // every warp's fragments read before the next rows overwrite xs
        if (wp.bulk && wp.next >= 0) tswb_request_rows<KP>(xs, a, (int64_t)wp.next * 64, rbar, threadIdx.x & 127);
        if (a.bias) tswb_tiles<KP, PIPE, true>(af, m, a, w, wp);
        else tswb_tiles<KP, PIPE, false>(af, m, a, w, wp);  // AF3: no bias loads and adds per element
    }
}
#endif

// Launched on sm_90 only (ts_wg_applies); compiled for sm_80 it traps. blockDim: 128 NWG;
// shared memory tswb_layout_of(KP, a.tiles, NWG). a: one side (tiles = nct), a.dS, a.tpg.
template <int KP, bool PIPE>
__global__ void __launch_bounds__(128 * TSWB_MAXWG, 1) k_tm_sgrad_wgp(ts_args a) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char tswb_sm[];
    const int nwg = blockDim.x >> 7, wg = threadIdx.x >> 7, warp = (threadIdx.x >> 5) & 3;
    const int64_t wbytes = (int64_t)a.tiles * 64 * KP * 2;
    const int64_t per_wg = (int64_t)64 * (KP + TS_PAD) * 2 + 4 * TSWB_WST * 2;
    uint64_t *wbar = (uint64_t *)(tswb_sm + wbytes + nwg * per_wg), *rbar = wbar + 1 + wg;
    if (threadIdx.x == 0) {
        for (int i = 0; i <= nwg; i++) wg_bar_init(wbar + i, 1);  // the weight's, then each warpgroup's rows'
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // the whole weight, one bulk copy per column tile
        const uint32_t tile = 64 * KP * 2;
        tw_expect(wbar, (uint32_t)wbytes);
        for (int j = 0; j < a.tiles; j++)
            tw_bulk_g2s(tswb_sm + (int64_t)j * tile, (const unsigned char *)a.w + (int64_t)j * tile, tile, wbar);
    }
    unsigned char *mine = tswb_sm + wbytes + wg * per_wg;
    bf16 *xs = (bf16 *)mine, *st = (bf16 *)(mine + (int64_t)64 * (KP + TS_PAD) * 2) + warp * TSWB_WST;
    const int64_t T = (a.M + 63) / 64, t0 = (int64_t)blockIdx.x * nwg + wg, stride = (int64_t)gridDim.x * nwg;
    const int bulk = tswb_bulk_rows<KP>(a);
    if (t0 < T) {
        if (bulk) tswb_request_rows<KP>(xs, a, t0 * 64, rbar, threadIdx.x & 127);
        else tswp_load_rows<KP>(xs, a.zl, a.c_z, a.M, t0 * 64, threadIdx.x & 127);
        tsw_fetch_ds(st, a, a.dS, 0, t0 * 64 + 16 * warp);
    }
    fa_commit();
    wg_bar_wait(wbar, 0);  // every thread: the weight landed (and no block exits before its copies end)
    __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
    tswb_consumer<KP, PIPE>(a, tswb_sm, xs, st, rbar, bulk, t0, stride, T);
#else
    __trap();
#endif
}

// Warpgroups per block: as many (up to TSWB_MAXWG) as fit next to the weight; 0: the weight
// does not fit (form 4's kernel then).
static int tswb_nwg(int KP, int tiles, int optin) {
    for (int nwg = TSWB_MAXWG; nwg >= 1; nwg--)
        if (tswb_layout_of(KP, tiles, nwg).bytes <= optin) return nwg;
    return 0;
}

// PF_TRIMUL_SGWGP: 0 off, 1 on with the next product under the epilogue, 2 or unset on with
// each product then its epilogue (the same bits; the default since session 18: 6.65 -> 6.51 ms
// trimul f+b at N = 1024, 1 was slower, 6.88); process-wide, read at the first side
// gradient, -1 until then; pf_cuda_set_trimul_sgwgp (tests).
static int g_tswb_on = -1;
static int tswb_form(void) {
    if (g_tswb_on < 0) {
        const char *e = getenv("PF_TRIMUL_SGWGP");
        if (!e || !*e || !strcmp(e, "2")) g_tswb_on = 2;
        else if (!strcmp(e, "0")) g_tswb_on = 0;
        else if (!strcmp(e, "1")) g_tswb_on = 1;
        else
            pf_die("PF_TRIMUL_SGWGP=%s: expected 0 (the side gradient by k_tm_sides_wg<KP, true>), "
                   "1 (weight-stationary persistent k_tm_sgrad_wgp, the next product under the epilogue; the same "
                   "bits) or 2 (k_tm_sgrad_wgp, each product then its epilogue; the same bits: the default)",
                   e);
    }
    return g_tswb_on;
}
static int64_t g_tswb_runs = 0;  // k_tm_sgrad_wgp launches so far (tests)
extern "C" void pf_cuda_set_trimul_sgwgp(pf_backend *be, int on) {
    (void)be;
    g_tswb_on = on >= 0 && on <= 2 ? on : -1;  // else: PF_TRIMUL_SGWGP / the default again
}
extern "C" int64_t pf_cuda_trimul_sgwgp_runs(pf_backend *be) {
    (void)be;
    return g_tswb_runs;
}

// One wave of persistent blocks, at most one per NWG position tiles and at most `grid`
// where grid > 0 (tests: each warpgroup loops over several tiles).
template <int K, bool PIPE>
static void tswb_launch(cu_impl *c, const ts_args *a, int nwg, int grid) {
    const int bytes = (int)tswb_layout_of(K, a->tiles, nwg).bytes, threads = 128 * nwg;
    int64_t T = (a->M + 63) / 64, need = (T + nwg - 1) / nwg;
    unsigned blocks = ts_wave_blocks(c, k_tm_sgrad_wgp<K, PIPE>, threads, bytes, need, grid);
    k_tm_sgrad_wgp<K, PIPE><<<blocks, threads, bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    g_tswb_runs++;
}

int ts_side_grad_wgp(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                     const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg, int tiled_col0) {
    int KP = ts_depth(c_z), grid, dev = 0, optin = 0;
    if (!tswb_form() || M > ((int64_t)1 << 31) - 128 || ts_sides_form(&grid) < 4 || !ts_wg_applies(KP)) return 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    const int tiles = (C + 31) / 32, nwg = tswb_nwg(KP, tiles, optin);
    if (!nwg || !ts_applies(c, M, c_z, C, zl, (int)tswb_layout_of(KP, tiles, nwg).bytes)) return 0;
    size_t mark = cu_pool_mark(c);
    ts_args a;
    ts_side_grad_args(c, M, c_z, C, KP, lp, lg, zl, mask, dS, tpg, ld_tpg, &a);
    a.tiled = tiled_col0 >= 0, a.tiled_col0 = tiled_col0;
    if (a.tiled && (M % 64 || 4 * C != 512 || !a.vec_out))
        pf_die("k_tm_sgrad_wgp: G in tile order needs M a multiple of 64 and 4 C = 512 (M %lld, C %d)", (long long)M, C);
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) {
            if (g_tswb_on == 1) tswb_launch<K, true>(c, &a, nwg, grid);
            else tswb_launch<K, false>(c, &a, nwg, grid);
        } else {
            pf_die("k_tm_sgrad_wgp: depth %d (ts_wg_applies: 16..128)", KP);
        }
    });
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}
