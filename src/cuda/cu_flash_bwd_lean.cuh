// cu_flash_bwd_lean.cuh: k_bwd_lean, the one-pass backward of cu_flash_bwd_fused.cu
// (k_bwd_fused) with fewer integer instructions per step; included by that file only.
// docs/ATTENTION_BWD.md, "Session 8".
//
// Same block, same shared-memory layout, same products and the same summation order as
// k_bwd_fused, so the outputs are bit-identical to it. What changes is the addressing,
// which was about 2/3 of k_bwd_fused's SASS (64-bit index arithmetic recomputed per
// step, generic -> shared conversions per ldmatrix):
// - every shared address is a 32-bit shared-window address: one base per thread and
//   operand computed once, a buffer offset per step, the rest immediates;
// - the walk's position (item, row, head, key tile, query tile, buffers) is 32-bit and
//   advanced by counting;
// - the dq slot is addressed from a per-thread pointer plus a 32-bit offset.
// Option bits (OPT), each separately switchable for A/B timing (cu_flash_bwd.cu's
// variant table names them):
// - BWL_X4: the dv and dk products read two 8-channel B fragments per ldmatrix.x4.trans
//   instead of one per .x2 (the same fragments: half the ldmatrix instructions there);
// - BWL_CP: the tile copies from per-item 64-bit source offsets advanced by addition
//   (one add per tile instead of fa_pos(...) * HC per tile), and full tiles (all
//   positions < L, c_h = CH) copied without bounds tests; partial tiles take the
//   previous loaders (bw_load_fl, bw_bias_fl, bw_lseD);
// - BWL_PIN: the per-thread addresses pass once through shared memory (bwl_pin), so
//   ptxas keeps them in registers instead of recomputing them inside the loop;
// - BWL_BP: the bias tile from a copy in the fragments' order, padded with zeros to
//   whole tiles (every tile copies without bounds tests). bf16 (k_bwl_bias16p:
//   [h][key][query permuted per 64]): a thread's 16 bias pairs of a step are 4 LDS.128
//   instead of 16 LDS.32; fp32 (!BB, k_bwl_bias32p: each 64 queries in bwl_lperm's
//   order, tile stride BWL_LDB32): 8 LDS.128 instead of 16 LDS.64, and no widening;
// - BWL_LP: lse and D of a query tile stored permuted in shared memory (bwl_lperm), so
//   a thread's 16 values of each are 4 LDS.128 instead of 8 LDS.64.
// - BWL_ST: the bf16 outputs (dk, dv of a key tile, dq of the last key tile) through a
//   per-warp staging area in shared memory (bwl_st_*), written as 16-byte stores: a
//   key's 64 bytes of dk by 4 lanes, where each of 32 two-byte stores per thread put 8
//   bytes in each of 8 sectors (a quarter of each sector); and the running dq of whole
//   query tiles in the slot as one float4 per thread and 8-channel tile (the slot is
//   private to the block: any layout that store and load agree on), 2 LDG / STG.128 per
//   step where 4 + 4 .64 were.
// - BWL_SW (with BWL_X4): the Q, dO, K, V tiles in rows of CH bf16 without padding, the
//   16-byte chunk c of row r at chunk c ^ ((r % 8) / (8 / (CH / 8))) (bwl_swz). With the
//   padded rows (80 bytes at c_h 32) each 8-lane phase of a 16-byte cp.async fill wrote
//   two rows spanning 144 bytes of banks (two wavefronts where one does); swizzled, a
//   phase fills one 128-byte line and ldmatrix's 8 rows of a chunk stay on 8 distinct
//   16-byte bank groups. The chunk of the second k step / channel pair is no longer an
//   immediate offset: a second lane address per operand (bwl_addr's sK1, sQ1, tQ2).
// BP, LP, ST and SW move values, not arithmetic: the same bits as without them.
// - BWL_BM (bf16 bias, without BWL_BP; bwl_bm): the bias enters S^T on the tensor cores.
//   Before the Q K^T products, acc = A (c I) per 8-query block, mma m16n8k8 with A = the
//   warp's bf16 bias (16 keys x 8 queries, ldmatrix of the [key][query] tile) and B = c I
//   (8 x 8, c = bf16(1 / scale): one register, bw_eye_frag): acc = S^T + c bias, so p =
//   exp2(acc sc2 + (mk - lse log2e)): no bias loads and widening per score (16 LDS.32, 32
//   SHL / LOP3, 32 FFMA per thread and step) for 4 LDSM.x4 and 8 HMMA.1688. Not the same
//   bits: c is rounded to bf16 (c_h 32: 5.65625 for sqrt(32), relative 1.1e-4 on the bias
//   term; exact for c_h 16), and the bias is added before the products where it was added
//   after.
#ifndef PF_CU_FLASH_BWD_LEAN_CUH
#define PF_CU_FLASH_BWD_LEAN_CUH
#include "cu_flash_bwd.cuh"
#include "cu_vec.cuh"
#include <type_traits>

#define BWL_X4 1
#define BWL_CP 2
#define BWL_PIN 4
#define BWL_BP 8
#define BWL_LP 16
#define BWL_ST 32
#define BWL_SW 64
#define BWL_BM 128
// BWL_BP's global copy: keys padded to BWL_KPAD (any key tile, 16 NW <= 128), queries to BW_T
#define BWL_KPAD 128
// BWL_BP's fp32 tile stride (floats): 320 bytes = 64 mod 128, so the rows g and g + 1 of
// an LDS.128 phase fall on disjoint bank halves
#define BWL_LDB32 80
// BWL_SW takes effect with BWL_X4 (the ldmatrix.x4.trans B fragments of the dv / dk products)
template <int CH, int OPT>
__host__ __device__ constexpr bool bwl_sw() {
    return (OPT & BWL_SW) && (OPT & BWL_X4) && (CH == 16 || CH == 32);
}
// BWL_BM takes effect with the bf16 bias in the plain [key][query] tile (not BWL_BP)
template <bool BB, int OPT>
__host__ __device__ constexpr bool bwl_bm() {
    return (OPT & BWL_BM) && BB && !(OPT & BWL_BP);
}
// the option bits of a kernel without the bf16 bias (BWL_BM dropped: one instantiation)
__host__ __device__ constexpr int bwl_f32opt(int opt) { return opt < 0 ? opt : opt & ~BWL_BM; }
// the Q, dO, K, V tiles' row stride (elements)
template <int CH, int OPT>
__host__ __device__ constexpr int bwl_lk() {
    return bwl_sw<CH, OPT>() ? CH : CH + 8;
}
// BWL_SW: byte offset of (row r, 16-byte chunk c) in a swizzled tile (rows from a multiple of 8)
template <int CH>
__host__ __device__ constexpr uint32_t bwl_swz(uint32_t r, uint32_t c) {
    return r * CH * 2 + 16 * (c ^ ((r & 7) / (8 / (CH / 8))));
}
// the bias tile's stride (elements) of a kernel
template <bool BB, int OPT>
__host__ __device__ constexpr int bwl_ldb() {
    return !BB && (OPT & BWL_BP) ? BWL_LDB32 : BW_LDK;
}

// BWL_BP: in each 64-query block of a bias copy row, query q = 8 j + 2 t + e (the
// fragment's column) sits at 16 t + 2 j + e: thread t's 8 pairs are 32 contiguous bytes.
// BWL_LP: the slot in a query tile's lse / D of query q = 8 j + 2 t + e: thread t's 16 values
// are the 16-byte chunks 4 k + t (k = j / 2), the 8 lanes of a phase reading 4 chunks
// (conflict-free)
__device__ __forceinline__ int bwl_lperm(int q) {
    int j = q >> 3, t = (q >> 1) & 3;
    return 4 * (4 * (j >> 1) + t) + 2 * (j & 1) + (q & 1);
}

// Byte offsets of k_bwd_fused's shared-memory regions (bwf_smem): K x 3, V x 2, Q x 2,
// dO x 2, dS x 2, bias x 2, lse x 2, D x 2.
template <int CH, int NW, bool BB, int LDB, int LKE = CH + 8>
struct bwl_lay {
    static constexpr uint32_t LK = LKE, KT = 16 * NW, LDS = BW_T + 8;
    static constexpr uint32_t KB = KT * LK * 2, QB = BW_T * LK * 2, SB = KT * LDS * 2;
    static constexpr uint32_t BB_ = KT * LDB * (BB ? 2 : 4), LB = BW_T * 4;
    static constexpr uint32_t K0 = 0, V0 = 3 * KB, Q0 = V0 + 2 * KB, O0 = Q0 + 2 * QB, S0 = O0 + 2 * QB;
    static constexpr uint32_t B0 = S0 + 2 * SB, L0 = B0 + 2 * BB_, D0 = L0 + 2 * LB;
    // BWL_ST: a warp's staging area (dk and dv of its 16 keys, bf16) from T0
    static constexpr uint32_t END = D0 + 2 * LB, TW = 2 * 16 * CH * 2, T0 = END, TEND = T0 + NW * TW;
};

// ---- shared-memory instructions on 32-bit shared-window addresses ----------------------
__device__ __forceinline__ void bwl_ldsm4(uint32_t *r, uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void bwl_ldsm4t(uint32_t *r, uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void bwl_ldsm2t(uint32_t *r, uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
}
__device__ __forceinline__ float2 bwl_lds_f2(uint32_t addr) {
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(v.x), "=f"(v.y) : "r"(addr));
    return v;
}
__device__ __forceinline__ uint4 bwl_lds_u4(uint32_t addr) {
    uint4 v;
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
    return v;
}
__device__ __forceinline__ float4 bwl_lds_f4(uint32_t addr) {
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr));
    return v;
}
__device__ __forceinline__ float2 bwl_bf2(uint32_t u) {
    return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
}
__device__ __forceinline__ uint32_t bwl_lds_u32(uint32_t addr) {
    uint32_t v;
    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ void bwl_sts_u32(uint32_t addr, uint32_t v) {
    asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v));
}
// the bias pair of (key, query 2i, 2i + 1): fp32, or bf16 widened (exact)
template <bool BB>
__device__ __forceinline__ float2 bwl_bias2(uint32_t addr) {
    if (BB) {
        uint32_t u = bwl_lds_u32(addr);
        return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
    }
    return bwl_lds_f2(addr);
}
__device__ __forceinline__ void bwl_cp16(uint32_t dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void bwl_cp16z(uint32_t dst, const void *src, int n) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n));
}
__device__ __forceinline__ void bwl_cp4(uint32_t dst, const void *src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src));
}

// acc (16 x 64: 8 tiles of 8) += A (16 x K) B^T: a = the A rows' ldmatrix address (lane's
// row and k offset included), b = B's (row block 0, lane offset included), row strides
// sa = sb = LK elements. bw_mma_ss<K, 8, true>'s fragments and order.
// SW: the swizzled tiles, a1 / b1 the addresses of the second k step (K = 32).
template <int K, int LK, bool SW>
__device__ __forceinline__ void bwl_mma_ss8(float (*acc)[4], uint32_t a, uint32_t a1, uint32_t b, uint32_t b1) {
    static_assert(!SW || K <= 32, "two k steps");
#pragma unroll
    for (int kk = 0; kk < K / 16; kk++) {
        const uint32_t ak = SW ? (kk ? a1 : a) : a + kk * 32, bk = SW ? (kk ? b1 : b) : b + kk * 32;
        uint32_t fa[4];
        bwl_ldsm4(fa, ak);
#pragma unroll
        for (int j = 0; j < 8; j += 2) {
            uint32_t fb[4];
            bwl_ldsm4(fb, bk + j * 8 * LK * 2);
            fa_mma16816(acc[j], fa, fb[0], fb[1]);
            fa_mma16816(acc[j + 1], fa, fb[2], fb[3]);
        }
    }
}

// acc (16 x 8 NT) += P (16 x 64, C fragments) * B, B [k][n] (stride LK) at address b
// (lane's row (lane & 15) and, for X4, column block (lane >> 4) included): fa_mma_rs_t's
// fragments and order; X4 reads the tiles j and j + 1 with one ldmatrix.x4.trans.
// SW (X4 only): the swizzled tiles, b2 the address of the channel tiles 2, 3 (NT <= 4).
template <int NT, int LK, bool X4, bool SW>
__device__ __forceinline__ void bwl_mma_rs_t(float (*acc)[4], const float (*p)[4], uint32_t b, uint32_t b2) {
    static_assert(!SW || (X4 && NT <= 4), "swizzled B: x4 fragments, two column pairs");
#pragma unroll
    for (int kk = 0; kk < BW_T / 16; kk++) {
        uint32_t a[4];
        a[0] = fa_pack2(p[2 * kk][0], p[2 * kk][1]);
        a[1] = fa_pack2(p[2 * kk][2], p[2 * kk][3]);
        a[2] = fa_pack2(p[2 * kk + 1][0], p[2 * kk + 1][1]);
        a[3] = fa_pack2(p[2 * kk + 1][2], p[2 * kk + 1][3]);
        if (X4 && NT % 2 == 0) {
#pragma unroll
            for (int j = 0; j < NT; j += 2) {
                uint32_t f[4];
                bwl_ldsm4t(f, (SW ? (j ? b2 : b) : b + j * 16) + kk * 16 * LK * 2);
                fa_mma16816(acc[j], a, f[0], f[1]);
                fa_mma16816(acc[j + 1], a, f[2], f[3]);
            }
        } else {
#pragma unroll
            for (int j = 0; j < NT; j++) {
                uint32_t f[2];
                bwl_ldsm2t(f, b + kk * 16 * LK * 2 + j * 16);
                fa_mma16816(acc[j], a, f[0], f[1]);
            }
        }
    }
}

// dq partial (16 queries x 8 NJ channels) += dS^T K over KT keys: bwf_dq_mma's fragments
// and order. ds, k: the lane's ldmatrix.trans addresses in the dS and K buffers (query
// and channel block of the warp included).
template <int KT, int NJ, int LK, int LDS>
__device__ __forceinline__ void bwl_dq_mma(float (*acc)[4], uint32_t ds, uint32_t k) {
#pragma unroll
    for (int kk = 0; kk < KT / 16; kk++) {
        uint32_t a[4];
        bwl_ldsm4t(a, ds + kk * 16 * LDS * 2);
#pragma unroll
        for (int j = 0; j < NJ; j += 2) {
            if (j + 1 < NJ) {
                uint32_t b[4];
                bwl_ldsm4t(b, k + kk * 16 * LK * 2 + j * 16);
                fa_mma16816(acc[j], a, b[0], b[1]);
                fa_mma16816(acc[j + 1], a, b[2], b[3]);
            } else {
                uint32_t b[2];
                bwl_ldsm2t(b, k + kk * 16 * LK * 2 + j * 16);
                fa_mma16816(acc[j], a, b[0], b[1]);
            }
        }
    }
}

// bw_p_ds_pair where s holds S^T + c bias (BWL_BM): p = exp2(s sc2 + (mk - lse log2e))
__device__ __forceinline__ void bwl_p_ds_pair_bm(float *s, float *dp, float2 l2, float2 d2, float mk, float sc2) {
#pragma unroll
    for (int e1 = 0; e1 < 2; e1++) {
        float p = fa_exp2(fmaf(s[e1], sc2, fmaf(e1 ? l2.y : l2.x, -BW_L2E, mk)));
        s[e1] = p;
        dp[e1] = p * (dp[e1] - (e1 ? d2.y : d2.x));
    }
}
// BWL_BM: acc (16 keys x 64 queries, zeros on entry) = bias (c I) per 8 queries, the bias
// tile's 16 keys x 64 queries (bf16, [key][query]) as A fragments by ldmatrix from the
// lane's address b (matrices: keys 0-7 / 8-15 of queries 8 j.., then of 8 j + 8..); eye:
// bw_eye_frag.
__device__ __forceinline__ void bwl_bias_mma(float (*acc)[4], uint32_t b, uint32_t eye) {
#pragma unroll
    for (int j = 0; j < 8; j += 2) {
        uint32_t f[4];
        bwl_ldsm4(f, b + j * 16);
        bw_mma1688(acc[j], f[0], f[1], eye);
        bw_mma1688(acc[j + 1], f[2], f[3], eye);
    }
}

// p and dS of a warp's 16 keys x 64 queries: bw_p_ds_keys with shared addresses. l, d:
// the tile's lse and D at query 2t (LP: chunk t of the permuted tile); bias: the bias row
// of key g at query 2t (BP: at the thread's 32 bytes of the permuted row; fp32: at its
// chunk t). LDB: the bias tile's stride.
template <bool BB, bool BP, bool LP, int LDB, bool BM = false>
__device__ __forceinline__ void bwl_p_ds(float (*s)[4], float (*dp)[4], uint32_t l, uint32_t d, uint32_t bias,
                                         const float *mk2, float sc2) {
    uint32_t bw[2][8];  // BP, bf16: the bias pairs of keys g + 8 u, queries 8 j + 2 t (+ 1)
    float4 bf[2][4];      // BP, fp32: the same as lc
    float4 lc[4], dc[4];  // LP: lse, D of queries 8 j + 2 t (+ 1), j = 2 k (.x .y), 2 k + 1 (.z .w)
    if (BP && !BB) {
#pragma unroll
        for (int u = 0; u < 2; u++)
#pragma unroll
            for (int k = 0; k < 4; k++) bf[u][k] = bwl_lds_f4(bias + 8 * u * LDB * 4 + 64 * k);
    }
    if (BP && BB) {
#pragma unroll
        for (int u = 0; u < 2; u++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                uint4 v = bwl_lds_u4(bias + 8 * u * LDB * 2 + 16 * h);
                bw[u][4 * h] = v.x;
                bw[u][4 * h + 1] = v.y;
                bw[u][4 * h + 2] = v.z;
                bw[u][4 * h + 3] = v.w;
            }
    }
    if (LP) {
#pragma unroll
        for (int k = 0; k < 4; k++) {
            lc[k] = bwl_lds_f4(l + 64 * k);
            dc[k] = bwl_lds_f4(d + 64 * k);
        }
    }
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float2 l2, d2;
        if (LP) {
            const float4 &lk = lc[j >> 1], &dk = dc[j >> 1];
            l2 = (j & 1) ? make_float2(lk.z, lk.w) : make_float2(lk.x, lk.y);
            d2 = (j & 1) ? make_float2(dk.z, dk.w) : make_float2(dk.x, dk.y);
        } else {
            l2 = bwl_lds_f2(l + 32 * j);
            d2 = bwl_lds_f2(d + 32 * j);
        }
#pragma unroll
        for (int u = 0; u < 2; u++) {
            if (BM) {  // the bias is in s already (BWL_BM)
                bwl_p_ds_pair_bm(s[j] + 2 * u, dp[j] + 2 * u, l2, d2, mk2[u], sc2);
                continue;
            }
            const float4 &bk = bf[u][j >> 1];
            float2 bb = BP && BB    ? bwl_bf2(bw[u][j])
                        : BP        ? ((j & 1) ? make_float2(bk.z, bk.w) : make_float2(bk.x, bk.y))
                                    : bwl_bias2<BB>(bias + (8 * u * LDB + 8 * j) * (BB ? 2 : 4));
            bw_p_ds_pair(s[j] + 2 * u, dp[j] + 2 * u, l2, d2, bb, mk2[u], sc2);
        }
    }
}

// ---- the walk --------------------------------------------------------------------------
// Item (head h, row r), key tile kt, query tile qt, K buffer kb (= key tiles started so
// far % 3) and V buffer vb (% 2): k_bwd_fused's bwf_pos in 32 bits (items < 2^30).
struct bwl_pos {
    int item, r, h, kt, qt, kb, vb;
};
__device__ __forceinline__ void bwl_item(bwl_pos &p, int B) {
    p.h = p.item / B;
    p.r = p.item - p.h * B;
}
__device__ __forceinline__ void bwl_next(bwl_pos &p, int B, int nkt, int nqt, int nitems) {
    if (++p.qt < nqt) return;
    p.qt = 0;
    p.kb = p.kb == 2 ? 0 : p.kb + 1;
    p.vb ^= 1;
    if (++p.kt < nkt) return;
    p.kt = 0;
    p.item += gridDim.x;
    if (p.item < nitems) bwl_item(p, B);
}

// Source offsets of the copies of the position being issued (BWL_CP), in elements: o, of
// (row r, head h, this thread's tile row and channel chunk) in q / k / v / dO; q, k: of the
// query tile and key tile from there (l0 pstride HC); b: of the bias chunk of this thread
// at the key tile's start (head h, key k0 + its row, query its column); l: of lse / D at
// the item's row. 32-bit: the launcher takes k_bwd_lean only where these fit (bwl_fits).
struct bwl_src {
    int64_t o;
    int q, k, b, l;
};
template <int CH, int NW, bool BB>
__device__ __forceinline__ void bwl_src_item(const fa_args &a, const bwl_pos &p, bwl_src &s) {
    constexpr int VPR = CH / 8, BV = BW_T / (BB ? 8 : 4);
    int x = threadIdx.x;
    s.o = fa_pos(a, p.r, x / VPR) * a.HC + (int64_t)p.h * a.ch + (x % VPR) * 8;
    s.q = s.k = 0;
    s.b = (p.h * (int)a.L + x / BV) * (int)a.L + (x % BV) * (BB ? 8 : 4);
    s.l = (p.r * a.H + p.h) * (int)a.L + x;
}
// after bwl_next: the offsets of the new position
template <int CH, int NW, bool BB>
__device__ __forceinline__ void bwl_src_next(const fa_args &a, const bwl_pos &p, int nitems, bwl_src &s) {
    if (p.qt > 0) {
        s.q += BW_T * (int)(a.pstride * a.HC);
        return;
    }
    if (p.kt > 0) {
        s.q = 0;
        s.k += (16 * NW) * (int)(a.pstride * a.HC);
        s.b += (16 * NW) * (int)a.L;
        return;
    }
    if (p.item < nitems) bwl_src_item<CH, NW, BB>(a, p, s);
}

// Lane addresses (shared window) computed once per thread; per step a buffer offset is
// added (bwl_lay's K0 / Q0 / ... plus buffer x size). All include the lane's fragment row
// and column.
struct bwl_addr {
    uint32_t sK, sV;  // S^T, dP^T: A = K / V rows of warp w (+ kb / vb x KB)
    uint32_t sQ;      // S^T: B = Q (+ b x QB; dO at + O0 - Q0)
    uint32_t tQ;      // dk, dv: B = Q / dO by ldmatrix.trans (+ b x QB)
    uint32_t dS, dK;  // dq: A = dS^T (+ pb x SB), B = K (+ kb x KB)
    uint32_t wS;      // dS store of row g, query 2t (+ b x SB)
    uint32_t lL, bB;  // lse / D at query 2t (+ b x LB), bias row g query 2t (+ b x BB_)
    uint32_t sq;      // this thread's dq elements in the block's (L, CH) slot: offset in dq_slots
    uint32_t cT, cB;  // copies: this thread's 16-byte chunk in a K / V / Q / dO tile, in a bias tile
    uint32_t cL;      // copies: this thread's lse (threads < 64)
    int qg, x;        // the thread's dq query in the tile (qm + g), threadIdx.x
    uint32_t sq4;     // BWL_ST: this thread's float4s of a whole query tile in the slot (offset in dq_slots)
    uint32_t sK1, sQ1, tQ2;  // BWL_SW: sK, sQ at the second k step, tQ at the channel tiles 2, 3
    uint32_t bM;  // BWL_BM: the lane's ldmatrix row in the bias tile (key lane % 16, query 8 (lane / 16))
};
template <int CH, int NW, bool BB, int OPT>
__device__ __forceinline__ bwl_addr bwl_addrs(uint32_t sm, int qm, int cb, int L) {
    typedef bwl_lay<CH, NW, BB, bwl_ldb<BB, OPT>(), bwl_lk<CH, OPT>()> Ly;
    constexpr int BV = BW_T / (BB ? 8 : 4);  // 16-byte chunks per bias tile row
    const uint32_t x = threadIdx.x;
    constexpr uint32_t LK = Ly::LK, LDS = Ly::LDS;
    const uint32_t lane = threadIdx.x & 31, w = threadIdx.x >> 5, m = lane >> 3, r8 = lane & 7, g = lane >> 2,
                   t = lane & 3;
    bwl_addr d;
    d.sK = sm + Ly::K0 + ((16 * w + (m & 1) * 8 + r8) * LK + (m >> 1) * 8) * 2;
    d.sQ = sm + Ly::Q0 + (((m >> 1) * 8 + r8) * LK + (m & 1) * 8) * 2;
    d.tQ = sm + Ly::Q0 + ((lane & 15) * LK + ((OPT & BWL_X4) ? (lane >> 4) * 8 : 0)) * 2;
    d.dS = sm + Ly::S0 + (((m >> 1) * 8 + r8) * LDS + qm + (m & 1) * 8) * 2;
    d.dK = sm + Ly::K0 + (((m & 1) * 8 + r8) * LK + cb + 8 * (m >> 1)) * 2;
    d.sK1 = d.sQ1 = d.tQ2 = 0;
    if (bwl_sw<CH, OPT>()) {
        constexpr uint32_t NC = CH / 8, C2 = NC > 2 ? 2 : 0;  // the second k step's chunks (c_h 32)
        const uint32_t rk = 16 * w + (m & 1) * 8 + r8, rq = (m >> 1) * 8 + r8;
        d.sK = sm + Ly::K0 + bwl_swz<CH>(rk, m >> 1);
        d.sK1 = sm + Ly::K0 + bwl_swz<CH>(rk, (m >> 1) + C2);
        d.sQ = sm + Ly::Q0 + bwl_swz<CH>(rq, m & 1);
        d.sQ1 = sm + Ly::Q0 + bwl_swz<CH>(rq, (m & 1) + C2);
        d.tQ = sm + Ly::Q0 + bwl_swz<CH>(lane & 15, (lane >> 4) & (NC - 1));
        d.tQ2 = sm + Ly::Q0 + bwl_swz<CH>(lane & 15, ((lane >> 4) + C2) & (NC - 1));
        d.dK = sm + Ly::K0 + bwl_swz<CH>((m & 1) * 8 + r8, (cb / 8 + (m >> 1)) & (NC - 1));
    }
    d.sV = d.sK + Ly::V0 - Ly::K0;
    d.wS = sm + Ly::S0 + ((16 * w + g) * LDS + 2 * t) * 2;
    constexpr bool BP = (OPT & BWL_BP) != 0, LP = (OPT & BWL_LP) != 0;
    constexpr uint32_t LDB = bwl_ldb<BB, OPT>();
    d.lL = sm + Ly::L0 + (LP ? 16 : 8) * t;
    d.bB = sm + Ly::B0 + ((16 * w + g) * LDB + (BP ? (BB ? 16 : 4) : 2) * t) * (BB ? 2 : 4);
    d.bM = sm + Ly::B0 + ((16 * w + (lane & 15)) * LDB + 8 * (lane >> 4)) * 2;
    d.sq = (blockIdx.x * (uint32_t)L + qm + g) * CH + cb + 2 * t;
    d.cT = sm + (bwl_sw<CH, OPT>() ? bwl_swz<CH>(x / (CH / 8), x % (CH / 8)) : ((x / (CH / 8)) * LK + (x % (CH / 8)) * 8) * 2);
    d.cB = sm + Ly::B0 + ((x / BV) * LDB + (x % BV) * (BW_T / BV)) * (BB ? 2 : 4);
    d.cL = sm + Ly::L0 + 4 * (LP && x < BW_T ? bwl_lperm(x) : x);
    d.qg = qm + g;
    d.x = x;
    d.sq4 = blockIdx.x * (uint32_t)L * CH + (w * (uint32_t)(4 * (CH / 8) / NW) * 32 + lane) * 4;
    return d;
}

// BWL_PIN: the lane addresses through shared memory (scratch: 64 bytes per thread, free
// until the first step writes it) so that ptxas keeps them in registers: computed from
// the thread index, it rematerialised them inside the loop (about 70 integer
// instructions per step), registers to spare (one block per SM either way).
__device__ __forceinline__ bwl_addr bwl_pin(const bwl_addr &d, uint32_t scratch) {
    constexpr int NV = sizeof(bwl_addr) / 16;
    static_assert(sizeof(bwl_addr) % 16 == 0, "16-byte vectors");
    const uint32_t *v = (const uint32_t *)&d, at = scratch + sizeof(bwl_addr) * threadIdx.x;
#pragma unroll
    for (int i = 0; i < NV; i++)
        asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(at + 16 * i), "r"(v[4 * i]), "r"(v[4 * i + 1]),
                     "r"(v[4 * i + 2]), "r"(v[4 * i + 3]));
    __syncthreads();
    bwl_addr e;
    uint32_t *u = (uint32_t *)&e;
#pragma unroll
    for (int i = 0; i < NV; i++)
        asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(u[4 * i]), "=r"(u[4 * i + 1]), "=r"(u[4 * i + 2]), "=r"(u[4 * i + 3])
                     : "r"(at + 16 * i));
    return e;
}

// Copies of position p into ring buffer b, issued one step ahead (k_bwd_fused's issue):
// BWL_CP takes full tiles from the running source offsets s without bounds tests;
// partial tiles and !BWL_CP the previous loaders. sm: the shared window address of
// the block's shared memory (smp its generic pointer).
template <int CH, int NR, int NTH, int LK>
__device__ __forceinline__ void bwl_rows(const bf16 *src, int64_t ps, uint32_t dst) {
    constexpr int VPR = CH / 8, RPU = NTH / VPR, NU = (NR + RPU - 1) / RPU;
    int j0 = threadIdx.x / VPR;
#pragma unroll
    for (int u = 0; u < NU; u++)
        if (NR % RPU == 0 || j0 + u * RPU < NR) bwl_cp16(dst + u * RPU * LK * 2, src + u * RPU * ps);
}
// BWL_SW: bw_load_fl into a swizzled tile; dst: the tile's address plus this thread's chunk
// (bwl_addr's cT)
template <int CH, int NR, int NTH>
__device__ __forceinline__ void bwl_load_sw(const fa_args &a, const void *src, int r, int h, int l0, uint32_t dst) {
    constexpr int VPR = CH / 8, RPU = NTH / VPR, NU = (NR + RPU - 1) / RPU;
    static_assert(NTH % VPR == 0 && RPU % 8 == 0, "threads per tile row; passes keep the swizzle");
    const bf16 *row = (const bf16 *)src + fa_pos(a, r, 0) * a.HC + (int64_t)h * a.ch;
    const int j0 = threadIdx.x / VPR, cc = threadIdx.x % VPR, left = (int)a.L - l0;
    const int64_t ps = a.pstride * a.HC;
    const bf16 *p = row + (int64_t)(l0 + j0) * ps + cc * 8;
    const bool cok = cc * 8 < a.ch;
#pragma unroll
    for (int u = 0; u < NU; u++) {
        int j = j0 + u * RPU;
        if (NR % RPU == 0 || j < NR) {
            bool ok = cok && j < left;
            bwl_cp16z(dst + u * RPU * CH * 2, ok ? p + u * RPU * ps : row, ok ? 16 : 0);
        }
    }
}
template <int NR, int LD, int NTH, typename T>
__device__ __forceinline__ void bwl_bias_rows(const T *src, int64_t L, uint32_t dst) {
    constexpr int VPR = BW_T / (16 / (int)sizeof(T)), RPU = NTH / VPR, NU = NR / RPU;
    static_assert(NR % RPU == 0, "bias rows per pass");
#pragma unroll
    for (int u = 0; u < NU; u++) bwl_cp16(dst + u * RPU * LD * (int)sizeof(T), src + u * RPU * L);
}
// bw_lseD of a whole item row (LP: into the permuted slots)
template <bool LP>
__device__ __forceinline__ void bwl_lseD(const fa_args &a, int r, int h, int q0, float *Ls, float *Ds) {
    const int i = threadIdx.x, q = q0 + i;
    if (i >= BW_T) return;
    const int pi = LP ? bwl_lperm(i) : i;
    if (q < (int)a.L) {
        fa_cp4(Ls + pi, a.lse + ((int64_t)r * a.H + h) * a.L + q);
        fa_cp4(Ds + pi, a.D + ((int64_t)r * a.H + h) * a.L + q);
    } else {
        Ls[pi] = INFINITY;
        Ds[pi] = 0.f;
    }
}
template <int CH, int NW, bool BB, int OPT>
__device__ __forceinline__ void bwl_issue(const fa_args &a, const bwl_pos &p, const bwl_src &s, int nitems, int b,
                                          const bwl_addr &d, unsigned char *smp) {
    typedef bwl_lay<CH, NW, BB, bwl_ldb<BB, OPT>(), bwl_lk<CH, OPT>()> Ly;
    typedef typename std::conditional<BB, bf16, float>::type BT;
    constexpr int KT = 16 * NW, NTH = 32 * NW;
    constexpr bool SW = bwl_sw<CH, OPT>();
    if (p.item < nitems) {
        const int q0 = p.qt * BW_T, k0 = p.kt * KT, x = d.x;
        const int L = (int)a.L;
        const bool cp = (OPT & BWL_CP) && a.ch == CH, qf = cp && q0 + BW_T <= L, kf = cp && k0 + KT <= L;
        const int64_t ps = a.pstride * a.HC;
        if (qf) {
            const int64_t o = s.o + s.q;
            bwl_rows<CH, BW_T, NTH, Ly::LK>((const bf16 *)a.q + o, ps, d.cT + Ly::Q0 + b * Ly::QB);
            bwl_rows<CH, BW_T, NTH, Ly::LK>((const bf16 *)a.dO + o, ps, d.cT + Ly::O0 + b * Ly::QB);
            if (x < BW_T) {
                bwl_cp4(d.cL + b * Ly::LB, a.lse + (uint32_t)(s.l + q0));
                bwl_cp4(d.cL + Ly::D0 - Ly::L0 + b * Ly::LB, a.D + (uint32_t)(s.l + q0));
            }
        } else {
            if constexpr (SW) {
                bwl_load_sw<CH, BW_T, NTH>(a, a.q, p.r, p.h, q0, d.cT + Ly::Q0 + b * Ly::QB);
                bwl_load_sw<CH, BW_T, NTH>(a, a.dO, p.r, p.h, q0, d.cT + Ly::O0 + b * Ly::QB);
            } else {
                bw_tile<true, CH, BW_T, NTH>(a, a.q, p.r, p.h, q0, (bf16 *)(smp + Ly::Q0 + b * Ly::QB));
                bw_tile<true, CH, BW_T, NTH>(a, a.dO, p.r, p.h, q0, (bf16 *)(smp + Ly::O0 + b * Ly::QB));
            }
            bwl_lseD<(OPT & BWL_LP) != 0>(a, p.r, p.h, q0, (float *)(smp + Ly::L0 + b * Ly::LB),
                                          (float *)(smp + Ly::D0 + b * Ly::LB));
        }
        const BT *bias = BB ? (const BT *)a.biasT16 : (const BT *)a.biasT;
        BT *bdst = (BT *)(smp + Ly::B0 + b * Ly::BB_);
        if (OPT & BWL_BP) {
            // the permuted copy (bf16: a.biasT16, fp32: a.biasT, bwf_run), whole tiles (zeros
            // where the old copies zero-fill): offset of this thread's chunk (row x / BV, from
            // column (x % BV) x 16 bytes); bwl_fits bounds it
            constexpr int BV = BW_T / (BB ? 8 : 4);
            const uint32_t Lq = (L + BW_T - 1) / BW_T * BW_T, Lk = (L + BWL_KPAD - 1) / BWL_KPAD * BWL_KPAD;
            const uint32_t o = ((uint32_t)p.h * Lk + k0 + x / BV) * Lq + q0 + (x % BV) * (BW_T / BV);
            if (BB || bias) bwl_bias_rows<KT, bwl_ldb<BB, OPT>(), NTH>(bias + o, Lq, d.cB + b * Ly::BB_);
        } else if (bias && qf && kf)
            bwl_bias_rows<KT, BW_LDK, NTH>(bias + (uint32_t)(s.b + q0), a.L, d.cB + b * Ly::BB_);
        else if (BB)
            bw_bias_fl<KT, BW_T, BW_LDK, NTH>(bias + (int64_t)p.h * a.L * a.L, a.L, k0, q0, bdst);
        else if (bias)
            bw_bias<true, KT, BW_T, BW_LDK, NTH>((const float *)bias + (int64_t)p.h * a.L * a.L, a.L, k0, q0, (float *)bdst);
        if (p.qt == 0) {
            // own K into buffer kb (the tile before is still read by its deferred dq product), V into vb
            if (kf) {
                const int64_t o = s.o + s.k;
                bwl_rows<CH, KT, NTH, Ly::LK>((const bf16 *)a.k + o, ps, d.cT + Ly::K0 + p.kb * Ly::KB);
                bwl_rows<CH, KT, NTH, Ly::LK>((const bf16 *)a.v + o, ps, d.cT + Ly::V0 + p.vb * Ly::KB);
            } else if constexpr (SW) {
                bwl_load_sw<CH, KT, NTH>(a, a.k, p.r, p.h, k0, d.cT + Ly::K0 + p.kb * Ly::KB);
                bwl_load_sw<CH, KT, NTH>(a, a.v, p.r, p.h, k0, d.cT + Ly::V0 + p.vb * Ly::KB);
            } else {
                bw_tile<true, CH, KT, NTH>(a, a.k, p.r, p.h, k0, (bf16 *)(smp + Ly::K0 + p.kb * Ly::KB));
                bw_tile<true, CH, KT, NTH>(a, a.v, p.r, p.h, k0, (bf16 *)(smp + Ly::V0 + p.vb * Ly::KB));
            }
        }
    }
    fa_commit();
}


// BWL_ST staging: a warp's tile of 16 rows x NC 8-channel chunks (bf16), the chunk c of
// row R at chunk c ^ ((R % 8) / (8 / NC)): the C-fragment writes (row g, chunk j, word t)
// and the 16-byte reads (8 lanes: one 128-byte line, or NC = 2: 4 rows) are conflict-free.
template <int NC>
__device__ __forceinline__ uint32_t bwl_st_off(int R, int c) {
    static_assert(NC == 1 || NC == 2 || NC == 4, "chunks per staged row");
    return (uint32_t)(R * NC * 16 + 16 * (c ^ ((R & 7) / (8 / NC))));
}
// The fragments x (16 rows from row g + 8 u, NC chunks, times sc) into the staging area at
// st, then 16-byte stores: row R to dst + R rstep (rows below nrow), chunks c with
// c0 + 8 c < ch. Same bf16 roundings as the 2-byte stores (RN).
template <int NC>
__device__ __forceinline__ void bwl_st_tile(uint32_t st, const float (*x)[4], float sc, bool scaled, bf16 *dst,
                                            int64_t rstep, int nrow, int c0, int ch) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    __syncwarp();  // the area's previous reads are done
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int j = 0; j < NC; j++) {
            float lo = x[j][2 * u], hi = x[j][2 * u + 1];
            if (scaled) {
                lo *= sc;
                hi *= sc;
            }
            bwl_sts_u32(st + bwl_st_off<NC>(g + 8 * u, j) + 4 * t, fa_pack2(lo, hi));
        }
    __syncwarp();
#pragma unroll
    for (int i = lane; i < 16 * NC; i += 32) {
        const int R = i / NC, c = i % NC;
        uint4 v = bwl_lds_u4(st + bwl_st_off<NC>(R, c));
        // stg16: a plain uint4 store through the bf16 pointer came out as four 4-byte stores
        if (R < nrow && c0 + 8 * c < ch) stg16(dst + R * rstep + 8 * c, v);
    }
}
// dk (times scale) and dv of a warp's 16 keys from kw: bw_store_dkdv through the staging area
template <int CH>
__device__ __forceinline__ void bwl_st_dkdv(const fa_args &a, int r, int h, int kw, uint32_t stage,
                                            const float (*dk)[4], const float (*dv)[4]) {
    const int64_t off = fa_pos(a, r, kw) * a.HC + (int64_t)h * a.ch, rs = a.pstride * a.HC;
    const int nrow = (int)a.L - kw;
    bwl_st_tile<CH / 8>(stage, dk, a.scale, true, (bf16 *)a.dk + off, rs, nrow, 0, a.ch);
    bwl_st_tile<CH / 8>(stage + 16 * CH * 2, dv, 1.f, false, (bf16 *)a.dv + off, rs, nrow, 0, a.ch);
}
// dq (times scale) of a warp's 16 queries from q x 8 NJ channels from cb (bwl_dq_store's last)
template <int NJ>
__device__ __forceinline__ void bwl_st_dq(const fa_args &a, const bwl_pos &pp, int q, int cb, uint32_t stage,
                                          const float (*dqa)[4]) {
    const int64_t off = fa_pos(a, pp.r, q) * a.HC + (int64_t)pp.h * a.ch + cb;
    bwl_st_tile<NJ>(stage, dqa, a.scale, true, (bf16 *)a.dq + off, a.pstride * a.HC, (int)a.L - q, cb, a.ch);
}

// The running dq (16 queries from qm x 8 NJ channels from cb) of a step at query tile
// q0: to the slot (sq: this thread's offset in dq_slots, block's slot, query qm + g,
// channel cb + 2t), or, on the item's last key tile (last), as dq (bf16, times scale):
// bwf_dq_store.
// BWL_ST (st: dq 16-byte aligned): whole query tiles' slot values as float4s at sq4, the
// bf16 dq through the warp's staging area at stage (bwl_st_dq).
template <int CH, int NJ, bool ST>
__device__ __forceinline__ void bwl_dq_store(const fa_args &a, const bwl_pos &pp, bool last, float *slots,
                                             uint32_t sq, uint32_t sq4, bool st, uint32_t stage, int qg, int qm,
                                             int cb, const float (*dqa)[4]) {
    const int q0 = pp.qt * BW_T, L = (int)a.L;
    if (ST && !last && q0 + BW_T <= L) {
        float *sp = slots + (sq4 + q0 * CH);
#pragma unroll
        for (int j = 0; j < NJ; j++)
            *reinterpret_cast<float4 *>(sp + 128 * j) = make_float4(dqa[j][0], dqa[j][1], dqa[j][2], dqa[j][3]);
        return;
    }
    if (ST && last && st) {
        bwl_st_dq<NJ>(a, pp, q0 + qm, cb, stage, dqa);
        return;
    }
    if (!last) {
        float *sp = slots + (sq + q0 * CH);
#pragma unroll
        for (int u = 0; u < 2; u++)
            if (q0 + qg + 8 * u < L)
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    *reinterpret_cast<float2 *>(sp + 8 * u * CH + 8 * j) = make_float2(dqa[j][2 * u], dqa[j][2 * u + 1]);
        return;
    }
    const int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int q = q0 + qm + g + 8 * u;
        if (q >= L) continue;
        bf16 *op = (bf16 *)a.dq + fa_pos(a, pp.r, q) * a.HC + (int64_t)pp.h * a.ch;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            int c = cb + 8 * j + 2 * t;
            if (c < a.ch) op[c] = __float2bfloat16(dqa[j][2 * u] * a.scale);
            if (c + 1 < a.ch) op[c + 1] = __float2bfloat16(dqa[j][2 * u + 1] * a.scale);
        }
    }
}
// The running dq a step adds to: bwf_dq_running (0 on the first key tile; with one query
// tile, the pending step's result; else the slot, written at least one step ago).
template <int CH, int NJ, bool ST>
__device__ __forceinline__ void bwl_dq_running(const fa_args &a, const bwl_pos &p, int nqt, const float *slots,
                                               uint32_t sq, uint32_t sq4, int qg, const float (*dqp)[4],
                                               float (*dqn)[4]) {
    const int q0 = p.qt * BW_T;
    const float *sp = slots + (sq + q0 * CH);
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) dqn[j][e] = 0.f;
    if (p.kt == 0) return;
    if (nqt == 1) {
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) dqn[j][e] = dqp[j][e];
        return;
    }
    if (ST && q0 + BW_T <= (int)a.L) {
        const float *sp4 = slots + (sq4 + q0 * CH);
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            float4 v = *reinterpret_cast<const float4 *>(sp4 + 128 * j);
            dqn[j][0] = v.x;
            dqn[j][1] = v.y;
            dqn[j][2] = v.z;
            dqn[j][3] = v.w;
        }
        return;
    }
#pragma unroll
    for (int u = 0; u < 2; u++)
        if (q0 + qg + 8 * u < (int)a.L)
#pragma unroll
            for (int j = 0; j < NJ; j++) {
                float2 v = *reinterpret_cast<const float2 *>(sp + 8 * u * CH + 8 * j);
                dqn[j][2 * u] = v.x;
                dqn[j][2 * u + 1] = v.y;
            }
}

// One step's products of warp w (16 keys): S^T, dP^T, p and dS, dS (bf16) to buffer b,
// dv += P^T dO, dk += dS^T Q (k_bwd_fused's step body).
// BWL_BM: the bias through the tensor cores first (ia: bw_eye_frag).
template <int CH, int NW, bool BB, int OPT>
__device__ __forceinline__ void bwl_step(const bwl_addr &d, const bwl_pos &p, int b, const float *mk2, float sc2,
                                         uint32_t ia, float (*dk)[4], float (*dv)[4]) {
    typedef bwl_lay<CH, NW, BB, bwl_ldb<BB, OPT>(), bwl_lk<CH, OPT>()> Ly;
    constexpr int LK = Ly::LK, LDS = BW_T + 8;
    constexpr bool SW = bwl_sw<CH, OPT>(), X4 = (OPT & BWL_X4) != 0;
    float s[8][4], dp[8][4];
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
    constexpr bool BM = bwl_bm<BB, OPT>();
    if (BM) bwl_bias_mma(s, d.bM + b * Ly::BB_, ia);  // issued first: off the S^T chain's end
    const uint32_t q = d.sQ + b * Ly::QB, q1 = d.sQ1 + b * Ly::QB, ko = p.kb * Ly::KB, vo = p.vb * Ly::KB;
    constexpr uint32_t VK = Ly::V0 - Ly::K0, OQ = Ly::O0 - Ly::Q0;
    bwl_mma_ss8<CH, LK, SW>(s, d.sK + ko, d.sK1 + ko, q, q1);                        // S^T (keys x queries)
    bwl_mma_ss8<CH, LK, SW>(dp, d.sV + vo, d.sK1 + VK + vo, q + OQ, q1 + OQ);  // dP^T
    const uint32_t l = d.lL + b * Ly::LB;
    bwl_p_ds<BB, (OPT & BWL_BP) != 0, (OPT & BWL_LP) != 0, bwl_ldb<BB, OPT>(), BM>(s, dp, l, l + Ly::D0 - Ly::L0, d.bB + b * Ly::BB_, mk2, sc2);
    // dS (bf16, the values the dk product rounds to) for the dq product
    const uint32_t ws = d.wS + b * Ly::SB;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int u = 0; u < 2; u++) bwl_sts_u32(ws + (8 * u * LDS + 8 * j) * 2, fa_pack2(dp[j][2 * u], dp[j][2 * u + 1]));
    const uint32_t tq = d.tQ + b * Ly::QB, tq2 = d.tQ2 + b * Ly::QB;
    bwl_mma_rs_t<CH / 8, LK, X4, SW>(dv, s, tq + OQ, tq2 + OQ);
    bwl_mma_rs_t<CH / 8, LK, X4, SW>(dk, dp, tq, tq2);
}

// k_bwd_fused with the addressing above (same walk, same copies, same barriers).
template <int CH, int NW, int MB, bool BB, int OPT>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_lean(fa_args a, float *dq_slots) {
    typedef bwl_lay<CH, NW, BB, bwl_ldb<BB, OPT>(), bwl_lk<CH, OPT>()> Ly;
    typedef typename std::conditional<BB, bf16, float>::type BT;
    constexpr int LK = Ly::LK, KT = 16 * NW, NTH = 32 * NW, LDS = BW_T + 8;
    constexpr int NJ = 4 * (CH / 8) / NW;  // dq: 8-channel tiles per warp
    static_assert(NW == 4 || NW == 8, "warps per block");
    static_assert(NJ >= 1 && 4 * (CH / 8) == NJ * NW, "dq tiles per warp");
    static_assert(!bwl_sw<CH, OPT>() || NJ <= 2, "BWL_SW: the dq product's K fragments from one address");
    extern __shared__ __align__(16) unsigned char bw_sm[];
    const uint32_t sm = fa_smem(bw_sm);
    const int nkt = (int)((a.L + KT - 1) / KT), nqt = (int)((a.L + BW_T - 1) / BW_T), nitems = a.H * (int)a.B;
    const int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2;
    const int qm = 16 * (w & 3), cb = 8 * NJ * (w >> 2);  // this warp's dq tile
    constexpr bool ST = (OPT & BWL_ST) != 0;
    // BWL_ST: 16-byte output stores where dk, dv, dq are 16-byte aligned (HC, c_h: FL)
    const bool st16 = ST && (((uintptr_t)a.dk | (uintptr_t)a.dv | (uintptr_t)a.dq) & 15) == 0;
    const uint32_t stage = sm + Ly::T0 + (threadIdx.x >> 5) * Ly::TW;
    bwl_addr d = bwl_addrs<CH, NW, BB, OPT>(sm, qm, cb, (int)a.L);
    if (OPT & BWL_PIN) d = bwl_pin(d, sm + Ly::S0);
    if (!a.biasT)
        for (int i = threadIdx.x; i < 2 * KT * bwl_ldb<BB, OPT>(); i += NTH) ((BT *)(bw_sm + Ly::B0))[i] = (BT)0.f;
    bwl_pos cur = {(int)blockIdx.x, 0, 0, 0, 0, 0, 0};
    bwl_src src = {0, 0, 0, 0, 0};
    if (cur.item < nitems) {
        bwl_item(cur, (int)a.B);
        if (OPT & BWL_CP) bwl_src_item<CH, NW, BB>(a, cur, src);
    }
    bwl_issue<CH, NW, BB, OPT>(a, cur, src, nitems, 0, d, bw_sm);
    const float sc2 = a.scale * BW_L2E;
    const uint32_t ia = bwl_bm<BB, OPT>() ? bw_eye_frag(a.scale) : 0u;  // BWL_BM: c I's B fragment
    float dk[CH / 8][4], dv[CH / 8][4], mk2[2] = {0.f, 0.f};
    float dqp[NJ][4];  // running dq of the pending step's query tile, before its product
    bwl_pos pend = cur;
    bool pending = false;
    for (int b = 0; cur.item < nitems; b ^= 1) {
        const bwl_pos p = cur;
        fa_wait<0>();
        __syncthreads();
        bwl_next(cur, (int)a.B, nkt, nqt, nitems);
        if (OPT & BWL_CP) bwl_src_next<CH, NW, BB>(a, cur, nitems, src);
        bwl_issue<CH, NW, BB, OPT>(a, cur, src, nitems, b ^ 1, d, bw_sm);
        if (pending) {
            // the deferred dq product of the pending step (dS in buffer b ^ 1)
            bwl_dq_mma<KT, NJ, LK, LDS>(dqp, d.dS + (b ^ 1) * Ly::SB, d.dK + pend.kb * Ly::KB);
            bwl_dq_store<CH, NJ, ST>(a, pend, pend.kt == nkt - 1, dq_slots, d.sq, d.sq4, st16, stage, d.qg, qm, cb,
                                     dqp);
        }
        float dqn[NJ][4];
        bwl_dq_running<CH, NJ, ST>(a, p, nqt, dq_slots, d.sq, d.sq4, d.qg, dqp, dqn);
        const int k0 = p.kt * KT;
        if (p.qt == 0) {
#pragma unroll
            for (int u = 0; u < 2; u++) mk2[u] = bw_mask2(a, p.r, k0 + 16 * w + g + 8 * u);
#pragma unroll
            for (int j = 0; j < CH / 8; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) dk[j][e] = dv[j][e] = 0;
        }
        bwl_step<CH, NW, BB, OPT>(d, p, b, mk2, sc2, ia, dk, dv);
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) dqp[j][e] = dqn[j][e];
        pend = p;
        pending = true;
        if (p.qt == nqt - 1) {
            if (ST && st16) bwl_st_dkdv<CH>(a, p.r, p.h, k0 + 16 * w, stage, dk, dv);
            else bw_store_dkdv<CH>(a, p.r, p.h, k0 + 16 * w, dk, dv);
        }
        if (!(cur.item < nitems)) {
            fa_wait<0>();
            __syncthreads();  // the last step's dS of every warp
            bwl_dq_mma<KT, NJ, LK, LDS>(dqp, d.dS + b * Ly::SB, d.dK + pend.kb * Ly::KB);
            bwl_dq_store<CH, NJ, ST>(a, pend, pend.kt == nkt - 1, dq_slots, d.sq, d.sq4, st16, stage, d.qg, qm, cb,
                                     dqp);
        }
    }
}

// Where k_bwd_lean's 32-bit offsets hold (bwl_src, the dq slot offsets for at most
// `blocks` blocks); elsewhere the launcher runs k_bwd_fused.
static inline bool bwl_fits(const fa_args *a, int64_t blocks) {
    const int64_t lim = 2147483647LL - 4096, L = a->L;
    const int64_t Lq = (L + BW_T - 1) / BW_T * BW_T, Lk = (L + BWL_KPAD - 1) / BWL_KPAD * BWL_KPAD;
    return (int64_t)a->B * a->H * L < lim && (int64_t)a->H * Lk * Lq < lim && (L + 256) * a->pstride * a->HC < lim &&
           blocks * L * 32 < lim;
}

#endif
