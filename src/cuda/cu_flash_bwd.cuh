// cu_flash_bwd.cuh: what the bf16 attention backward kernels share
// (cu_flash_bwd.cu: three passes; cu_flash_bwd_fused.cu: dk, dv and dq in one pass):
// tile copies into shared memory (cp.async), operand products, the per-position
// terms (mask, lse, D) in log2 units. docs/ATTENTION_BWD.md.
#ifndef PF_CU_FLASH_BWD_CUH
#define PF_CU_FLASH_BWD_CUH
#include "cu_mma.cuh"

#define BW_T 64            // streamed tile and own tile (positions)
#define BW_L2E 1.4426950408889634f

// biasT (bf16 numbers held as fp32) as bf16, exact (cu_flash_bwd_fused.cu): the one-pass
// backwards' bias copy
__global__ void k_bias_to_bf16(const float *x, bf16 *y, int64_t n);

// ---- helpers ---------------------------------------------------------------------------

// One k step (kk: columns 16 kk..) of mma operands by ldmatrix.x4 (one instruction per
// four 8 x 8 matrices): a, the A fragment of a 16-row tile (smem row-major, stride sa);
// bw_mma_b then multiplies it by NT 8-row tiles of B ([n][k], stride sb).
__device__ __forceinline__ void bw_ldsm_a(uint32_t *a, const bf16 *A, int sa, int kk) {
    int lane = threadIdx.x & 31, m = lane >> 3;
    // matrix m = lane / 8: rows (m & 1) 8.., k (m >> 1) 8.. -> a0 a1 a2 a3
    uint32_t addr = fa_smem(A + ((m & 1) * 8 + (lane & 7)) * sa + kk * 16 + (m >> 1) * 8);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(addr));
}
template <int NT>
__device__ __forceinline__ void bw_mma_b(float (*acc)[4], const uint32_t *a, const bf16 *B, int sb, int kk) {
    int lane = threadIdx.x & 31, m = lane >> 3;
#pragma unroll
    for (int j = 0; j < NT; j += 2) {
        // matrices: (n tile j, k 0..7) (j, k 8..15) (j + 1, k 0..7) (j + 1, k 8..15)
        uint32_t b[4];
        uint32_t baddr = fa_smem(B + ((j + (m >> 1)) * 8 + (lane & 7)) * sb + kk * 16 + (m & 1) * 8);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                     : "r"(baddr));
        fa_mma16816(acc[j], a, b[0], b[1]);
        fa_mma16816(acc[j + 1], a, b[2], b[3]);
    }
}

// acc (16 x 8 NT) += A (16 x K, smem row-major, stride sa) * B^T, B smem [n][k] stride sb.
// LDSM: operand fragments by ldmatrix.x4 instead of 32-bit loads (four per A fragment,
// two per B fragment).
template <int K, int NT, bool LDSM>
__device__ __forceinline__ void bw_mma_ss(float (*acc)[4], const bf16 *A, int sa, const bf16 *B, int sb) {
    if (!LDSM) {
        fa_mma_ss<K, NT>(acc, A, sa, B, sb);
        return;
    }
#pragma unroll
    for (int kk = 0; kk < K / 16; kk++) {
        uint32_t a[4];
        bw_ldsm_a(a, A, sa, kk);
        bw_mma_b<NT>(acc, a, B, sb, kk);
    }
}

// NR positions l0.. of (row r, head h) of src (M, HC) into dst [NR][CH + 8], zero beyond
// L and c_h: cp.async 16-byte vectors when c_h and HC are multiples of 8 (c_h 8, 16, 24,
// 32), plain loads otherwise. NTH threads.
template <int CH, int NR, int NTH>
__device__ __forceinline__ void bw_load(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    const bf16 *s = (const bf16 *)src;
    if ((a.ch & 7) == 0 && (a.HC & 7) == 0) {
        for (int i = threadIdx.x; i < NR * CH / 8; i += NTH) {
            int j = i / (CH / 8), c = (i % (CH / 8)) * 8;
            int64_t l = l0 + j;
            bf16 *d = dst + j * (CH + 8) + c;
            if (l < a.L && c < a.ch) fa_cp16(d, s + fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch + c);
            else *reinterpret_cast<uint4 *>(d) = make_uint4(0, 0, 0, 0);
        }
        return;
    }
    for (int i = threadIdx.x; i < NR * CH; i += NTH) {
        int j = i / CH, c = i % CH;
        int64_t l = l0 + j;
        bf16 v = __float2bfloat16(0.f);
        if (l < a.L && c < a.ch) v = s[fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch + c];
        dst[j * (CH + 8) + c] = v;
    }
}

// Rows R0.. (NR) x columns C0.. (NC) of the L x L fp32 matrix m into dst [NR][LD], zero
// outside: 16-byte cp.async when rows are 16-byte aligned (L % 4 == 0), else 4-byte.
template <int NR, int NC, int LD, int NTH>
__device__ __forceinline__ void bw_bias_tile(const float *m, int64_t L, int64_t R0, int64_t C0, float *dst) {
    if ((L & 3) == 0) {
        for (int i = threadIdx.x; i < NR * NC / 4; i += NTH) {
            int rr = i / (NC / 4), cc = (i % (NC / 4)) * 4;
            int64_t R = R0 + rr, C = C0 + cc;
            float *d = dst + rr * LD + cc;
            if (R < L && C < L) fa_cp16(d, m + R * L + C);
            else *reinterpret_cast<float4 *>(d) = make_float4(0.f, 0.f, 0.f, 0.f);
        }
        return;
    }
    for (int i = threadIdx.x; i < NR * NC; i += NTH) {
        int rr = i / NC, cc = i % NC;
        int64_t R = R0 + rr, C = C0 + cc;
        float *d = dst + rr * LD + cc;
        if (R < L && C < L) fa_cp4(d, m + R * L + C);
        else *d = 0.f;
    }
}

// The same two copies without per-vector index arithmetic (FL kernels, chosen at launch
// when c_h, HC are multiples of 8 and L of 4): thread x always copies the chunks at tile
// row x / VPR + u RPU, channel (x % VPR) 8, so one 64-bit base per tile and a constant
// stride per chunk replace bw_pos(...) * HC per 16-byte vector (docs/ATTENTION_BWD.md:
// that arithmetic was most of the copy path's instructions).
template <int CH, int NR, int NTH>
__device__ __forceinline__ void bw_load_fl(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    constexpr int VPR = CH / 8, RPU = NTH / VPR, NU = (NR + RPU - 1) / RPU;
    static_assert(NTH % VPR == 0, "threads per tile row");
    const bf16 *row = (const bf16 *)src + fa_pos(a, r, 0) * a.HC + (int64_t)h * a.ch;
    int j0 = threadIdx.x / VPR, c = (threadIdx.x % VPR) * 8;
    int64_t ps = a.pstride * a.HC, left = a.L - l0;
    bool cok = c < a.ch;
    const bf16 *p = row + (l0 + j0) * ps + c;
    bf16 *d = dst + j0 * (CH + 8) + c;
#pragma unroll
    for (int u = 0; u < NU; u++) {
        int j = j0 + u * RPU;
        if (NR % RPU == 0 || j < NR) {
            bool ok = cok && j < left;
            fa_cp16z(d + u * RPU * (CH + 8), ok ? p + u * RPU * ps : row, ok ? 16 : 0);
        }
    }
}
// T: float (the fp32 bias) or bf16 (its bf16 copy: L % 8 == 0, FL cases only); 16-byte
// chunks of 16 / sizeof(T) elements.
template <int NR, int NC, int LD, int NTH, typename T>
__device__ __forceinline__ void bw_bias_fl(const T *m, int64_t L, int64_t R0, int64_t C0, T *dst) {
    constexpr int EPC = 16 / (int)sizeof(T), VPR = NC / EPC, RPU = NTH / VPR, NU = (NR + RPU - 1) / RPU;
    static_assert(NTH % VPR == 0, "threads per tile row");
    int j0 = threadIdx.x / VPR, c = (threadIdx.x % VPR) * EPC;
    int64_t left = L - R0;
    bool cok = C0 + c < L;
    const T *p = m + (R0 + j0) * L + C0 + c;
    T *d = dst + j0 * LD + c;
#pragma unroll
    for (int u = 0; u < NU; u++) {
        int j = j0 + u * RPU;
        if (NR % RPU == 0 || j < NR) {
            bool ok = cok && j < left;
            fa_cp16z(d + u * RPU * LD, ok ? p + u * RPU * L : m, ok ? 16 : 0);
        }
    }
}
template <bool FL, int CH, int NR, int NTH>
__device__ __forceinline__ void bw_tile(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    if (FL) bw_load_fl<CH, NR, NTH>(a, src, r, h, l0, dst);
    else bw_load<CH, NR, NTH>(a, src, r, h, l0, dst);
}
template <bool FL, int NR, int NC, int LD, int NTH>
__device__ __forceinline__ void bw_bias(const float *m, int64_t L, int64_t R0, int64_t C0, float *dst) {
    if (FL) bw_bias_fl<NR, NC, LD, NTH>(m, L, R0, C0, dst);
    else bw_bias_tile<NR, NC, LD, NTH>(m, L, R0, C0, dst);
}

// mask term of key kk of row r in log2 units (-inf beyond L)
__device__ __forceinline__ float bw_mask2(const fa_args &a, int64_t r, int64_t kk) {
    if (kk >= a.L) return -INFINITY;
    return a.mask ? BW_L2E * mask_term(__bfloat162float(((const bf16 *)a.mask)[fa_pos(a, r, kk)])) : 0.f;
}
// lse (log2 units) and D of query q of row r; +inf, 0 beyond L (p = 0 there)
__device__ __forceinline__ float bw_lse2(const fa_args &a, int64_t r, int h, int64_t q) {
    return q < a.L ? BW_L2E * a.lse[(r * a.H + h) * a.L + q] : INFINITY;
}
__device__ __forceinline__ float bw_D(const fa_args &a, int64_t r, int h, int64_t q) {
    return q < a.L ? a.D[(r * a.H + h) * a.L + q] : 0.f;
}

// Small per-position vectors (lse, D) of a tile: 4-byte cp.async; beyond L (or for rows
// past B, when !row_ok) lse = +inf and D = 0, so p = 0 there. N threads from t0.
__device__ __forceinline__ void bw_lseD(const fa_args &a, int64_t r, bool row_ok, int h, int64_t q0, int n,
                                        float *Ls, float *Ds) {
    int i = threadIdx.x;
    if (i >= n) return;
    int64_t q = q0 + i;
    if (q < a.L && row_ok) {
        fa_cp4(Ls + i, a.lse + (r * a.H + h) * a.L + q);
        fa_cp4(Ds + i, a.D + (r * a.H + h) * a.L + q);
    } else {
        Ls[i] = INFINITY;
        Ds[i] = 0.f;
    }
}
#define BW_LDK 72  // bias tile row stride for [key][query] float2 reads along the query

// dk (times scale) and dv of a warp's 16 keys from kw of row r, head h, as bf16.
template <int CH>
__device__ __forceinline__ void bw_store_dkdv(const fa_args &a, int64_t r, int h, int64_t kw, const float (*dk)[4],
                                              const float (*dv)[4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t kk = kw + g + 8 * u;
        if (kk >= a.L) continue;
        int64_t off = fa_pos(a, r, kk) * a.HC + (int64_t)h * a.ch;
        bf16 *pk = (bf16 *)a.dk + off, *pv = (bf16 *)a.dv + off;
#pragma unroll
        for (int j = 0; j < CH / 8; j++) {
            int c = 8 * j + 2 * t;
            if (c < a.ch) {
                pk[c] = __float2bfloat16(dk[j][2 * u] * a.scale);
                pv[c] = __float2bfloat16(dv[j][2 * u]);
            }
            if (c + 1 < a.ch) {
                pk[c + 1] = __float2bfloat16(dk[j][2 * u + 1] * a.scale);
                pv[c + 1] = __float2bfloat16(dv[j][2 * u + 1]);
            }
        }
    }
}

// Key-major tiles (a warp's 16 keys x 64 queries, C fragments): s = S^T and dp = dP^T
// in, p and dS = p (dP - D) out, p = exp2(s scale log2e + (bias + mask - lse) log2e).
// Lb, Db: the query tile's lse (natural log) and D; Bw: the bias rows of the warp's
// keys ([key][query], stride BW_LDK; fp32 or bf16); mk2: the keys' mask terms in log2 units.
__device__ __forceinline__ float2 bw_ld_bias2(const float *p) { return *reinterpret_cast<const float2 *>(p); }
__device__ __forceinline__ float2 bw_ld_bias2(const bf16 *p) {
    return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(p));
}
// One fragment pair (queries 2t, 2t + 1 of one key row): s <- p = exp2(s sc2 + bias log2e
// - lse log2e + mask), dp <- dS = p (dp - D). Shared by every backward kernel.
__device__ __forceinline__ void bw_p_ds_pair(float *s, float *dp, float2 l2, float2 d2, float2 bb, float mk,
                                             float sc2) {
#pragma unroll
    for (int e1 = 0; e1 < 2; e1++) {
        float lq = e1 ? l2.y : l2.x, dd = e1 ? d2.y : d2.x;
        float p = fa_exp2(fmaf(s[e1], sc2, fmaf(e1 ? bb.y : bb.x, BW_L2E, fmaf(lq, -BW_L2E, mk))));
        s[e1] = p;
        dp[e1] = p * (dp[e1] - dd);
    }
}
template <typename BT>
__device__ __forceinline__ void bw_p_ds_keys(float (*s)[4], float (*dp)[4], const float *Lb, const float *Db,
                                             const BT *Bw, const float *mk2, float sc2) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float2 l2 = *reinterpret_cast<const float2 *>(Lb + 8 * j + 2 * t);
        float2 d2 = *reinterpret_cast<const float2 *>(Db + 8 * j + 2 * t);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            // fp32: 8-byte reads, each half-warp hits 16 distinct bank pairs (row stride 72);
            // bf16: 4-byte reads, 32 distinct banks
            float2 bb = bw_ld_bias2(Bw + (g + 8 * u) * BW_LDK + 8 * j + 2 * t);
            bw_p_ds_pair(s[j] + 2 * u, dp[j] + 2 * u, l2, d2, bb, mk2[u], sc2);
        }
    }
}

// ---- the bias on the tensor cores (k_bwd_lean's BWL_BM, k_bwd_dbias_pipe's BM) -----------
// acc (16 x 8) += A (16 x 8: a0 rows g, a1 rows g + 8, columns 2t, 2t + 1) B (8 x 8: b0 rows
// 2t, 2t + 1, column g): mma m16n8k8, bf16 in, fp32 accumulate.
__device__ __forceinline__ void bw_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b));
}
// B = c I (8 x 8, c = bf16(1 / scale)) as this lane's fragment: with A a bias tile's 16 x 8
// block, bw_mma1688 adds c bias to the accumulator exactly (one nonzero product per
// element); one register, no zero operands.
__device__ __forceinline__ uint32_t bw_eye_frag(float scale) {
    const uint32_t c = __bfloat16_as_ushort(__float2bfloat16_rn(__frcp_rn(scale)));
    const int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    return (g == 2 * t ? c : 0u) | (g == 2 * t + 1 ? c << 16 : 0u);
}

// ---- launch ---------------------------------------------------------------------------
static inline unsigned bw_grid(int64_t n) {
    if (n > 2147483647LL || n < 1) pf_die("attention backward grid too large");
    return (unsigned)n;
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
template <typename K>
static void bw_launch(cu_impl *c, K kern, unsigned grid, int threads, size_t smem, const fa_args &a) {
    if (smem > 48 * 1024) CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    kern<<<grid, threads, smem, c->stream>>>(a);
    CU_LAUNCHED();
}
#endif

// dk, dv and dq in one pass, one block per item (head, row) (cu_flash_bwd_fused.cu);
// variant: 0 8 warps, 1 4 warps; force: also where items are few. Returns 0 when it
// ran, nonzero (nothing launched) when the case is not taken (few items unless
// forced, c_h > 32, no scratch, c->attn_fused < 0).
int fa_bwd_fused(cu_impl *c, const fa_args *a, int variant, int force);
// dv of fully masked rows (the uniform average's): launched after the dk/dv pass.
void fa_bwd_dv_uniform(cu_impl *c, const fa_args *a);
// The bias gradient (cu_flash_bwd_dbias.cu): c->attn_dbias picks the kernel variant
// (0: the default); fl: the FL copies may be taken (bw_fl_ok's conditions hold).
void fa_bwd_dbias(cu_impl *c, const fa_args *a, bool fl);

// A warp's 16 queries x 64 keys of the bias gradient (C fragments, acc[j]: keys 8 j..):
// fp32 partials of split `split` (nsplit > 1), else bf16 into the per-head planes
// (H, L, L) or straight into dbias (L*L, H) (transposed layout: [key][query]).
// V2 (k_bwd_dbias_pipe): the fp32 partials of keys kk, kk + 1 as one 8-byte store where
// both exist and the pair is 8-byte aligned (even L): a row's 4 lanes then fill whole
// 32-byte sectors (two 4-byte stores used 16 bytes of each).
template <bool V2>
__device__ __forceinline__ void db_store(const fa_args &a, int split, int nsplit, int h, int64_t qw, int64_t k0,
                                         const float (*acc)[4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const bool v2 = V2 && nsplit > 1 && (a.L & 1) == 0 && ((uintptr_t)a.dbias_part & 7) == 0;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t kk = k0 + 8 * j + 2 * t + (e & 1), q = qw + g + 8 * (e >> 1);
            if (v2) {
                if ((e & 1) || q >= a.L) continue;  // written with its left neighbour
                float *pp = a.dbias_part + (((int64_t)split * a.H + h) * a.L + q) * a.L + kk;
                if (kk + 1 < a.L) *reinterpret_cast<float2 *>(pp) = make_float2(acc[j][e], acc[j][e + 1]);
                else if (kk < a.L) pp[0] = acc[j][e];
                continue;
            }
            if (kk < a.L && q < a.L) {
                if (nsplit > 1) {
                    a.dbias_part[(((int64_t)split * a.H + h) * a.L + q) * a.L + kk] = acc[j][e];
                } else if (a.dbias_planes) {
                    if (e & 1) continue;  // written with its left neighbour
                    int64_t off = ((int64_t)h * a.L + q) * a.L + kk;
                    bf16 *pl = (bf16 *)a.dbias_planes + off;
                    if (kk + 1 < a.L && !(off & 1)) {
                        *reinterpret_cast<uint32_t *>(pl) = fa_pack2(acc[j][e], acc[j][e + 1]);
                    } else {  // odd L: a pair may straddle 4 bytes
                        pl[0] = __float2bfloat16(acc[j][e]);
                        if (kk + 1 < a.L) pl[1] = __float2bfloat16(acc[j][e + 1]);
                    }
                } else {
                    int64_t idx = a.bias_tr ? kk * a.L + q : q * a.L + kk;
                    ((bf16 *)a.dbias)[idx * a.H + h] = __float2bfloat16(acc[j][e]);
                }
            }
        }
}

#endif
