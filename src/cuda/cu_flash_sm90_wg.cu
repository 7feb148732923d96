// cu_flash_sm90_wg.cu: the warp-specialised wgmma attention forward for Hopper
// (PF_ATTN_FWD_WG=1; sm_90a only). Same contract as k_s9_fwd (cu_flash_sm90.cu,
// docs/ATTENTION_SM90.md "Session 12"): lse saved (B, H, L), key masks in-kernel, a fully
// masked row saves lse = +inf and outputs the uniform average of the values.
//
// Block = 1 producer warpgroup + NC consumer warpgroups, persistent (one block per SM,
// work items in k_s9_fwd's order: query tile fastest, head slowest). A work item is (head
// h, 64-query tile, NC rows r0 .. r0 + NC - 1): consumer c owns row r0 + c, 64 queries
// (one wgmma M), so one bias tile in shared memory serves NC rows.
// - Producer (registers cut to WG_PREG by setmaxnreg): fills a ring of WG_ST stages, each
//   holding a key tile of 64: K and V of the NC rows ([key / 8][ch / 8][8][8] core
//   matrices, wgmma's no-swizzle layout, as k_s9_fwd's wgmma variant), the bias tile from
//   the bf16 copy ([query][72], fa_sm90_bias16's key order) and the NC rows' mask terms
//   (log2 units, -inf past L and for rows >= B). cp.async with zero fill (beyond L, B,
//   c_h), one commit group per tile; tile P is signalled one tile late: after tile P + 1's
//   copies are issued, wait_group 1, the mask stores, fence.proxy.async (cp.async writes
//   -> wgmma reads) and an arrive on full[P]. So two tiles are in flight per thread. A
//   stage is refilled after the NC consumers arrive on its empty barrier.
// - Consumers (registers raised to wg_regs::cons): Q fragments in registers (from global, per
//   item), S = Q K^T by wgmma m64n64k16 (K by descriptor), P in registers (bf16) as the A
//   operand of O += P V, wgmma m64n32k16 (V N-major by descriptor). FlashAttention-3's
//   intra-warpgroup order per key tile j (wg_step): pack P_{j-1}, issue S_j, rescale O and
//   issue O += P_{j-1} V_{j-1}, wait for S_j (wait_group 1), the softmax of tile j while
//   P V runs, wait_group 0. The two consumer warpgroups overlap each other besides.
//   Softmax and epilogue are k_s9_fwd's (s9_softmax_p, s9_store_output: the wgmma
//   accumulator layout per warp is the mma.sync m16n8 one), so the per-score arithmetic is
//   the same; the products' fp32 accumulation order inside wgmma may differ from
//   mma.sync's (not bit-identical).
// - Stage release: tile j's K is read by S_j, bias and mask by softmax j, V by P_j V_j,
//   which step j + 1 waits for (wait_group 0) at its end; step j + 2 arrives on empty[j]
//   first thing (the item's last two tiles: after the loop). With signalling one tile late
//   the ring needs >= 3 stages to be free of deadlock (tile P needs tile P - 3 released, at
//   the start of step P - 1, which came after the wait for full[P - 2], signalled after
//   tile P - 1 was issued); WG_ST = 4 fetches further ahead.
// c_h 24 and 32 (CH = 32, channels past c_h zero); the bias is the bf16 copy or none.
#include "cu_flash_sm90.cuh"
#include "cu_env.cuh"

#define WG_NC 2     // consumer warpgroups (rows per work item) fa_sm90_forward_wg takes; 3: a variant
#define WG_ST 4     // ring stages (>= 3: header)
#define WG_PREG 72  // producer registers after setmaxnreg.dec (ptxas allocates its code within them: 56 spilled)
// consumer registers after setmaxnreg.inc: what the block's registers at entry (the
// launch-bound cap, a multiple of 8) leave after the producer's: NC 2: 216 (384 x 168 =
// 128 x 72 + 256 x 216), NC 3: 144 (512 x 128 >= 128 x 72 + 384 x 144)
template <int NC>
struct wg_regs {
    static constexpr int entry = 65536 / (128 * (NC + 1)) / 8 * 8;
    static constexpr int cons = (entry * (NC + 1) - WG_PREG) / NC / 8 * 8;
};

// One ring stage: K, V bf16 [NC][64 keys x 32 ch] (core matrices), bias bf16 [64 queries]
// [S9_BS16], mask fp32 [NC][64]; then full[WG_ST], empty[WG_ST] mbarriers.
template <int NC>
struct wg_layout {
    static constexpr int TE = S9_K * 32;                         // bf16 elements of one row's K or V tile
    static constexpr size_t K = 0;
    static constexpr size_t V = K + (size_t)NC * TE * 2;
    static constexpr size_t B = V + (size_t)NC * TE * 2;
    static constexpr size_t M = B + (size_t)S9_Q * S9_BS16 * 2;
    static constexpr size_t stage = M + (size_t)NC * S9_K * 4;  // a multiple of 128 bytes
    static constexpr size_t bar = WG_ST * stage;
    static constexpr size_t bytes = bar + 2 * WG_ST * 8;
    static_assert(stage % 128 == 0, "stages 128-byte aligned (descriptors)");
};

#if S9_HAVE_WGMMA
// Work item -> (row group, query tile, head): k_s9_fwd's order
struct wg_item {
    int r0, q0, h;
};
__device__ __forceinline__ wg_item wg_decode(int item, int nqt, int nrg, int nc) {
    int rest = item / nqt;
    return {(rest % nrg) * nc, (item % nqt) * S9_Q, rest / nrg};
}

// The copies of key tile k0 of an item into a stage (cp.async; the caller commits): K and
// V of the NC rows, the bias tile. Zeros beyond L, B and c_h, and past L in queries.
template <int NC>
__device__ __forceinline__ void wg_fetch(const fa_args &a, unsigned char *st, const wg_item &w, int k0, int lp) {
    typedef wg_layout<NC> SL;
    int x = threadIdx.x;  // producer thread 0..127
    bf16 *Ks = (bf16 *)(st + SL::K), *Vs = (bf16 *)(st + SL::V);
    const bf16 *kg = (const bf16 *)a.k, *vg = (const bf16 *)a.v;
#pragma unroll
    for (int u = 0; u < NC * 2; u++) {  // NC rows x 64 keys x 4 chunks of 8 channels
        int i = x + 128 * u, rho = i >> 8, v = i & 255;
        int j = (v >> 5) * 8 + (v & 7), c = ((v >> 3) & 3) * 8;  // 8 threads fill one core matrix
        int r = w.r0 + rho, k = k0 + j;
        bool ok = r < a.B && k < a.L && c < a.ch;
        int64_t off = ok ? fa_pos(a, r, k) * a.HC + (int64_t)w.h * a.ch + c : 0;
        int d = rho * SL::TE + s9_off<32, true>(j, c);
        fa_cp16z(Ks + d, kg + off, ok ? 16 : 0);
        fa_cp16z(Vs + d, vg + off, ok ? 16 : 0);
    }
    if (!a.biasT16) return;
    const bf16 *bh = a.biasT16 + (int64_t)w.h * a.L * lp;
    bf16 *Bs = (bf16 *)(st + SL::B);
#pragma unroll
    for (int u = 0; u < 4; u++) {  // 64 queries x 8 chunks of 8 keys
        int qr = (x >> 3) + 16 * u, qc = (x & 7) * 8, q = w.q0 + qr;
        bool ok = q < a.L;
        fa_cp16z(Bs + qr * S9_BS16 + qc, ok ? bh + (int64_t)q * lp + k0 + qc : bh, ok ? 16 : 0);
    }
}

// This thread's mask terms of key tile k0 (rows r0 + i / 64, keys k0 + i % 64, i = x +
// 128 u): log2 units, -inf past L and for rows >= B. Loaded a tile before they are stored.
template <int NC>
__device__ __forceinline__ void wg_mask_load(const fa_args &a, const wg_item &w, int k0, float (&mv)[(NC + 1) / 2]) {
#pragma unroll
    for (int u = 0; u < (NC + 1) / 2; u++) {
        int i = threadIdx.x + 128 * u, r = w.r0 + (i >> 6), k = k0 + (i & 63);
        mv[u] = -INFINITY;
        if (i < NC * S9_K && r < a.B && k < a.L)
            mv[u] = a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[fa_pos(a, r, k)])) * S9_L2E : 0.f;
    }
}

// Tile P's copies are done (WAIT: groups left in flight), its mask terms stored: fence
// for the wgmma reads, then full[P % WG_ST].
template <int NC, int WAIT>
__device__ __forceinline__ void wg_signal(unsigned char *sm, uint32_t P, const float (&mv)[(NC + 1) / 2]) {
    typedef wg_layout<NC> SL;
    fa_wait<WAIT>();
    float *Ms = (float *)(sm + (P % WG_ST) * SL::stage + SL::M);
#pragma unroll
    for (int u = 0; u < (NC + 1) / 2; u++)
        if (threadIdx.x + 128 * u < NC * S9_K) Ms[threadIdx.x + 128 * u] = mv[u];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    wg_bar_arrive((uint64_t *)(sm + SL::bar) + P % WG_ST);
}

template <int NC>
__device__ __forceinline__ void wg_producer(const fa_args &a, unsigned char *sm, int nitems, int nqt, int nrg) {
    typedef wg_layout<NC> SL;
    uint64_t *empty = (uint64_t *)(sm + SL::bar) + WG_ST;
    int lp = ((int)a.L + 63) & ~63;
    uint32_t P = 0;  // tiles issued so far (all items of this block)
    float mprev[(NC + 1) / 2];  // NC x 64 mask terms over 128 threads
    for (int item = blockIdx.x; item < nitems; item += gridDim.x) {
        wg_item w = wg_decode(item, nqt, nrg, NC);
        for (int k0 = 0; k0 < (int)a.L; k0 += S9_K, P++) {
            uint32_t s = P % WG_ST;
            if (P >= WG_ST) wg_bar_wait(empty + s, (P / WG_ST - 1) & 1);
            wg_fetch<NC>(a, sm + s * SL::stage, w, k0, lp);
            fa_commit();
            float mcur[(NC + 1) / 2];
            wg_mask_load<NC>(a, w, k0, mcur);
            if (P > 0) wg_signal<NC, 1>(sm, P - 1, mprev);
#pragma unroll
            for (int u = 0; u < (NC + 1) / 2; u++) mprev[u] = mcur[u];
        }
    }
    if (P > 0) wg_signal<NC, 0>(sm, P - 1, mprev);
}

// This warp's Q rows of row r as wgmma A fragments (the m16n8k16 A layout per warp),
// zeros past L, B and c_h
__device__ __forceinline__ void wg_q_load(const fa_args &a, int r, int q0, int h, int wq, int g, int t,
                                          uint32_t (&qa)[2][4]) {
#pragma unroll
    for (int kk = 0; kk < 2; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int q = q0 + 16 * wq + g + 8 * (e & 1), c = 16 * kk + 2 * t + 8 * (e >> 1);
            bool ok = r < a.B && q < a.L && c < a.ch;
            qa[kk][e] = ok ? *(const uint32_t *)((const bf16 *)a.q + fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch + c) : 0;
        }
}

// S = Q K^T (64 x 64, this warpgroup) issued and committed, not waited for
__device__ __forceinline__ void wg_scores_issue(float (&s)[8][4], const uint32_t (&qa)[2][4], const bf16 *Kt) {
    uint64_t dk = s9_desc(Kt, 128, 32 * 16);
    s9_wg_fence();
    wg_n64_first(&s[0][0], qa[0], dk);
    s9_wg_n64(&s[0][0], qa[1], dk + (256 >> 4), 1);
    s9_wg_commit();
}

// Registers a running wgmma reads stay live until its wait (else ptxas may give them to
// other values and must wait for the wgmma before their first write)
__device__ __forceinline__ void wg_hold_a(uint32_t (&pa)[4][4]) {
#pragma unroll
    for (int i = 0; i < 16; i++) asm volatile("" : "+r"(pa[i / 4][i % 4])::"memory");
}

// P (fp32, in the accumulator layout of S) as the bf16 A fragments of O += P V
__device__ __forceinline__ void wg_pack_p(const float (&s)[8][4], uint32_t (&pa)[4][4]) {
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        pa[kk][0] = fa_pack2(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fa_pack2(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fa_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fa_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
}

// O rescaled by corr (the max's change of the softmax whose P is multiplied next), then
// O += P V issued and committed, not waited for
__device__ __forceinline__ void wg_pv_issue(float (&o)[4][4], const float (&corr)[2], const uint32_t (&pa)[4][4],
                                            const bf16 *Vt) {
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int j = 0; j < 4; j++) { o[j][2 * u] *= corr[u]; o[j][2 * u + 1] *= corr[u]; }
    uint64_t dv = s9_desc(Vt, 32 * 16, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) s9_wg_n32t(&o[0][0], pa[kk], dv + ((kk * 2 * 32 * 16) >> 4));
    s9_wg_commit();
}

// A consumer's state over one work item: O, the running max and sum, the O rescale factor
// of the last softmax, the bf16 P fragments of O += P V, Q
struct wg_cstate {
    float o[4][4], m[2], l[2], corr[2];
    uint32_t pa[4][4], qa[2][4];
};

// The softmax of key tile T (its S in s, complete): P packed into cs.pa, cs.corr set
template <int NC, bool HB>
__device__ __forceinline__ void wg_softmax(unsigned char *sm, uint32_t T, float (&s)[8][4], wg_cstate &cs, int cw,
                                           float sc2, int wq, int g, int t) {
    typedef wg_layout<NC> SL;
    unsigned char *st = sm + (T % WG_ST) * SL::stage;
    // HB: a bias tile. In B16 mode the softmax's bT is only tested for NULL (the values come
    // from Bt), per score: a constant, so the test folds away
    s9_softmax_p<true>(s, cs.m, cs.l, cs.corr, (const float *)(st + SL::M) + cw * S9_K, st + SL::B,
                       HB ? (const void *)(uintptr_t)1 : NULL, sc2, wq, g, t);
}

// Key tile T of the block (not an item's first; s holds P of tile T - 1 in fp32):
// FlashAttention-3's order. P_{T-1} packed to bf16; S_T issued; O rescaled and O += P V of
// tile T - 1 issued (both run while the warpgroup waits for S_T); the softmax of tile T
// runs while P V does; then tile T - 1's stage is released (its K, V, bias and mask reads
// all done). Nothing here writes a register that a running wgmma reads or writes (ptxas
// would serialize every wgmma, C7515, or wait early: P was first packed after the wait for
// P V, into the registers P V was reading, and ptxas put that wait before the softmax).
template <int NC, bool HB>
__device__ __forceinline__ void wg_step(unsigned char *sm, uint32_t T, bool rel, float (&s)[8][4], wg_cstate &cs,
                                        int cw, float sc2, int wq, int g, int t) {
    typedef wg_layout<NC> SL;
    uint64_t *full = (uint64_t *)(sm + SL::bar), *empty = full + WG_ST;
    wg_pack_p(s, cs.pa);
    // rel: tile T - 2 (of this item) is done (its P V waited for at the end of the last step)
    if (rel) wg_bar_arrive(empty + (T - 2) % WG_ST);
    wg_bar_wait(full + T % WG_ST, (T / WG_ST) & 1);
    wg_scores_issue(s, cs.qa, (const bf16 *)(sm + (T % WG_ST) * SL::stage + SL::K) + cw * SL::TE);
    wg_pv_issue(cs.o, cs.corr, cs.pa, (const bf16 *)(sm + ((T - 1) % WG_ST) * SL::stage + SL::V) + cw * SL::TE);
    wg_mma_wait<1>();  // S_T done, P_{T-1} V_{T-1} runs on
    s9_wg_hold<32>(&s[0][0]);
    wg_softmax<NC, HB>(sm, T, s, cs, cw, sc2, wq, g, t);
    s9_wg_hold<32>(&s[0][0]);  // P complete before the wait
    wg_mma_wait<0>();
    s9_wg_hold<16>(&cs.o[0][0]);
    wg_hold_a(cs.pa);  // P V's A registers live up to here: not taken for the softmax's temporaries
}

template <int NC, bool HB>
__device__ __forceinline__ void wg_consumer(const fa_args &a, unsigned char *sm, int nitems, int nqt, int nrg) {
    typedef wg_layout<NC> SL;
    uint64_t *full = (uint64_t *)(sm + SL::bar), *empty = full + WG_ST;
    int cw = (threadIdx.x >> 7) - 1;  // this consumer's row in the item
    int tid = threadIdx.x & 127, wq = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
    const float sc2 = a.scale * S9_L2E;
    int nk = ((int)a.L + S9_K - 1) / S9_K;
    uint32_t T = 0;  // tiles consumed so far (all items of this block)
    wg_cstate cs;
    for (int item = blockIdx.x; item < nitems; item += gridDim.x) {
        wg_item w = wg_decode(item, nqt, nrg, NC);
        wg_q_load(a, w.r0 + cw, w.q0, w.h, wq, g, t, cs.qa);
#pragma unroll
        for (int j = 0; j < 4; j++) cs.o[j][0] = cs.o[j][1] = cs.o[j][2] = cs.o[j][3] = 0;
        cs.m[0] = cs.m[1] = -INFINITY;
        cs.l[0] = cs.l[1] = 0;
        float s[8][4];
        // tile 0: S, softmax (O is zero: its rescale comes with the first P V), P
        wg_bar_wait(full + T % WG_ST, (T / WG_ST) & 1);
        wg_scores_issue(s, cs.qa, (const bf16 *)(sm + (T % WG_ST) * SL::stage + SL::K) + cw * SL::TE);
        wg_mma_wait<0>();
        s9_wg_hold<32>(&s[0][0]);
        wg_softmax<NC, HB>(sm, T, s, cs, cw, sc2, wq, g, t);
        for (int j = 1; j < nk; j++) wg_step<NC, HB>(sm, T + j, j >= 2, s, cs, cw, sc2, wq, g, t);
        T += nk;
        // the last tile's P V
        wg_pack_p(s, cs.pa);
        wg_pv_issue(cs.o, cs.corr, cs.pa, (const bf16 *)(sm + ((T - 1) % WG_ST) * SL::stage + SL::V) + cw * SL::TE);
        wg_mma_wait<0>();
        s9_wg_hold<16>(&cs.o[0][0]);
        if (nk >= 2) wg_bar_arrive(empty + (T - 2) % WG_ST);
        wg_bar_arrive(empty + (T - 1) % WG_ST);
        s9_store_output<32>(a, cs.o, cs.m, cs.l, w.r0 + cw, w.q0, w.h, wq, g, t);
    }
}
#endif

// Launched on sm_90 only; compiled for sm_80 it traps.
template <int NC, bool HB>
__global__ void __launch_bounds__(128 * (NC + 1), 1) k_s9_fwd_wg(fa_args a, int nitems, int nqt, int nrg) {
#if S9_HAVE_WGMMA
    static_assert(128 * WG_PREG + 128 * NC * wg_regs<NC>::cons <= 128 * (NC + 1) * wg_regs<NC>::entry,
                  "setmaxnreg: the registers after the split fit the block's allocation");
    typedef wg_layout<NC> SL;
    extern __shared__ __align__(128) unsigned char wg_sm[];
    if (threadIdx.x == 0) {
        uint64_t *bar = (uint64_t *)(wg_sm + SL::bar);
        for (int s = 0; s < WG_ST; s++) {
            wg_bar_init(bar + s, 128);               // full: the producer's threads
            wg_bar_init(bar + WG_ST + s, 128 * NC);  // empty: every consumer thread
        }
    }
    __syncthreads();
    if (threadIdx.x < 128) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(WG_PREG));
        wg_producer<NC>(a, wg_sm, nitems, nqt, nrg);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(wg_regs<NC>::cons));
        wg_consumer<NC, HB>(a, wg_sm, nitems, nqt, nrg);
    }
#else
    __trap();
#endif
}

// The warp-specialised wgmma forward with NC consumer warpgroups (rows per item): c_h 24
// or 32 (HC % 8 == 0), the bias from its bf16 copy (bias_bf16 needed) or none. Nonzero: not
// handled, nothing launched (fa_sm90_forward then runs k_s9_fwd_pipe).
template <int NC>
static int wg_launch(cu_impl *c, const fa_args *a) {
    typedef wg_layout<NC> SL;
    if (!c->bf16 || a->B <= 0 || a->L <= 0 || a->L > (1 << 24)) return 1;
    if (a->ch <= 16 || a->ch > 32 || a->ch % 8 || a->HC % 8) return 1;
    if (a->biasT && !a->bias_bf16) return 1;
    int64_t nqt = (a->L + S9_Q - 1) / S9_Q, nrg = (a->B + NC - 1) / NC, n = nqt * nrg * a->H;
    if (n > 2147483647LL) return 1;
    static int attr_set[2] = {0, 0};  // per kernel; the device does not change within a process
    for (int hb = 0; hb < 2; hb++) {
        if (attr_set[hb]) continue;
        if (cudaFuncSetAttribute(hb ? k_s9_fwd_wg<NC, true> : k_s9_fwd_wg<NC, false>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SL::bytes) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set[hb] = 1;
    }
    fa_args b = *a;
    b.biasT16 = NULL;
    if (a->biasT && !(b.biasT16 = fa_sm90_bias16(c, a))) return 1;
    int64_t nsm = c->n_sm > 0 ? c->n_sm : 132, grid = n < nsm ? n : nsm;  // persistent: one block per SM
    if (b.biasT16)
        k_s9_fwd_wg<NC, true><<<(unsigned)grid, 128 * (NC + 1), SL::bytes, c->stream>>>(b, (int)n, (int)nqt, (int)nrg);
    else
        k_s9_fwd_wg<NC, false><<<(unsigned)grid, 128 * (NC + 1), SL::bytes, c->stream>>>(b, (int)n, (int)nqt, (int)nrg);
    CU_LAUNCHED();
    return 0;
}

// No device or env check (benchmarks; sm_90 only). nc: consumer warpgroups, 2 (the
// dispatch's) or 3.
int fa_sm90_forward_wg_nc(cu_impl *c, const fa_args *a, int nc) {
    if (nc == 3) return wg_launch<3>(c, a);
    return nc == 2 ? wg_launch<2>(c, a) : 1;
}
int fa_sm90_forward_wg(cu_impl *c, const fa_args *a) { return wg_launch<WG_NC>(c, a); }
