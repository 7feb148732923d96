// cu_flash_bwd_dbias.cu: the bias gradient of the bf16 attention backward
// (cu_flash_bwd.cu runs it as its third pass; docs/ATTENTION_BWD.md):
//   dbias[h, q, k] = sum over rows r of dS[r, h, q, k], dS = p (dP - D),
// recomputing S = Q K^T and dP = dO V^T per row. A block owns (h, a query tile, a key
// tile, a range of rows) and streams the rows in order, summing dS in registers: a
// fixed order, so the result is the same bits every run (no atomics). With several
// row ranges (fa_dbias_splits) each writes fp32 partials, summed in range order.
//
// k_bwd_dbias_h: a warp's keys in chunks of 32 (S / dP registers of one chunk), the Q and
// dO fragments loaded once per row for all chunks, the bias tile optionally in shared
// memory (BSM); __launch_bounds__ MB lets MB blocks share an SM. Tiles: 16 NW queries x
// 64 keys (session 7), or 64 / 128 queries x 128 keys (session 10: fewer L2 bytes per
// score; the pass was L2-bound). Every variant gives the same bits (same products, same
// per-element sum order). Session 6's kernel held S and dP of all 64 keys and the bias
// tile in registers (242: one 8-warp block per SM, latency-bound) and was 1.2x slower; it
// was removed in session 7. c->attn_dbias = v + 1 (or PF_ATTN_DBIAS=name) picks variant
// v, 0 the default by shape; bench/attn_bwd_check.cu times them.
#include "cu_flash_bwd.cuh"
#include "cu_tma.cuh"
#include "cu_flash_bwd_wg.cuh"  // fa_bwd_wg_device

// ---- bias gradient: block (h, QT queries, KT keys, row range), rows in order ------------
// Warps as (NW / WK) query groups of 16 x WK key groups of KW keys: QT = 16 NW / WK,
// KT = WK KW. Per row a block copies Q, dO (QT x c_h) and K, V (KT x c_h): bigger tiles
// copy fewer L2 bytes per score (64 x 64: 16 KB per 4096 scores, 128 x 128: 32 KB per 16384).
// shared: Q, dO x S | K, V x S | mask x 2 | lse, D x S | bias [key][query] (BSM), row
// stride QT + 4 floats: a warp's reads (8 queries x 4 key pairs) hit 32 distinct banks.
template <int CH, int QT, int KT, int S, bool BSM, int LK>
static size_t dbh_smem() {
    return sizeof(bf16) * (size_t)(2 * S * QT * LK + 2 * S * KT * LK) +
           sizeof(float) * (size_t)(2 * KT + 2 * S * QT) + (BSM ? sizeof(float) * (size_t)KT * (QT + 4) : 0);
}

// The bias tile in shared memory times log2(e), in place (rows of LD floats, padding
// included): the same rounded product the register tile holds (bias2 below; __fmul_rn:
// never contracted into the add that follows), so a score's exponent, bias2 + (mask -
// lse), has the same bits with the tile in either place.
template <int NR, int LD, int NTH>
__device__ __forceinline__ void db_scale_bias(float *Bs) {
    float4 *p = reinterpret_cast<float4 *>(Bs);
    for (int i = threadIdx.x; i < NR * LD / 4; i += NTH) {
        float4 v = p[i];
        v.x = __fmul_rn(BW_L2E, v.x);
        v.y = __fmul_rn(BW_L2E, v.y);
        v.z = __fmul_rn(BW_L2E, v.z);
        v.w = __fmul_rn(BW_L2E, v.w);
        p[i] = v;
    }
}

// k_bwd_dbias_pipe (.co.pipe): the bias tile scaled as above and, in each 16-query group of a
// row, query g + 8 e (g < 8, e < 2) moved to 2 g + e, so that a thread's two queries g,
// g + 8 of a key are one 8-byte load (db_row: 32 LDS.64 per row where 64 LDS.32 were;
// the half-warps of a load still hit 32 distinct banks: row stride LD = 4 mod 32 words).
// A thread permutes whole 16-float groups in place.
template <int NR, int LD, int QT, int NTH>
__device__ __forceinline__ void db_scale_bias_p(float *Bs) {
    static_assert(QT % 16 == 0 && LD % 4 == 0, "16-query groups, 16-byte rows");
    for (int i = threadIdx.x; i < NR * (QT / 16); i += NTH) {
        float4 *p = reinterpret_cast<float4 *>(Bs + (i / (QT / 16)) * LD + 16 * (i % (QT / 16)));
        float v[16], w[16];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            float4 x = p[k];
            v[4 * k] = x.x;
            v[4 * k + 1] = x.y;
            v[4 * k + 2] = x.z;
            v[4 * k + 3] = x.w;
        }
#pragma unroll
        for (int g = 0; g < 8; g++) {
            w[2 * g] = __fmul_rn(BW_L2E, v[g]);
            w[2 * g + 1] = __fmul_rn(BW_L2E, v[g + 8]);
        }
#pragma unroll
        for (int k = 0; k < 4; k++) p[k] = make_float4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
    }
}

// k_bwd_dbias_pipe's Q, dO, K, V tiles: rows of CH bf16 without padding, the 16-byte chunk c
// of row r stored at chunk c ^ ((r % 8) / RPL) (RPL = 8 / (CH / 8) rows per 128 bytes).
// With the padded rows (CH + 8: 80 bytes at c_h 32) each 8-lane phase of a 16-byte
// cp.async wrote two rows spanning 144 bytes of banks: two shared wavefronts where one
// does. Swizzled, a phase fills one 128-byte line, and ldmatrix's 8 rows of one chunk still
// fall on 8 distinct 16-byte bank groups. Element offset of (row r, chunk c); a tile's rows
// start at a multiple of 8.
template <int CH>
__device__ __forceinline__ int db_swz(int r, int c) {
    constexpr int NC = CH / 8, RPL = 8 / NC;
    static_assert(NC * RPL == 8, "c_h 16 or 32");
    return r * CH + 8 * (c ^ ((r & 7) / RPL));
}
// bw_load_fl into the swizzled tile; a whole tile (NR positions below L, c_h = CH) by
// plain 16-byte cp.async, without the per-chunk bounds selects
template <int CH, int NR, int NTH>
__device__ __forceinline__ void db_load_sw(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    constexpr int VPR = CH / 8, RPU = NTH / VPR, NU = (NR + RPU - 1) / RPU;
    static_assert(NTH % VPR == 0 && RPU % 8 == 0, "threads per tile row; passes keep the swizzle");
    const bf16 *row = (const bf16 *)src + fa_pos(a, r, 0) * a.HC + (int64_t)h * a.ch;
    const int j0 = threadIdx.x / VPR, cc = threadIdx.x % VPR;
    const int64_t ps = a.pstride * a.HC, left = a.L - l0;
    const bf16 *p = row + (l0 + j0) * ps + cc * 8;
    bf16 *d = dst + db_swz<CH>(j0, cc);
    const bool full = left >= NR && a.ch == CH, cok = cc * 8 < a.ch;
#pragma unroll
    for (int u = 0; u < NU; u++) {
        int j = j0 + u * RPU;
        if (NR % RPU == 0 || j < NR) {
            if (full) {
                fa_cp16(d + u * RPU * CH, p + u * RPU * ps);
            } else {
                bool ok = cok && j < left;
                fa_cp16z(d + u * RPU * CH, ok ? p + u * RPU * ps : row, ok ? 16 : 0);
            }
        }
    }
}
// bw_ldsm_a and bw_mma_b on the swizzled tiles (the same fragments)
template <int CH>
__device__ __forceinline__ void db_ldsm_a_sw(uint32_t *a, const bf16 *A, int kk) {
    int lane = threadIdx.x & 31, m = lane >> 3;
    uint32_t addr = fa_smem(A + db_swz<CH>((m & 1) * 8 + (lane & 7), 2 * kk + (m >> 1)));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(addr));
}
template <int CH, int NT>
__device__ __forceinline__ void db_mma_b_sw(float (*acc)[4], const uint32_t *a, const bf16 *B, int kk) {
    int lane = threadIdx.x & 31, m = lane >> 3;
#pragma unroll
    for (int j = 0; j < NT; j += 2) {
        uint32_t b[4];
        uint32_t baddr = fa_smem(B + db_swz<CH>((j + (m >> 1)) * 8 + (lane & 7), 2 * kk + (m & 1)));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                     : "r"(baddr));
        fa_mma16816(acc[j], a, b[0], b[1]);
        fa_mma16816(acc[j + 1], a, b[2], b[3]);
    }
}

// One row's dS of a warp's 16 queries x KW keys added to acc (C fragments, acc[j]: keys
// 8 j..), the keys in chunks of 32 (S and dP of one chunk live at a time). Qw, dOw: the
// warp's 16 query rows; Kw, Vw, Mw: its first key; Bw: the bias tile (BSM, scaled) at its
// first key row and query g; bias2: the register tile (!BSM). Every element's S and dP
// come from the same m16n8k16 products over channels in any block shape, and acc sums
// the rows in order: the same bits for every variant.
template <int CH, int KW, int LB, bool BSM>
__device__ __forceinline__ void db_row(const bf16 *Qw, const bf16 *dOw, const bf16 *Kw, const bf16 *Vw,
                                       const float *Mw, const float *l2, const float *Dq, const float *Bw,
                                       const float (*bias2)[4], float (*acc)[4], float sc2) {
    constexpr int LK = CH + 8, KS = CH / 16;
    int t = threadIdx.x & 3;
    uint32_t qa[KS][4], da[KS][4];
#pragma unroll
    for (int kk = 0; kk < KS; kk++) {
        bw_ldsm_a(qa[kk], Qw, LK, kk);
        bw_ldsm_a(da[kk], dOw, LK, kk);
    }
#pragma unroll
    for (int hf = 0; hf < KW / 32; hf++) {
        float s[4][4], dp[4][4];
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
        const bf16 *Kh = Kw + 32 * hf * LK, *Vh = Vw + 32 * hf * LK;
#pragma unroll
        for (int kk = 0; kk < KS; kk++) {
            bw_mma_b<4>(s, qa[kk], Kh, LK, kk);
            bw_mma_b<4>(dp, da[kk], Vh, LK, kk);
        }
#pragma unroll
        for (int j = 0; j < 4; j++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int jj = 4 * hf + j, col = 8 * jj + 2 * t + (e & 1);
                float x;
                if constexpr (BSM) x = Bw[col * LB + 8 * (e >> 1)] + (Mw[col] - l2[e >> 1]);
                else x = bias2[jj][e] + (Mw[col] - l2[e >> 1]);
                float p = fa_exp2(fmaf(s[j][e], sc2, x));
                acc[jj][e] = fmaf(p, dp[j][e] - Dq[e >> 1], acc[jj][e]);
            }
        }
    }
}

// (The .co form, swizzled tiles and a permuted bias tile, lives on in k_bwd_dbias_pipe; on
// its own it was slower than that, session 12, and was removed in session 15.)
template <int CH, int NW, int WK, int KW, int S, bool FL, int MB, bool BSM>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_dbias_h(fa_args a) {
    constexpr int LK = CH + 8, QT = 16 * (NW / WK), KT = WK * KW, NTH = 32 * NW, LB = QT + 4, NJ = KW / 8;
    static_assert(NW % WK == 0 && KW % 64 == 0 && (BSM || KW == 64) && QT <= NTH && KT <= NTH, "block shape");
    extern __shared__ __align__(16) unsigned char bw_sm[];
    bf16 *Qs = (bf16 *)bw_sm, *dOs = Qs + S * QT * LK, *Ks = dOs + S * QT * LK, *Vs = Ks + S * KT * LK;
    float *Ms = (float *)(Vs + S * KT * LK), *Ls = Ms + 2 * KT, *Ds = Ls + S * QT, *Bs = Ds + S * QT;
    const db_item it = db_block_item<QT, KT>(a);
    const int nsplit = a.nsplit, split = it.split, h = it.h;
    const int64_t r0 = it.r0, r1 = it.r1, q0 = it.q0, k0 = it.k0;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    // the warp's first query and key in the tile (constants with one key group: fewer registers)
    int wq = WK == 1 ? 16 * w : 16 * (w % (NW / WK)), kw = WK == 1 ? 0 : KW * (w / (NW / WK));
    const float *bT = a.biasT + (int64_t)h * a.L * a.L;
    float bias2[BSM ? 1 : NJ][4], acc[NJ][4];
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            if constexpr (!BSM) {
                int64_t kk = k0 + kw + 8 * j + 2 * t + (e & 1), q = q0 + wq + g + 8 * (e >> 1);
                bias2[j][e] = (kk < a.L && q < a.L) ? __fmul_rn(BW_L2E, bT[kk * a.L + q]) : 0.f;
            }
            acc[j][e] = 0;
        }
    if constexpr (BSM) {  // its own group, before the ring's
        bw_bias<FL, KT, QT, LB, NTH>(bT, a.L, k0, q0, Bs);
        fa_commit();
    }
    auto issue = [&](int64_t r) {
        if (r < r1) {
            int b = (int)((r - r0) % S);
            bw_tile<FL, CH, QT, NTH>(a, a.q, r, h, q0, Qs + b * QT * LK);
            bw_tile<FL, CH, QT, NTH>(a, a.dO, r, h, q0, dOs + b * QT * LK);
            bw_tile<FL, CH, KT, NTH>(a, a.k, r, h, k0, Ks + b * KT * LK);
            bw_tile<FL, CH, KT, NTH>(a, a.v, r, h, k0, Vs + b * KT * LK);
            bw_lseD(a, r, true, h, q0, QT, Ls + b * QT, Ds + b * QT);
        }
        fa_commit();
    };
    float mpre = 0.f;
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(r0 + s);
    if (r0 < r1 && threadIdx.x < KT) Ms[threadIdx.x] = bw_mask2(a, r0, k0 + threadIdx.x);
    if constexpr (BSM) {  // the bias group is complete once S - 1 groups remain
        fa_wait<S - 1>();
        __syncthreads();
        db_scale_bias<KT, LB, NTH>(Bs);
    }
    const float sc2 = a.scale * BW_L2E;
    for (int64_t r = r0; r < r1; r++) {
        int b = (int)((r - r0) % S), m = (int)((r - r0) & 1);
        fa_wait<S - 2>();
        __syncthreads();
        issue(r + S - 1);
        bool more = r + 1 < r1;
        if (more && threadIdx.x < KT) mpre = bw_mask2(a, r + 1, k0 + threadIdx.x);
        const float *Lb = Ls + b * QT, *Db = Ds + b * QT;
        float l2[2], Dq[2];
#pragma unroll
        for (int u = 0; u < 2; u++) { l2[u] = BW_L2E * Lb[wq + g + 8 * u]; Dq[u] = Db[wq + g + 8 * u]; }
        db_row<CH, KW, LB, BSM>(Qs + (b * QT + wq) * LK, dOs + (b * QT + wq) * LK, Ks + (b * KT + kw) * LK,
                                Vs + (b * KT + kw) * LK, Ms + m * KT + kw, l2, Dq, Bs + kw * LB + wq + g, bias2, acc,
                                sc2);
        if (more && threadIdx.x < KT) Ms[(m ^ 1) * KT + threadIdx.x] = mpre;
    }
    fa_wait<0>();
#pragma unroll
    for (int c = 0; c < KW / 64; c++) db_store<false>(a, split, nsplit, h, q0 + wq, k0 + kw + 64 * c, acc + 8 * c);
}

// ---- the .pipe variants: rows software-pipelined (docs/ATTENTION_BWD.md "Session 12") ----
// ptxas already issues all 64 mma of a row (S, dP of the warp's 128 keys) before the
// row's exp work, but nothing crosses the per-row barrier: after it a warp waits on
// ldmatrix -> mma latency with no other work, then runs the exps with the tensor pipe
// idle. k_bwd_dbias_pipe issues the products of row r + 1's first PD chunks of 32 keys
// right after the barrier, ahead of row r's last 4 - PD chunks' exps, and row r's
// remaining products ahead of its first exps: each side of the barrier mixes mma with
// exp / FMA work. S, dP of the four chunks stay in registers across the loop's back
// edge (128 as before).

// S and dP of one 32-key chunk of one row (Kh, Vh: its first key): db_row's products.
// (A form with the bias added on the tensor cores, .co.pipe.bm, was slower: session 13;
// removed in session 15.)
template <int CH>
__device__ __forceinline__ void db_chunk_mma(const uint32_t (*qa)[4], const uint32_t (*da)[4], const bf16 *Kh,
                                             const bf16 *Vh, float (*s)[4], float (*dp)[4]) {
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
#pragma unroll
    for (int kk = 0; kk < CH / 16; kk++) {
        db_mma_b_sw<CH, 4>(s, qa[kk], Kh, kk);
        db_mma_b_sw<CH, 4>(dp, da[kk], Vh, kk);
    }
}
// dS of chunk hf (keys 32 hf..) added to acc: db_row's arithmetic as its SASS has it;
// the mask of keys col, col + 1 as one LDS.64 (col even: 8-byte aligned). lq: the rows'
// lse (natural units). db_row writes mask - BW_L2E * lse and ptxas contracts it into one
// FFMA per element (checked in its sm_90a SASS: 64 FFMA by -log2(e) per row, no FMUL);
// here the fmaf is explicit, so the bits do not hang on ptxas doing so in this loop.
template <int LB>
__device__ __forceinline__ void db_chunk_exp(int hf, const float (*s)[4], const float (*dp)[4], const float *Mw,
                                             const float *lq, const float *Dq, const float *Bw, float (*acc)[4],
                                             float sc2) {
    int t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        int jj = 4 * hf + j, c0 = 8 * jj + 2 * t;
        float2 bq[2], mk = *reinterpret_cast<const float2 *>(Mw + c0);
#pragma unroll
        for (int e1 = 0; e1 < 2; e1++) bq[e1] = *reinterpret_cast<const float2 *>(Bw + (c0 + e1) * LB);
#pragma unroll
        for (int e = 0; e < 4; e++) {
            float x = ((e >> 1) ? bq[e & 1].y : bq[e & 1].x) + fmaf(lq[e >> 1], -BW_L2E, (e & 1) ? mk.y : mk.x);
            float p = fa_exp2(fmaf(s[j][e], sc2, x));
            acc[jj][e] = fmaf(p, dp[j][e] - Dq[e >> 1], acc[jj][e]);
        }
    }
}
// A row's lse, D of the warp's queries g, g + 8 and its Q, dO fragments, from ring buffer b.
template <int CH, int QT>
__device__ __forceinline__ void db_row_frag(int b, int wq, const float *Ls, const float *Ds, const bf16 *Qs,
                                            const bf16 *dOs, float *lq, float *Dq, uint32_t (*qa)[4],
                                            uint32_t (*da)[4]) {
    int g = (threadIdx.x & 31) >> 2;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        lq[u] = Ls[b * QT + wq + g + 8 * u];
        Dq[u] = Ds[b * QT + wq + g + 8 * u];
    }
#pragma unroll
    for (int kk = 0; kk < CH / 16; kk++) {
        db_ldsm_a_sw<CH>(qa[kk], Qs + (b * QT + wq) * CH, kk);
        db_ldsm_a_sw<CH>(da[kk], dOs + (b * QT + wq) * CH, kk);
    }
}

// A whole tile's rows (db_load_sw's full path) from the thread's first source element
// src of the row: the row-independent offsets are worked out once per block (AP), so a
// row costs one 64-bit multiply-add and a pointer step per pass where db_load_sw spent
// ~50 integer instructions per tile (fa_pos, the offsets, the bounds selects). d: the
// thread's first element in the swizzled tile (db_swz of its row and chunk).
template <int CH, int NR, int NTH>
__device__ __forceinline__ void db_rows_ap(const bf16 *src, int64_t ps, bf16 *d) {
    constexpr int RPU = NTH / (CH / 8);
    static_assert(NR % RPU == 0 && RPU % 8 == 0, "whole passes; passes keep the swizzle");
    const int64_t step = RPU * ps;
#pragma unroll
    for (int u = 0; u < NR / RPU; u++, src += step) fa_cp16(d + u * RPU * CH, src);
}

// k_bwd_dbias_tma's maps (a __grid_constant__ parameter): q, dO (box CH x 64), k, v (box CH x 128), each (HC, L,
// B) bf16 with the 2 CH-byte swizzle (db_swz's layout: chunk c of row r at c ^ ((r & 7) / RPL)).
struct dbt_maps {
    CUtensorMap m[4];
};
#if S9_HAVE_WGMMA
// The S buffers' mbarriers (one arrival: the issuing thread's arrive.expect_tx, and the bytes), the maps fetched
// ahead of their first copies; the caller's first block barrier follows before any wait.
template <int S>
__device__ __forceinline__ void dbt_start(uint64_t *full, const CUtensorMap *tm) {
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++) wg_bar_init(full + s, 1);
        wg_fence_mbarrier_init();
        for (int i = 0; i < 4; i++) tma_prefetch_desc(tm + i);
    }
}
// Row r's tiles of a whole block (a.ch == CH, queries q0.. and keys k0.. inside L) and its lse, D (QT contiguous
// floats each: 16-byte aligned where the host launches this form) into one ring buffer, by thread 0.
template <int CH, int QT, int KT>
__device__ __forceinline__ void dbt_issue(const fa_args &a, const CUtensorMap *tm, int64_t r, int h, int64_t q0,
                                          int64_t k0, bf16 *Q, bf16 *dO, bf16 *K, bf16 *V, float *Ls, float *Ds,
                                          uint64_t *full) {
    if (threadIdx.x != 0) return;
    const int c0 = h * CH, ri = (int)r;
    const int64_t lo = (r * a.H + h) * a.L + q0;
    tw_expect(full, (uint32_t)(sizeof(bf16) * 2 * (QT + KT) * CH + sizeof(float) * 2 * QT));
    tma_load_3d(Q, tm + 0, c0, (int)q0, ri, full);
    tma_load_3d(dO, tm + 1, c0, (int)q0, ri, full);
    tma_load_3d(K, tm + 2, c0, (int)k0, ri, full);
    tma_load_3d(V, tm + 3, c0, (int)k0, ri, full);
    tw_bulk_g2s(Ls, a.lse + lo, (uint32_t)(sizeof(float) * QT), full);
    tw_bulk_g2s(Ds, a.D + lo, (uint32_t)(sizeof(float) * QT), full);
}
__device__ __forceinline__ void dbt_wait(uint64_t *full, uint32_t parity) { wg_bar_wait(full, parity); }
#else  // k_bwd_dbias_pipe (never TM) on sm_80
template <int S>
__device__ __forceinline__ void dbt_start(uint64_t *, const CUtensorMap *) {}
template <int CH, int QT, int KT>
__device__ __forceinline__ void dbt_issue(const fa_args &, const CUtensorMap *, int64_t, int, int64_t, int64_t, bf16 *,
                                          bf16 *, bf16 *, bf16 *, float *, float *, uint64_t *) {}
__device__ __forceinline__ void dbt_wait(uint64_t *, uint32_t) {}
#endif

// shared memory of k_bwd_dbias_pipe: k_bwd_dbias_h's (unpadded tile rows) with three mask
// buffers (row r + 1's mask is written while row r's last chunks may still read row r's)
template <int CH, int S>
static size_t dbp_smem() {
    return dbh_smem<CH, 64, 128, S, true, CH>() + sizeof(float) * 128;
}

// q64k128.w4.m2 with swizzled tiles (db_swz), the permuted bias tile (db_scale_bias_p), 8-byte
// partial stores and the rows pipelined (FL copies; S ring stages; PD chunks of the next row
// after the barrier; whole tiles copied by db_rows_ap). Per iteration r: [mma r chunks PD..3 |
// exp r chunks 0..PD-1] barrier (r + 1's copies landed, r's buffer free) [mma r + 1 chunks
// 0..PD-1 | exp r chunks PD..3]. Every element's dS and its place in the row order are
// k_bwd_dbias_h's: the same bits. The last iteration multiplies a ring buffer's stale
// contents (in bounds, unused) rather than branch around the products. Launched with S = 2,
// PD = 2 (session 12 measured S 3 and PD 1 / 3, and the tiles by db_load_sw only: all slower;
// removed in session 15).
//
// TM (k_bwd_dbias_tma, session 53): a block whose tiles are whole takes a row's Q, dO, K, V by one thread's four
// tensor-map box copies (the 2 CH-byte swizzle TMA writes is db_swz's layout, so the products read the tiles as
// before) and its lse, D by two bulk copies, all counted on the buffer's mbarrier, which every thread waits on
// before the row's block barrier; other blocks copy as !TM does. The arithmetic and the row order are !TM's: the
// same bits. sm: the tiles' base (TM: 1024-byte aligned, the swizzle pattern's period); tm: the maps (TM).
template <int CH, int S, int PD, bool TM>
__device__ __forceinline__ void db_pipe(const fa_args &a, unsigned char *sm, const CUtensorMap *tm) {
    constexpr int QT = 64, KT = 128, NTH = 128, LB = QT + 4, NC = 4, KS = CH / 16;
    static_assert(PD >= 1 && PD < NC && S >= 2 && NTH == KT, "pipeline depth, stages; a thread per key");
    bf16 *Qs = (bf16 *)sm, *dOs = Qs + S * QT * CH, *Ks = dOs + S * QT * CH, *Vs = Ks + S * KT * CH;
    float *Ms = (float *)(Vs + S * KT * CH), *Ls = Ms + 3 * KT, *Ds = Ls + S * QT, *Bs = Ds + S * QT;
    uint64_t *full = (uint64_t *)(Bs + KT * LB);  // TM: a buffer's copies landed (S mbarriers)
    const db_item it = db_block_item<QT, KT>(a);
    const int nsplit = a.nsplit, split = it.split, h = it.h;
    const int64_t r0 = it.r0, r1 = it.r1, q0 = it.q0, k0 = it.k0;
    int wq = 16 * (threadIdx.x >> 5), g = (threadIdx.x & 31) >> 2;
    float acc[4 * NC][4];  // keys 8 j.. of the warp's 128
#pragma unroll
    for (int j = 0; j < 4 * NC; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) acc[j][e] = 0;
    bw_bias<true, KT, QT, LB, NTH>(a.biasT + (int64_t)h * a.L * a.L, a.L, k0, q0, Bs);
    fa_commit();
    // a thread's source element of its first tile row at row 0 (Q, dO: oq, K, V: ok),
    // and its first element in the swizzled tiles
    const int64_t rs = a.rstride * a.HC, ps = a.pstride * a.HC, hc = (int64_t)h * a.ch + 8 * (threadIdx.x % (CH / 8));
    const int64_t oq = (q0 + threadIdx.x / (CH / 8)) * ps + hc, ok = (k0 + threadIdx.x / (CH / 8)) * ps + hc;
    const int dsw = db_swz<CH>(threadIdx.x / (CH / 8), threadIdx.x % (CH / 8));
    const bool whole = a.ch == CH && q0 + QT <= a.L && k0 + KT <= a.L, tw = TM && whole;
    if (TM) dbt_start<S>(full, tm);
    auto issue = [&](int64_t r) {
        if (r < r1) {
            int b = (int)((r - r0) % S);
            if (tw) {
                dbt_issue<CH, QT, KT>(a, tm, r, h, q0, k0, Qs + b * QT * CH, dOs + b * QT * CH, Ks + b * KT * CH,
                                      Vs + b * KT * CH, Ls + b * QT, Ds + b * QT, full + b);
            } else if (whole) {
                const int64_t o = r * rs;
                db_rows_ap<CH, QT, NTH>((const bf16 *)a.q + o + oq, ps, Qs + b * QT * CH + dsw);
                db_rows_ap<CH, QT, NTH>((const bf16 *)a.dO + o + oq, ps, dOs + b * QT * CH + dsw);
                db_rows_ap<CH, KT, NTH>((const bf16 *)a.k + o + ok, ps, Ks + b * KT * CH + dsw);
                db_rows_ap<CH, KT, NTH>((const bf16 *)a.v + o + ok, ps, Vs + b * KT * CH + dsw);
            } else {
                db_load_sw<CH, QT, NTH>(a, a.q, r, h, q0, Qs + b * QT * CH);
                db_load_sw<CH, QT, NTH>(a, a.dO, r, h, q0, dOs + b * QT * CH);
                db_load_sw<CH, KT, NTH>(a, a.k, r, h, k0, Ks + b * KT * CH);
                db_load_sw<CH, KT, NTH>(a, a.v, r, h, k0, Vs + b * KT * CH);
            }
            if (!tw) bw_lseD(a, r, true, h, q0, QT, Ls + b * QT, Ds + b * QT);
        }
        fa_commit();
    };
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(r0 + s);
    if (r0 < r1) Ms[threadIdx.x] = bw_mask2(a, r0, k0 + threadIdx.x);
    fa_wait<S - 1>();
    __syncthreads();
    db_scale_bias_p<KT, LB, QT, NTH>(Bs);
    fa_wait<S - 2>();  // row r0's barrier
    if (tw && r0 < r1) dbt_wait(full, 0u);
    __syncthreads();
    issue(r0 + S - 1);
    float lq[2], Dq[2], s[NC][4][4], dp[NC][4][4];
    uint32_t qa[KS][4], da[KS][4];
    db_row_frag<CH, QT>(0, wq, Ls, Ds, Qs, dOs, lq, Dq, qa, da);
#pragma unroll
    for (int c = 0; c < PD; c++) db_chunk_mma<CH>(qa, da, Ks + 32 * c * CH, Vs + 32 * c * CH, s[c], dp[c]);
    const float *Bw = Bs + wq + 2 * g;
    const float sc2 = a.scale * BW_L2E;
    int m = 0;  // row r's mask buffer
    for (int64_t r = r0; r < r1; r++) {
        int b = (int)((r - r0) % S), b1 = (int)((r + 1 - r0) % S), mn = m == 2 ? 0 : m + 1;
        bool more = r + 1 < r1;
        float mpre = 0.f;
        if (more) mpre = bw_mask2(a, r + 1, k0 + threadIdx.x);
#pragma unroll
        for (int c = PD; c < NC; c++)
            db_chunk_mma<CH>(qa, da, Ks + (b * KT + 32 * c) * CH, Vs + (b * KT + 32 * c) * CH, s[c], dp[c]);
#pragma unroll
        for (int c = 0; c < PD; c++) db_chunk_exp<LB>(c, s[c], dp[c], Ms + m * KT, lq, Dq, Bw, acc, sc2);
        if (more) Ms[mn * KT + threadIdx.x] = mpre;
        fa_wait<S - 2>();  // row r + 1's copies landed; every warp is done with row r's tiles
        if (tw && more) dbt_wait(full + b1, (uint32_t)(((r + 1 - r0) / S) & 1));
        __syncthreads();
        issue(r + S);
        float lqn[2], Dqn[2];
        db_row_frag<CH, QT>(b1, wq, Ls, Ds, Qs, dOs, lqn, Dqn, qa, da);
#pragma unroll
        for (int c = 0; c < PD; c++)
            db_chunk_mma<CH>(qa, da, Ks + (b1 * KT + 32 * c) * CH, Vs + (b1 * KT + 32 * c) * CH, s[c], dp[c]);
#pragma unroll
        for (int c = PD; c < NC; c++) db_chunk_exp<LB>(c, s[c], dp[c], Ms + m * KT, lq, Dq, Bw, acc, sc2);
#pragma unroll
        for (int u = 0; u < 2; u++) { lq[u] = lqn[u]; Dq[u] = Dqn[u]; }
        m = mn;
    }
    fa_wait<0>();
#pragma unroll
    for (int c = 0; c < 2; c++) db_store<true>(a, split, nsplit, h, q0 + wq, k0 + 64 * c, acc + 8 * c);
}
template <int CH, int S, int PD>
__global__ void __launch_bounds__(128, 2) k_bwd_dbias_pipe(fa_args a) {
    extern __shared__ __align__(16) unsigned char bw_sm[];
    db_pipe<CH, S, PD, false>(a, bw_sm, nullptr);
}
// k_bwd_dbias_pipe with its whole blocks' tiles by tensor maps (db_pipe's TM; sm_90 only): the same bits.
template <int CH, int S, int PD>
__global__ void __launch_bounds__(128, 2) k_bwd_dbias_tma(fa_args a, const __grid_constant__ dbt_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(16) unsigned char bw_sm[];
    db_pipe<CH, S, PD, true>(a, bw_sm + ((1024 - (fa_smem(bw_sm) & 1023)) & 1023), tm.m);
#else
    (void)a;
    (void)tm;
    __trap();  // launched on sm_90 only
#endif
}

// k_bwd_dbias_wg (variant 6, opt-in; session 53): k_bwd_dbias_tma's blocks (64 queries x 128 keys, a row range,
// every tile whole: L % 128 == 0, c_h 32) with S = Q K^T and dP = dO V^T on wgmma from the TMA tiles (both
// operands K-major by descriptor, the 64-byte swizzle: SBO 512, the second k step 32 bytes into the rows), one
// warpgroup a block, two blocks an SM. A row's keys in two halves of 64 (m64n64k16 x 2 per product, one commit
// group per half), pipelined across rows: half 0 of row r + 1 is issued before half 1 of row r's exps, half 1
// after them, so the tensor cores run under the exp / FMA work (session 18's wgmma form, with cp.async copies and
// no such overlap, was 32% slower). The accumulator layout of m64n64 is mma.sync's C layout per 8-key block, so
// db_chunk_exp's arithmetic is the pipe kernel's term for term; the products' rounding inside wgmma may differ from
// mma.sync's, so its bits are its own (deterministic, rows summed in order).
#if S9_HAVE_WGMMA
// S (or dP) of one 64-key half: A = the row's Q (dO) tile, B = keys 64 h.. of its K (V) tile, both [rows][32] bf16
__device__ __forceinline__ void dbw_half(float *d, const bf16 *A, const bf16 *B, int h) {
    const bf16 *Bh = B + 64 * h * 32;
    wg_ss_n64_first(d, tma_desc_sw(A, 16, 512, 64), tma_desc_sw(Bh, 16, 512, 64));
    wg_ss_n64(d, tma_desc_sw(A + 16, 16, 512, 64), tma_desc_sw(Bh + 16, 16, 512, 64));
}
#endif
template <int S>
__global__ void __launch_bounds__(128, 2) k_bwd_dbias_wg(fa_args a, const __grid_constant__ dbt_maps tm) {
#if S9_HAVE_WGMMA
    constexpr int CH = 32, QT = 64, KT = 128, NTH = 128, LB = QT + 4;
    extern __shared__ __align__(16) unsigned char bw_sm[];
    unsigned char *sm = bw_sm + ((1024 - (fa_smem(bw_sm) & 1023)) & 1023);
    bf16 *Qs = (bf16 *)sm, *dOs = Qs + S * QT * CH, *Ks = dOs + S * QT * CH, *Vs = Ks + S * KT * CH;
    float *Ms = (float *)(Vs + S * KT * CH), *Ls = Ms + 3 * KT, *Ds = Ls + S * QT, *Bs = Ds + S * QT;
    uint64_t *full = (uint64_t *)(Bs + KT * LB);
    const db_item it = db_block_item<QT, KT>(a);
    const int nsplit = a.nsplit, split = it.split, h = it.h;
    const int64_t r0 = it.r0, r1 = it.r1, q0 = it.q0, k0 = it.k0;
    const int wq = 16 * (threadIdx.x >> 5), g = (threadIdx.x & 31) >> 2;
    float acc[16][4];  // keys 8 j.. of the block's 128
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) acc[j][e] = 0;
    bw_bias<true, KT, QT, LB, NTH>(a.biasT + (int64_t)h * a.L * a.L, a.L, k0, q0, Bs);
    fa_commit();
    dbt_start<S>(full, tm.m);
    auto issue = [&](int64_t r) {
        if (r < r1) {
            const int b = (int)((r - r0) % S);
            dbt_issue<CH, QT, KT>(a, tm.m, r, h, q0, k0, Qs + b * QT * CH, dOs + b * QT * CH, Ks + b * KT * CH,
                                  Vs + b * KT * CH, Ls + b * QT, Ds + b * QT, full + b);
        }
    };
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(r0 + s);
    if (r0 < r1) Ms[threadIdx.x] = bw_mask2(a, r0, k0 + threadIdx.x);
    fa_wait<0>();  // the bias tile
    __syncthreads();
    db_scale_bias_p<KT, LB, QT, NTH>(Bs);
    if (r0 < r1) dbt_wait(full, 0u);
    __syncthreads();  // the scaled bias tile, row r0's mask
    issue(r0 + S - 1);
    float s0[32], p0[32], s1[32], p1[32];  // S, dP of keys 0..63 and 64..127 (C layout, 8-key blocks)
    s9_wg_fence();  // row r0's products (an empty range: stale tiles, never used)
    dbw_half(s0, Qs, Ks, 0);
    dbw_half(p0, dOs, Vs, 0);
    s9_wg_commit();
    dbw_half(s1, Qs, Ks, 1);
    dbw_half(p1, dOs, Vs, 1);
    s9_wg_commit();
    const float *Bw = Bs + wq + 2 * g;
    const float sc2 = a.scale * BW_L2E;
    int m = 0;  // row r's mask buffer
    for (int64_t r = r0; r < r1; r++) {
        const int b = (int)((r - r0) % S), b1 = (int)((r + 1 - r0) % S), mn = m == 2 ? 0 : m + 1;
        const bool more = r + 1 < r1;
        float mpre = 0.f, lq[2], Dq[2];
        if (more) mpre = bw_mask2(a, r + 1, k0 + threadIdx.x);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            lq[u] = Ls[b * QT + wq + g + 8 * u];
            Dq[u] = Ds[b * QT + wq + g + 8 * u];
        }
        wg_mma_wait<1>();  // half 0 of row r
        s9_wg_hold<32>(s0);
        s9_wg_hold<32>(p0);
#pragma unroll
        for (int c = 0; c < 2; c++)
            db_chunk_exp<LB>(c, reinterpret_cast<const float(*)[4]>(s0 + 16 * c),
                             reinterpret_cast<const float(*)[4]>(p0 + 16 * c), Ms + m * KT, lq, Dq, Bw, acc, sc2);
        wg_mma_wait<0>();  // half 1: every product reading buffer b done
        s9_wg_hold<32>(s1);
        s9_wg_hold<32>(p1);
        if (more) {
            Ms[mn * KT + threadIdx.x] = mpre;
            dbt_wait(full + b1, (uint32_t)(((r + 1 - r0) / S) & 1));  // row r + 1's tiles landed
        }
        __syncthreads();  // buffer b free for row r + S; row r + 1's mask written
        issue(r + S);
        // row r + 1's products; after the last row on the buffer's stale tiles (in bounds, never used): a branch
        // around them made ptxas serialize every wgmma (C7514)
        s9_wg_fence();
        dbw_half(s0, Qs + b1 * QT * CH, Ks + b1 * KT * CH, 0);
        dbw_half(p0, dOs + b1 * QT * CH, Vs + b1 * KT * CH, 0);
        s9_wg_commit();
#pragma unroll
        for (int c = 2; c < 4; c++)
            db_chunk_exp<LB>(c, reinterpret_cast<const float(*)[4]>(s1 + 16 * (c - 2)),
                             reinterpret_cast<const float(*)[4]>(p1 + 16 * (c - 2)), Ms + m * KT, lq, Dq, Bw, acc,
                             sc2);
        s9_wg_fence();
        dbw_half(s1, Qs + b1 * QT * CH, Ks + b1 * KT * CH, 1);
        dbw_half(p1, dOs + b1 * QT * CH, Vs + b1 * KT * CH, 1);
        s9_wg_commit();
        m = mn;
    }
    wg_mma_wait<0>();  // the last (unused) products, before the block's shared memory goes
    s9_wg_hold<32>(s0);
    s9_wg_hold<32>(p0);
    s9_wg_hold<32>(s1);
    s9_wg_hold<32>(p1);
#pragma unroll
    for (int c = 0; c < 2; c++) db_store<true>(a, split, nsplit, h, q0 + wq, k0 + 64 * c, acc + 8 * c);
#else
    (void)a;
    (void)tm;
    __trap();  // launched on sm_90 only
#endif
}

// dbias (L*L, H) from the per-head planes (H, L, L) (one range of rows, not transposed,
// H a multiple of 8): a thread per position reads its H values from the planes
// (consecutive positions across threads) and writes them as one run (16-byte stores). The
// kernel above writing (L*L, H) itself puts one 2-byte store in each 32-byte sector: the
// single-attention backward (B = 1, 16 heads) spent 1.8 of its 2.1 ms there.
__global__ void k_bwd_dbias_interleave(fa_args a) {
    int64_t n = a.L * a.L;
    const bf16 *pl = (const bf16 *)a.dbias_planes;
    GRID_STRIDE(i, n) {
        bf16 *dst = (bf16 *)a.dbias + i * a.H;
        for (int h0 = 0; h0 < a.H; h0 += 8) {
            uint4 v;
            bf16 *pv = reinterpret_cast<bf16 *>(&v);
#pragma unroll
            for (int k = 0; k < 8; k++) pv[k] = pl[(int64_t)(h0 + k) * n + i];
            *reinterpret_cast<uint4 *>(dst + h0) = v;
        }
    }
}

// dbias = sum of the split partials, in split order
__global__ void k_bwd_dbias_reduce(fa_args a, int nsplit) {
    int64_t n = (int64_t)a.H * a.L * a.L;
    GRID_STRIDE(i, n) {
        int64_t kk = i % a.L, q = (i / a.L) % a.L;
        int h = (int)(i / (a.L * a.L));
        float s = 0;
        for (int u = 0; u < nsplit; u++) s += a.dbias_part[(int64_t)u * n + i];
        int64_t idx = a.bias_tr ? kk * a.L + q : q * a.L + kk;
        ((bf16 *)a.dbias)[idx * a.H + h] = __float2bfloat16(s);
    }
}

// ---- launch ---------------------------------------------------------------------------
// k_bwd_dbias_tma's / k_bwd_dbias_wg's maps of b's q, dO, k, v ((HC, L, B) bf16, box ch x 64 or ch x 128, the 2 ch-byte
// swizzle); 0, or -1 after tma_map_encode's message. (Host code the emulator's tests call as dbt_launch does.)
static inline int dbt_maps_encode(dbt_maps *tm, const fa_args &b, int ch) {
    memset(tm, 0, sizeof *tm);
    const uint64_t dims[3] = {(uint64_t)b.HC, (uint64_t)b.L, (uint64_t)b.B};
    const uint64_t strides[2] = {(uint64_t)(b.pstride * b.HC), (uint64_t)(b.rstride * b.HC)};
    const uint32_t box_q[3] = {(uint32_t)ch, 64, 1}, box_k[3] = {(uint32_t)ch, 128, 1};
    if (tma_map_encode(&tm->m[0], b.q, 2, 3, dims, strides, box_q, 2 * ch) ||
        tma_map_encode(&tm->m[1], b.dO, 2, 3, dims, strides, box_q, 2 * ch) ||
        tma_map_encode(&tm->m[2], b.k, 2, 3, dims, strides, box_k, 2 * ch) ||
        tma_map_encode(&tm->m[3], b.v, 2, 3, dims, strides, box_k, 2 * ch))
        return -1;
    return 0;
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// The most dynamic shared memory a block may have on the current device (opt-in).
static size_t db_smem_max() {
    int dev = 0, v = 0;
    CU_CHECK(cudaGetDevice(&dev));
    CU_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return (size_t)v;
}

// k_bwd_dbias_tma<CH, S, 2> on b (variants 4, 5): its maps, then the launch; nonzero (nothing launched) where the
// form does not apply: not an sm_90 device, c_h other than CH (no block whole), L % 4 (lse / D rows 16-byte
// aligned), a base not 16-byte aligned, rows past 32-bit coordinates, or shared memory short.
// WG: k_bwd_dbias_wg<S> instead (variant 6: c_h 32 and L % 128 == 0, every block whole).
template <int CH, int S, bool WG = false>
static int dbt_launch(cu_impl *c, const fa_args &b, unsigned grid) {
    if (!fa_bwd_wg_device() || b.ch != CH || b.L % 4 || b.L > 2147483647LL || b.B > 2147483647LL) return 1;
    void (*kern)(fa_args, dbt_maps) = NULL;
    if constexpr (WG) {
        if constexpr (CH != 32) return 1;
        else kern = k_bwd_dbias_wg<S>;
        if (b.L % 128) return 1;
    } else {
        kern = k_bwd_dbias_tma<CH, S, 2>;
    }
    if (((uintptr_t)b.q | (uintptr_t)b.k | (uintptr_t)b.v | (uintptr_t)b.dO | (uintptr_t)b.lse | (uintptr_t)b.D) & 15)
        return 1;
    const size_t smem = dbp_smem<CH, S>() + 8 * S + 1024;  // + the mbarriers, the 1024-byte alignment
    if (smem > db_smem_max()) return 1;
    static int attr_set;
    if (!attr_set) {
        if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set = 1;
    }
    dbt_maps tm;
    if (dbt_maps_encode(&tm, b, CH)) return 1;
    kern<<<grid, 128, smem, c->stream>>>(b, tm);
    CU_LAUNCHED();
    return 0;
}

// Variant v: warps NW as (NW / WK) x WK, KW keys a warp, S stages, MB blocks per SM,
// bias tile in shared memory (BSM). One that does not fit the device's shared memory runs
// h4.m3 instead: the same bits.
template <int CH, bool FL>
static void db_kernel(cu_impl *c, const fa_args &b, int v) {
    int64_t ns = b.nsplit;
    auto grid = [&](int qt, int kt) { return bw_grid((b.L + qt - 1) / qt * ((b.L + kt - 1) / kt) * b.H * ns); };
#define DBH(NW_, WK_, KW_, S_, MB_, BSM_)                                                                      \
    do {                                                                                                       \
        constexpr int QT_ = 16 * (NW_ / WK_), KT_ = WK_ * KW_;                                                 \
        size_t sm_ = dbh_smem<CH, QT_, KT_, S_, BSM_, CH + 8>();                                               \
        if (sm_ > db_smem_max()) break;                                                                        \
        bw_launch(c, k_bwd_dbias_h<CH, NW_, WK_, KW_, S_, FL, MB_, BSM_>, grid(QT_, KT_), 32 * NW_, sm_, b);   \
        return;                                                                                                \
    } while (0)
    // the .pipe variant (k_bwd_dbias_pipe): FL cases that fit, else q64k128.w4.m2 (the same bits)
#define DBP(S_, PD_)                                                                                           \
    do {                                                                                                       \
        size_t sm_ = dbp_smem<CH, S_>();                                                                       \
        if (!FL || sm_ > db_smem_max()) {                                                                      \
            DBH(4, 1, 128, 2, 2, true);                                                                        \
            break;                                                                                             \
        }                                                                                                      \
        if constexpr (FL) bw_launch(c, k_bwd_dbias_pipe<CH, S_, PD_>, grid(64, 128), 128, sm_, b);             \
        return;                                                                                                \
    } while (0)
    switch (v) {
    case 0: DBH(8, 1, 64, 2, 2, true); break;   // h8.m2.bs
    case 2: DBH(4, 1, 128, 2, 2, true); break;  // q64k128.w4.m2
    case 3: DBP(2, 2); break;                   // q64k128.w4.m2.co.pipe
    case 4:                                     // q64k128.w4.m2.co.pipe.tma, else .co.pipe (the same bits)
        if (FL && dbt_launch<CH, 2>(c, b, grid(64, 128)) == 0) return;
        DBP(2, 2);
        break;
    case 5:                                     // .tma with three ring buffers, else .co.pipe
        if (FL && dbt_launch<CH, 3>(c, b, grid(64, 128)) == 0) return;
        DBP(2, 2);
        break;
    case 6:                                     // q64k128.wg.tma (k_bwd_dbias_wg), else .tma, else .co.pipe
        if (FL && dbt_launch<CH, 2, true>(c, b, grid(64, 128)) == 0) return;
        if (FL && dbt_launch<CH, 2>(c, b, grid(64, 128)) == 0) return;
        DBP(2, 2);
        break;
    default: break;
    }
    DBH(4, 1, 64, 2, 3, false);  // h4.m3: v == 1, and the fallback
#undef DBP
#undef DBH
}

// Names: warps.blocks per SM[.bs: bias tile in shared memory] for 64-key tiles (16 warps
// queries); qQTkKT.wNW.mMB for the bigger tiles (bias in shared memory); .co.pipe:
// k_bwd_dbias_pipe (swizzled tiles, permuted bias tile, 8-byte partial stores,
// docs/ATTENTION_BWD.md "Session 11"; rows pipelined, "Session 12").
// Removed in session 15, measured slower (docs/ATTENTION_BWD.md): h8, h4.m3.bs, h8.m2,
// q128k128.w8[.s3], q128k128.w16[.s3], q64k128.w8.m2 (sessions 7 and 10), q64k128.w4.m2.co,
// .co.pipe1, .co.pipe.s3, .co.pipe.na, .co.pipe3 (session 12), .co.pipe.bm (session 13).
// .tma: k_bwd_dbias_tma (session 53), the .co.pipe kernel with its whole blocks' tiles by tensor maps (sm_90);
// .tma.s3: the same with three ring buffers (rows r + 1, r + 2 in flight; the .co.pipe.s3 of session 12, by cp.async,
// was slower); wg.tma: k_bwd_dbias_wg (session 53), the .tma blocks with S and dP on wgmma.
static const char *db_names[] = {"h8.m2.bs", "h4.m3", "q64k128.w4.m2", "q64k128.w4.m2.co.pipe",
                                 "q64k128.w4.m2.co.pipe.tma", "q64k128.w4.m2.co.pipe.tma.s3", "q64k128.wg.tma"};
// Measured on an H200 (attn_bwd_check --dbias, ms; docs/ATTENTION_BWD.md "Session 7"):
// the session-6 kernel 5.569 / 43.48 triangle N = 1024 / 2048, 1.438 MSA row, 0.711
// single; h4.m3 4.605 / 37.87, 1.185, 0.525; h8.m2.bs 4.789 / 37.52, 1.217, 0.343.
// Few rows (single attention, B = 1): loading the bias tile dominates, and the shared-
// memory tile's coalesced copy wins; else three 4-warp blocks per SM. (Those .bs numbers
// were taken with the bias tile scaled per score; it is scaled once per block now.)
// Session 10 (same run, H200): h4.m3 4.688 / 40.696 triangle N = 1024 / 2048, 1.205 MSA
// row; q64k128.w4.m2 4.623 / 36.281, 1.187 (128 keys per block: half the Q / dO bytes
// per score); the 128 x 128 tiles were no faster (4.82-5.01 / 37.8-39.4): fewer blocks
// per SM, a barrier per row. Single attention: h8.m2.bs 0.361 (unchanged).
// Session 11 (same run, H200, bench_cuda_ops tri_attn f+b): q64k128.w4.m2.co 22.97 -> 22.00 ms
// at N = 1024, 165.76 -> 158.01 at 2048 against q64k128.w4.m2 (the same bits).
// B >= 8: q64k128.w4.m2.co.pipe (3), the fastest measured at N = 1024 / 2048 (session 12: 3.79 / 29.58 ms
// against .co 3.92 / 30.89); B < 8 (single attention): h8.m2.bs (0). Since session 53 its .tma form (4; 3 where
// the maps do not apply, the same bits): 3.727 -> 3.370 ms a launch at N = 1024 on an H100 (ncu), triangle
// module f+b 16.89 -> 16.53 ms; .tma.s3 (5) was level with it (3.370 ms, more instructions).
// Session 55 (H100, bench_cuda_ops two rounds, same run): wg.tma (6; c_h 32 and L % 128 == 0, else the .tma form,
// else .co.pipe) 3.400 -> 2.663 ms a launch at N = 1024 (ncu), triangle module f+b 16.71 -> 16.00 ms at 1024 and
// 119.5 -> 114.1 at 2048 (starting node; ending node 17.52 -> 16.93, 124.1 -> 117.9).
static int db_default(const fa_args *a) { return a->B < 8 ? 0 : 6; }
int fa_bwd_dbias_variants(void) { return (int)(sizeof db_names / sizeof db_names[0]); }
const char *fa_bwd_dbias_variant_name(int v) { return v >= 0 && v < fa_bwd_dbias_variants() ? db_names[v] : "?"; }

void fa_bwd_dbias(cu_impl *c, const fa_args *a, bool fl) {
    fa_args b = *a;
    int ns = b.nsplit = fa_dbias_nsplit(c, a);
    // one range of rows: the per-head planes from the top of the pool (this launch only),
    // then interleaved (same values, written coalesced)
    size_t top = (c->pool_top + 255) & ~(size_t)255, pbytes = sizeof(bf16) * (size_t)a->H * a->L * a->L;
    b.dbias_planes = NULL;
    if (ns == 1 && !a->bias_tr && a->H % 8 == 0 && ((uintptr_t)a->dbias & 15) == 0 && c->pool &&
        c->pool_bytes > top && c->pool_bytes - top >= pbytes)
        b.dbias_planes = c->pool + top;
    int v = c->attn_dbias > 0 && c->attn_dbias <= fa_bwd_dbias_variants() ? c->attn_dbias - 1 : db_default(a);
    if (a->ch <= 16) fl ? db_kernel<16, true>(c, b, v) : db_kernel<16, false>(c, b, v);
    else fl ? db_kernel<32, true>(c, b, v) : db_kernel<32, false>(c, b, v);
    if (b.dbias_planes) {
        k_bwd_dbias_interleave<<<cu_blocks(a->L * a->L, 256), 256, 0, c->stream>>>(b);
        CU_LAUNCHED();
    }
    if (ns > 1) {
        int64_t n = (int64_t)a->H * a->L * a->L;
        k_bwd_dbias_reduce<<<cu_blocks(n, 256), 256, 0, c->stream>>>(*a, ns);
        CU_LAUNCHED();
    }
}
#endif  // PF_EMU_NO_HOST
