// cu_transition_wg.cu: the transition's SwiGLU hidden layer on Hopper warpgroup MMA
// (PF_TR_HID=6: forward and backward; 7: the forward only; issue 11; sm_90a only), the
// jobs of k_tr_hidden2 and k_tr_hidden_grad2 with HOUT (form 5; cu_transition_fused.cu),
// whose mma.sync tiles walk the weight with a barrier, the product, a barrier, the gate
// epilogue, a barrier and the stores per column tile (~135 TFLOP/s on the H200):
// forward h (M, n c) = silu(xl W_a^T) (xl W_b^T) mask; backward from dh (M, n c), a and b
// recomputed: [da | db] (M, 2 n c) and h over dh.
//
// Block = NWG consumer warpgroups (64 rows each: one wgmma M; NWG 2, or 4 with
// PF_TR_WG4=1) + 1 producer warp, 64 NWG rows:
// - prologue (consumers): the rows by cp.async, the input LayerNorm in place where asked
//   (tr_ln_rows, xl written out), then each warp's A fragments (its 16 rows x KP) by
//   ldmatrix into registers, once: KP / 4 registers;
// - producer (one thread): the weight in column tiles of 64 packed rows (32 channels: a
//   and b of 4 groups of 8, form 2's row order), stored by cu_tr_pack in wgmma's K-major
//   core-matrix layout (trwg_off) so that one bulk copy (cp.async.bulk, completing on the
//   stage's full mbarrier) fills a stage; a ring of ST stages, refilled after all
//   consumer threads arrive on its empty mbarrier;
// - consumers, per tile: wgmma m64n64k16 x KP / 16 (A registers, B by descriptor), the
//   backward's dh tile landing meanwhile (cp.async into the warp's staging tile, issued
//   after the last tile's stores), wait, release the stage, the epilogue from the
//   accumulators with form 2's expressions per element (h = x0 sigmoid(x0) x1 m; da, db),
//   bf16 pairs into a warp-private staging tile (16 rows), then 16-byte stores. No
//   block-wide barrier after the prologue: the two warpgroups (and the two blocks of an
//   SM) drift apart, so one's epilogue runs while another's wgmma does.
// Not bit-identical to form 5 (wgmma's fp32 accumulation order over k differs from
// mma.sync's); within the transition's bf16 tolerance (test_cuda's CPU comparisons). The
// backward's h is the forward's (the same products, the same expression).
#include "cu_transition_fused.cuh"
#include "cu_wg_ring.cuh"
#include "cu_env.cuh"
#include "cuda_backend.h"

#define TW_TN 64  // packed weight rows per column tile (32 channels of h)

// NWG consumer warpgroups (64 rows each) per block: 2 (128 rows, two blocks per SM: one's
// prologue runs while the other multiplies) or 4 (PF_TR_WG4=1: 256 rows, one block per
// SM: each weight tile read from L2 once per 256 rows, half the weight traffic).
// Shared memory: the weight ring (ST x (TW_TN, KP), trwg_off layout), the rows (ROWS,
// KP + TS_PAD), the warps' staging tiles (16, SO), full[ST] and empty[ST]. Staging: the
// forward's h (32 channels), the backward's [da | db | h] (3 x 32); row strides of 20 or
// 52 words: the bf16-pair stores of a warp (rows g, pairs t) fall on 32 distinct banks.
// NWG 2's backward takes 3 stages: two blocks per SM (108 KiB each at KP 128).
template <int KP, bool BWD, int NWG>
struct tw_layout {
    static constexpr int CONS = 128 * NWG, ROWS = 64 * NWG, THREADS = CONS + 32;  // + the producer warp
    static constexpr int depth = KP;
    static constexpr int ST = BWD && NWG == 2 ? 3 : 4, SO = BWD ? 104 : 40;
    static constexpr size_t tile = (size_t)TW_TN * KP * 2;
    static constexpr size_t X = ST * tile;
    static constexpr size_t S = X + (size_t)ROWS * (KP + TS_PAD) * 2;
    static constexpr size_t bar = S + (size_t)(CONS / 32) * 16 * SO * 2;
    static constexpr size_t bytes = bar + 2 * ST * 8;
    static_assert(tile % 128 == 0 && X % 16 == 0 && S % 16 == 0 && bar % 8 == 0, "alignment");
    static_assert(NWG == 2 || NWG == 4, "the loaders' and the LayerNorm's thread counts");
};

#if S9_HAVE_WGMMA
// h of column tile j (channels 32 j..) of the warp's 16 rows (first row rw0) from acc (the
// m64n64 accumulators: n-tiles 2q, 2q + 1 are a, b of channels 8q..8q + 7, form 2's
// packing) via the staging tile st (16, 40) into a.h; tr_fwd_epilogue2's expression.
__device__ __forceinline__ void tw_fwd_epilogue(const float (&acc)[32], const float (&m)[2], const tr_args &a, int j,
                                                bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        float ba[2], bb[2];
        tw_bias(a, j, q, ba, bb);
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            float v[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                float x0 = acc[8 * q + 2 * hh + e] + ba[e], x1 = acc[8 * q + 4 + 2 * hh + e] + bb[e];
                v[e] = x0 * tr_sigmoid(x0) * x1 * m[hh];
            }
            *reinterpret_cast<__nv_bfloat162 *>(st + (g + 8 * hh) * 40 + 8 * q + 2 * t) =
                __floats2bfloat162_rn(v[0], v[1]);
        }
    }
    __syncwarp();
    tw_store(a.h, a.nc, st, 40, 0, 32 * j, a.nc, rw0, a.M);
    __syncwarp();  // st read before the next tile's writes
}

// dh of tile j (the warp's 16 rows x 32 channels) into the h columns [64, 96) of its
// staging tile st (16, 104): 16-byte cp.async (L2: h is written over dh by this kernel),
// zeros past M and nc; committed, waited for before the epilogue.
__device__ __forceinline__ void tw_fetch_dh(bf16 *st, const tr_args &a, int j, int64_t rw0) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 16 rows x 4 runs of 8 channels
        int i = lane + 32 * it, row = i >> 2, c8 = 8 * (i & 3), ch = 32 * j + c8;
        int64_t p = rw0 + row;
        int ok = p < a.M && ch < a.nc;
        fa_cp16z(st + row * 104 + 64 + c8, ok ? a.dh + p * a.nc + ch : a.dh, ok ? 16 : 0);
    }
    fa_commit();
}

// [da | db] of tile j into a.dab and h into a.h (over dh), tr_bwd_epilogue2's arithmetic
// (HOUT; tw_bwd_tile); dh from the h columns of st (tw_fetch_dh), each pair read and then
// overwritten by its h by one thread. Then the next tile's dh fetched into them (lands during
// that tile's product).
__device__ __forceinline__ void tw_bwd_epilogue(const float (&acc)[32], const float (&m)[2], const tr_args &a, int j,
                                                bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    fa_wait<0>();
    __syncwarp();  // the warp's dh copies landed
    tw_bwd_tile<true>(acc, m, a, j, st, rw0, [&](int q, int hh, int e) {
        __nv_bfloat162 gv = *reinterpret_cast<const __nv_bfloat162 *>(st + (g + 8 * hh) * 104 + 64 + 8 * q + 2 * t);
        return e ? __high2float(gv) : __low2float(gv);
    });
    if (j + 1 < a.tiles) tw_fetch_dh(st, a, j + 1, rw0);
}

// Per column tile: wait for its stage, the product (wgmma, A registers, B by descriptor;
// the backward's dh of the tile lands meanwhile, tw_fetch_dh), the stage released, the
// epilogue.
template <int KP, bool BWD, int NWG>
__device__ __forceinline__ void tw_consumer(const tr_args &a, unsigned char *sm, int64_t pos0) {
    typedef tw_layout<KP, BWD, NWG> L;
    uint32_t af[KP / 16][4], unused[KP / 16][4];
    float m[2];
    bf16 *xs = (bf16 *)(sm + L::X);
    ts_load_rows_u<KP, L::ROWS, L::CONS>(xs, a.xl, a.c, a.M, pos0);  // zeros past M and c
    fa_commit();
    // the LayerNorm (xl written out), the fragments, the mask; no next row tile (a.M: none)
    tw_row_tile<KP, false, NWG>(a, NULL, xs, NULL, pos0, a.M, af, unused, m);
    const int warp = threadIdx.x >> 5;
    const int64_t rw0 = pos0 + 16 * warp;
    bf16 *st = (bf16 *)(sm + L::S) + warp * 16 * L::SO;
    if (BWD) tw_fetch_dh(st, a, 0, rw0);
    for (int j = 0; j < a.tiles; j++) {
        float acc[32];
        tw_ring_product<L, KP>(acc, af, sm, j);
        if (BWD) tw_bwd_epilogue(acc, m, a, j, st, rw0);
        else tw_fwd_epilogue(acc, m, a, j, st, rw0);
    }
}
#endif

// Launched on sm_90 only (cu_trwg_applies); compiled for sm_80 it traps.
template <int KP, bool BWD, int NWG>
__global__ void __launch_bounds__(128 * NWG + 32, NWG == 2 ? 2 : 1) k_trwg(tr_args a, const bf16 *wg) {
#if S9_HAVE_WGMMA
    typedef tw_layout<KP, BWD, NWG> L;
    extern __shared__ __align__(128) unsigned char tw_sm[];
    tw_ring_init<L>(tw_sm);
    if (threadIdx.x >= L::CONS) tw_producer<L>(wg, a.tiles, tw_sm);
    else tw_consumer<KP, BWD, NWG>(a, tw_sm, (int64_t)blockIdx.x * L::ROWS);
#else
    __trap();
#endif
}

int cu_trwg_applies(int KP) {
    return tw_ring_applies(KP);
}

static int64_t g_trwg_runs = 0;  // launches so far (tests)
extern "C" int64_t pf_cuda_transition_wg_runs(pf_backend *be) {
    (void)be;
    return g_trwg_runs;
}
extern "C" int pf_cuda_transition_wg_applies(pf_backend *be, int c) {
    (void)be;
    return c >= 8 && c <= 128 && cu_trwg_applies(ts_depth(c));
}

// k_trwg<K, BWD, NWG> over a's rows, 32-channel tiles (cu_tr_pack's rows: a multiple of
// 128 packed rows, so the last tile's weight rows exist).
template <int K, bool BWD, int NWG>
static void tw_launch(cu_impl *c, const tr_args &a, const bf16 *wg) {
    typedef tw_layout<K, BWD, NWG> L;
    CU_CHECK(cudaFuncSetAttribute(k_trwg<K, BWD, NWG>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_trwg<K, BWD, NWG><<<(unsigned)((a.M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(a, wg);
    CU_LAUNCHED();
    g_trwg_runs++;
}

// PF_TR_WG4 (read at every launch): 0 or unset two consumer warpgroups per block, 1 four.
template <bool BWD>
static void tw_dispatch(cu_impl *c, const tr_args *a, const bf16 *wg, int KP) {
    tr_args b = *a;
    b.tiles = (a->nc + 31) / 32;
    int wg4 = cu_env_flag("PF_TR_WG4", 0, "128 rows per block, two blocks per SM", "256 rows per block, one per SM");
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if constexpr (K <= 128) {
            if (wg4) tw_launch<K, BWD, 4>(c, b, wg);
            else tw_launch<K, BWD, 2>(c, b, wg);
        } else {
            pf_die("cu_trwg: depth %d (cu_trwg_applies: 16..128)", KP);
        }
    });
}

void cu_trwg_hidden(cu_impl *c, const tr_args *a, const bf16 *wg, int KP) { tw_dispatch<false>(c, a, wg, KP); }
void cu_trwg_hidden_grad(cu_impl *c, const tr_args *a, const bf16 *wg, int KP) {
    if (!a->dh || !a->dab || a->h != a->dh) pf_die("cu_trwg_hidden_grad: h is written over dh (form 5's contract)");
    tw_dispatch<true>(c, a, wg, KP);
}
