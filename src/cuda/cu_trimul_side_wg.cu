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
// PF_TRIMUL_SG2=1 (cu_trimul.cu): k_tm_sg2, both sides' side gradients and their share of
// dzl (dzl += [d tp | d tg] [W_p; W_g], the weight tile read again N-major) in one kernel
// (docs/TRIMUL.md).
// PF_TRIMUL_LNIN=1 (cu_trimul.cu): k_tm_sides_wg<KP, false, true> loads z rows in zl's place and
// LayerNorms them in the prologue (tsw_ln_vec / tsw_ln_row, cu_trimul_lnin.cuh: the arithmetic of
// the LayerNorm kernel cu_ln_fwd would launch, so zl is its bits), writing zl (and the saved z) out.
#include "cu_trimul_side.cuh"
#include "cu_trimul_side_wg.cuh"
#include "cu_trimul_lnin.cuh"
#include "cu_wg_ring.cuh"
#include "cuda_backend.h"


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
// The block's zl rows into xs (zeros past M and c_z; LN: z's rows, LayerNormed there), then
// the warp's 16 positions as wgmma A fragments (af) and their mask values (m: 0 past M).
template <int KP, bool LN = false>
__device__ __forceinline__ void tsw_rows(const ts_args &a, bf16 *xs, int64_t pos0, uint32_t (&af)[KP / 16][4],
                                         float (&m)[2]) {
    constexpr int sk = KP + TS_PAD;
    ts_load_rows_u<KP, 128, 256>(xs, a.zl, a.c_z, a.M, pos0);
    fa_commit();
    fa_wait<0>();
    tw_cons_sync<256>();
    if constexpr (LN) {
        tsw_ln_rows<KP, 128, 8>(a, xs, pos0, threadIdx.x >> 5);
        tw_cons_sync<256>();  // every row normalised before the fragments are read
    }
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

// ---- PF_TRIMUL_SIDES=4: the side gradient (k_tm_side_grad2's job) on the same kernel ----
// One side's [tp | tg] recomputed per 32-channel tile, then d tp = dS m s, d tg = dS m tp
// s (1 - s) (s = sigmoid(tg), tb_epilogue_p's expressions per element) row-major into
// tpg (M, 2C). The warp's dS tile (32 channels x its 16 positions, channel-major) comes by
// cp.async into its staging tile while the tile's product runs (issued after the last
// tile's epilogue), [d tp | d tg] leaves through a second staging tile as 16-byte runs of
// channels.

// tsw_fetch_ds (cu_trimul_side_wg.cuh), committed: waited for in the epilogue.
__device__ __forceinline__ void tsw_fetch_ds_c(bf16 *ds, const ts_args &a, const bf16 *dS, int j, int64_t rw0) {
    tsw_fetch_ds(ds, a, dS, j, rw0);
    fa_commit();
}

// [d tp | d tg] of tile j (the warp's 16 positions x 32 channels) into a.tpg via the
// staging tile after the dS tile (16, TSW_GO); then tile j + 1's dS fetched.
__device__ __forceinline__ void tsw_bwd_epilogue(const float (&acc)[32], const float (&m)[2], const ts_args &a,
                                                 int j, bf16 *st, int64_t rw0) {
    bf16 *go = st + 32 * TSW_SO;
    uint32_t fd[4][4];  // unused here
    fa_wait<0>();
    __syncwarp();  // the warp's dS copies landed
    tsw_dgrad(acc, m, a.bias ? a.bias + (int64_t)j * 64 : NULL, st, go, fd);
    __syncwarp();  // go written; every read of the dS tile done
    tsw_store_dgrad(a, go, a.tpg, a.tpg + a.C, a.ld_tpg, 32 * j, rw0);
    __syncwarp();  // go read before the next tile's writes
    if (j + 1 < a.tiles) tsw_fetch_ds_c(st, a, a.dS, j + 1, rw0);
}

template <int KP, bool BWD, bool LN = false>
__device__ __forceinline__ void tsw_consumer(const ts_args &a, unsigned char *sm, int64_t pos0) {
    typedef tsw_layout<KP, BWD> L;
    uint32_t af[KP / 16][4];
    float m[2];
    tsw_rows<KP, LN>(a, (bf16 *)(sm + L::X), pos0, af, m);
    const int warp = threadIdx.x >> 5;
    const int64_t rw0 = pos0 + 16 * warp;
    bf16 *st = (bf16 *)(sm + L::X) + warp * L::WST;
    if (BWD) tsw_fetch_ds_c(st, a, a.dS, 0, rw0);
    for (int j = 0; j < a.tiles; j++) {
        float acc[32];
        tw_ring_product<L, KP>(acc, af, sm, j);
        if (BWD) tsw_bwd_epilogue(acc, m, a, j, st, rw0);
        else tsw_epilogue(acc, m, a, j, st, rw0);
    }
}

// ---- PF_TRIMUL_SG2: both sides' gradients and dzl in one kernel (k_tm_sg2) ----
// Tiles 0..nct-1 are side a's (dS from a.dS), nct.. side b's (a.dS2): per tile the side
// gradient above, then dzl's share dacc (the warp's 16 positions x KP, fp32, in
// registers across all tiles) += [d tp | d tg] (16 x 64 packed rows, the bf16 words just
// stored, as A fragments) times the same stage's weight tile (64 rows x KP) read N-major
// (imm-trans-b 1: the K-major core matrices of the recompute, [row / 8][k / 8][row % 8][k % 8],
// are N-major core matrices of this product: LBO 16 KP B next 8 rows (K), SBO 128 B next 8
// k (N)); the stage is released after that read. dzl (bf16) += dacc once at the end.

// dacc (the warpgroup's 64 positions x KP) += fd (64 x 64 packed rows) times the weight
// tile wt (64 rows x KP, trwg_off's layout) read N-major, waited for.
template <int KP>
__device__ __forceinline__ void sg2_dzl_product(float (&dacc)[KP / 2], const uint32_t (&fd)[4][4],
                                                const unsigned char *wt) {
    constexpr int NW = KP < 64 ? 16 : 64;  // the instruction's N
    const uint64_t d0 = s9_desc(wt, KP * 16, 128);
    __syncwarp();  // converged for the .aligned wgmma instructions
    s9_wg_fence();
#pragma unroll
    for (int q = 0; q < 4; q++)  // k16 chunks: rows 16 q.. of the tile (2 core matrices of 16 KP B)
#pragma unroll
        for (int nb = 0; nb < KP / NW; nb++) {  // k (c_z) from NW nb: NW / 8 core matrices of 128 B
            const uint64_t d = d0 + ((q * 32 * KP + nb * NW * 16) >> 4);
            if constexpr (NW == 64) wg_n64_tb(dacc + 32 * nb, fd[q], d);
            else wg_n16_tb(dacc + 8 * nb, fd[q], d);  // depths 16, 32
        }
    s9_wg_commit();
    wg_mma_wait<0>();
    s9_wg_hold<KP / 2>(dacc);
}

// Tile j's side gradient (tsw_bwd_epilogue's, side j / nct into a.dtp, a.dtg) with its
// A fragments fd for dzl; then tile j + 1's dS fetched.
__device__ __forceinline__ void sg2_epilogue(const float (&acc)[32], const float (&m)[2], const ts_args &a, int j,
                                             bf16 *st, int64_t rw0, uint32_t (&fd)[4][4]) {
    bf16 *go = st + 32 * TSW_SO;
    const int s = j >= a.nct, jc = j - s * a.nct;
    fa_wait<0>();
    __syncwarp();  // the warp's dS copies landed
    tsw_dgrad(acc, m, a.bias ? a.bias + (int64_t)j * 64 : NULL, st, go, fd);
    __syncwarp();  // go written; every read of the dS tile done
    tsw_store_dgrad(a, go, a.dtp[s], a.dtg[s], a.ldt[s], 32 * jc, rw0);
    __syncwarp();  // go read before the next tile's writes
    const int n = j + 1, ns = n >= a.nct;
    if (n < a.tiles) tsw_fetch_ds_c(st, a, ns ? a.dS2 : a.dS, n - ns * a.nct, rw0);
}

// dzl (M, c_z) += dacc: this thread's pairs of columns 8 (i / 4) + 2 t of rows g, g + 8 (the
// accumulator layout of the N chunks side by side).
template <int KP>
__device__ __forceinline__ void sg2_store_dzl(const float (&dacc)[KP / 2], const ts_args &a, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < KP / 2; i += 2) {
        const int col = 8 * (i >> 2) + 2 * t;
        const int64_t p = rw0 + g + 8 * ((i >> 1) & 1);
        if (p >= a.M || col >= a.c_z) continue;
        __nv_bfloat162 *d = reinterpret_cast<__nv_bfloat162 *>(a.dzl + p * a.c_z + col);
        const float2 o = __bfloat1622float2(*d);
        *d = __floats2bfloat162_rn(o.x + dacc[i], o.y + dacc[i + 1]);
    }
}

template <int KP>
__device__ __forceinline__ void sg2_consumer(const ts_args &a, unsigned char *sm, int64_t pos0) {
    typedef tsw_layout<KP, true> L;
    uint64_t *empty = (uint64_t *)(sm + L::bar) + L::ST;
    uint32_t af[KP / 16][4];
    float m[2], dacc[KP / 2];
#pragma unroll
    for (int i = 0; i < KP / 2; i++) dacc[i] = 0.f;
    tsw_rows<KP>(a, (bf16 *)(sm + L::X), pos0, af, m);
    const int warp = threadIdx.x >> 5;
    const int64_t rw0 = pos0 + 16 * warp;
    bf16 *st = (bf16 *)(sm + L::X) + warp * L::WST;
    tsw_fetch_ds_c(st, a, a.dS, 0, rw0);
    for (int j = 0; j < a.tiles; j++) {
        float acc[32];
        uint32_t fd[4][4];
        tw_ring_product<L, KP, false>(acc, af, sm, j);
        sg2_epilogue(acc, m, a, j, st, rw0, fd);
        sg2_dzl_product<KP>(dacc, fd, sm + (j % L::ST) * L::tile);
        wg_bar_arrive(empty + j % L::ST);  // the stage's reads (both products) done
    }
    sg2_store_dzl<KP>(dacc, a, rw0);
}
#endif

// Launched on sm_90 only (ts_wg_applies); compiled for sm_80 it traps.
// BWD: the side gradient (PF_TRIMUL_SIDES=4), else the forward sides; LN (forward only,
// PF_TRIMUL_LNIN): a.zl holds z, LayerNormed in the prologue (zl written out).
template <int KP, bool BWD, bool LN = false>
__global__ void __launch_bounds__(288, 2) k_tm_sides_wg(ts_args a) {
#if S9_HAVE_WGMMA
    static_assert(!(BWD && LN), "the input LayerNorm: forward sides only");
    typedef tsw_layout<KP, BWD> L;
    extern __shared__ __align__(128) unsigned char tsw_sm[];
    tw_ring_init<L>(tsw_sm);
    if (threadIdx.x >= L::CONS) tw_producer<L>(a.w, a.tiles, tsw_sm);
    else tsw_consumer<KP, BWD, LN>(a, tsw_sm, (int64_t)blockIdx.x * L::ROWS);
#else
    __trap();
#endif
}

// PF_TRIMUL_SG2: one block per SM (__launch_bounds__ 1): dacc's KP / 2 registers next to
// the recompute's (the zl fragments KP / 4, acc 32) pass the 113 that two blocks of 288
// threads allow; the same shared memory layout as the side gradient's.
template <int KP>
__global__ void __launch_bounds__(288, 1) k_tm_sg2(ts_args a) {
#if S9_HAVE_WGMMA
    typedef tsw_layout<KP, true> L;
    extern __shared__ __align__(128) unsigned char sg2_sm[];
    tw_ring_init<L>(sg2_sm);
    if (threadIdx.x >= L::CONS) tw_producer<L>(a.w, a.tiles, sg2_sm);
    else sg2_consumer<KP>(a, sg2_sm, (int64_t)blockIdx.x * L::ROWS);
#else
    __trap();
#endif
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
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

template <int K, bool BWD, bool LN = false>
static void tsw_launch(cu_impl *c, const ts_args *a) {
    typedef tsw_layout<K, BWD> L;
    CU_CHECK(
        cudaFuncSetAttribute(k_tm_sides_wg<K, BWD, LN>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_tm_sides_wg<K, BWD, LN><<<(unsigned)((a->M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    if (BWD) g_tsw_bwd_runs++;
    else g_tsw_runs++;
}

void ts_wg_launch(cu_impl *c, const ts_args *a, int KP, int bwd) {
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) {
            if (bwd) tsw_launch<K, true>(c, a);
            else if (a->ln_w) tsw_launch<K, false, true>(c, a);
            else tsw_launch<K, false>(c, a);
        } else {
            pf_die("k_tm_sides_wg: depth %d (ts_wg_applies: 16..128)", KP);
        }
    });
}

static int64_t g_sg2_runs = 0;  // k_tm_sg2 launches so far (tests)
extern "C" int64_t pf_cuda_trimul_sg2_runs(pf_backend *be) {
    (void)be;
    return g_sg2_runs;
}

template <int K>
static void sg2_launch(cu_impl *c, const ts_args *a) {
    typedef tsw_layout<K, true> L;
    CU_CHECK(cudaFuncSetAttribute(k_tm_sg2<K>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_tm_sg2<K><<<(unsigned)((a->M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    g_sg2_runs++;
}

int ts_sg2_run(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2], const void *zl,
               const void *mask, const void *dA, const void *dB, void *const dtp[2], void *const dtg[2],
               const int64_t ldt[2], void *dzl) {
    int grid, KP = ts_depth(c_z);
    if (ts_sides_form(&grid) < 4 || !ts_wg_applies(KP) || !ts_applies(c, M, c_z, C, zl, ts_wg_smem_bytes(KP, 1)))
        return 0;
    if ((uintptr_t)dzl & 3) return 0;  // dzl's bf16 pairs
    size_t mark = cu_pool_mark(c);
    ts_args a;
    memset(&a, 0, sizeof a);
    ts_pack_weights(c, c_z, C, 32, KP, 2, lin, 2, &a);  // side a's tiles, then side b's
    a.zl = (const bf16 *)zl, a.mask = (const bf16 *)mask, a.M = M;
    a.dS = (const bf16 *)dA, a.dS2 = (const bf16 *)dB, a.dzl = (bf16 *)dzl;
    a.vec = M % 8 == 0 && !((uintptr_t)dA & 15) && !((uintptr_t)dB & 15);
    a.vec_out = C % 8 == 0;
    for (int s = 0; s < 2; s++) {
        a.dtp[s] = (bf16 *)dtp[s], a.dtg[s] = (bf16 *)dtg[s], a.ldt[s] = ldt[s];
        a.vec_out &= ldt[s] % 8 == 0 && !((uintptr_t)dtp[s] & 15) && !((uintptr_t)dtg[s] & 15);
    }
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) sg2_launch<K>(c, &a);
        else pf_die("k_tm_sg2: depth %d (ts_wg_applies: 16..128)", KP);
    });
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}
#endif  // PF_EMU_NO_HOST
