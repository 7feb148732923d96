// cu_transition_wgo.cu: the transition's forward (SwiGLU hidden layer and output projection)
// as one Hopper wgmma kernel (PF_TR_WGO; issue 11, scope 2; sm_90a only).
//
// The two-kernel forward (k_trwg, cu_transition_wg.cu, then a cuBLASLt GEMM) writes h
// (M, n c) and reads it back: at c = 128, n = 4 that is 2 x 1 KiB per row against the row's
// 256 bytes of x in and of out. Here h never leaves the registers, as P in flash attention:
// per 32-channel tile j of the hidden layer, a warpgroup's [a | b] accumulators (m64n64,
// K = c) become h = silu(a) b m in bf16 in the A-fragment layout of the next product (the
// accumulator layout of two n8 blocks is the A layout of one k16 step), and out (64 x c,
// fp32, in registers for the whole row tile) += h W_out[:, 32 j..]^T by wgmma m64n64k16
// (c / 64 halves, two k steps).
//
// Block (persistent, one per SM, 224 registers a thread): 2 warpgroups (64 rows each, 128 rows
// a row tile) and no producer warp (a ninth warp would cap the registers at 168: a sub-partition
// would hold three warps); thread 0 streams the packed weight, tile after tile and row tile after
// row tile, through a ring of ST stages by bulk copies (cu_wg_ring.cuh's tw_ring_refill: a stage
// refilled once every thread has released its tile, two steps later); a stage is [W_ab tile
// (64 packed rows x KP) | W_out tile (c rows x 32)] in wgmma's K-major core-matrix layout
// (trwg_off). The consumers, per row tile: the rows
// (cp.async, issued during the previous row tile), the LayerNorm in place, the A fragments;
// then per tile j: wait for [a | b] of tile j (issued a step ahead into the other of two
// accumulator sets), issue tile j + 1's, wait for tile j - 1's out product (queued before it),
// form h of tile j, issue out += h W_out: the gate arithmetic runs under the tensor cores' next
// product, and the next [a | b] is queued right behind each out product. Then out + b_out (times the row mask
// where it was not folded into h) through a per-warp staging tile as 16-byte rows.
//
// h is k_trwg's (the same products in the same order, the same expression), so the
// backward's recomputed h (k_trwg<BWD>) is this forward's. out sums in wgmma's order, not
// cuBLASLt's: within the bf16 tolerance, not the two-kernel path's bits.
#include "cu_transition_fused.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"
#include "cuda_backend.h"

#define TWO_TN 64  // packed [a | b] weight rows per tile (32 hidden channels)

// On by default (sessions 25, 27; off in session 26 while its training hang was open: two_step's
// __syncwarp() after the ring refill, docs/CUDA.md).
static tw_ctl g_wgo = {{-1, "PF_TR_WGO", 1, "the hidden layer and the output projection apart",
                        "the transition's forward as one wgmma kernel (c 64 or 128, sm_90): the default"},
                       0, 0};

extern "C" void pf_cuda_set_transition_wgo(pf_backend *be, int on, int blocks) {
    (void)be;
    tw_ctl_set(&g_wgo, on, blocks);
}
extern "C" int64_t pf_cuda_transition_wgo_runs(pf_backend *be) {
    (void)be;
    return g_wgo.runs;
}

struct two_args {
    tr_args t;                // x or xl (t.xl), the LayerNorm (t.ln_w), the h mask (t.mask), M, c, nc, tiles
                              // (t.bias unused: no a, b biases)
    const unsigned char *w;   // the packed tiles (two_pack)
    const bf16 *omask;        // (M) row mask on out where it is not folded into h, or NULL
    const float *obias;       // (c) or NULL
    bf16 *out;                // (M, c)
};

// Shared memory: the ring (ST stages of [W_ab tile | NH W_out tiles]), the row tile's rows
// (128, KP + TS_PAD), the warps' out staging tiles (16, SO), full[ST] and empty[ST].
template <int KP>
struct two_layout {
    static constexpr int NH = KP / 64, CONS = 256, THREADS = CONS, ROWS = 128, ST = 6;
    static constexpr int SK = KP + TS_PAD, SO = KP + 8;
    static constexpr size_t AB = (size_t)TWO_TN * KP * 2, OB = (size_t)64 * 32 * 2, tile = AB + NH * OB;
    static constexpr size_t X = ST * tile, S = X + (size_t)ROWS * SK * 2;
    static constexpr size_t bar = S + (size_t)(CONS / 32) * 16 * SO * 2, bytes = bar + 2 * ST * 8;
    static_assert(KP == 64 || KP == 128, "c 64 or 128");
    static_assert(tile % 128 == 0 && X % 16 == 0 && S % 16 == 0 && bar % 8 == 0, "alignment");
};

// The packed weight: per tile j, W_ab's rows 64 j.. (k_tr_pack's forms >= 2 order: per 16
// rows W_a of 8 channels, then W_b of them) at depth KP, then the forward's W_out tile (for
// each half hf the rows 64 hf.. of W_out, output channels, at hidden channels 32 j..: depth 32)
// or the backward's (cu_transition_wgb.cu: W_out^T's rows 32 j.., hidden channels, at depth KP
// over the output channels); all in trwg_off's layout, zeros past c and n c. Both W_out tiles
// hold 32 KP elements.
struct two_pack_q {
    const float *wa, *wb, *wo;  // (nc, c), (nc, c), (c, nc)
    unsigned char *dst;
    int c, nc, KP, tiles, bwd;
};
__global__ void k_two_pack(two_pack_q q) {
    const int64_t E = (int64_t)TWO_TN * q.KP + (int64_t)q.KP * 32;  // elements per tile
    GRID_STRIDE(i, E * q.tiles) {
        int j = (int)(i / E);
        int o = (int)(i % E);
        float v = 0.f;
        int64_t pos;
        if (o < TWO_TN * q.KP) {  // [a | b] row r, input channel k
            int r = 8 * (o / (8 * q.KP)) + (o % 64) / 8, k = 8 * ((o % (8 * q.KP)) / 64) + o % 8;
            int R = TWO_TN * j + r, ch = (R >> 4) * 8 + (R & 7), sb = (R >> 3) & 1;
            if (ch < q.nc && k < q.c) v = (sb ? q.wb : q.wa)[(int64_t)ch * q.c + k];
            pos = (int64_t)j * E + trwg_off(r, k, q.KP);
        } else if (q.bwd) {  // W_out^T row r (hidden channel 32 j + r), output channel k
            int o2 = o - TWO_TN * q.KP;
            int r = 8 * (o2 / (8 * q.KP)) + (o2 % 64) / 8, k = 8 * ((o2 % (8 * q.KP)) / 64) + o2 % 8;
            int hc = 32 * j + r;
            if (k < q.c && hc < q.nc) v = q.wo[(int64_t)k * q.nc + hc];
            pos = (int64_t)j * E + TWO_TN * q.KP + trwg_off(r, k, q.KP);
        } else {  // W_out row oc (output channel), hidden channel 32 j + k
            int o2 = o - TWO_TN * q.KP, hf = o2 / 2048, o3 = o2 % 2048;
            int r = 8 * (o3 / 256) + (o3 % 64) / 8, k = 8 * ((o3 % 256) / 64) + o3 % 8;
            int oc = 64 * hf + r, hc = 32 * j + k;
            if (oc < q.c && hc < q.nc) v = q.wo[(int64_t)oc * q.nc + hc];
            pos = (int64_t)j * E + TWO_TN * q.KP + 2048 * hf + trwg_off(r, k, 32);
        }
        ((bf16 *)q.dst)[pos] = __float2bfloat16(v);
    }
}

#if S9_HAVE_WGMMA
// One tile j of the row tile (ring tile gi = ring + j): the next tile's [a | b] issued into nxt
// (queued behind tile j - 1's out product), then a wait for all but it: cur holds tile j's
// [a | b], and tile j - 1's out product is done (hf and its stage free again); h of tile j
// (tw_fwd_epilogue's expression without the a, b biases: cu_tr_fused_applies takes none) as A
// fragments, and out += h W_out^T issued and committed, not waited for. LAST: no next tile
// (then everything is waited for). The waits are fixed at compile time and nothing reads an
// accumulator before them: with a wait chosen at run time, or cur held between two waits,
// ptxas serialized every wgmma (C7514).
template <typename L, int KP, int TILES, bool LAST>
__device__ __forceinline__ void two_step(float (&cur)[32], float (&nxt)[32], const uint32_t (&af)[KP / 16][4],
                                         float (&o)[L::NH][32], const float (&m)[2], const two_args &a,
                                         unsigned char *sm, uint32_t ring, int j, uint32_t total) {
    uint64_t *empty = (uint64_t *)(sm + L::bar) + L::ST;
    const uint32_t gi = ring + j;
    if (!LAST) {
        tw_ring_issue<L, KP>(nxt, af, sm, gi + 1);  // [a | b] of tile j + 1
        wg_mma_wait<1>();
    } else {
        wg_mma_wait<0>();
    }
    s9_wg_hold<32>(cur);
    if (j > 0) wg_bar_arrive(empty + (gi - 1) % L::ST);  // tile j - 1's stage read
    if (gi >= 2) tw_ring_refill<L>(a.w, TILES, total, sm, gi - 2);  // released a step ago (TILES: % a shift)
    __syncwarp();  // lane 0 may still wait in the refill: the warp converged for the .aligned wgmma below
    uint32_t hf[2][4];
#pragma unroll
    for (int q = 0; q < 4; q++) {
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            float v[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                float x0 = cur[8 * q + 2 * hh + e], x1 = cur[8 * q + 4 + 2 * hh + e];  // no a, b biases (applies)
                v[e] = x0 * tr_sigmoid(x0) * x1 * m[hh];
            }
            __nv_bfloat162 p = __floats2bfloat162_rn(v[0], v[1]);
            hf[q >> 1][2 * (q & 1) + hh] = *reinterpret_cast<uint32_t *>(&p);
        }
    }
    const uint32_t s = (ring + j) % L::ST;
    const unsigned char *wo = sm + s * L::tile + L::AB;
    s9_wg_fence();
#pragma unroll
    for (int h2 = 0; h2 < L::NH; h2++) {
        const uint64_t d = s9_desc(wo + h2 * L::OB, 128, 32 * 16);  // depth 32: SBO 512 B
#pragma unroll
        for (int kk = 0; kk < 2; kk++) s9_wg_n64(o[h2], hf[kk], d + ((kk * 256) >> 4), 1);
    }
    s9_wg_commit();
}

// out of the warp's 16 rows (first rw0) from o: + b_out, times the row mask (om), bf16
// through the staging tile st (16, SO), 16-byte runs.
template <typename L>
__device__ __forceinline__ void two_store(const float (&o)[L::NH][32], const float (&om)[2], const two_args &a,
                                          bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int h2 = 0; h2 < L::NH; h2++)
#pragma unroll
        for (int i = 0; i < 8; i++) {
            const int col = 64 * h2 + 8 * i + 2 * t;
            float b0 = a.obias && col < a.t.c ? __ldg(a.obias + col) : 0.f;
            float b1 = a.obias && col + 1 < a.t.c ? __ldg(a.obias + col + 1) : 0.f;
#pragma unroll
            for (int hh = 0; hh < 2; hh++)
                *reinterpret_cast<__nv_bfloat162 *>(st + (g + 8 * hh) * L::SO + col) = __floats2bfloat162_rn(
                    (o[h2][4 * i + 2 * hh] + b0) * om[hh], (o[h2][4 * i + 2 * hh + 1] + b1) * om[hh]);
        }
    __syncwarp();
    constexpr int CPR = 8 * L::NH;  // 16-byte runs per row
#pragma unroll
    for (int i = lane; i < 16 * CPR; i += 32) {
        const int row = i / CPR, ch = 8 * (i % CPR);
        const int64_t p = rw0 + row;
        if (p < a.t.M && ch < a.t.c)
            *reinterpret_cast<uint4 *>(a.out + p * a.t.c + ch) = *reinterpret_cast<const uint4 *>(st + row * L::SO + ch);
    }
    __syncwarp();  // st read before the next row tile's writes
}

// The consumers: row tiles blockIdx.x, + gridDim.x, ...; each row tile's rows copied during
// the previous one's tiles.
template <int KP, int TILES>
__device__ __forceinline__ void two_consumer(const two_args &a, unsigned char *sm, uint32_t total) {
    typedef two_layout<KP> L;
    bf16 *xs = (bf16 *)(sm + L::X);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    bf16 *st = (bf16 *)(sm + L::S) + warp * 16 * L::SO;
    uint64_t *empty = (uint64_t *)(sm + L::bar) + L::ST;
    const int64_t nrt = (a.t.M + L::ROWS - 1) / L::ROWS;
    uint32_t ring = 0;  // ring tiles consumed by earlier row tiles
    int64_t it = blockIdx.x;
    if (it < nrt) {
        ts_load_rows_u<KP, L::ROWS, L::CONS>(xs, a.t.xl, a.t.c, a.t.M, it * L::ROWS);  // zeros past M
        fa_commit();
    }
    for (; it < nrt; it += gridDim.x) {
        const int64_t pos0 = it * L::ROWS, rw0 = pos0 + 16 * warp;
        uint32_t af[KP / 16][4], unused[KP / 16][4];
        float m[2], om[2];
        tw_row_tile<KP, false>(a.t, NULL, xs, NULL, pos0, (it + gridDim.x) * L::ROWS, af, unused, m);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const int64_t p = rw0 + (lane >> 2) + 8 * u;
            om[u] = p < a.t.M && a.omask ? ld(a.omask, p) : 1.f;
        }
        float o[L::NH][32], acc0[32], acc1[32];
#pragma unroll
        for (int h2 = 0; h2 < L::NH; h2++)
#pragma unroll
            for (int i = 0; i < 32; i++) o[h2][i] = 0.f;
#pragma unroll
        for (int h2 = 0; h2 < L::NH; h2++) s9_wg_hold<32>(o[h2]);  // zeroed before the first wgmma is issued
        tw_ring_issue<L, KP>(acc0, af, sm, ring);
#pragma unroll
        for (int j = 0; j < TILES - 2; j += 2) {  // unrolled: across a loop's back edge ptxas serialized (C7514)
            two_step<L, KP, TILES, false>(acc0, acc1, af, o, m, a, sm, ring, j, total);
            two_step<L, KP, TILES, false>(acc1, acc0, af, o, m, a, sm, ring, j + 1, total);
        }
        two_step<L, KP, TILES, false>(acc0, acc1, af, o, m, a, sm, ring, TILES - 2, total);
        two_step<L, KP, TILES, true>(acc1, acc0, af, o, m, a, sm, ring, TILES - 1, total);
        wg_mma_wait<0>();
#pragma unroll
        for (int h2 = 0; h2 < L::NH; h2++) s9_wg_hold<32>(o[h2]);
        wg_bar_arrive(empty + (ring + TILES - 1) % L::ST);
        ring += (uint32_t)TILES;
        two_store<L>(o, om, a, st, rw0);
    }
}

#endif

// Launched on sm_90 only (cu_trwo_applies); compiled for sm_80 it traps.
template <int KP, int TILES>
__global__ void __launch_bounds__(256, 1) k_two(two_args a) {
#if S9_HAVE_WGMMA
    typedef two_layout<KP> L;
    extern __shared__ __align__(128) unsigned char two_sm[];
    const uint32_t total = tw_ring_total((a.t.M + L::ROWS - 1) / L::ROWS, TILES);
    tw_ring_init<L>(two_sm);
    tw_ring_start<L>(a.w, TILES, total, two_sm);
    __syncwarp();  // lanes 1-31 left tw_ring_start at once, lane 0 after its copies: converged again
    two_consumer<KP, TILES>(a, two_sm, total);
#else
    __trap();
#endif
}

int cu_trwo_applies(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, const pf_transition_p *p,
                    const void *x, const void *out) {
    const int64_t nc = (int64_t)d->n * d->c;  // tiles (nc / 32) 4, 8 or 16: the unrolled step sequences
    return cu_switch_on(&g_wgo.sw) && tw_fused_fits(c, d, pk, p, x) && (nc == 128 || nc == 256 || nc == 512) &&
           !((uintptr_t)out & 15);  // its rows leave as 16-byte stores
}

// The packed tiles (forward or backward): kept across calls (PF_WCACHE) or in pool scratch (the
// caller releases it).
const unsigned char *cu_two_pack(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, int KP, int tiles,
                                 int bwd) {
    const size_t bytes = (size_t)tiles * ((size_t)TWO_TN * KP + (size_t)KP * 32) * sizeof(bf16);
    struct { const void *src[3]; int64_t tag, c, nc, bwd; } sig;
    memset(&sig, 0, sizeof sig);
    sig.src[0] = p->lin_a.w, sig.src[1] = p->lin_b.w, sig.src[2] = p->lin_out.w;
    sig.tag = 7, sig.c = d->c, sig.nc = (int64_t)d->n * d->c, sig.bwd = bwd;
    int build = 1;
    unsigned char *buf = (unsigned char *)cu_wcache(c, PF_WC_TR_WGO, &sig, sizeof sig, bytes, &build);
    if (!buf) buf = (unsigned char *)cu_pool_get(c, bytes);
    if (build) {
        two_pack_q q = {p->lin_a.w, p->lin_b.w, p->lin_out.w, buf, d->c, d->n * d->c, KP, tiles, bwd};
        k_two_pack<<<cu_blocks((int64_t)(bytes / sizeof(bf16)), 256), 256, 0, c->stream>>>(q);
        CU_LAUNCHED();
    }
    return buf;
}

template <int KP, int TILES>
static void two_launch(cu_impl *c, const two_args &a) {
    typedef two_layout<KP> L;
    CU_CHECK(cudaFuncSetAttribute(k_two<KP, TILES>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_two<KP, TILES><<<tw_ctl_grid(&g_wgo, c->n_sm, (a.t.M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes,
                       c->stream>>>(a);
    CU_LAUNCHED();
    g_wgo.runs++;
}

void cu_trwo_forward(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                     const void *x, const void *hmask, const void *omask, void *out) {
    if (d->M < 1) return;
    two_args a;
    memset(&a, 0, sizeof a);
    a.t.xl = (const bf16 *)x, a.t.ln_w = p->ln.w, a.t.ln_b = p->ln.b;
    a.t.mask = (const bf16 *)hmask;
    a.t.M = d->M, a.t.c = d->c, a.t.nc = d->n * d->c, a.t.tiles = a.t.nc / 32;
    a.w = cu_two_pack(c, d, p, pk->KP, a.t.tiles, 0);
    a.omask = (const bf16 *)omask, a.obias = p->lin_out.b, a.out = (bf16 *)out;
    // tiles (n c / 32) as a template argument: the step sequence unrolled (cu_trwo_applies: 4, 8, 16)
    if (pk->KP == 128) {
        if (a.t.tiles == 4) two_launch<128, 4>(c, a);
        else if (a.t.tiles == 8) two_launch<128, 8>(c, a);
        else two_launch<128, 16>(c, a);
    } else {
        if (a.t.tiles == 4) two_launch<64, 4>(c, a);
        else if (a.t.tiles == 8) two_launch<64, 8>(c, a);
        else two_launch<64, 16>(c, a);
    }
    c->tr_fused_runs++;
}
