// cu_transition_wgb.cu: the transition backward's hidden layer with dh = dy W_out made in the
// same Hopper wgmma kernel (PF_TR_WGB; issue 11, scope 2; sm_90a only).
//
// Form 6's backward (cu_transition.cu) runs a cuBLASLt GEMM dh = dy W_out (M, n c), then k_trwg
// <BWD> reads dh back beside x and writes [da | db] and h over dh: dh is written and read once
// each (2 x 1 KiB per row at c = 128, n = 4). Here the kernel holds the row tile's dy as wgmma A
// fragments, as it holds xl, and makes each 32-channel tile of dh beside that tile's [a | b]:
// per tile j, [a | b] (m64n64k16 x KP / 16 against W_ab's tile) and dh (m64n32k16 x KP / 16
// against the tile's rows of W_out^T) are issued together, one step ahead into the other of two
// accumulator sets, so the gate backward (tw_bwd_epilogue's arithmetic: da, db and h, dh in
// fp32 rather than rounded to bf16 first) and the stores of one tile run under the next tile's
// products. The outputs are form 6's: [da | db] (M, 2 n c), h (M, n c) for dW_out and xl for the
// weight gradients.
//
// Block (persistent, one per SM, 2 warpgroups of 64 rows each, no producer warp: as
// cu_transition_wgo.cu's) with thread 0 streaming [W_ab tile | W_out^T tile] stages
// (cu_transition_wgo.cu's packing, bwd) through the ring, row tile after row tile, a stage
// refilled a step after its tile's release; each row tile's x and dy rows come by cp.async
// during the previous one's tiles.
#include "cu_transition_fused.cuh"
#include "cu_env.cuh"
#include "cuda_backend.h"

// On by default (sessions 25, 27; off in session 26 while a training hang with PF_TR_WGO was open:
// k_two's missing __syncwarp(), docs/CUDA.md).
static tw_ctl g_wgb = {{-1, "PF_TR_WGB", 1, "dh by a GEMM before the hidden-layer backward kernel",
                        "dh made inside the hidden-layer backward kernel (c 64 or 128, sm_90): the default"},
                       0, 0};

extern "C" void pf_cuda_set_transition_wgb(pf_backend *be, int on, int blocks) {
    (void)be;
    tw_ctl_set(&g_wgb, on, blocks);
}
extern "C" int64_t pf_cuda_transition_wgb_runs(pf_backend *be) {
    (void)be;
    return g_wgb.runs;
}

struct twb_args {
    tr_args t;                // x (t.xl), the LayerNorm (t.ln_w, xl into t.xl_out), the h / dh mask (t.mask),
                              // h (t.h), [da | db] (t.dab), M, c, nc, tiles
    const bf16 *dy;           // (M, c)
    const unsigned char *w;   // the packed tiles (cu_two_pack, bwd)
};

// Shared memory: the ring (ST stages of [W_ab tile | W_out^T tile], 24 KiB at c = 128), the x
// and dy rows (128, KP + TS_PAD) each, the warps' staging tiles (16, 104: [da | db | h]), full[ST]
// and empty[ST].
template <int KP>
struct twb_layout {
    static constexpr int CONS = 256, THREADS = CONS, ROWS = 128, ST = 5, SK = KP + TS_PAD, SO = 104;
    static constexpr size_t AB = (size_t)64 * KP * 2, tile = AB + (size_t)32 * KP * 2;
    static constexpr size_t X = ST * tile, D = X + (size_t)ROWS * SK * 2, S = D + (size_t)ROWS * SK * 2;
    static constexpr size_t bar = S + (size_t)(CONS / 32) * 16 * SO * 2, bytes = bar + 2 * ST * 8;
    static_assert(KP == 64 || KP == 128, "c 64 or 128");
    static_assert(tile % 128 == 0 && X % 16 == 0 && D % 16 == 0 && S % 16 == 0 && bar % 8 == 0, "alignment");
};

#if S9_HAVE_WGMMA
// Ring tile gi: wait for its stage, issue [a | b] = xl W_ab^T into acc and dh = dy W_out into dh,
// commit; not waited for.
template <typename L, int KP>
__device__ __forceinline__ void twb_issue(float (&acc)[32], float (&dh)[16], const uint32_t (&af)[KP / 16][4],
                                          const uint32_t (&df)[KP / 16][4], unsigned char *sm, uint32_t gi) {
    uint64_t *full = (uint64_t *)(sm + L::bar);
    const uint32_t s = gi % L::ST;
    wg_bar_wait(full + s, (gi / L::ST) & 1);
    __syncwarp();  // converged for the .aligned wgmma instructions
    const uint64_t dw = s9_desc(sm + s * L::tile, 128, KP * 16), dd = s9_desc(sm + s * L::tile + L::AB, 128, KP * 16);
    s9_wg_fence();
    wg_n64_first(acc, af[0], dw);
    wg_n32_first(dh, df[0], dd);
#pragma unroll
    for (int kk = 1; kk < KP / 16; kk++) {
        s9_wg_n64(acc, af[kk], dw + ((kk * 256) >> 4), 1);
        wg_n32(dh, df[kk], dd + ((kk * 256) >> 4));
    }
    s9_wg_commit();
}

// One tile j (ring tile ring + j): wait for its products (cur, curdh), release its stage, issue
// tile j + 1's into nxt, nxtdh, then its epilogue.
template <typename L, int KP>
__device__ __forceinline__ void twb_step(float (&cur)[32], float (&curdh)[16], float (&nxt)[32], float (&nxtdh)[16],
                                         const uint32_t (&af)[KP / 16][4], const uint32_t (&df)[KP / 16][4],
                                         const float (&m)[2], const twb_args &a, unsigned char *sm, uint32_t ring,
                                         int j, bf16 *st, int64_t rw0, uint32_t total) {
    uint64_t *empty = (uint64_t *)(sm + L::bar) + L::ST;
    const uint32_t gi = ring + j;
    wg_mma_wait<0>();
    s9_wg_hold<32>(cur);
    s9_wg_hold<16>(curdh);
    wg_bar_arrive(empty + gi % L::ST);  // both products of tile j have read its stage
    if (gi >= 1) tw_ring_refill<L>(a.w, (uint32_t)a.t.tiles, total, sm, gi - 1);  // released a step ago
    if (j + 1 < a.t.tiles) twb_issue<L, KP>(nxt, nxtdh, af, df, sm, ring + j + 1);
    // [da | db] and h (tw_bwd_epilogue's arithmetic; dh from the accumulator, fp32), stored
    tw_bwd_tile<false>(cur, m, a.t, j, st, rw0, [&](int q, int hh, int e) { return curdh[4 * q + 2 * hh + e]; });
}

template <int KP>
__device__ __forceinline__ void twb_consumer(const twb_args &a, unsigned char *sm, uint32_t total) {
    typedef twb_layout<KP> L;
    bf16 *xs = (bf16 *)(sm + L::X), *ds = (bf16 *)(sm + L::D);
    const int warp = threadIdx.x >> 5;
    bf16 *st = (bf16 *)(sm + L::S) + warp * 16 * L::SO;
    const int64_t nrt = (a.t.M + L::ROWS - 1) / L::ROWS;
    uint32_t ring = 0;
    int64_t it = blockIdx.x;
    if (it < nrt) {
        ts_load_rows_u<KP, L::ROWS, L::CONS>(xs, a.t.xl, a.t.c, a.t.M, it * L::ROWS);  // zeros past M
        ts_load_rows_u<KP, L::ROWS, L::CONS>(ds, a.dy, a.t.c, a.t.M, it * L::ROWS);
        fa_commit();
    }
    for (; it < nrt; it += gridDim.x) {
        const int64_t pos0 = it * L::ROWS, rw0 = pos0 + 16 * warp;
        uint32_t af[KP / 16][4], df[KP / 16][4];
        float m[2];
        tw_row_tile<KP, true>(a.t, a.dy, xs, ds, pos0, (it + gridDim.x) * L::ROWS, af, df, m);
        float acc0[32], acc1[32], dh0[16], dh1[16];
        twb_issue<L, KP>(acc0, dh0, af, df, sm, ring);
        for (int j = 0; j < a.t.tiles; j += 2) {
            twb_step<L, KP>(acc0, dh0, acc1, dh1, af, df, m, a, sm, ring, j, st, rw0, total);
            if (j + 1 < a.t.tiles) twb_step<L, KP>(acc1, dh1, acc0, dh0, af, df, m, a, sm, ring, j + 1, st, rw0, total);
        }
        wg_mma_wait<0>();  // nothing in flight (the last step issued none): for the compiler's register tracking
        ring += (uint32_t)a.t.tiles;
    }
}

#endif

template <int KP>
__global__ void __launch_bounds__(256, 1) k_twb(twb_args a) {
#if S9_HAVE_WGMMA
    typedef twb_layout<KP> L;
    extern __shared__ __align__(128) unsigned char twb_sm[];
    const uint32_t total = tw_ring_total((a.t.M + L::ROWS - 1) / L::ROWS, a.t.tiles);
    tw_ring_init<L>(twb_sm);
    tw_ring_start<L>(a.w, (uint32_t)a.t.tiles, total, twb_sm);
    __syncwarp();  // lanes 1-31 left tw_ring_start at once, lane 0 after its copies: converged again
    twb_consumer<KP>(a, twb_sm, total);
#else
    __trap();
#endif
}

int cu_trwb_applies(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, const pf_transition_p *p,
                    const void *x, const void *dy) {
    return cu_switch_on(&g_wgb.sw) && tw_fused_fits(c, d, pk, p, x) && pk->wg_bwd && pk->grad_h &&
           (d->n * d->c) % 32 == 0 && !((uintptr_t)dy & 15);
}

template <int KP>
static void twb_launch(cu_impl *c, const twb_args &a) {
    typedef twb_layout<KP> L;
    CU_CHECK(cudaFuncSetAttribute(k_twb<KP>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_twb<KP><<<tw_ctl_grid(&g_wgb, c->n_sm, (a.t.M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(a);
    CU_LAUNCHED();
    g_wgb.runs++;
}

void cu_trwb_grad(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, const cu_tr_packed *pk,
                  const void *x, const void *dy, const void *hmask, void *xl_out, void *h, void *dab) {
    if (d->M < 1) return;
    twb_args a;
    memset(&a, 0, sizeof a);
    a.t.xl = (const bf16 *)x, a.t.ln_w = p->ln.w, a.t.ln_b = p->ln.b, a.t.xl_out = (bf16 *)xl_out;
    a.t.mask = (const bf16 *)hmask, a.t.h = (bf16 *)h, a.t.dab = (bf16 *)dab;
    a.t.M = d->M, a.t.c = d->c, a.t.nc = d->n * d->c, a.t.tiles = a.t.nc / 32;
    a.dy = (const bf16 *)dy;
    a.w = cu_two_pack(c, d, p, pk->KP, a.t.tiles, 1);
    if (pk->KP == 128) twb_launch<128>(c, a);
    else twb_launch<64>(c, a);
    c->tr_fused_runs++;
}
