// cu_flash_bwd_wg.cu: dk, dv and dq of the bf16 attention backward in one pass on Hopper
// wgmma, warp-specialised (sm_90a; the default where it applies since session 30, mode 4;
// PF_ATTN_BWD_WG=0 runs k_bwd_lean instead, 1..3 the earlier modes). docs/ATTENTION_BWD.md
// "Session 29" and "Session 30": level with k_bwd_lean in session 29; session 30's SASS profile
// found the dq slot's stores split into 4-byte stores behind a branch each (now 8-byte stores
// from one base) and mode 4 halved each consumer's dq products: 7.33 ms against k_bwd_lean's
// 8.23 at N = 1024 (the pass alone).
//
// k_bwd_lean (cu_flash_bwd_lean.cuh) runs the same pass on mma.sync and is latency bound
// (ncu: no pipe above 40%, one 8-warp block per SM). Session 18's first wgmma form of this
// pass had the products but no overlap: its two warpgroups issued their own copies and met
// at a block barrier every step. Here, as FlashAttention-3 does:
// - Block = 3 warpgroups (384 threads), persistent over items (head h, row r): the block owns
//   whole items, so an item's dq is summed by this block alone. Warpgroup 0 is the producer
//   (setmaxnreg 64): it walks the same steps as the consumers and copies each step's tiles
//   (Q, dO: 64 queries in wgmma's core-matrix layout; lse, D; the bias^T tile [128 keys][64
//   queries] bf16; at a key block's first step K and V of its 128 keys, into one of two
//   buffers) into a BWS_ST-stage ring by cp.async. Once a step's copies have landed (its own
//   wait_group, then fence.proxy.async: the generic-proxy writes ordered before the
//   consumers' wgmma reads) every producer thread arrives on the stage's full mbarrier;
//   BWS_LAG steps of copies stay in flight.
// - Warpgroups 1 and 2 are the consumers (setmaxnreg 216); consumer wg owns keys 64 wg ..
//   64 wg + 63 of the key block and walks its query tiles. Per step: S^T = K Q^T and dP^T =
//   V dO^T (m64n64k16 x 2 each, K and V as register A fragments); the previous step's dq
//   product (deferred a step, so it runs under this step's p and dS arithmetic); p =
//   exp2(S^T sc + bias^T - lse) and dS = p (dP - D) (k_bwd_lean's formula; a fully masked row
//   has lse = +inf, so p = 0); dV += P^T dO and dK += dS^T Q (m64n32k16 x 4 each, A = the
//   packed accumulators); dS^T (bf16) to shared memory for the next step's dq = dS K
//   (consumer wg takes channels 16 wg .. 16 wg + 15 over the block's 128 keys). The stage is
//   released (empty mbarrier) once the step's products are done; the K buffer once the dq
//   product of its key block's last step is.
// - Mode 1: the two consumers meet at one named barrier per step (both halves of dS^T
//   written), placed after this step's S^T and dP^T are issued; mode 2 (DEC): each waits only
//   for the other's dS^T (bws_ds_arrive / bws_ds_wait); mode 3 (SA): 2 with dS^T in wgmma's
//   MN-major layout, read by descriptor for dq; mode 4 (ALT, the default): 3 with step j's dq
//   product (m64n32, the whole tile) made by consumer j % 2 alone, which waits for the other's
//   dS^T half (the other only arrives). No block-wide barrier in the loop; the same products in
//   the same order in modes 1-3, so the same bits (mode 4: test_cuda `--only attn_bwd_wg`).
// - dq without atomics, as session 18's: the running dq of the item (L x 32 fp32) in the
//   block's own slot of a pool scratch buffer (meant to stay in L2; at N = 1024 much of it comes
//   back from DRAM, as k_bwd_lean's does), each element read, added to and
//   written back by one thread in key-block order; the last key block writes dq (bf16, times
//   scale) instead. Same bits run to run.
// Cases: c_h 32, HC % 8 == 0, L % 64 == 0 and L >= 128 (every query tile whole, two or more
// per key block: a slot row's store comes before its next read; a key block's second half
// past L, when L % 128 == 64, has the mask term -inf: p = 0), the bias as bf16 (exact copy)
// or none. Everything else: the mma.sync kernels (fa_bwd_fused).
#include "cu_flash_bwd.cuh"
#include "cu_flash_bwd_wg.cuh"
#include "cu_bwg_tiles.cuh"
#include "cu_flash_sm90.cuh"
#include "cu_wg_ring.cuh"
#include "cu_tma.cuh"
#include "cu_env.cuh"

#define BWG_KB 128       // keys per key block (2 consumer warpgroups x 64)
#define BWS_NTH 384      // producer + 2 consumer warpgroups
#define BWS_PROD 128     // producer threads
#define BWS_CONS 256     // consumer threads
#define BWS_ST 4         // ring stages
#define BWS_LAG 2        // producer: steps of copies in flight before the oldest is announced
#define BWG_LDS 72       // dS^T row stride (bf16; [key][query], conflict-free ldmatrix.trans)

// Shared memory (bytes): BWS_ST stages of {Q, dO (64 x 32 core matrices), bias^T [128
// keys][BW_LDK] bf16, lse[64], D[64]}, then K x 2, V x 2 (128 x 32 core matrices), dS^T
// [128][BWG_LDS] x 2, then the mbarriers: full[ST], empty[ST], kv_empty[2].
struct bwg_lay {
    static constexpr size_t TQ = 64 * 32 * 2, TK = 128 * 32 * 2;
    static constexpr size_t TB = (size_t)BWG_KB * BW_LDK * 2;  // the bias^T tile
    static constexpr size_t Q = 0, dO = TQ, B = 2 * TQ, L = B + TB, D = L + 256;
    static constexpr size_t stage = D + 256;
    static constexpr size_t K = BWS_ST * stage, V = K + 2 * TK, dS = V + 2 * TK;
    static constexpr size_t dSb = (size_t)BWG_KB * BWG_LDS * 2;  // one dS^T buffer
    static constexpr size_t bar = dS + 2 * dSb;
    static constexpr size_t bytes = bar + (2 * BWS_ST + 2) * 8;
    static_assert(stage % 128 == 0 && K % 128 == 0 && bar % 8 == 0, "tiles 128-byte aligned (descriptors)");
    static_assert(bytes <= 227 * 1024, "one block per SM");
};

// TMA (PF_ATTN_BWD_WG=5, session 52): mode 4 with every tile brought by tensor-map copies one producer thread
// issues (cu_tma.cuh), where mode 4's producer warpgroup issues ~1570 16-byte cp.async a step (session 50: the
// kernel at ~92% of L2's request peak; the forward's same change cut its time 12%, session 51). The tiles are
// TMA's dense swizzled boxes: Q, dO [64][32] and K, V [128][32] bf16 with the 64-byte swizzle (wgmma reads them
// by swizzled descriptors; the A fragments of K and V by bwt_at), the bias^T tile [128 keys][64 queries] bf16
// with the 128-byte swizzle; lse and D (256 bytes each) by plain bulk copies. Shared memory from a 1024-byte
// boundary (the launch asks 1024 bytes more): ST stages of {bias^T, Q, dO, lse, D}, each a multiple of 1024
// bytes, then K x 2, V x 2, dS^T x 2 and the mbarriers as bwg_lay. Same arithmetic: the same bits as mode 4.
struct bwt_lay {
    static constexpr size_t TQ = 64 * 64, TK = (size_t)BWG_KB * 64;  // bytes: 64 / 128 rows of one 64-byte span
    static constexpr size_t TB = (size_t)BWG_KB * 64 * 2;            // the bias^T tile: 128 rows of 128 bytes
    static constexpr size_t B = 0, Q = TB, dO = Q + TQ, L = dO + TQ, D = L + 256;
    static constexpr size_t stage = (D + 256 + 1023) & ~(size_t)1023;
    static constexpr size_t K = BWS_ST * stage, V = K + 2 * TK, dS = V + 2 * TK;
    static constexpr size_t dSb = bwg_lay::dSb;
    static constexpr size_t bar = dS + 2 * dSb;
    static constexpr size_t bytes = bar + (2 * BWS_ST + 2) * 8;
    static constexpr uint32_t tx_step = (uint32_t)(2 * TQ + 512), tx_bias = (uint32_t)TB, tx_kv = (uint32_t)(2 * TK);
    static_assert(stage % 1024 == 0 && K % 1024 == 0 && Q % 512 == 0 && dO % 512 == 0, "swizzle pattern alignment");
    static_assert(bytes + 1024 <= 227 * 1024, "one block per SM");
};
// The TMA form's maps (a __grid_constant__ parameter: the copies read them in the parameter space): q, dO (box
// 32 x 64), k, v (box 32 x 128), each (HC, L, B) bf16 with the 64-byte swizzle; the bf16 bias^T copy (L queries,
// L keys, H), box 64 x 128, the 128-byte swizzle (keys past L read as zero, as mode 4's zero fill).
struct bwt_maps {
    CUtensorMap m[5];
};
template <bool TM>
struct bws_lay_of {
    typedef bwg_lay T;
};
template <>
struct bws_lay_of<true> {
    typedef bwt_lay T;
};

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
static int64_t g_bwg_runs;
int64_t fa_bwd_wg_runs(void) { return g_bwg_runs; }
int fa_bwd_wg_env(void) {
    const char *e = getenv("PF_ATTN_BWD_WG");
    // the default since session 52 (mode 4 where the maps do not apply): k_bwd_ws_tma 7.10 -> 6.49 ms a launch at
    // N = 1024 on an H100; mode 4 was session 30's: -11% against k_bwd_lean
    if (!e || !*e) return 5;
    if (!strcmp(e, "0")) return 0;
    if (!strcmp(e, "1")) return 1;
    if (!strcmp(e, "2")) return 2;
    if (!strcmp(e, "3")) return 3;
    if (!strcmp(e, "4")) return 4;
    if (!strcmp(e, "5")) return 5;
    pf_die("PF_ATTN_BWD_WG=%s: expected 0 (the mma.sync one-pass kernel), 1 (the warp-specialised "
           "wgmma kernel first), 2 (the same with the consumers' dS^T barriers decoupled), 3 (2 with the dq "
           "product's dS from shared memory by descriptor), 4 (3 with each step's dq product made by one "
           "consumer warpgroup, in turn) or 5 (4 with its tiles by TMA tensor maps: the default); 6 (the pair bias on "
           "the tensor core) was measured slower in session 58 and removed",
           e);
    return 0;
}
#endif

// Where a block is: item (head h, row r), key block kb, query tile qt; n: key blocks started
// so far (K, V buffer n % 2). Advanced by counting.
struct bwg_pos {
    int64_t item, r;
    int h, kb, qt, n;
};
__device__ __forceinline__ void bwg_item(const fa_args &a, bwg_pos &p) {
    p.h = (int)(p.item / a.B);
    p.r = p.item - (int64_t)p.h * a.B;
}
// The block's first step: its first item (blockIdx.x), key block 0, query tile 0.
__device__ __forceinline__ bwg_pos bwg_first(const fa_args &a) {
    bwg_pos p;
    p.item = blockIdx.x;
    p.kb = p.qt = p.n = 0;
    p.h = 0;
    p.r = 0;
    if (p.item < (int64_t)a.H * a.B) bwg_item(a, p);
    return p;
}
__device__ __forceinline__ bwg_pos bwg_next(const fa_args &a, bwg_pos p, int nkb, int nqt) {
    if (++p.qt < nqt) return p;
    p.qt = 0;
    p.n++;
    if (++p.kb < nkb) return p;
    p.kb = 0;
    p.item += gridDim.x;
    if (p.item < (int64_t)a.H * a.B) bwg_item(a, p);
    return p;
}

#if S9_HAVE_WGMMA
// Accumulator (fp32, m64nN layout per warp: [8-column group][4]) as bf16 A fragments
__device__ __forceinline__ void bwg_pack(const float (&s)[8][4], uint32_t (&pa)[4][4]) {
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        pa[kk][0] = fa_pack2(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fa_pack2(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fa_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fa_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
}

// S^T and dP^T (this warpgroup's 64 keys x 64 queries) issued as two commit groups. TM: Q and dO K-major with
// the 64-byte swizzle (rows of one span, SBO 8 rows; the second k step 32 bytes into the rows)
template <bool TM = false>
__device__ __forceinline__ void bwg_scores_issue(float (&s)[8][4], float (&dp)[8][4], const uint32_t (&ka)[2][4],
                                                 const uint32_t (&va)[2][4], const unsigned char *st) {
    typedef typename bws_lay_of<TM>::T Y;
    uint64_t dq, dd;
    constexpr uint64_t ks = TM ? (32 >> 4) : (256 >> 4);
    if constexpr (TM) dq = tma_desc_sw(st + Y::Q, 16, 512, 64), dd = tma_desc_sw(st + Y::dO, 16, 512, 64);
    else dq = s9_desc(st + Y::Q, 128, 512), dd = s9_desc(st + Y::dO, 128, 512);
    s9_wg_fence();
    wg_n64_first(&s[0][0], ka[0], dq);
    s9_wg_n64(&s[0][0], ka[1], dq + ks, 1);
    s9_wg_commit();
    wg_n64_first(&dp[0][0], va[0], dd);
    s9_wg_n64(&dp[0][0], va[1], dd + ks, 1);
    s9_wg_commit();
}

// p (in s) computed once S^T is done, while dP^T runs, then dS = p (dP - D) (in dp):
// bw_p_ds_pair's arithmetic, k_bwd_lean's formula. W: commit groups issued after dP^T's that
// may still run. Lb, Db: the query tile's lse (natural log) and D; Bw: the bias rows of the
// warp's keys ([key][query], stride BW_LDK, bf16; TM: TMA's [key][64] with the 128-byte swizzle, chunk j of
// key row g + 8 u at chunk j ^ g, the warp's first key a multiple of 16); mk2: the keys' mask terms in log2 units.
template <int W, bool TM = false>
__device__ __forceinline__ void bwg_p_ds(float (&s)[8][4], float (&dp)[8][4], const unsigned char *st, const bf16 *Bw,
                                         const float (&mk2)[2], float sc2) {
    typedef typename bws_lay_of<TM>::T Y;
    const float *Lb = (const float *)(st + Y::L), *Db = (const float *)(st + Y::D);
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    wg_mma_wait<W + 1>();  // S^T done, dP^T runs on
    s9_wg_hold<32>(&s[0][0]);
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float2 l2 = *reinterpret_cast<const float2 *>(Lb + 8 * j + 2 * t);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const float2 bb = TM ? bw_ld_bias2(Bw + (g + 8 * u) * 64 + ((j ^ g) << 3) + 2 * t)
                                 : bw_ld_bias2(Bw + (g + 8 * u) * BW_LDK + 8 * j + 2 * t);
#pragma unroll
            for (int e1 = 0; e1 < 2; e1++) {
                const float lm = fmaf(e1 ? l2.y : l2.x, -BW_L2E, mk2[u]);  // the lse and mask terms
                s[j][2 * u + e1] = fa_exp2(fmaf(s[j][2 * u + e1], sc2, fmaf(e1 ? bb.y : bb.x, BW_L2E, lm)));
            }
        }
    }
    s9_wg_hold<32>(&s[0][0]);  // p complete before the wait
    wg_mma_wait<W>();
    s9_wg_hold<32>(&dp[0][0]);
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float2 d2 = *reinterpret_cast<const float2 *>(Db + 8 * j + 2 * t);
#pragma unroll
        for (int e = 0; e < 4; e++) dp[j][e] = s[j][e] * (dp[j][e] - ((e & 1) ? d2.y : d2.x));
    }
}

// dS^T (bf16: the values the dk product rounds to) of this warp's 16 keys from kw, for dq
__device__ __forceinline__ void bwg_ds_store(bf16 *dSs, const uint32_t (&da)[4][4], int kw) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < 4; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            *(uint32_t *)(dSs + (kw + g + 8 * (e & 1)) * BWG_LDS + 16 * kk + 8 * (e >> 1) + 2 * t) = da[kk][e];
}

// dv += P^T dO, dk += dS^T Q (wg_n32_tb: B N-major) issued and committed, not waited for. TM: dO and Q MN-major
// with the 64-byte swizzle (a row of 32 channels is one span: SBO 8 rows, LBO unused; a k step 16 rows, 1024 bytes,
// as here)
template <bool TM = false>
__device__ __forceinline__ void bwg_dkdv_issue(float (&dk)[4][4], float (&dv)[4][4], const uint32_t (&pa)[4][4],
                                               const uint32_t (&da)[4][4], const unsigned char *st) {
    typedef typename bws_lay_of<TM>::T Y;
    uint64_t dd, dq;
    if constexpr (TM) dd = tma_desc_sw(st + Y::dO, Y::TQ, 512, 64), dq = tma_desc_sw(st + Y::Q, Y::TQ, 512, 64);
    else dd = s9_desc(st + Y::dO, 512, 128), dq = s9_desc(st + Y::Q, 512, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) wg_n32_tb(&dv[0][0], pa[kk], dd + ((kk * 1024) >> 4));
#pragma unroll
    for (int kk = 0; kk < 4; kk++) wg_n32_tb(&dk[0][0], da[kk], dq + ((kk * 1024) >> 4));
    s9_wg_commit();
}

// dq (64 queries x 16 channels from 16 wg) += dS K over the block's 128 keys: A = dS from
// dS^T [key][query] (ldmatrix.x4.trans), B = K (N-major descriptor). Issued and committed.
__device__ __forceinline__ void bwg_dq_issue(float (&dq)[8], uint32_t (&qa)[8][4], const bf16 *dSs, const bf16 *Kt,
                                             int wg) {
    int lane = threadIdx.x & 31, m = lane >> 3, qm = 16 * ((threadIdx.x >> 5) & 3);
#pragma unroll
    for (int kk = 0; kk < 8; kk++) {
        uint32_t addr = fa_smem(dSs + (kk * 16 + (m >> 1) * 8 + (lane & 7)) * BWG_LDS + qm + (m & 1) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(qa[kk][0]), "=r"(qa[kk][1]), "=r"(qa[kk][2]), "=r"(qa[kk][3])
                     : "r"(addr));
    }
    const uint64_t dk = s9_desc(Kt + 16 * wg * 8, 512, 128);  // channel group 2 wg: 2 wg x 64 elements
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 8; kk++) wg_n16_tb(dq, qa[kk], dk + ((kk * 1024) >> 4));
    s9_wg_commit();
}

// SA (PF_ATTN_BWD_WG=3): dS^T in wgmma's MN-major core-matrix layout ([key / 8][query / 8][key %
// 8][query % 8]: a key's 8 queries in 16 contiguous bytes), so the dq product reads A = dS by
// descriptor (imm-trans-a) instead of 8 ldmatrix.trans into 32 registers. The stores stay 4
// bytes (a query pair of one key) and conflict-free (a warp's 32 words: 128 contiguous bytes).
__device__ __forceinline__ int bwg_ds_off(int k, int q) { return (k >> 3) * 512 + (q >> 3) * 64 + (k & 7) * 8 + (q & 7); }
__device__ __forceinline__ void bwg_ds_store_cm(bf16 *dSs, const uint32_t (&da)[4][4], int kw) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < 4; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            *(uint32_t *)(dSs + bwg_ds_off(kw + g + 8 * (e & 1), 16 * kk + 8 * (e >> 1) + 2 * t)) = da[kk][e];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic writes -> the wgmma's reads
}
#if S9_HAVE_WGMMA
// D (64 x 16) += A (64 x 16, MN-major descriptor: imm-trans-a) B (16 x 16, N-major descriptor)
__device__ __forceinline__ void bwg_n16tt(float *d, uint64_t da, uint64_t db) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "l"(da), "l"(db));
}
// dq (64 queries x 16 channels from 16 wg) += dS K over the block's 128 keys, both operands by
// descriptor: A = dS (LBO 1024 bytes: the next 8 keys; SBO 128: the next 8 queries), B = K as in
// bwg_dq_issue. Issued and committed.
__device__ __forceinline__ void bwg_dq_issue_sa(float (&dq)[8], const bf16 *dSs, const bf16 *Kt, int wg) {
    const uint64_t da = s9_desc(dSs, 1024, 128), db = s9_desc(Kt + 16 * wg * 8, 512, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 8; kk++) bwg_n16tt(dq, da + ((kk * 2048) >> 4), db + ((kk * 1024) >> 4));
    s9_wg_commit();
}
// ALT (PF_ATTN_BWD_WG=4): D (64 x 32) += A (64 x 16, MN-major descriptor) B (16 x 32, N-major descriptor)
__device__ __forceinline__ void bwg_n32tt(float *d, uint64_t da, uint64_t db) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, 1, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "l"(da), "l"(db));
}
// ALT: the whole dq tile (64 queries x 32 channels) += dS K over the block's 128 keys by one
// warpgroup: 8 m64n32k16 where SA's two warpgroups each issue 8 m64n16k16. TM: K MN-major with the 64-byte
// swizzle (as dO in bwg_dkdv_issue)
template <bool TM = false>
__device__ __forceinline__ void bwg_dq_issue_alt(float (&dq)[16], const bf16 *dSs, const bf16 *Kt) {
    const uint64_t da = s9_desc(dSs, 1024, 128);
    uint64_t db;
    if constexpr (TM) db = tma_desc_sw(Kt, bwt_lay::TK, 512, 64);
    else db = s9_desc(Kt, 512, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 8; kk++) bwg_n32tt(dq, da + ((kk * 2048) >> 4), db + ((kk * 1024) >> 4));
    s9_wg_commit();
}
#endif

// dk (times scale) and dv of a warp's 16 keys from kw as bf16 pairs (c_h 32: bw_store_dkdv's
// values in 4-byte stores, where it stores 2 bytes at a time for any c_h)
__device__ __forceinline__ void bwg_store_dkdv(const fa_args &a, int64_t r, int h, int64_t kw, const float (&dk)[4][4],
                                               const float (&dv)[4][4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t kk = kw + g + 8 * u;
        if (kk >= a.L) continue;
        int64_t off = fa_pos(a, r, kk) * a.HC + (int64_t)h * 32 + 2 * t;
        bf16 *pk = (bf16 *)a.dk + off, *pv = (bf16 *)a.dv + off;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            *(__nv_bfloat162 *)(pk + 8 * j) = __floats2bfloat162_rn(dk[j][2 * u] * a.scale, dk[j][2 * u + 1] * a.scale);
            *(__nv_bfloat162 *)(pv + 8 * j) = __floats2bfloat162_rn(dv[j][2 * u], dv[j][2 * u + 1]);
        }
    }
}
// The running dq of this thread's elements (element 4 j + 2 u + e: query q0 + 16 w + g + 8 u,
// channel c0 + 8 j + 2 t + e for NJ groups of 8 channels: modes 1-3 a warpgroup's 16 (c0 = 16 wg,
// NJ = 2), ALT the whole tile's 32 (c0 = 0, NJ = 4)): 0 at the item's first key block or where
// !load, else the slot's
template <int NJ>
__device__ __forceinline__ void bwg_dq_load(float (&dq)[4 * NJ], const float *slot, const bwg_pos &p, int c0, bool load) {
    int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            float2 v = make_float2(0.f, 0.f);
            // the same address in two forms, each the one its mode's GPU-tested build compiled
            if (load && p.kb > 0)
                v = NJ == 4 ? *(const float2 *)(slot + (p.qt * 64 + 16 * w + g) * 32 + c0 + 2 * t + 8 * 32 * u + 8 * j)
                            : *(const float2 *)(slot + (p.qt * 64 + 16 * w + g + 8 * u) * 32 + c0 + 8 * j + 2 * t);
            dq[4 * j + 2 * u] = v.x;
            dq[4 * j + 2 * u + 1] = v.y;
        }
}
// ... and back: to the slot, or as dq (bf16, times scale) after the last key block. The slot's
// float2 from one base address (immediate offsets, 8-byte stores: session 30's profile found
// them split into 4-byte stores behind a branch per element, the address register's reuse
// stalling on the stores before it).
template <int NJ>
__device__ __forceinline__ void bwg_dq_store(const fa_args &a, const float (&dq)[4 * NJ], float *slot, const bwg_pos &p,
                                             bool last, int c0) {
    int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    if (!last) {
        float *sp = slot + (p.qt * 64 + 16 * w + g) * 32 + c0 + 2 * t;
#pragma unroll
        for (int u = 0; u < 2; u++)
#pragma unroll
            for (int j = 0; j < NJ; j++)
                asm volatile("st.global.v2.f32 [%0], {%1, %2};\n" ::"l"(sp + 8 * 32 * u + 8 * j), "f"(dq[4 * j + 2 * u]),
                             "f"(dq[4 * j + 2 * u + 1])
                             : "memory");
        return;
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int q = p.qt * 64 + 16 * w + g + 8 * u;
        bf16 *op = (bf16 *)a.dq + fa_pos(a, p.r, q) * a.HC + (int64_t)p.h * 32 + c0 + 2 * t;
#pragma unroll
        for (int j = 0; j < NJ; j++)
            *(__nv_bfloat162 *)(op + 8 * j) =
                __floats2bfloat162_rn(dq[4 * j + 2 * u] * a.scale, dq[4 * j + 2 * u + 1] * a.scale);
    }
}

#endif
// The producer's copies of step p into stage sp (and at a key block's first step K and V
// into buffer p.n % 2): Q, dO, lse, D, the bias^T tile; one commit group.
template <bool HB>
__device__ __forceinline__ void bws_copy(const fa_args &a, const bwg_pos &p, unsigned char *sm, int sp, int pt) {
    typedef bwg_lay Y;
    unsigned char *s = sm + sp * Y::stage;
    const int64_t q0 = (int64_t)p.qt * 64, k0 = (int64_t)p.kb * BWG_KB;
    bwg_tile<64>(a, a.q, p.r, p.h, q0, (bf16 *)(s + Y::Q), pt);
    bwg_tile<64>(a, a.dO, p.r, p.h, q0, (bf16 *)(s + Y::dO), pt);
    if (pt < 32) {  // lse, D of the 64 queries (whole tiles: L % 64 == 0): 16 bytes a thread
        const float *src = (pt < 16 ? a.lse : a.D) + (p.r * a.H + p.h) * a.L + q0 + 4 * (pt & 15);
        fa_cp16(s + (pt < 16 ? Y::L : Y::D) + 16 * (pt & 15), src);
    }
    if (HB) {  // 128 key rows of 64 queries (128 bytes: 8 chunks), zeros past L
        const bf16 *m = a.biasT16 + (int64_t)p.h * a.L * a.L;
#pragma unroll
        for (int u = 0; u < BWG_KB * 8 / BWS_PROD; u++) {
            int i = pt + BWS_PROD * u, j = i >> 3, c = (i & 7) * 8;
            bool ok = k0 + j < a.L;
            fa_cp16z((bf16 *)(s + Y::B) + j * BW_LDK + c, ok ? m + (k0 + j) * a.L + q0 + c : m, ok ? 16 : 0);
        }
    }
    if (p.qt == 0) {
        bwg_tile<BWG_KB>(a, a.k, p.r, p.h, k0, (bf16 *)(sm + Y::K + (p.n & 1) * Y::TK), pt);
        bwg_tile<BWG_KB>(a, a.v, p.r, p.h, k0, (bf16 *)(sm + Y::V + (p.n & 1) * Y::TK), pt);
    }
    fa_commit();
}

#if S9_HAVE_WGMMA
// Warpgroup 0: the copies of every step the consumers walk, in their order.
template <bool HB>
__device__ __forceinline__ void bws_producer(const fa_args &a, unsigned char *sm, int nkb, int nqt) {
    uint64_t *full = (uint64_t *)(sm + bwg_lay::bar), *empty = full + BWS_ST, *kv_empty = empty + BWS_ST;
    const int pt = threadIdx.x;
    const int64_t nitems = (int64_t)a.H * a.B;
    bwg_pos p = bwg_first(a);
    uint32_t j = 0, done = 0;
    for (; p.item < nitems; j++, p = bwg_next(a, p, nkb, nqt)) {
        const int sp = (int)(j % BWS_ST);
        if (j >= BWS_ST) wg_bar_wait(empty + sp, (j / BWS_ST - 1) & 1);  // step j - ST's products done
        if (p.qt == 0 && p.n >= 2) {
            // the K buffer's last reader is the dq product of key block n - 2's last step, which
            // runs in the step after it: announce everything first (no wait on a step not announced)
            bwg_announce_all<BWS_ST>(full, done, j);
            wg_bar_wait(kv_empty + (p.n & 1), ((p.n >> 1) - 1) & 1);
        }
        bws_copy<HB>(a, p, sm, sp, pt);
        bwg_announce_oldest<BWS_ST, BWS_LAG>(full, done, j + 1);
    }
    bwg_announce_all<BWS_ST>(full, done, j);
}

// The TMA form's producer, one thread: mode 4's steps in the same order, each step's copies (and at a key
// block's first step K and V into buffer n % 2) on the stage's full barrier with their byte count; nothing to
// announce (the copies complete the barrier themselves), so no lag: a stage is refilled as soon as it is free.
template <bool HB>
__device__ __forceinline__ void bwt_producer(const fa_args &a, const CUtensorMap *tm, unsigned char *sm, int nkb,
                                             int nqt) {
    typedef bwt_lay Y;
    uint64_t *full = (uint64_t *)(sm + Y::bar), *empty = full + BWS_ST, *kv_empty = empty + BWS_ST;
    const int64_t nitems = (int64_t)a.H * a.B;
    for (int i = 0; i < (HB ? 5 : 4); i++) tma_prefetch_desc(tm + i);
    bwg_pos p = bwg_first(a);
    for (uint32_t j = 0; p.item < nitems; j++, p = bwg_next(a, p, nkb, nqt)) {
        const int sp = (int)(j % BWS_ST);
        if (j >= BWS_ST) wg_bar_wait(empty + sp, (j / BWS_ST - 1) & 1);  // step j - ST's products done
        if (p.qt == 0 && p.n >= 2) wg_bar_wait(kv_empty + (p.n & 1), ((p.n >> 1) - 1) & 1);  // key block n - 2's K read
        unsigned char *s = sm + sp * Y::stage;
        uint64_t *f = full + sp;
        const int q0 = p.qt * 64, k0 = p.kb * BWG_KB, c0 = p.h * 32, r = (int)p.r;
        const int64_t lo = (p.r * a.H + p.h) * a.L + q0;  // lse, D of the 64 queries: 256 contiguous bytes each
        tw_expect(f, Y::tx_step + (HB ? Y::tx_bias : 0u) + (p.qt == 0 ? Y::tx_kv : 0u));
        tma_load_3d(s + Y::Q, tm + 0, c0, q0, r, f);
        tma_load_3d(s + Y::dO, tm + 1, c0, q0, r, f);
        tw_bulk_g2s(s + Y::L, a.lse + lo, 256, f);
        tw_bulk_g2s(s + Y::D, a.D + lo, 256, f);
        if (HB) tma_load_3d(s + Y::B, tm + 4, q0, k0, p.h, f);
        if (p.qt == 0) {
            tma_load_3d(sm + Y::K + (p.n & 1) * Y::TK, tm + 2, c0, k0, r, f);
            tma_load_3d(sm + Y::V + (p.n & 1) * Y::TK, tm + 3, c0, k0, r, f);
        }
    }
}


// The consumers' dS^T barriers, decoupled (DEC, PF_ATTN_BWD_WG=2): writer warpgroup w arrives on barrier 2 + 2 w +
// (step & 1) once its half of the step's dS^T is written; the other warpgroup waits there before
// its dq product (the waiting warpgroup's own 128 threads complete the count, so its own warps'
// halves are in too). Two per writer by step parity: a writer one step ahead cannot complete a
// phase the reader has not passed.
__device__ __forceinline__ void bws_ds_arrive(int wg, uint32_t j) {
    asm volatile("bar.arrive %0, %1;\n" ::"r"(2 + 2 * wg + (int)(j & 1)), "n"(BWS_CONS) : "memory");
}
__device__ __forceinline__ void bws_ds_wait(int wg, uint32_t j) {  // the other warpgroup's dS^T of step j
    asm volatile("bar.sync %0, %1;\n" ::"r"(2 + 2 * (1 - wg) + (int)(j & 1)), "n"(BWS_CONS) : "memory");
}

// The dq product of a step, by the array's size: 8 (this warpgroup's 16 channels; SA: dS by
// descriptor, else by ldmatrix into qa) or 16 (ALT: the whole tile's 32 channels)
template <bool TM>
__device__ __forceinline__ void bws_dq_product(float (&dq)[8], uint32_t (&qa)[8][4], const bf16 *dSp, const bf16 *Kp,
                                               int wg, bool sa) {
    static_assert(!TM, "the TMA form is mode 4's (ALT)");
    if (sa) bwg_dq_issue_sa(dq, dSp, Kp, wg);
    else bwg_dq_issue(dq, qa, dSp, Kp, wg);
}
template <bool TM>
__device__ __forceinline__ void bws_dq_product(float (&dq)[16], uint32_t (&)[8][4], const bf16 *dSp, const bf16 *Kp,
                                               int, bool) {
    bwg_dq_issue_alt<TM>(dq, dSp, Kp);
}

// Warpgroups 1, 2 (wg 0, 1): the products of every step; dq of a step one step later. DEC: the
// dS^T barriers decoupled (bws_ds_arrive / bws_ds_wait) instead of both warpgroups meeting at one.
// ALT (PF_ATTN_BWD_WG=4, with DEC and SA): step j's dq product (the whole tile) is made by
// warpgroup j % 2 alone, which waits for the other's half of dS^T; the other only arrives. Half
// the dq wgmma instructions (m64n32 in place of two m64n16) and half the barrier waits per
// warpgroup; each warpgroup reads and writes the dq slot every other step, 16 floats a thread.
// TM: the TMA form's tiles (bwt_lay; mode 4 only).
template <bool HB, bool DEC, bool SA, bool ALT, bool TM = false>
__device__ __forceinline__ void bws_consumer(const fa_args &a, unsigned char *sm, float *slot, int nkb, int nqt) {
    static_assert(!TM || ALT, "the TMA form is mode 4's");
    typedef typename bws_lay_of<TM>::T Y;
    constexpr int NDQ = ALT ? 16 : 8;
    uint64_t *full = (uint64_t *)(sm + Y::bar), *empty = full + BWS_ST, *kv_empty = empty + BWS_ST;
    // ALT: the warpgroup through a shuffle from lane 0, which the compiler takes as warp-uniform (a
    // branch on the step's owner computed from threadIdx serialized every wgmma: ptxas C7520)
    const int wg = ALT ? __shfl_sync(0xffffffffu, (int)(threadIdx.x - BWS_PROD) >> 7, 0) : (int)(threadIdx.x - BWS_PROD) >> 7,
              kw = 64 * wg + 16 * ((threadIdx.x >> 5) & 3);  // warp's 16 keys
    const int dqc0 = ALT ? 0 : 16 * wg;  // the first dq channel this warpgroup keeps
    const float sc2 = a.scale * BW_L2E;
    const int64_t nitems = (int64_t)a.H * a.B;
    bwg_pos cur = bwg_first(a);
    float dk[4][4], dv[4][4], mk2[2] = {0.f, 0.f}, dqp[NDQ];
#pragma unroll
    for (int i = 0; i < NDQ; i++) dqp[i] = 0.f;
    uint32_t ka[2][4], va[2][4], qa[8][4];
    bwg_pos pend = cur;  // the step whose dq product is pending (dqp: its running dq)
    bool pending = false, pend_own = false;
    for (uint32_t j = 0; cur.item < nitems; j++) {
        const bwg_pos p = cur;
        cur = bwg_next(a, p, nkb, nqt);
        const int sp = (int)(j % BWS_ST);
        const bool own = !ALT || (int)(j & 1) == wg;  // this warpgroup makes step j's dq product
        const unsigned char *st = sm + sp * Y::stage;
        wg_bar_wait(full + sp, (j / BWS_ST) & 1);
        __syncwarp();  // converged for the .aligned wgmma instructions
        if (p.qt == 0) {  // a key block's first step: mask terms, K and V fragments, dk = dv = 0
            const int g = (threadIdx.x & 31) >> 2;
#pragma unroll
            for (int u = 0; u < 2; u++) mk2[u] = bw_mask2(a, p.r, (int64_t)p.kb * BWG_KB + kw + g + 8 * u);
            bwg_afrag<TM>((const bf16 *)(sm + Y::K + (p.n & 1) * Y::TK), kw, ka);  // TM: swizzled (bwt_at)
            bwg_afrag<TM>((const bf16 *)(sm + Y::V + (p.n & 1) * Y::TK), kw, va);
#pragma unroll
            for (int jj = 0; jj < 4; jj++)
#pragma unroll
                for (int e = 0; e < 4; e++) dk[jj][e] = dv[jj][e] = 0.f;
        }
        // this step's running dq, for its product next step (ALT: zeros on the other's steps, the
        // load predicated off; a branch around it or around the copy to dqp serialized the wgmma)
        float dq[NDQ];
        bwg_dq_load<NDQ / 4>(dq, slot, p, dqc0, own);
        float s[8][4], dp[8][4];
        bwg_scores_issue<TM>(s, dp, ka, va, st);
        if (pending && (!ALT || pend_own)) {
            if (DEC) bws_ds_wait(wg, j - 1);
            else tw_cons_sync<BWS_CONS>();  // named barrier 1: both halves of dS^T written
            const bf16 *dSp = (const bf16 *)(sm + Y::dS) + ((j - 1) & 1) * BWG_KB * BWG_LDS;
            const bf16 *Kp = (const bf16 *)(sm + Y::K + (pend.n & 1) * Y::TK);
            bws_dq_product<TM>(dqp, qa, dSp, Kp, wg, SA);
        } else {
            s9_wg_commit();  // an empty group: the same group count every step
        }
        bwg_p_ds<1, TM>(s, dp, st, (const bf16 *)(st + Y::B) + kw * (TM ? 64 : BW_LDK), mk2, sc2);
        uint32_t pa[4][4], da[4][4];
        bwg_pack(s, pa);
        bwg_pack(dp, da);
        if (SA) bwg_ds_store_cm((bf16 *)(sm + Y::dS) + (j & 1) * BWG_KB * BWG_LDS, da, kw);
        else bwg_ds_store((bf16 *)(sm + Y::dS) + (j & 1) * BWG_KB * BWG_LDS, da, kw);
        if (DEC) {
            // the pending dq product (issued this step) reads dS^T buffer (j - 1) & 1, which the
            // other warpgroup, released by the arrival below, overwrites in step j + 1: let it
            // finish first (unconditional: a wait behind a branch on wg serializes the wgmma)
            wg_mma_wait<0>();
            s9_wg_hold<NDQ>(dqp);
        }
        if (DEC && (!ALT || !own)) bws_ds_arrive(wg, j);  // ALT: the other warpgroup makes the product
        bwg_dkdv_issue<TM>(dk, dv, pa, da, st);
        wg_mma_wait<0>();
        s9_wg_hold<16>(&dk[0][0]);
        s9_wg_hold<16>(&dv[0][0]);
        s9_wg_hold<NDQ>(dqp);
        bwg_hold_r<16>(&pa[0][0]);  // A registers of the products live up to their wait
        bwg_hold_r<16>(&da[0][0]);
        bwg_hold_r<32>(&qa[0][0]);
        wg_bar_arrive(empty + sp);  // this step's stage read (Q, dO, bias, lse, D)
        if (pending) {
            if (!ALT || pend_own) bwg_dq_store<NDQ / 4>(a, dqp, slot, pend, pend.kb == nkb - 1, dqc0);
            if (pend.qt == nqt - 1) wg_bar_arrive(kv_empty + (pend.n & 1));  // its key block's K read
        }
        if (p.qt == nqt - 1) bwg_store_dkdv(a, p.r, p.h, (int64_t)p.kb * BWG_KB + kw, dk, dv);
#pragma unroll
        for (int i = 0; i < NDQ; i++) dqp[i] = dq[i];
        pend = p;
        pend_own = own;
        pending = true;
        if (!(cur.item < nitems) && own) {  // the last step's dq product
            if (DEC) bws_ds_wait(wg, j);
            else tw_cons_sync<BWS_CONS>();  // named barrier 1: both halves of dS^T written
            const bf16 *dSp = (const bf16 *)(sm + Y::dS) + (j & 1) * BWG_KB * BWG_LDS;
            const bf16 *Kp = (const bf16 *)(sm + Y::K + (p.n & 1) * Y::TK);
            bws_dq_product<TM>(dqp, qa, dSp, Kp, wg, SA);
            wg_mma_wait<0>();
            s9_wg_hold<NDQ>(dqp);
            bwg_hold_r<32>(&qa[0][0]);
            bwg_dq_store<NDQ / 4>(a, dqp, slot, p, p.kb == nkb - 1, dqc0);
        }
    }
}
#endif

// Both kernels' start on their layout Y's shared memory sm: no bias (HB false), every stage's bias tile (Y::TB
// bytes) zero, never copied over; the ring's mbarriers (full: full_count arrivals, mode 1-4 every
// producer thread, TMA its one thread's arrive.expect_tx; empty and kv_empty[2]: every consumer thread); a block
// barrier.
#if S9_HAVE_WGMMA
template <typename Y, bool HB>
__device__ __forceinline__ void bws_start(unsigned char *sm, int full_count) {
    if (!HB)
        for (int s = 0; s < BWS_ST; s++)
            for (int i = threadIdx.x; i < (int)(Y::TB / 4); i += BWS_NTH)
                ((uint32_t *)(sm + s * Y::stage + Y::B))[i] = 0u;
    if (threadIdx.x == 0) {
        uint64_t *bar = (uint64_t *)(sm + Y::bar);
        for (int s = 0; s < BWS_ST; s++) {
            wg_bar_init(bar + s, full_count);         // full
            wg_bar_init(bar + BWS_ST + s, BWS_CONS);  // empty: every consumer thread
        }
        wg_bar_init(bar + 2 * BWS_ST, BWS_CONS);  // kv_empty[2]
        wg_bar_init(bar + 2 * BWS_ST + 1, BWS_CONS);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
}
#endif

// One block per SM (~175 KB of shared memory); the producer warpgroup drops to 64 registers a
// thread, the consumers take 216 (128 x 64 + 256 x 216 = 63,488 of 65,536): no spills in either
// (40 / 232 spilled 100 bytes in the producer, 56 / 224 12 bytes).
template <bool HB, int MODE>
__global__ void __launch_bounds__(BWS_NTH, 1) k_bwd_ws(fa_args a, float *dq_slots) {
#if S9_HAVE_WGMMA
    typedef bwg_lay Y;
    extern __shared__ __align__(128) unsigned char bwg_sm[];
    const int nkb = (int)((a.L + BWG_KB - 1) / BWG_KB), nqt = (int)(a.L / 64);
    bws_start<Y, HB>(bwg_sm, BWS_PROD);
    if (threadIdx.x < BWS_PROD) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");
        bws_producer<HB>(a, bwg_sm, nkb, nqt);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 216;\n" ::: "memory");
bws_consumer<HB, MODE >= 2, MODE >= 3, MODE >= 4>(a, bwg_sm, dq_slots + (int64_t)blockIdx.x * a.L * 32, nkb, nqt);
    }
#else
    (void)a;
    (void)dq_slots;
    __trap();  // launched on sm_90 only
#endif
}

// PF_ATTN_BWD_WG=5: mode 4 with the tiles by tensor maps (bwt_lay, bwt_producer): the same block, registers and
// consumer code; the producer warpgroup's other threads leave after setmaxnreg.
template <bool HB>
__global__ void __launch_bounds__(BWS_NTH, 1) k_bwd_ws_tma(fa_args a, float *dq_slots,
                                                           const __grid_constant__ bwt_maps tm) {
#if S9_HAVE_WGMMA
    typedef bwt_lay Y;
    extern __shared__ __align__(128) unsigned char bwg_sm[];
    unsigned char *sm = bwg_sm + ((1024 - (fa_smem(bwg_sm) & 1023)) & 1023);
    const int nkb = (int)((a.L + BWG_KB - 1) / BWG_KB), nqt = (int)(a.L / 64);
    bws_start<Y, HB>(sm, 1);  // full: the producer thread's arrive.expect_tx (and the bytes)
    if (threadIdx.x < BWS_PROD) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");
        if (threadIdx.x == 0) bwt_producer<HB>(a, tm.m, sm, nkb, nqt);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 216;\n" ::: "memory");
        bws_consumer<HB, true, true, true, true>(a, sm, dq_slots + (int64_t)blockIdx.x * a.L * 32, nkb, nqt);
    }
#else
    (void)a;
    (void)dq_slots;
    (void)tm;
    __trap();  // launched on sm_90 only
#endif
}

#ifndef PF_EMU_NO_HOST
int fa_bwd_wg_device(void) {
    static int cc9 = -1;  // the device does not change within a process
    if (cc9 < 0) cc9 = cu_device_cc9();
    return cc9;
}

// k_bwd_ws_tma (mode 5) on b (its bias the bf16 copy, or none): its maps, then the launch; nonzero (nothing
// launched) where the maps do not apply: every base and row 16-byte aligned (HC % 8 == 0 is fa_bwd_wg's), rows
// (B) as 32-bit coordinates.
static int bwt_launch(cu_impl *c, const fa_args *b, float *slots, unsigned grid) {
    const bool hb = b->biasT != NULL;  // fa_bwd_wg's choice of kernel: with the bias, b->biasT16 its copy
    if (((uintptr_t)b->q | (uintptr_t)b->k | (uintptr_t)b->v | (uintptr_t)b->dO | (uintptr_t)b->lse | (uintptr_t)b->D |
         (hb ? (uintptr_t)b->biasT16 : 0)) & 15)
        return 1;
    if (b->B > 2147483647LL || b->pstride < 1 || b->rstride < 1) return 1;
    static int attr_set[2];
    const size_t smem = bwt_lay::bytes + 1024;  // the tiles from a 1024-byte boundary
    void (*const kern)(fa_args, float *, bwt_maps) = hb ? k_bwd_ws_tma<true> : k_bwd_ws_tma<false>;
    if (!attr_set[hb]) {
        if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set[hb] = 1;
    }
    bwt_maps tm;
    memset(&tm, 0, sizeof tm);
    const uint64_t dims[3] = {(uint64_t)b->HC, (uint64_t)b->L, (uint64_t)b->B};
    const uint64_t strides[2] = {(uint64_t)(b->pstride * b->HC), (uint64_t)(b->rstride * b->HC)};
    const uint32_t box_q[3] = {32, 64, 1}, box_k[3] = {32, BWG_KB, 1};
    const uint64_t L = (uint64_t)b->L;
    if (tma_map_encode(&tm.m[0], b->q, 2, 3, dims, strides, box_q, 64) ||
        tma_map_encode(&tm.m[1], b->dO, 2, 3, dims, strides, box_q, 64) ||
        tma_map_encode(&tm.m[2], b->k, 2, 3, dims, strides, box_k, 64) ||
        tma_map_encode(&tm.m[3], b->v, 2, 3, dims, strides, box_k, 64) ||
        (hb && tma_map_3d(&tm.m[4], b->biasT16, 2, (uint64_t)b->H, L, L, L * L, L, BWG_KB, 64, 128)))
        return 1;
    kern<<<grid, BWS_NTH, smem, c->stream>>>(*b, slots, tm);
    CU_LAUNCHED();
    return 0;
}

// Grid: one block per SM, evened out over the items, no more than the pool has dq slots for.
int fa_bwd_wg(cu_impl *c, const fa_args *a, int force, int mode) {
    if (a->ch != 32 || a->HC % 8 || a->B <= 0 || a->L < 128 || a->L % 64 || c->attn_fused < 0) return 1;
    // by size as fa_bwd_fused: at least two items per SM (a persistent block owns whole items)
    if (!force && c->attn_fused == 0 && (int64_t)a->H * a->B < 2 * (int64_t)(c->n_sm > 0 ? c->n_sm : 1)) return 1;
    if (a->biasT && !a->bias_bf16) return 1;
    if ((int64_t)a->H * a->B > 2147483647LL / 2 || a->L > (1 << 20)) return 1;
    if (!fa_bwd_wg_device()) return 1;
    typedef bwg_lay Y;
    static void (*const kern[8])(fa_args, float *) = {k_bwd_ws<false, 1>, k_bwd_ws<true, 1>, k_bwd_ws<false, 2>,
                                                      k_bwd_ws<true, 2>,  k_bwd_ws<false, 3>, k_bwd_ws<true, 3>,
                                                      k_bwd_ws<false, 4>, k_bwd_ws<true, 4>};
    static int attr_set[8];
    if (mode < 1 || mode > 5) return 1;
    for (int k = 0; k < 8; k++) {
        if (attr_set[k]) continue;
        if (cudaFuncSetAttribute(kern[k], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Y::bytes) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set[k] = 1;
    }
    int64_t items = (int64_t)a->H * a->B, gmax = c->n_sm > 0 ? c->n_sm : 132;
    int64_t nb = a->biasT ? (int64_t)a->H * a->L * a->L : 0;
    size_t top = (c->pool_top + 255) & ~(size_t)255, slot = sizeof(float) * (size_t)a->L * 32;
    size_t bbytes = ((size_t)nb * sizeof(bf16) + 255) & ~(size_t)255;
    if (!c->pool || c->pool_bytes < top + bbytes) return 1;
    size_t room = (c->pool_bytes - top - bbytes) / slot;
    if ((int64_t)room < gmax) gmax = (int64_t)room;
    if (gmax < 1) return 1;
    fa_args b = *a;
    if (nb) {
        bf16 *b16 = (bf16 *)(c->pool + top);
        k_bias_to_bf16<<<cu_blocks(nb, 256), 256, 0, c->stream>>>(a->biasT, b16, nb);  // exact
        CU_LAUNCHED();
        b.biasT16 = b16;
    }
    int64_t rounds = (items + gmax - 1) / gmax, grid = (items + rounds - 1) / rounds;
    // the bias copy and the slots: the top of the pool for this launch only (stream order)
    float *slots = (float *)(c->pool + top + bbytes);
    if (mode == 5 && bwt_launch(c, &b, slots, (unsigned)grid) == 0) {
        g_bwg_runs++;
        return 0;
    }
    if (mode == 5) mode = 4;  // where the maps do not apply: the same kernel with cp.async tiles (the same bits)
    kern[(nb ? 1 : 0) + 2 * (mode - 1)]<<<(unsigned)grid, BWS_NTH, Y::bytes, c->stream>>>(b, slots);
    CU_LAUNCHED();
    g_bwg_runs++;
    return 0;
}
#endif  // PF_EMU_NO_HOST
