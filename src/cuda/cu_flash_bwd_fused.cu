// cu_flash_bwd_fused.cu: dk, dv and dq of the bf16 attention backward in one pass
// (mma.sync m16n8k16; sm_80 and sm_90a). docs/ATTENTION_BWD.md, "Session 6".
//
// The three-pass backward (cu_flash_bwd.cu) recomputes S = Q K^T, dP = dO V^T and the
// probabilities in every pass; that elementwise work per score, not the products,
// bounds it. Here a block owns a whole item (head h, row r): it walks the key tiles
// (KT = 16 NW keys, K and V of the tile in shared memory, dk and dv in registers) and
// for each the query tiles of 64, as FlashAttention-2's backward does. dq of the item
// is a sum over key tiles; FlashAttention-2 adds it with atomics. Here the block keeps
// the running dq of its item in its own fp32 slot of a scratch buffer (L x c_h floats,
// L2-resident): each query tile's partial dS^T K (over the KT keys) is added to the
// slot in key-tile order by the thread that owns those elements, so the sum has one
// fixed order whatever block runs the item and the result is bit-identical run to run.
// The last key tile writes dq (bf16) instead. Blocks are persistent (one slot each):
// item i runs on block i % G, G from the occupancy and the pool space.
//
// Per step (key tile, query tile): warp w computes S^T and dP^T for its 16 keys x 64
// queries, p and dS (as k_bwd_dkdv), dv += P^T dO and dk += dS^T Q, writes dS (bf16)
// to shared memory; after a barrier the warps split the 64 x c_h dq partial
// (16 queries x NJ 8-channel tiles each) over all KT keys, reading dS and K through
// ldmatrix.trans. Bias gradient and fully masked rows' dv: cu_flash_bwd.cu.
#include "cu_flash_bwd.cuh"
#include "cu_flash_bwd_lean.cuh"
#include <type_traits>

// Shared memory: K x 3 and V x 2 of the own key tile (K of the previous step's tile is
// still read by its deferred dq product), the Q, dO, bias, lse, D ring of 2 stages, dS x 2.
// The bias tiles are fp32, or bf16 (BB: a.biasT16, the same values) when the bias holds
// bf16 numbers: the bias is most of a step's copied bytes (32 of 56 KB per 8192 scores
// with 8 warps), so this cuts the L2 -> SM traffic the pass is bound by.
template <int CH, int NW, bool BB, int LDB>  // LDB: the bias tile's stride (BW_LDK, k_bwd_lean's bwl_ldb)
static size_t bwf_smem() {
    return sizeof(bf16) * (size_t)(5 * 16 * NW * (CH + 8)         // own K x 3, V x 2
                                   + 2 * 2 * BW_T * (CH + 8)      // Q, dO ring
                                   + 2 * 16 * NW * (BW_T + 8)) +  // dS [key][query] x 2
           (BB ? sizeof(bf16) : sizeof(float)) * (size_t)(2 * 16 * NW * LDB) +     // bias ring
           sizeof(float) * (size_t)(2 * 2 * BW_T);                                  // lse, D
}

// Where a block is in its walk: item (head h, row r), key tile kt, query tile qt, and
// n, the key tiles started so far (own K buffer n % 3, V n % 2). Advanced by counting, not by
// dividing the step number (64-bit divisions per step were a third of the instructions).
struct bwf_pos {
    int64_t item, r, kt, qt, n;
    int h;
};
__device__ __forceinline__ void bwf_item(const fa_args &a, bwf_pos &p) {
    p.h = (int)(p.item / a.B);
    p.r = p.item - (int64_t)p.h * a.B;
}

__device__ __forceinline__ bwf_pos bwf_next(const fa_args &a, bwf_pos p, int64_t nkt, int64_t nqt) {
    if (++p.qt < nqt) return p;
    p.qt = 0;
    p.n++;
    if (++p.kt < nkt) return p;
    p.kt = 0;
    p.item += gridDim.x;
    if (p.item < (int64_t)a.H * a.B) bwf_item(a, p);
    return p;
}

// dq partial (16 queries from qm x 8 NJ channels from cb) += dS^T K over KT keys:
// A = dS^T from dSs [key][query] (ldmatrix.x4.trans), B = K from Ks [key][channel].
template <int KT, int NJ, int LK, int LDS>
__device__ __forceinline__ void bwf_dq_mma(float (*acc)[4], const bf16 *dSs, const bf16 *Ks, int qm, int cb) {
    int lane = threadIdx.x & 31, m = lane >> 3;
#pragma unroll
    for (int kk = 0; kk < KT / 16; kk++) {
        uint32_t a[4];
        uint32_t aaddr = fa_smem(dSs + (kk * 16 + (m >> 1) * 8 + (lane & 7)) * LDS + qm + (m & 1) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                     : "r"(aaddr));
#pragma unroll
        for (int j = 0; j < NJ; j += 2) {
            if (j + 1 < NJ) {
                uint32_t b[4];
                uint32_t baddr = fa_smem(Ks + (kk * 16 + (m & 1) * 8 + (lane & 7)) * LK + cb + 8 * (j + (m >> 1)));
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                             : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                             : "r"(baddr));
                fa_mma16816(acc[j], a, b[0], b[1]);
                fa_mma16816(acc[j + 1], a, b[2], b[3]);
            } else {
                uint32_t b0, b1;
                uint32_t baddr = fa_smem(Ks + (kk * 16 + (lane & 15)) * LK + cb + 8 * j);
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                             : "=r"(b0), "=r"(b1)
                             : "r"(baddr));
                fa_mma16816(acc[j], a, b0, b1);
            }
        }
    }
}

// The running dq of a warp's tile (16 queries from qm, 8 NJ channels from cb) of step pp:
// to the block's slot, or as dq (bf16, times scale) after the item's last key tile.
template <int CH, int NJ>
__device__ __forceinline__ void bwf_dq_store(const fa_args &a, const bwf_pos &pp, bool last_kt, float *slot, int qm,
                                             int cb, const float (*dqa)[4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t q = pp.qt * BW_T + qm + g + 8 * u;
        if (q >= a.L) continue;
        bf16 *op = (bf16 *)a.dq + fa_pos(a, pp.r, q) * a.HC + (int64_t)pp.h * a.ch;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            int c = cb + 8 * j + 2 * t;
            if (!last_kt) {
                *reinterpret_cast<float2 *>(slot + q * CH + c) = make_float2(dqa[j][2 * u], dqa[j][2 * u + 1]);
            } else {
                if (c < a.ch) op[c] = __float2bfloat16(dqa[j][2 * u] * a.scale);
                if (c + 1 < a.ch) op[c + 1] = __float2bfloat16(dqa[j][2 * u + 1] * a.scale);
            }
        }
    }
}

// The running dq a step's product adds to (the warp's 16 queries from qm x 8 NJ channels
// from cb): 0 on the first key tile; with one query tile per row, the pending step's
// result (same tile, previous key tile); else the slot, written at least one step ago by
// this thread.
template <int CH, int NJ>
__device__ __forceinline__ void bwf_dq_running(const fa_args &a, const bwf_pos &p, int64_t nqt, int64_t q0,
                                               const float *slot, int qm, int cb, const float (*dqp)[4],
                                               float (*dqn)[4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            int64_t q = q0 + qm + g + 8 * u;
            float2 v = make_float2(0.f, 0.f);
            if (p.kt > 0 && nqt == 1) v = make_float2(dqp[j][2 * u], dqp[j][2 * u + 1]);
            else if (p.kt > 0 && q < a.L) v = *reinterpret_cast<const float2 *>(slot + q * CH + cb + 8 * j + 2 * t);
            dqn[j][2 * u] = v.x;
            dqn[j][2 * u + 1] = v.y;
        }
}

// The dq product of a step runs in the next step, after that step's first barrier: the
// barrier that makes every warp's dS visible is then the one the ring needs anyway (one
// barrier per step), and the slot values read at the step's start have a step to arrive.
template <int CH, int NW, int MB, bool FL, bool BB>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_fused(fa_args a, float *dq_slots) {
    typedef typename std::conditional<BB, bf16, float>::type BT;
    constexpr int LK = CH + 8, KT = 16 * NW, NTH = 32 * NW, LDS = BW_T + 8;
    constexpr int NJ = 4 * (CH / 8) / NW;  // dq: 8-channel tiles per warp
    static_assert(NW == 4 || NW == 8, "warps per block");
    static_assert(NJ >= 1 && 4 * (CH / 8) == NJ * NW, "dq tiles per warp");
    extern __shared__ __align__(16) unsigned char bw_sm[];
    bf16 *Ks = (bf16 *)bw_sm, *Vs = Ks + 3 * KT * LK, *Qs = Vs + 2 * KT * LK, *dOs = Qs + 2 * BW_T * LK;
    bf16 *dSs = dOs + 2 * BW_T * LK;
    BT *Bs = (BT *)(dSs + 2 * KT * LDS);
    float *Ls = (float *)(Bs + 2 * KT * BW_LDK), *Ds = Ls + 2 * BW_T;
    const int64_t nkt = (a.L + KT - 1) / KT, nqt = (a.L + BW_T - 1) / BW_T, nitems = (int64_t)a.H * a.B;
    float *slot = dq_slots + (int64_t)blockIdx.x * a.L * CH;  // (L, CH) running dq of the item
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const int qm = 16 * (w & 3), cb = 8 * NJ * (w >> 2);  // this warp's dq tile
    if (!a.biasT)
        for (int i = threadIdx.x; i < 2 * KT * BW_LDK; i += NTH) Bs[i] = (BT)0.f;
    // copies of position p into ring buffer b (issued one step ahead)
    auto issue = [&](const bwf_pos &p, int b) {
        if (p.item < nitems) {
            int64_t q0 = p.qt * BW_T, k0 = p.kt * KT;
            bw_tile<FL, CH, BW_T, NTH>(a, a.q, p.r, p.h, q0, Qs + b * BW_T * LK);
            bw_tile<FL, CH, BW_T, NTH>(a, a.dO, p.r, p.h, q0, dOs + b * BW_T * LK);
            bw_lseD(a, p.r, true, p.h, q0, BW_T, Ls + b * BW_T, Ds + b * BW_T);
            if constexpr (BB)
                bw_bias_fl<KT, BW_T, BW_LDK, NTH>(a.biasT16 + (int64_t)p.h * a.L * a.L, a.L, k0, q0,
                                                    Bs + b * KT * BW_LDK);
            else if (a.biasT)
                bw_bias<FL, KT, BW_T, BW_LDK, NTH>(a.biasT + (int64_t)p.h * a.L * a.L, a.L, k0, q0,
                                                   Bs + b * KT * BW_LDK);
            if (p.qt == 0) {
                // own K into buffer n % 3 (the tile before is still read by its deferred dq
                // product), V into n % 2
                bw_tile<FL, CH, KT, NTH>(a, a.k, p.r, p.h, k0, Ks + (int)(p.n % 3) * KT * LK);
                bw_tile<FL, CH, KT, NTH>(a, a.v, p.r, p.h, k0, Vs + (int)(p.n & 1) * KT * LK);
            }
        }
        fa_commit();
    };
    // the deferred dq product of step `pp` (dS in buffer pb): adds dS^T K to the running
    // sum dqa and stores it to the slot, or as dq (bf16) after the last key tile
    auto dq_finish = [&](const bwf_pos &pp, int pb, float (*dqa)[4]) {
        bwf_dq_mma<KT, NJ, LK, LDS>(dqa, dSs + pb * KT * LDS, Ks + (int)(pp.n % 3) * KT * LK, qm, cb);
        bwf_dq_store<CH, NJ>(a, pp, pp.kt == nkt - 1, slot, qm, cb, dqa);
    };
    bwf_pos cur;
    cur.item = blockIdx.x;
    cur.kt = cur.qt = cur.n = 0;
    cur.h = 0;
    cur.r = 0;
    if (cur.item < nitems) bwf_item(a, cur);
    issue(cur, 0);
    const float sc2 = a.scale * BW_L2E;
    float dk[CH / 8][4], dv[CH / 8][4], mk2[2] = {0.f, 0.f};
    float dqp[NJ][4];  // running dq of the pending step's query tile, before its product
    bwf_pos pend = cur;
    bool pending = false;
    for (int64_t step = 0; cur.item < nitems; step++) {
        const bwf_pos p = cur;
        int b = (int)(step & 1);
        int64_t q0 = p.qt * BW_T, k0 = p.kt * KT;
        fa_wait<0>();
        __syncthreads();
        cur = bwf_next(a, p, nkt, nqt);
        issue(cur, b ^ 1);
        if (pending) dq_finish(pend, b ^ 1, dqp);
        float dqn[NJ][4];
        bwf_dq_running<CH, NJ>(a, p, nqt, q0, slot, qm, cb, dqp, dqn);
        if (p.qt == 0) {
#pragma unroll
            for (int u = 0; u < 2; u++) mk2[u] = bw_mask2(a, p.r, k0 + 16 * w + g + 8 * u);
#pragma unroll
            for (int j = 0; j < CH / 8; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) dk[j][e] = dv[j][e] = 0;
        }
        const bf16 *Kw = Ks + ((int)(p.n % 3) * KT + 16 * w) * LK, *Vw = Vs + ((int)(p.n & 1) * KT + 16 * w) * LK;
        const bf16 *Qb = Qs + b * BW_T * LK, *dOb = dOs + b * BW_T * LK;
        const BT *Bt = Bs + b * KT * BW_LDK;
        const float *Lb = Ls + b * BW_T, *Db = Ds + b * BW_T;
        bf16 *dSw = dSs + b * KT * LDS;
        float s[8][4], dp[8][4];
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
        bw_mma_ss<CH, 8, true>(s, Kw, LK, Qb, LK);    // S^T (keys x queries)
        bw_mma_ss<CH, 8, true>(dp, Vw, LK, dOb, LK);  // dP^T
        bw_p_ds_keys(s, dp, Lb, Db, Bt + 16 * w * BW_LDK, mk2, sc2);
        // dS (bf16, the values the dk product rounds to) for the dq product
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int u = 0; u < 2; u++)
                *reinterpret_cast<uint32_t *>(dSw + (16 * w + g + 8 * u) * LDS + 8 * j + 2 * t) =
                    fa_pack2(dp[j][2 * u], dp[j][2 * u + 1]);
        fa_mma_rs_t<BW_T, CH / 8>(dv, s, dOb, LK);
        fa_mma_rs_t<BW_T, CH / 8>(dk, dp, Qb, LK);
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) dqp[j][e] = dqn[j][e];
        pend = p;
        pending = true;
        if (p.qt == nqt - 1) bw_store_dkdv<CH>(a, p.r, p.h, k0 + 16 * w, dk, dv);
        if (!(cur.item < nitems)) {
            fa_wait<0>();
            __syncthreads();  // the last step's dS of every warp
            dq_finish(pend, b, dqp);
        }
    }
}

// biasT (bf16 numbers held as fp32) as bf16: exact.
__global__ void k_bias_to_bf16(const float *x, bf16 *y, int64_t n) { GRID_STRIDE(i, n) y[i] = __float2bfloat16(x[i]); }
// biasT (H, L, L) [h][key][query] as bf16 (exact) for k_bwd_lean's BWL_BP: (H, Lk, Lq), keys
// padded to Lk, queries to Lq (zeros there), each 64-query block permuted (query 8 j + 2 t + e at
// 16 t + 2 j + e, cu_flash_bwd_lean.cuh).
// One thread per 16-byte chunk of y.
__global__ void k_bwl_bias16p(const float *x, bf16 *y, int L, int Lk, int Lq, int64_t nchunks) {
    GRID_STRIDE(i, nchunks) {
        const int cpr = Lq / 8;  // chunks per row
        const int64_t row = i / cpr;
        const int c = (int)(i - row * cpr), k = (int)(row % Lk), h = (int)(row / Lk);
        const int q0 = (c / 8) * BW_T;  // chunk c % 8 holds positions 8 (c % 8) .. + 7 of that block
        uint32_t w[4];
#pragma unroll
        for (int m = 0; m < 4; m++) {
            float v[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                // position 8 (c % 8) + 2 m + e holds query 8 j + 2 t + e: t = c % 8 / 2, j = 4 (c % 2) + m
                int q = q0 + 8 * (4 * (c & 1) + m) + 2 * ((c & 7) >> 1) + e;
                v[e] = k < L && q < L ? x[((int64_t)h * L + k) * L + q] : 0.f;
            }
            w[m] = fa_pack2(v[0], v[1]);
        }
        *reinterpret_cast<uint4 *>(y + 8 * i) = make_uint4(w[0], w[1], w[2], w[3]);
    }
}
// The same in fp32 (BWL_BP without the bf16 copy): each 64-query block in bwl_lperm's order
// (query 8 j + 2 t + e at 4 (4 (j / 2) + t) + 2 (j % 2) + e). One thread per 16-byte chunk.
__global__ void k_bwl_bias32p(const float *x, float *y, int L, int Lk, int Lq, int64_t nchunks) {
    GRID_STRIDE(i, nchunks) {
        const int cpr = Lq / 4;  // chunks per row
        const int64_t row = i / cpr;
        const int c = (int)(i - row * cpr), k = (int)(row % Lk), h = (int)(row / Lk);
        const int q0 = (c / 16) * BW_T, t = c & 3, jh = (c & 15) >> 2;  // chunk c % 16 = 4 (j / 2) + t
        float v[4];
#pragma unroll
        for (int m = 0; m < 4; m++) {
            int q = q0 + 8 * (2 * jh + (m >> 1)) + 2 * t + (m & 1);
            v[m] = k < L && q < L ? x[((int64_t)h * L + k) * L + q] : 0.f;
        }
        *reinterpret_cast<float4 *>(y + 4 * i) = make_float4(v[0], v[1], v[2], v[3]);
    }
}

// Blocks: as many as fit the SMs at once, evened out over the items (G = items / rounds),
// and no more than the pool's free space has slots for. BB: the bias as bf16 from the
// pool (below the slots). Returns 0 when launched, nonzero (nothing launched) otherwise.
// LEAN < 0: k_bwd_fused; else k_bwd_lean with option bits LEAN (FL cases only).
template <int CH, int NW, int MB, bool FL, bool BB, int LEAN>
static void (*bwf_kernel())(fa_args, float *) {
    static_assert(LEAN < 0 || FL, "k_bwd_lean copies 16-byte chunks");
    if constexpr (LEAN < 0) return k_bwd_fused<CH, NW, MB, FL, BB>;
    else return k_bwd_lean<CH, NW, MB, BB, LEAN>;
}
template <int CH, int NW, int MB, bool FL, bool BB, int LEAN>
static int bwf_run(cu_impl *c, const fa_args *a) {
    auto kern = bwf_kernel<CH, NW, MB, FL, BB, LEAN>();
    size_t smem = bwf_smem<CH, NW, BB, LEAN < 0 ? BW_LDK : bwl_ldb<BB, (LEAN < 0 ? 0 : LEAN)>()>();
    if constexpr (LEAN >= 0) {
        // k_bwd_lean's layout: BWL_SW's unpadded tiles, BWL_ST's staging areas after the ring
        typedef bwl_lay<CH, NW, BB, bwl_ldb<BB, LEAN>(), bwl_lk<CH, LEAN>()> Ly;
        smem = (LEAN & BWL_ST) ? Ly::TEND : Ly::END;
    }
    // attribute and blocks per SM at this shared memory: once per kernel and device
    static int occ_by_dev[64];  // 0: not set yet, else blocks per SM + 1
    int dev = 0;
    CU_CHECK(cudaGetDevice(&dev));
    int occ = dev >= 0 && dev < 64 ? occ_by_dev[dev] - 1 : -1;
    if (occ < 0) {
        CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        CU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, 32 * NW, smem));
        if (dev >= 0 && dev < 64) occ_by_dev[dev] = occ + 1;
    }
    int64_t items = (int64_t)a->H * a->B, gmax = (int64_t)(c->n_sm > 0 ? c->n_sm : 1) * (occ > 0 ? occ : 1);
    // BWL_BP: the permuted, padded copy (bf16: k_bwl_bias16p, fp32: k_bwl_bias32p)
    const bool BP = LEAN >= 0 && (LEAN & BWL_BP) && a->biasT, P32 = BP && !BB;
    const int64_t Lq = (a->L + BW_T - 1) / BW_T * BW_T, Lk = (a->L + BWL_KPAD - 1) / BWL_KPAD * BWL_KPAD;
    int64_t nb = BP ? a->H * Lk * Lq : BB ? (int64_t)a->H * a->L * a->L : 0;
    size_t top = (c->pool_top + 255) & ~(size_t)255, slot = sizeof(float) * (size_t)a->L * CH;
    size_t bbytes = ((size_t)nb * (P32 ? sizeof(float) : sizeof(bf16)) + 255) & ~(size_t)255;
    if (!c->pool || c->pool_bytes < top + bbytes) return 1;
    size_t room = (c->pool_bytes - top - bbytes) / slot;
    if ((int64_t)room < gmax) gmax = (int64_t)room;
    if (gmax < 1) return 1;
    fa_args b = *a;
    if (P32) {
        // the kernel reads the fp32 bias from biasT: here the permuted copy
        float *b32 = (float *)(c->pool + top);
        k_bwl_bias32p<<<cu_blocks(nb / 4, 256), 256, 0, c->stream>>>(a->biasT, b32, (int)a->L, (int)Lk, (int)Lq,
                                                                     nb / 4);
        CU_LAUNCHED();
        b.biasT = b32;
    } else if (BB) {
        bf16 *b16 = (bf16 *)(c->pool + top);
        if (BP)
            k_bwl_bias16p<<<cu_blocks(nb / 8, 256), 256, 0, c->stream>>>(a->biasT, b16, (int)a->L, (int)Lk, (int)Lq,
                                                                         nb / 8);
        else
            k_bias_to_bf16<<<cu_blocks(nb, 256), 256, 0, c->stream>>>(a->biasT, b16, nb);
        CU_LAUNCHED();
        b.biasT16 = b16;
    }
    int64_t rounds = (items + gmax - 1) / gmax, grid = (items + rounds - 1) / rounds;
    // the bias copy and the slots are taken from the top of the pool for this launch only
    // (stream order)
    kern<<<(unsigned)grid, 32 * NW, smem, c->stream>>>(b, (float *)(c->pool + top + bbytes));
    CU_LAUNCHED();
    return 0;
}

// By size (c->attn_fused 0), taken when every SM gets at least two items (triangle and
// MSA row attention; single attention, B = 1, keeps the three passes, whose blocks
// split L); force: wherever it can run (checks at small sizes). variant: 0 8 warps, 1 4
// warps (two blocks per SM), 2 8 warps with the fp32 bias even where bf16 is exact;
// 3.. k_bwd_lean (8 warps, same bits as variant 0): 3 no options, 4 BWL_X4, 5 BWL_CP,
// 6 X4 | CP, 7 the same with the fp32 bias, 8 X4 | CP | PIN, 9 the same with the fp32
// bias, 10 X4 | BP, 11 X4 | LP, 12 X4 | BP | LP, 13 X4 | CP | BP | LP, 14 X4 | CP | PIN |
// BP | LP, 15 X4 | BP | LP with the fp32 bias, 16 X4 | CP | PIN | BP | LP with the fp32
// bias (BP: a bf16 copy in that order where exact, else an fp32 one), 17 X4 | ST, 18 X4 |
// BP | LP | ST, 19 X4 | SW, 20 X4 | ST | SW, 21 X4 | BP | LP | ST | SW, 22 X4 | ST | SW | BM,
// 23 X4 | BM (BM: the bias on the tensor cores where it is bf16, else as 20 / 4). Lean
// variants run k_bwd_fused where FL or the 32-bit offsets do not apply.
int fa_bwd_fused(cu_impl *c, const fa_args *a, int variant, int force) {
    if (a->ch > 32 || a->B <= 0 || a->L <= 0 || c->attn_fused < 0) return 1;
    if (!force && c->attn_fused == 0 && (int64_t)a->H * a->B < 2 * (int64_t)(c->n_sm > 0 ? c->n_sm : 1)) return 1;
    if (a->H * a->B > 2147483647LL / 2) return 1;
    bool fl = a->ch % 8 == 0 && a->HC % 8 == 0 && (!a->biasT || a->L % 4 == 0);
    // the bf16 bias: exact values, 16-byte rows
    bool bb = fl && a->biasT && a->bias_bf16 && a->L % 8 == 0 && variant != 2 && variant != 7 && variant != 9 &&
              variant != 15 && variant != 16;
    // k_bwd_lean: FL copies and 32-bit offsets (grid at most items or 8 blocks per SM)
    int64_t items = (int64_t)a->H * a->B, gmax = 8 * (int64_t)(c->n_sm > 0 ? c->n_sm : 1);
    if (variant >= 3 && !(fl && bwl_fits(a, items < gmax ? items : gmax))) variant = bb ? 0 : 2;
#define BWF(CH_, NW_, MB_, LEAN_)                                                                  \
    do {                                                                                           \
        if (bb && bwf_run<CH_, NW_, MB_, true, true, LEAN_>(c, a) == 0) return 0;                  \
        return fl ? bwf_run<CH_, NW_, MB_, true, false, bwl_f32opt(LEAN_)>(c, a)                   \
                  : bwf_run<CH_, NW_, MB_, false, false, -1>(c, a);                                \
    } while (0)
#define BWF_CH(NW_, MB_, LEAN_)                  \
    do {                                         \
        if (a->ch <= 16) BWF(16, NW_, MB_, LEAN_); \
        BWF(32, NW_, MB_, LEAN_);                \
    } while (0)
    switch (variant) {
    case 1: BWF_CH(4, 2, -1);
    case 3: BWF_CH(8, 1, 0);
    case 4: BWF_CH(8, 1, BWL_X4);
    case 5: BWF_CH(8, 1, BWL_CP);
    case 6:
    case 7: BWF_CH(8, 1, BWL_X4 | BWL_CP);
    case 8:
    case 9: BWF_CH(8, 1, BWL_X4 | BWL_CP | BWL_PIN);
    case 10: BWF_CH(8, 1, BWL_X4 | BWL_BP);
    case 11: BWF_CH(8, 1, BWL_X4 | BWL_LP);
    case 12:
    case 15: BWF_CH(8, 1, BWL_X4 | BWL_BP | BWL_LP);
    case 13: BWF_CH(8, 1, BWL_X4 | BWL_CP | BWL_BP | BWL_LP);
    case 14:
    case 16: BWF_CH(8, 1, BWL_X4 | BWL_CP | BWL_PIN | BWL_BP | BWL_LP);
    case 17: BWF_CH(8, 1, BWL_X4 | BWL_ST);
    case 18: BWF_CH(8, 1, BWL_X4 | BWL_BP | BWL_LP | BWL_ST);
    case 19: BWF_CH(8, 1, BWL_X4 | BWL_SW);
    case 20: BWF_CH(8, 1, BWL_X4 | BWL_ST | BWL_SW);
    case 21: BWF_CH(8, 1, BWL_X4 | BWL_BP | BWL_LP | BWL_ST | BWL_SW);
    case 22: BWF_CH(8, 1, BWL_X4 | BWL_ST | BWL_SW | BWL_BM);
    case 23: BWF_CH(8, 1, BWL_X4 | BWL_BM);
    default: BWF_CH(8, 1, -1);
    }
#undef BWF_CH
#undef BWF
}
