// cu_flash_sm90_tma.cu: the TMA forms of the Hopper attention forward (PF_ATTN_FWD_BMMA=3, 4 or unset; the
// default since session 52): k_s9_fwd_bmma2's arithmetic with each key tile's K, V and bias brought by TMA
// tensor-map copies that one thread issues (cu_tma.cuh), in place of cp.async per thread. k_s9_fwd_tma (3) is
// s9d_run's TMA form (cu_flash_sm90_bmma2.cuh, s9t_layout's comment: the same bits as k_s9_fwd_bmma2);
// k_s9_fwd_half (4 or unset, the default since session 56) works each key tile in two 32-key halves with Q in
// registers, 4 blocks an SM (other bits). (k_s9_fwd_hp, session 56's `=7`, k_s9_fwd_half's arithmetic with each
// half's exps issued beside independent products at 3 blocks an SM, was 2.387 against 2.323 ms a launch on an H100
// in session 57 and the module level: removed; git history has it at 2c57c43. Session 61's PF_ATTN_FWD_POLY, a
// quarter or half of k_s9_fwd_half's exps by a polynomial on the FMA pipe, was 2.530 / 2.803 against 2.327 ms a
// launch on an H100: removed, the code at b44abd3.) Here: the tensor maps (s9t_maps),
// the two kernels, and
// their host code: s9t_piece (one piece of rows: its maps, then the launch; cu_flash_sm90.cu's s9b_run cuts the
// rows into pieces) and fa_sm90_forward_tma (where the maps apply; fa_sm90_forward, cu_flash_sm90.cu, picks the
// form: s9_bmma_form). The same contract as the forward's other kernels (cu_flash_sm90.cu's top comment).
#include "cu_flash_sm90.cuh"
#include "cu_flash_sm90_bmma2.cuh"
#ifndef PF_EMU_NO_HOST
#include "cu_env.cuh"
#endif

// The TMA form's maps (a __grid_constant__ parameter: the copies read them in the parameter space)
struct s9t_maps {
    CUtensorMap m[3];  // K, V: (HC, L, B) bf16, box (32, 64, 1), 64-byte swizzle; bias: (Lp, H Lp), box (64, 128), 128
};
// The maps of one piece (p's pointers at its first row, p->biasT16 the natural-order copy); nonzero: refused. Host
// code the launch and the emulator's test (tests/emu/test_emu_attn_fwd.cpp) share.
static inline int s9t_maps_encode(s9t_maps *tm, const fa_args *p) {
    const uint64_t lp = (uint64_t)((p->L + 63) & ~(int64_t)63);
    const uint64_t dims[3] = {(uint64_t)p->HC, (uint64_t)p->L, (uint64_t)p->B};
    const uint64_t strides[2] = {(uint64_t)(p->pstride * p->HC), (uint64_t)(p->rstride * p->HC)};
    const uint32_t box[3] = {32, S9_K, 1};
    return tma_map_encode(&tm->m[0], p->k, 2, 3, dims, strides, box, 64) ||
           tma_map_encode(&tm->m[1], p->v, 2, 3, dims, strides, box, 64) ||
           tma_map_2d(&tm->m[2], p->biasT16, 2, (uint64_t)p->H * lp, lp, lp, S9_Q2, 64, 128);
}
template <int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_tma(const fa_args a, const __grid_constant__ s9t_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9d_run<32, true>(a, tm.m, s9_sm + ((1024 - (fa_smem(s9_sm) & 1023)) & 1023));
#endif
}

// PF_ATTN_FWD_BMMA=4 or unset (session 56, the default since): k_s9_fwd_half, k_s9_fwd_tma at 4 blocks an SM.
// Session 55's ncu found k_s9_fwd_tma latency bound (3 warps a scheduler, 6.6 cycles between a warp's issues, no
// pipe near its peak), held at 3 blocks by both its registers (168) and its shared memory (61,984 bytes). Here
// each 64-key tile is worked in two 32-key halves (scores, softmax, P V of keys 0-31, then 32-63), so a thread
// holds 32 scores in place of 64, and Q's A fragments stay in registers for the whole key loop (16 registers), so
// no Q tile: Q is staged once in bias buffer 1, before the first copy into it. Copies, buffers and barriers as
// k_s9_fwd_tma's; the lazy reference max moves per half, so the bits differ from k_s9_fwd_tma's (checked against
// the reference, not bits).
struct s9h_layout {
    static constexpr size_t TE = s9t_layout::TE, BT = s9t_layout::BT;
    static constexpr size_t B = 0;                           // [2][BT]: 1024-byte aligned (128-byte swizzle)
    static constexpr size_t Q = B + BT;                      // bf16 [128][32 + 8] in buffer 1, before its first copy
    static constexpr size_t K = B + 2 * BT;                  // bf16 [2][TE]
    static constexpr size_t V = K + 2 * TE * 2;              // bf16 [2][TE]
    static constexpr size_t M = V + 2 * TE * 2;              // fp32 [2][64]
    static constexpr size_t P = M + 2 * (size_t)S9_K * 4;    // int [260]: Ps[256..259] as k_s9_fwd_tma's
    static constexpr size_t BAR = (P + 260 * 4 + 7) & ~(size_t)7;  // uint64 [2]
    static constexpr size_t bytes = BAR + 16;
    static constexpr size_t MW = bytes;                             // fp32 [2][4 warps][64]: the SB form's
    static constexpr size_t bytes_sb = MW + 2 * 4 * (size_t)S9_K * 4;
    static constexpr uint32_t tx = s9t_layout::tx;
    static_assert(2 * (size_t)S9_Q * 40 * 2 <= BT, "Q's staging fits a bias buffer");
    static_assert(K % 512 == 0 && V % 512 == 0 && BT % 1024 == 0, "swizzle pattern alignment");
};

// PF_ATTN_FWD_AO=1 (session 61, opt-in, not yet timed): k_s9_fwd_half with each thread's ldmatrix byte offsets
// within a tile computed once and held (7 registers) in place of the swizzled addresses its SASS recomputes every
// tile (~86 integer / address instructions a warp-tile under the 128-register cap, session 61's profile). With
// r16 = 16 wq + (lane & 15): the bias tile's chunk c + h (c = 4 hf + 2 jp even, h = lane >> 4) swizzled by row & 7 =
// lane & 7 is c ^ X, X = h ^ (lane & 7), so 4 offsets for c = 0, 2, 4, 6 (sub-tile i adds 8192 bytes); K's row
// 8 j + (lane & 7) swizzles chunk lane >> 3 by (lane >> 1) & 3 whatever j (j adds 512 bytes); V's row 16 kk +
// (lane & 15) swizzles chunk 2 jp + h by (lane >> 1) & 3, so 2 offsets (kk adds 1024 bytes). s9t_kv_at /
// s9t_bias_at's layout exactly: the same addresses, so the same bits (test_emu_attn_fwd compares).
struct s9h_offs {
    uint32_t b[4], k, v[2];  // bytes from the tile's start
};
// x through an empty asm: the compiler cannot recompute it from the thread index, so holds it
__device__ __forceinline__ uint32_t s9h_opaque(uint32_t x) {
#ifndef PF_EMU
    asm volatile("" : "+r"(x));
#endif
    return x;
}
__device__ __forceinline__ s9h_offs s9h_offsets(int wq, int lane) {
    s9h_offs f;
    const int r16 = 16 * wq + (lane & 15), X = (lane >> 4) ^ (lane & 7), Y = (lane >> 1) & 3, Z = (lane >> 4) ^ Y;
#pragma unroll
    for (int c = 0; c < 4; c++) f.b[c] = s9h_opaque(2u * (uint32_t)(r16 * 64 + (((2 * c) ^ X) << 3)));
    f.k = s9h_opaque(2u * (uint32_t)((lane & 7) * 32 + (((lane >> 3) ^ Y) << 3)));
#pragma unroll
    for (int jp = 0; jp < 2; jp++) f.v[jp] = s9h_opaque(2u * (uint32_t)((lane & 15) * 32 + (((2 * jp) ^ Z) << 3)));
    return f;
}
// s9d_scores_q<32, true, 4> / s9d_accumulate_pv<32, true, 4> of half hf at the held offsets
__device__ __forceinline__ void s9h_scores_ao(float (&s)[2][4][4], const uint32_t (&qa)[2][2][4], uint32_t ci,
                                              const unsigned char *Kt, const unsigned char *Bt, int hf,
                                              const s9h_offs &f) {
    s9d_scores_by<32, 4>(
        s, qa, ci, [&](uint32_t(&b4)[4], int i, int jp) { fa_ldsm4(b4, Bt + f.b[2 * hf + jp] + 8192 * i); },
        [&](uint32_t(&k4)[4], int j) { fa_ldsm4(k4, Kt + f.k + 512 * (4 * hf + j)); });
}
__device__ __forceinline__ void s9h_pv_ao(float (&o)[2][4][4], float (&ls)[2][4], const float (&s)[2][4][4],
                                          const unsigned char *Vt, int hf, const s9h_offs &f) {
    s9d_accumulate_pv_by<32, 4>(o, ls, s, [&](uint32_t(&v4)[4], int kk, int jp) {
        fa_ldsm4t(v4, Vt + f.v[jp] + 1024 * (2 * hf + kk));
    });
}

// PF_ATTN_FWD_SB=1 (session 61, opt-in, not yet timed): k_s9_fwd_half without its block barrier a tile (8.1% of
// its warps' samples in session 61's profile). The barrier did three things: it let thread 0 refill the buffers of
// tile j - 1 once every warp was done with them, it published the mask terms threads 0-63 wrote for tile j, and it
// OR-ed their "any key masked" flags. Here each warp works out the mask terms of the next tile's 64 keys itself
// (two a lane) into its own slice of shared memory (s9h_layout::MW), so the terms and the flag need no other warp
// (every warp sees the same 64 keys, so the flag is the block's and the bits are k_s9_fwd_half's); and only warp 0,
// whose thread 0 issues the refill, waits for the others (named barrier 1: bar.sync there, bar.arrive in warps 1-3),
// so a warp ahead runs on into its next tile's wait for the copies. (Session 54's mbarrier form, where the mask
// writers waited on an empty barrier, was 3.7% slower.)
// (SB) this warp's mask terms of a tile's keys lane and 32 + lane into its slice Mw (if write: past the last tile
// there is none, and m0 = m1 = 0); the warp's "any key masked"
__device__ __forceinline__ bool s9h_mask_publish(float *Mw, int lane, float m0, float m1, bool write) {
    if (write) Mw[lane] = m0, Mw[32 + lane] = m1;
    __syncwarp();
    return __any_sync(0xffffffffu, m0 != 0.f || m1 != 0.f);
}
__device__ __forceinline__ void s9h_buffers_free(int wq) {
#ifndef PF_EMU
    if (wq == 0) asm volatile("bar.sync 1, 128;\n" ::: "memory");
    else asm volatile("bar.arrive 1, 128;\n" ::: "memory");
#else
    if (wq == 0) emu_named_bar(1, 128);
    else emu_named_arrive(1, 128);
#endif
}

// Tile j (buffers b) of k_s9_fwd_half: as s9d_tile's TMA form, the products and softmax in two 32-key halves (session
// 56 also timed 4 parts of 16 keys: the kernel 2% slower, the module level; and the halves at 3 blocks an SM, 168
// registers: level with 4 blocks, so the 4th block is not what the halves gained)
// (FX: the reference max m fixed, no row maxima: s9h_run's PF_ATTN_FWD_FX form; ph: bit b flips buffer b's parity)
template <int b, bool AO, bool SB, bool FX>
__device__ __forceinline__ void s9h_tile(const fa_args &a, const CUtensorMap *tm, int k0, unsigned char *sm,
                                         const uint32_t (&qa)[2][2][4], uint32_t ci, float (&o)[2][4][4],
                                         float (&m)[2][2], float (&ls)[2][4], bool &mflag, float alpha, int wq, int t,
                                         int lane, const s9h_offs &f, uint32_t ph) {
    typedef s9h_layout TL;
    const bf16 *Ks = (const bf16 *)(sm + TL::K) + b * TL::TE, *Vs = (const bf16 *)(sm + TL::V) + b * TL::TE;
    const bf16 *Bs = (const bf16 *)(sm + TL::B + b * TL::BT);
    // the mask terms: the block's [2][64], or (SB) this warp's [2][64] of [2][4][64]
    float *Ms = SB ? (float *)(sm + TL::MW) + wq * 2 * S9_K : (float *)(sm + TL::M);
    const int *Ps = (const int *)(sm + TL::P);
    s9t_wait<TL>(sm, b, k0, (ph >> b) & 1);
    bool masked;
    if constexpr (SB) {
        masked = mflag;  // this warp's, the same for every warp
        s9h_buffers_free(wq);
    } else {
        masked = __syncthreads_or(mflag);  // everyone's; every warp is done with tile j - 1
    }
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0, mnext2 = 0;
    if (more) {
        if (threadIdx.x == 0) s9t_issue<TL>(a, tm, Ps, k0 + S9_K, sm, b ^ 1);
        if constexpr (SB) {
            mnext = s9b_mask_at(a, Ps[256], k0 + S9_K + lane);
            mnext2 = s9b_mask_at(a, Ps[256], k0 + S9_K + 32 + lane);
        } else if (threadIdx.x < S9_K) {
            mnext = s9b_mask(a, Ps[256], k0 + S9_K);
        }
    }
    constexpr int NP = 2, NJ = 8 / NP;  // parts, 8-key column blocks a part
#pragma unroll
    for (int hf = 0; hf < NP; hf++) {
        float sc[2][NJ][4];
        if constexpr (AO) s9h_scores_ao(sc, qa, ci, (const unsigned char *)Ks, (const unsigned char *)Bs, hf, f);
        else s9d_scores_q<32, true, NJ>(sc, qa, ci, Ks, Bs, NJ * hf, wq, lane);
        const float *Mh = Ms + b * S9_K + 8 * NJ * hf;  // the half's mask terms
        if constexpr (FX) s9d_softmax_exp<NJ>(sc, m, s9d_mask_terms<NJ>(sc, Mh, masked, alpha, t));
        else s9d_softmax_update<32, NJ>(sc, m, ls, o, Mh, masked, alpha, a.lazy_step, t);
        if constexpr (AO) s9h_pv_ao(o, ls, sc, (const unsigned char *)Vs, hf, f);
        else s9d_accumulate_pv<32, true, NJ>(o, ls, sc, Vs, NJ / 2 * hf, lane);
    }
    if constexpr (SB) {
        mflag = s9h_mask_publish(Ms + (b ^ 1) * S9_K, lane, mnext, mnext2, more);
    } else {
        if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
        mflag = mnext != 0.f;
    }
}

// The key tiles from k0 = kb (buffer B0 first) to the last: s9h_tile of each (FX, ph: s9h_tile's)
template <int B0, bool AO, bool SB, bool FX>
__device__ __forceinline__ void s9h_keys(const fa_args &a, const CUtensorMap *tm, int kb, unsigned char *sm,
                                         const uint32_t (&qa)[2][2][4], uint32_t ci, float (&o)[2][4][4],
                                         float (&m)[2][2], float (&ls)[2][4], bool &mflag, float alpha, int wq, int t,
                                         int lane, const s9h_offs &f, uint32_t ph) {
    for (int k0 = kb;; k0 += 2 * S9_K) {  // two tiles per trip: buffers B0, B0 ^ 1
        s9h_tile<B0, AO, SB, FX>(a, tm, k0, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, ph);
        if (k0 + S9_K >= (int)a.L) break;
        s9h_tile<B0 ^ 1, AO, SB, FX>(a, tm, k0 + S9_K, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, ph);
        if (k0 + 2 * S9_K >= (int)a.L) break;
    }
}
// The mask terms of tile 0's keys (row position rpos) where the tile reads them: the block's [64] of buffer 0 (threads
// 0-63 write them; the tile's block barrier publishes them), or (SB) this warp's (s9h_buffers_free); the flag
// "a key of the tile is masked" (SB: the warp's, which is the block's)
template <bool SB>
__device__ __forceinline__ bool s9h_mask_tile0(const fa_args &a, unsigned char *sm, int rpos, int wq, int lane) {
    typedef s9h_layout TL;
    if constexpr (SB) {
        return s9h_mask_publish((float *)(sm + TL::MW) + wq * 2 * S9_K, lane, s9b_mask_at(a, rpos, lane),
                                s9b_mask_at(a, rpos, 32 + lane), true);
    } else {
        float m0 = threadIdx.x < S9_K ? s9b_mask(a, rpos, 0) : 0.f;
        if (threadIdx.x < S9_K) ((float *)(sm + TL::M))[threadIdx.x] = m0;
        return m0 != 0.f;
    }
}

// PF_ATTN_FWD_FX (session 63, opt-in, not yet timed): a fixed reference max after the first key tile. The lazy
// reference max (session 32) still works out every tile's row maxima to test whether the reference must move (56
// FMNMX a warp-tile, then a vote: ~11% of the loop's instructions, and the chain scores -> maxima -> exps that the
// profiles of sessions 56-61 found the kernel bound by). But m only has to keep P = exp2(s - m) inside fp32 and bf16,
// whose exponent ranges are the same, and lse = m + log2(l) holds for any m: bf16 P is as precise at 2^40 as at 1.
// So FX sets m from tile 0's maxima (the lazy path, which always moves it there) and then takes every other tile's
// exps from that m with no maxima at all. A row's max p is 1 after tile 0, so l >= 1; what can go wrong is a later
// score more than ~64 (log2 units: ~44 natural) above tile 0's max, or a row masked in tile 0 and not later:
// p, l or O out of range. So each row's l must end in [2^-64, 2^64] and its O finite (NaN fails both); where a row
// of the block does not, the block works all its rows again with the lazy max from tile 0 (k_s9_fwd_half's
// arithmetic exactly: its bits). FX 2 (tests): every block does, so its output must be k_s9_fwd_half's bit for bit.
// Where FX holds the bits are other than k_s9_fwd_half's (other reference max, P rounded at another scale),
// checked against the reference with the same tolerances. Rows past L are not stored and not tested.
template <int FX>
__device__ __forceinline__ bool s9h_fx_redo(const fa_args &a, const float (&o)[2][4][4], const float (&ls)[2][4],
                                            int q2, int wq, int g) {
    bool bad = FX == 2;
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            if (q2 + S9_Q * i + 16 * wq + g + 8 * u >= (int)a.L) continue;
            const float l = ls[i][2 * u];  // the whole sum (s9d_accumulate_pv_by's ones product)
            bad |= !(l >= 0x1p-64f && l <= 0x1p64f);
#pragma unroll
            for (int j = 0; j < 4; j++) bad |= !isfinite(o[i][j][2 * u]) || !isfinite(o[i][j][2 * u + 1]);
        }
    return __syncthreads_or(bad);
}

// The running state before the first key tile: O and the row sums 0, the reference maxima -inf
__device__ __forceinline__ void s9h_state_init(float (&o)[2][4][4], float (&m)[2][2], float (&ls)[2][4]) {
#pragma unroll
    for (int i = 0; i < 2; i++) {
#pragma unroll
        for (int j = 0; j < 4; j++) o[i][j][0] = o[i][j][1] = o[i][j][2] = o[i][j][3] = ls[i][j] = 0;
        m[i][0] = m[i][1] = -INFINITY;
    }
}

// The kernel's body on its shared memory sm (from a 1024-byte boundary; tm the K, V and bias maps, s9t_maps)
template <bool AO, bool SB, int FX>
__device__ __forceinline__ void s9h_run(const fa_args &a, const CUtensorMap *tm, unsigned char *sm) {
    typedef s9h_layout TL;
    const s9d_ids id = s9d_block_ids(a);
    const int r = id.r, q0 = id.q0, h = id.h, lane = id.lane, wq = id.wq, g = id.g, t = id.t;
    const float alpha = id.alpha;
    const uint32_t ci = id.ci;

    // prologue: Q into bias buffer 1 (cp.async), the copies of tile 0 into buffers 0, its mask terms
    int cc = (int)(threadIdx.x % 4) * 8;
    int kvo = cc < a.ch ? (int)(fa_pos(a, r, 0) * a.HC) + h * (int)a.ch + cc : -1;
    bf16 *Qs = (bf16 *)(sm + TL::Q);
    s9b_fetch_rows<32>(a, a.q, kvo, q0, Qs);
    s9b_fetch_rows<32>(a, a.q, kvo, q0 + S9_Q, Qs + S9_Q * 40);
    fa_commit();
    int lp = ((int)a.L + 63) & ~63;
    int *Ps = (int *)(sm + TL::P);
    int rpos = r * (int)a.rstride;
    // Ps[256..259]: the mask row, the copies' coordinates (bias row h Lp + q0, channel h c_h, row r)
    if (threadIdx.x == 0) {
        Ps[256] = rpos, Ps[257] = h * lp + q0, Ps[258] = h * (int)a.ch, Ps[259] = r;
        s9t_init<TL>(sm);
        s9t_issue<TL>(a, tm, Ps, 0, sm, 0);
    }
    bool mflag = s9h_mask_tile0<SB>(a, sm, rpos, wq, lane);
    fa_wait<0>();
    __syncthreads();  // Q landed, Ps and the mbarriers written
    uint32_t qa[2][2][4];
    s9d_load_q<32>(qa, Qs, wq, lane);
    // Q's reads (generic proxy) before tile 1's copy into the same bytes (async proxy), which thread 0 issues
    // after the block barrier at the top of tile 0
#if S9_HAVE_WGMMA
    wg_fence_proxy_async();
#endif
    float o[2][4][4], m[2][2], ls[2][4];
    s9h_state_init(o, m, ls);
    s9h_offs f;
    if constexpr (AO) f = s9h_offsets(wq, lane);
    if constexpr (FX != 0) {  // tile 0 with the lazy max, then the reference fixed (s9h_fx_redo)
        s9h_tile<0, AO, SB, false>(a, tm, 0, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, 0);
        if (S9_K < (int)a.L)
            s9h_keys<1, AO, SB, true>(a, tm, S9_K, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, 0);
    } else {
        s9h_keys<0, AO, SB, false>(a, tm, 0, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, 0);
    }
    {  // (row, query tile, head) again from the block index: not held across the loop (registers)
        uint32_t bx = fa_ctaid_x();
        int nqt2 = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest2 = (int)bx / nqt2, q2 = ((int)bx % nqt2) * S9_Q2;
        if constexpr (FX != 0) {
            if (s9h_fx_redo<FX>(a, o, ls, q2, wq, g)) {
                // Every warp is past its last tile (the barrier in s9h_fx_redo) and no copy is in flight (the last
                // tile issues none). The second pass over the keys: buffer b's uses so far, n_b, flip its parity
                // where odd (tiles 0, 2, .. took buffer 0: ceil(nt / 2) of the nt tiles)
                const int nt = ((int)a.L + S9_K - 1) / S9_K;
                const uint32_t ph = (uint32_t)(((nt + 1) >> 1) & 1) | ((uint32_t)((nt >> 1) & 1) << 1);
                s9h_state_init(o, m, ls);
                if (threadIdx.x == 0) s9t_issue<TL>(a, tm, Ps, 0, sm, 0);
                mflag = s9h_mask_tile0<SB>(a, sm, Ps[256], wq, lane);
                s9h_keys<0, AO, SB, false>(a, tm, 0, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane, f, ph);
            }
        }
#pragma unroll
        for (int i = 0; i < 2; i++) {
            float l[2] = {ls[i][0], ls[i][2]};  // rows g, g + 8: whole sums (s9b_accumulate_pv)
            s9_store_output<32, false>(a, o[i], m[i], l, rest2 % (int)a.B, q2 + S9_Q * i, rest2 / (int)a.B, wq, g,
                                       t);
        }
    }
}
template <int NB, bool AO = false, bool SB = false, int FX = 0>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_half(const fa_args a, const __grid_constant__ s9t_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9h_run<AO, SB, FX>(a, tm.m, s9_sm + ((1024 - (fa_smem(s9_sm) & 1023)) & 1023));
#endif
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// One piece of a TMA form (tform: 3 k_s9_fwd_tma, 4 k_s9_fwd_half; s9b_run's loop; p's pointers at
// the piece's first row): its three maps, then the launch.
#ifndef S9_NBH
#define S9_NBH 4  // k_s9_fwd_half's blocks per SM: 128 registers, 51,744 bytes of shared memory a block
#endif
static cu_switch fwd_ao = {-1, "PF_ATTN_FWD_AO", 0, "k_s9_fwd_half's ldmatrix addresses as they are (the default)",
                           "k_s9_fwd_half with its ldmatrix offsets held (session 61, opt-in)"};
static cu_switch fwd_sb = {-1, "PF_ATTN_FWD_SB", 0, "k_s9_fwd_half's block barrier a tile (the default)",
                           "k_s9_fwd_half with only warp 0 waiting a tile (session 61, opt-in)"};
static cu_setting fwd_fx = {-1, "PF_ATTN_FWD_FX", 0, 2, 0,
                             "k_s9_fwd_half's reference max: 0 lazy, every tile's maxima (the default), 1 fixed "
                             "after the first key tile (session 63, opt-in), 2 form 1 with every block worked again by "
                             "form 0 (tests)"};
static int64_t g_half_runs[12];  // k_s9_fwd_half's launches by form: AO + 2 SB + 4 FX
void fa_sm90_half_forms_set(int ao, int sb, int fx) {
    cu_switch_set(&fwd_ao, ao);
    cu_switch_set(&fwd_sb, sb);
    cu_setting_set(&fwd_fx, fx);
}
int64_t fa_sm90_half_runs(int form) { return form >= 0 && form < 12 ? g_half_runs[form] : 0; }
int s9t_piece(cu_impl *c, const fa_args *p, int64_t nqt, int tform) {
    static int attr_set[13];  // per kernel
    const int sb = tform == 4 && cu_switch_on(&fwd_sb);
    // 0 k_s9_fwd_tma; k_s9_fwd_half's forms 1 + AO + 2 SB + 4 FX
    const int k = tform == 4 ? 1 + cu_switch_on(&fwd_ao) + 2 * sb + 4 * cu_setting_get(&fwd_fx) : 0;
    // the tiles from a 1024-byte boundary
    const size_t smem = (k ? (sb ? s9h_layout::bytes_sb : s9h_layout::bytes) : s9t_layout::bytes) + 1024;
#define S9H_FORMS(fx)                                                                                              \
    k_s9_fwd_half<S9_NBH, false, false, fx>, k_s9_fwd_half<S9_NBH, true, false, fx>,                                \
        k_s9_fwd_half<S9_NBH, false, true, fx>, k_s9_fwd_half<S9_NBH, true, true, fx>
    void (*const kernels[13])(const fa_args, const s9t_maps) = {k_s9_fwd_tma<S9_NB1>, S9H_FORMS(0), S9H_FORMS(1),
                                                                 S9H_FORMS(2)};
#undef S9H_FORMS
    void (*kernel)(const fa_args, const s9t_maps) = kernels[k];
    if (!attr_set[k]) {
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set[k] = 1;
    }
    s9t_maps tm;
    if (s9t_maps_encode(&tm, p)) return 1;
    kernel<<<(unsigned)(nqt * p->B * p->H), 128, smem, c->stream>>>(*p, tm);
    CU_LAUNCHED();
    if (k) g_half_runs[k - 1]++;
    return 0;
}

// The TMA forms by tform, PF_ATTN_FWD_BMMA's value: 3 k_s9_fwd_tma, 4 (or unset) k_s9_fwd_half, where
// their maps apply (c_h 32, every row and position 16-byte aligned, a device of compute capability 9); 1 where not
// (k_s9_fwd_bmma2 then runs)
int fa_sm90_forward_tma(cu_impl *c, const fa_args *a, int tform) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0 || !a->biasT || a->ch != 32 || !cu_device_cc9()) return 1;
    if ((a->HC * 2) % 16 || (a->pstride * a->HC * 2) % 16 || (a->rstride * a->HC * 2) % 16 || a->pstride < 1 ||
        a->rstride < 1 || ((uintptr_t)a->k | (uintptr_t)a->v) & 15)
        return 1;
    // s9t_piece picks its kernel and sets that kernel's shared memory: no size or flag here
    return s9b_run(c, a, NULL, S9_Q2, 0, NULL, tform);
}

#endif  // PF_EMU_NO_HOST
