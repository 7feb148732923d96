// cu_flash_bwd_wg.cu: dk, dv and dq of the bf16 attention backward in one pass on Hopper
// wgmma (sm_90a; PF_ATTN_BWD_WG=1). docs/ATTENTION_BWD.md "Session 18".
//
// k_bwd_lean (cu_flash_bwd_lean.cuh) runs the same pass on mma.sync and is latency bound:
// every product is a chain of synchronous warp instructions with its operand loads. Here
// the products are wgmma with the streamed tiles read by descriptor from shared memory,
// FlashAttention-3's backward order:
// - Block = 2 warpgroups (256 threads), persistent; it owns whole items (head h, row r), so
//   the dq of an item is summed by this block alone. Per item it walks key blocks of 128
//   (warpgroup wg owns keys 64 wg .. 64 wg + 63 of the block) and, inside, query tiles of 64
//   in order. K and V of the key block: A fragments in registers (loaded once per key block
//   from shared memory); K also stays in shared memory for the dq product.
// - Per step (key block, query tile), per warpgroup: S^T = K Q^T and dP^T = V dO^T
//   (m64n64k16 x 2 each, Q and dO K-major by descriptor); p while dP^T runs, then dS = p (dP -
//   D), with bw_p_ds_pair's arithmetic (k_bwd_lean's formula: bias [key][query] from the bf16
//   copy, key mask, lse and D per query; a fully masked row has lse = +inf, so p = 0); dv +=
//   P^T dO and dk += dS^T Q (m64n32k16 x 4 each, A = P^T / dS^T packed from the accumulators,
//   B = dO / Q N-major by descriptor, imm-trans-b). dS^T (bf16) goes to shared memory; after
//   a block barrier warpgroup wg computes dq[:, 16 wg .. 16 wg + 15] of the query tile over
//   the block's 128 keys (m64n16k16 x 8, A = dS by ldmatrix.trans, B = K N-major).
// - dq without atomics: the running dq of the item (L x 32 fp32) lives in the block's own
//   slot of a pool scratch buffer (L2-resident); each element is read, added to and written
//   back by one thread, in key-block order, and the last key block writes dq (bf16, times
//   scale) instead. Same bits run to run.
// - Tiles (Q, dO, the bias rows, lse, D) stream through a 2-stage cp.async ring with one
//   block barrier at each step's start; K and V of the next key block come with the step
//   before it (2 buffers). Q, dO, K and V tiles are in wgmma's no-swizzle core-matrix layout
//   ([position / 8][channel / 8][8][8], as the removed k_s9_fwd_wg's K and V: one layout
//   read K-major for S^T and N-major for the P^T dO type products).
// Cases: c_h 32, HC % 8 == 0, L % 64 == 0 (every query tile whole; a key block's second
// half past L, when L % 128 == 64, has the mask term -inf: p = 0), the bias as bf16 (exact
// copy) or none. Everything else: the mma.sync kernels (fa_bwd_fused).
#include "cu_flash_bwd.cuh"
#include "cu_flash_bwd_wg.cuh"
#include "cu_flash_sm90.cuh"
#include "cu_env.cuh"

#define BWG_KB 128  // keys per key block (2 warpgroups x 64)
#define BWG_NTH 256
#define BWG_LDS 72  // dS^T row stride (bf16; [key][query], conflict-free ldmatrix.trans)

// Shared memory (bytes): 2 stages of {Q, dO (64 x 32 core matrices), bias [128 keys][BW_LDK]
// bf16, lse[64], D[64]}, then K x 2, V x 2 (128 x 32 core matrices), dS^T [128][BWG_LDS] (x 2
// with the deferred dq product, DEF).
struct bwg_lay {
    static constexpr size_t TQ = 64 * 32 * 2, TK = 128 * 32 * 2;
    static constexpr size_t Q = 0, dO = TQ, B = 2 * TQ, L = B + (size_t)BWG_KB * BW_LDK * 2, D = L + 256;
    static constexpr size_t stage = D + 256;
    static constexpr size_t K = 2 * stage, V = K + 2 * TK, dS = V + 2 * TK;
    static constexpr size_t dSb = (size_t)BWG_KB * BWG_LDS * 2;  // one dS^T buffer
    static constexpr size_t bytes(bool def) { return dS + (def ? 2 : 1) * dSb; }  // DEF: 2 dS^T buffers
    static_assert(stage % 128 == 0 && K % 128 == 0, "tiles 128-byte aligned (descriptors)");
};

static int64_t g_bwg_runs;
int64_t fa_bwd_wg_runs(void) { return g_bwg_runs; }
int fa_bwd_wg_env(void) {
    const char *e = getenv("PF_ATTN_BWD_WG");
    if (!e || !*e || !strcmp(e, "0")) return 0;
    if (!strcmp(e, "1")) return 1;
    if (!strcmp(e, "2")) return 2;
    pf_die("PF_ATTN_BWD_WG=%s: expected 0 (the mma.sync one-pass kernel, the default), 1 (the wgmma kernel first) "
           "or 2 (the same with the dq product deferred a step)",
           e);
    return 0;
}

// Element offset of (position j, channel c) in a 32-channel core-matrix tile
__device__ __forceinline__ int bwg_off(int j, int c) { return (j >> 3) * 256 + (c >> 3) * 64 + (j & 7) * 8 + (c & 7); }

// NR positions l0.. of (row r, head h) of src into dst (core-matrix layout), zeros past L.
template <int NR>
__device__ __forceinline__ void bwg_tile(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    const bf16 *s = (const bf16 *)src + (int64_t)h * 32;
#pragma unroll
    for (int u = 0; u < NR * 4 / BWG_NTH; u++) {
        int i = threadIdx.x + BWG_NTH * u, j = i >> 2, c = (i & 3) * 8;  // 4 threads: one position's 64 bytes
        int64_t l = l0 + j;
        bool ok = l < a.L;
        fa_cp16z(dst + bwg_off(j, c), ok ? s + fa_pos(a, r, l) * a.HC + c : s, ok ? 16 : 0);
    }
}

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

// The copies of step p into stage st (and K, V into buffer p.n % 2 at a key block's first
// step); one commit group per step (also when there is nothing left to copy).
template <bool HB>
__device__ __forceinline__ void bwg_issue(const fa_args &a, const bwg_pos &p, unsigned char *sm, int st) {
    typedef bwg_lay Y;
    if (p.item < (int64_t)a.H * a.B) {
        unsigned char *s = sm + st * Y::stage;
        int64_t q0 = (int64_t)p.qt * 64, k0 = (int64_t)p.kb * BWG_KB;
        bwg_tile<64>(a, a.q, p.r, p.h, q0, (bf16 *)(s + Y::Q));
        bwg_tile<64>(a, a.dO, p.r, p.h, q0, (bf16 *)(s + Y::dO));
        bw_lseD(a, p.r, true, p.h, q0, 64, (float *)(s + Y::L), (float *)(s + Y::D));
        if (HB)
            bw_bias_fl<BWG_KB, 64, BW_LDK, BWG_NTH>(a.biasT16 + (int64_t)p.h * a.L * a.L, a.L, k0, q0,
                                                    (bf16 *)(s + Y::B));
        if (p.qt == 0) {
            bwg_tile<BWG_KB>(a, a.k, p.r, p.h, k0, (bf16 *)(sm + Y::K + (p.n & 1) * Y::TK));
            bwg_tile<BWG_KB>(a, a.v, p.r, p.h, k0, (bf16 *)(sm + Y::V + (p.n & 1) * Y::TK));
        }
    }
    fa_commit();
}

#if S9_HAVE_WGMMA
// D (64 x 32) += A (64 x 16, registers) B (16 x 32, N-major descriptor: imm-trans-b)
__device__ __forceinline__ void bwg_n32t(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, "
        "{%16,%17,%18,%19}, %20, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
// D (64 x 16) += A (64 x 16, registers) B (16 x 16, N-major descriptor)
__device__ __forceinline__ void bwg_n16t(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
template <int N>
__device__ __forceinline__ void bwg_hold_r(uint32_t *x) {
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("" : "+r"(x[i])::"memory");
}

// This warp's A fragments (16 keys from kw x 32 channels, m16n8k16's A layout) of a
// core-matrix tile: fr[kk] for channels 16 kk..
__device__ __forceinline__ void bwg_afrag(const bf16 *T, int kw, uint32_t (&fr)[2][4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < 2; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            fr[kk][e] = *(const uint32_t *)(T + bwg_off(kw + g + 8 * (e & 1), 16 * kk + 2 * t + 8 * (e >> 1)));
}

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

// S^T and dP^T (this warpgroup's 64 keys x 64 queries) issued as two commit groups
__device__ __forceinline__ void bwg_scores_issue(float (&s)[8][4], float (&dp)[8][4], const uint32_t (&ka)[2][4],
                                                 const uint32_t (&va)[2][4], const unsigned char *st) {
    const uint64_t dq = s9_desc(st + bwg_lay::Q, 128, 512), dd = s9_desc(st + bwg_lay::dO, 128, 512);
    s9_wg_fence();
    wg_n64_first(&s[0][0], ka[0], dq);
    s9_wg_n64(&s[0][0], ka[1], dq + (256 >> 4), 1);
    s9_wg_commit();
    wg_n64_first(&dp[0][0], va[0], dd);
    s9_wg_n64(&dp[0][0], va[1], dd + (256 >> 4), 1);
    s9_wg_commit();
}

// p (in s) computed once S^T is done, while dP^T runs, then dS = p (dP - D) (in dp):
// bw_p_ds_pair's arithmetic, k_bwd_lean's formula. W: commit groups issued after dP^T's that
// may still run. Lb, Db: the query tile's lse (natural log) and D; Bw: the bias rows of the
// warp's keys ([key][query], stride BW_LDK, bf16); mk2: the keys' mask terms in log2 units.
template <int W>
__device__ __forceinline__ void bwg_p_ds(float (&s)[8][4], float (&dp)[8][4], const unsigned char *st, const bf16 *Bw,
                                         const float (&mk2)[2], float sc2) {
    const float *Lb = (const float *)(st + bwg_lay::L), *Db = (const float *)(st + bwg_lay::D);
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    wg_mma_wait<W + 1>();  // S^T done, dP^T runs on
    s9_wg_hold<32>(&s[0][0]);
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float2 l2 = *reinterpret_cast<const float2 *>(Lb + 8 * j + 2 * t);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            float2 bb = bw_ld_bias2(Bw + (g + 8 * u) * BW_LDK + 8 * j + 2 * t);
#pragma unroll
            for (int e1 = 0; e1 < 2; e1++)
                s[j][2 * u + e1] = fa_exp2(fmaf(s[j][2 * u + e1], sc2,
                                                fmaf(e1 ? bb.y : bb.x, BW_L2E, fmaf(e1 ? l2.y : l2.x, -BW_L2E, mk2[u]))));
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

// dv += P^T dO, dk += dS^T Q issued and committed, not waited for
__device__ __forceinline__ void bwg_dkdv_issue(float (&dk)[4][4], float (&dv)[4][4], const uint32_t (&pa)[4][4],
                                               const uint32_t (&da)[4][4], const unsigned char *st) {
    const uint64_t dd = s9_desc(st + bwg_lay::dO, 512, 128), dq = s9_desc(st + bwg_lay::Q, 512, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) bwg_n32t(&dv[0][0], pa[kk], dd + ((kk * 1024) >> 4));
#pragma unroll
    for (int kk = 0; kk < 4; kk++) bwg_n32t(&dk[0][0], da[kk], dq + ((kk * 1024) >> 4));
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
    for (int kk = 0; kk < 8; kk++) bwg_n16t(dq, qa[kk], dk + ((kk * 1024) >> 4));
    s9_wg_commit();
}

// The running dq of this thread's elements (queries q0 + 16 w + g + 8 u, channels 16 wg + 8 j
// + 2 t + e): 0 at the item's first key block, else the slot's
__device__ __forceinline__ void bwg_dq_load(float (&dq)[8], const float *slot, const bwg_pos &p, int wg) {
    int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            float2 v = make_float2(0.f, 0.f);
            if (p.kb > 0)
                v = *(const float2 *)(slot + (p.qt * 64 + 16 * w + g + 8 * u) * 32 + 16 * wg + 8 * j + 2 * t);
            dq[4 * j + 2 * u] = v.x;
            dq[4 * j + 2 * u + 1] = v.y;
        }
}
// ... and back: to the slot, or as dq (bf16, times scale) after the last key block
__device__ __forceinline__ void bwg_dq_store(const fa_args &a, const float (&dq)[8], float *slot, const bwg_pos &p,
                                             bool last, int wg) {
    int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int q = p.qt * 64 + 16 * w + g + 8 * u;
        bf16 *op = (bf16 *)a.dq + fa_pos(a, p.r, q) * a.HC + (int64_t)p.h * 32;
#pragma unroll
        for (int j = 0; j < 2; j++) {
            int c = 16 * wg + 8 * j + 2 * t;
            float x = dq[4 * j + 2 * u], y = dq[4 * j + 2 * u + 1];
            if (last) *(__nv_bfloat162 *)(op + c) = __floats2bfloat162_rn(x * a.scale, y * a.scale);
            else *(float2 *)(slot + q * 32 + c) = make_float2(x, y);
        }
    }
}

// A step's start (step and stage b): its copies done and visible to wgmma, the next step's
// issued; at a key block's first step the mask terms, K and V fragments, dk = dv = 0.
template <bool HB>
__device__ __forceinline__ void bwg_step_start(const fa_args &a, unsigned char *sm, const bwg_pos &p, bwg_pos &cur,
                                               int b, int nkb, int nqt, int kw, float (&mk2)[2], uint32_t (&ka)[2][4],
                                               uint32_t (&va)[2][4], float (&dk)[4][4], float (&dv)[4][4]) {
    typedef bwg_lay Y;
    fa_wait<0>();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // cp.async writes -> wgmma reads
    __syncthreads();
    cur = bwg_next(a, p, nkb, nqt);
    bwg_issue<HB>(a, cur, sm, b ^ 1);
    if (p.qt == 0) {
        const int g = (threadIdx.x & 31) >> 2;
#pragma unroll
        for (int u = 0; u < 2; u++) mk2[u] = bw_mask2(a, p.r, (int64_t)p.kb * BWG_KB + kw + g + 8 * u);
        bwg_afrag((const bf16 *)(sm + Y::K + (p.n & 1) * Y::TK), kw, ka);
        bwg_afrag((const bf16 *)(sm + Y::V + (p.n & 1) * Y::TK), kw, va);
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) dk[j][e] = dv[j][e] = 0.f;
    }
}
#endif

// One block per SM (103 KB of shared memory, 121 KB with DEF; up to 255 registers a thread).
// DEF (PF_ATTN_BWD_WG=2): the dq product of a step runs in the next step, issued after that
// step's S^T and dP^T (dS^T double buffered): no second block barrier per step, and the dq
// product overlaps p and dS. Needs L >= 128 (two query tiles per key block): then the step
// before's K is still in its buffer, and a step's slot read comes after the deferred store of
// the same query tile's previous key block.
template <bool HB, bool DEF>
__global__ void __launch_bounds__(BWG_NTH, 1) k_bwd_wg(fa_args a, float *dq_slots) {
#if S9_HAVE_WGMMA
    typedef bwg_lay Y;
    extern __shared__ __align__(128) unsigned char bwg_sm[];
    const int nkb = (int)((a.L + BWG_KB - 1) / BWG_KB), nqt = (int)(a.L / 64);
    const int64_t nitems = (int64_t)a.H * a.B;
    float *slot = dq_slots + (int64_t)blockIdx.x * a.L * 32;  // (L, 32) running dq of the item
    const int wg = threadIdx.x >> 7, kw = 64 * wg + 16 * ((threadIdx.x >> 5) & 3);  // the warp's 16 keys
    const float sc2 = a.scale * BW_L2E;
    if (!HB)  // no bias: both stages' bias tiles zero, never copied over
        for (int s = 0; s < 2; s++)
            for (int i = threadIdx.x; i < BWG_KB * BW_LDK / 2; i += BWG_NTH)
                ((uint32_t *)(bwg_sm + s * Y::stage + Y::B))[i] = 0u;
    bwg_pos cur;
    cur.item = blockIdx.x;
    cur.kb = cur.qt = cur.n = 0;
    cur.h = 0;
    cur.r = 0;
    if (cur.item < nitems) bwg_item(a, cur);
    bwg_issue<HB>(a, cur, bwg_sm, 0);
    float dk[4][4], dv[4][4], mk2[2] = {0.f, 0.f}, dqp[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    // dqp (DEF): the pending step's running dq
    uint32_t ka[2][4], va[2][4], qa[8][4];
    bwg_pos pend = cur;  // DEF: the step whose dq product is pending
    bool pending = false;
    for (int step = 0; cur.item < nitems; step++) {
        const bwg_pos p = cur;
        const int b = step & 1;
        const unsigned char *st = bwg_sm + b * Y::stage;
        bf16 *dSb = (bf16 *)(bwg_sm + Y::dS) + (DEF ? b * BWG_KB * BWG_LDS : 0);
        bwg_step_start<HB>(a, bwg_sm, p, cur, b, nkb, nqt, kw, mk2, ka, va, dk, dv);
        float dq[8];
        bwg_dq_load(dq, slot, p, wg);  // in flight while the scores are computed
        float s[8][4], dp[8][4];
        bwg_scores_issue(s, dp, ka, va, st);
        if (DEF) {
            // the pending step's dq product (at the block's first step on whatever the buffer
            // holds, not stored: the wgmma groups stay the same every step)
            bwg_dq_issue(dqp, qa, (const bf16 *)(bwg_sm + Y::dS) + (b ^ 1) * BWG_KB * BWG_LDS,
                         (const bf16 *)(bwg_sm + Y::K + (pend.n & 1) * Y::TK), wg);
            bwg_p_ds<1>(s, dp, st, (const bf16 *)(st + Y::B) + kw * BW_LDK, mk2, sc2);
        } else {
            bwg_p_ds<0>(s, dp, st, (const bf16 *)(st + Y::B) + kw * BW_LDK, mk2, sc2);
        }
        uint32_t pa[4][4], da[4][4];
        bwg_pack(s, pa);
        bwg_pack(dp, da);
        bwg_ds_store(dSb, da, kw);
        bwg_dkdv_issue(dk, dv, pa, da, st);
        if (!DEF) {
            __syncthreads();  // every warp's dS^T written
            bwg_dq_issue(dq, qa, dSb, (const bf16 *)(bwg_sm + Y::K + (p.n & 1) * Y::TK), wg);
        }
        wg_mma_wait<0>();
        s9_wg_hold<16>(&dk[0][0]);
        s9_wg_hold<16>(&dv[0][0]);
        s9_wg_hold<8>(DEF ? dqp : dq);
        bwg_hold_r<16>(&pa[0][0]);  // A registers of the products live up to their wait
        bwg_hold_r<16>(&da[0][0]);
        bwg_hold_r<32>(&qa[0][0]);
        if (!DEF) bwg_dq_store(a, dq, slot, p, p.kb == nkb - 1, wg);
        if (DEF && pending) bwg_dq_store(a, dqp, slot, pend, pend.kb == nkb - 1, wg);
        if (DEF) {
#pragma unroll
            for (int i = 0; i < 8; i++) dqp[i] = dq[i];
            pend = p;
            pending = true;
        }
        if (p.qt == nqt - 1) bw_store_dkdv<32>(a, p.r, p.h, (int64_t)p.kb * BWG_KB + kw, dk, dv);
        if (DEF && !(cur.item < nitems)) {
            __syncthreads();  // the last step's dS^T of every warp
            bwg_dq_issue(dqp, qa, dSb, (const bf16 *)(bwg_sm + Y::K + (p.n & 1) * Y::TK), wg);
            wg_mma_wait<0>();
            s9_wg_hold<8>(dqp);
            bwg_hold_r<32>(&qa[0][0]);
            bwg_dq_store(a, dqp, slot, p, p.kb == nkb - 1, wg);
        }
    }
    fa_wait<0>();
#else
    (void)a;
    (void)dq_slots;
    __trap();  // launched on sm_90 only
#endif
}

// biasT (bf16 numbers held as fp32) as bf16: exact.
__global__ void k_bwg_bias16(const float *x, bf16 *y, int64_t n) { GRID_STRIDE(i, n) y[i] = __float2bfloat16(x[i]); }

static int bwg_cc9(void) {
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
    return major == 9;
}

int fa_bwd_wg_device(void) {
    static int cc9 = -1;  // the device does not change within a process
    if (cc9 < 0) cc9 = bwg_cc9();
    return cc9;
}

// Grid: one block per SM, evened out over the items, no more than the pool has dq slots for.
int fa_bwd_wg(cu_impl *c, const fa_args *a, int force, int def) {
    if (a->ch != 32 || a->HC % 8 || a->B <= 0 || a->L <= 0 || a->L % 64 || c->attn_fused < 0) return 1;
    // by size as fa_bwd_fused: at least two items per SM (a persistent block owns whole items)
    if (!force && c->attn_fused == 0 && (int64_t)a->H * a->B < 2 * (int64_t)(c->n_sm > 0 ? c->n_sm : 1)) return 1;
    if (a->biasT && !a->bias_bf16) return 1;
    if ((int64_t)a->H * a->B > 2147483647LL / 2 || a->L > (1 << 20)) return 1;
    if (!fa_bwd_wg_device()) return 1;
    def = def && a->L >= 128;  // the deferred product needs two query tiles per key block
    typedef bwg_lay Y;
    static void (*const kern[4])(fa_args, float *) = {k_bwd_wg<false, false>, k_bwd_wg<true, false>,
                                                      k_bwd_wg<false, true>, k_bwd_wg<true, true>};
    static int attr_set[4];
    for (int k = 0; k < 4; k++) {
        if (attr_set[k]) continue;
        if (cudaFuncSetAttribute(kern[k], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Y::bytes(k >= 2)) !=
            cudaSuccess) {
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
        k_bwg_bias16<<<cu_blocks(nb, 256), 256, 0, c->stream>>>(a->biasT, b16, nb);
        CU_LAUNCHED();
        b.biasT16 = b16;
    }
    int64_t rounds = (items + gmax - 1) / gmax, grid = (items + rounds - 1) / rounds;
    // the bias copy and the slots: the top of the pool for this launch only (stream order)
    float *slots = (float *)(c->pool + top + bbytes);
    int k = (nb ? 1 : 0) + (def ? 2 : 0);
    kern[k]<<<(unsigned)grid, BWG_NTH, Y::bytes(def), c->stream>>>(b, slots);
    CU_LAUNCHED();
    g_bwg_runs++;
    return 0;
}
