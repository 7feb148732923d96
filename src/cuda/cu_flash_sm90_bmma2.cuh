// cu_flash_sm90_bmma2.cuh: k_s9_fwd_bmma2's body (s9d_run: its key tiles by cp.async, or for k_s9_fwd_tma by TMA
// tensor maps) and the device pieces it takes, which the Hopper forward's two files share: cu_flash_sm90.cu
// (k_s9_fwd_bmma2; k_s9_fwd, k_s9_fwd_pipe and k_s9_fwd_bmma use some of the same pieces) and cu_flash_sm90_tma.cu
// (the TMA forms k_s9_fwd_tma and k_s9_fwd_half, the latter built from s9d_run's steps). Here:
// the shared memory of a key tile's buffers (s9_smem_layout), the P and V fragments, the bias-through-the-tensor-
// core steps (s9b_*: the bias as the A operand of an m16n8k8; cu_flash_sm90.cu's section "Bias through the tensor
// core" has the arithmetic), the lazy reference max, and k_s9_fwd_bmma2's two-sub-tile steps (s9d_*) with the TMA
// copies (s9t_*); and, at the end, the host functions the two files call across.
#ifndef PF_CU_FLASH_SM90_BMMA2_CUH
#define PF_CU_FLASH_SM90_BMMA2_CUH
#include "cu_flash_sm90.cuh"
#include "cu_tma.cuh"

// Shared memory of k_s9_fwd (R rows per block) and k_s9_fwd_pipe; k_s9_fwd_bmma and k_s9_fwd_bmma2 extend it
template <int CH, int R, bool B16>
struct s9_smem_layout {
    static constexpr int TE = S9_K * (CH + 8);                  // bf16 elements of one K or V tile
    static constexpr size_t K = 0;                              // bf16 [2][R][TE]
    static constexpr size_t V = K + 2 * (size_t)R * TE * 2;     // bf16 [2][R][TE]
    // bytes of one bias tile: fp32 [64 keys][S9_BS], or B16 bf16 [64 queries][S9_BS16]
    static constexpr size_t BT = B16 ? (size_t)S9_Q * S9_BS16 * 2 : (size_t)S9_K * S9_BS * 4;
    static constexpr size_t B = V + 2 * (size_t)R * TE * 2;     // [2][BT bytes]
    static constexpr size_t M = B + 2 * BT;                     // fp32 [2][R][64]
    static constexpr size_t bytes = M + 2 * (size_t)R * S9_K * 4;
};

// P of keys 16 kk .. 16 kk + 15 (this thread's fp32 scores of the 16 x 64 tile) as the bf16
// A fragment of an m16n8k16 / wgmma m64nNk16.
template <int NJ>
__device__ __forceinline__ void s9_pack_p(uint32_t (&pa)[4], const float (&s)[NJ][4], int kk) {
    pa[0] = fa_pack2(s[2 * kk][0], s[2 * kk][1]);
    pa[1] = fa_pack2(s[2 * kk][2], s[2 * kk][3]);
    pa[2] = fa_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
    pa[3] = fa_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
}

// V's B fragments for keys 16 kk.. and channels 16 jp.. (two 8-channel n-tiles) from the
// [key][CH + 8] tile by one ldmatrix.x4.trans: v4[0..1] the first n-tile's, v4[2..3] the second's.
template <int CH>
__device__ __forceinline__ void s9_ldsm_v(uint32_t (&v4)[4], const bf16 *Vt, int kk, int jp, int lane) {
    const bf16 *vp = Vt + (kk * 16 + (lane & 15)) * (CH + 8) + (2 * jp + (lane >> 4)) * 8;
    fa_ldsm4t(v4, vp);
}

// c (16 x 8, fp32) += a (16 x 8 bf16 fragment, 2 words) b (8 x 8, 1 word): mma.sync m16n8k8
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ void s9b_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b0) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}
#endif

// Positions l0..l0+63 of this block's row of src (q, k or v) into the tile dst [64][CH + 8]
// (zeros past L and past c_h): this thread's CH / 16 chunks of 8 channels, positions
// JS = 128 / (CH / 8) apart. kvo: the element offset of its first chunk at l = 0 in 32 bits
// (the launch checks B L HC < 2^31), or -1 past c_h: one register held across the loop,
// not s9_plan's 64-bit offsets (the 32-channel kernel spilled with those).
template <int CH>
__device__ __forceinline__ void s9b_fetch_rows(const fa_args &a, const void *src, int kvo, int l0, bf16 *dst) {
    constexpr int NC = CH / 8, JS = 128 / NC;
    int j0 = threadIdx.x / NC, step = (int)(a.pstride * a.HC);
    char *d = (char *)dst + (j0 * (CH + 8) + (threadIdx.x % NC) * 8) * 2;
#pragma unroll
    for (int u = 0; u < CH / 16; u++) {
        int l = l0 + j0 + u * JS;
        bool ok = kvo >= 0 && l < (int)a.L;
        fa_cp16z(d + u * JS * (CH + 8) * 2, (const bf16 *)src + (ok ? kvo + l * step : 0), ok ? 16 : 0);
    }
}

// s9p_mask (cu_flash_sm90.cu) with 32-bit offsets (the launch checks B L < 2^31): rpos = r rstride; key k
__device__ __forceinline__ float s9b_mask_at(const fa_args &a, int rpos, int k) {
    if (k >= (int)a.L) return -INFINITY;
    return a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[rpos + k * (int)a.pstride])) * S9_L2E : 0.f;
}
// key k0 + this thread's index mod 64
__device__ __forceinline__ float s9b_mask(const fa_args &a, int rpos, int k0) {
    return s9b_mask_at(a, rpos, k0 + (int)(threadIdx.x % S9_K));
}

// The bias tile [64 queries][S9_BS16] of the key tile at k0 into dst: rows of the copy
// (s9_bias16_copy, natural order: H x Lp rows of Lp keys, zeros past L, so no bounds
// tests), four 16-byte chunks per thread; boff: this thread's first chunk at key 0.
__device__ __forceinline__ void s9b_fetch_bias(const fa_args &a, int boff, int k0, unsigned char *dst) {
    int lp = ((int)a.L + 63) & ~63;
    const bf16 *src = a.biasT16 + (uint32_t)(boff + k0);  // widened per tile: no 64-bit offset held
    unsigned char *d = dst + ((threadIdx.x >> 3) * S9_BS16 + (threadIdx.x & 7) * 8) * 2;
#pragma unroll
    for (int u = 0; u < S9_Q / 16; u++) fa_cp16(d + u * 16 * S9_BS16 * 2, src + u * 16 * lp);
}

// The lazy reference max of k_s9_fwd_bmma / _bmma2 (session 32): a row's reference max m
// (log2 units) moves only when a tile's max exceeds it by more than a.lazy_step, so most
// tiles skip the quad's max shuffles and the rescale of O and the row sums; P = exp2(s - m) is
// then at most 2^lazy_step (2^8 by default: well inside bf16 and fp32, the sums over L keys
// at most L 2^8). The first tile always moves it (m = -inf); lse = m + log(l) holds for any
// reference m. lazy_step 0: every tile's max (the kernels' arithmetic before session 32).
__device__ __forceinline__ bool s9_lazy_up(float tile_max, float m, float step) { return tile_max > m + step; }
// Row u of a 16-query sub-tile given its quad's max q (log2 units, s mul): where it moves the
// reference max m, the correction exp2(m - new max) for O and the row sums ls; elsewhere a
// factor 1. Shared by both kernels, so that their bits stay the same.
template <int CH>
__device__ __forceinline__ void s9_lazy_row(float q, float lazy, float &m, float (&ls)[4], float (&o)[CH / 8][4],
                                            int u) {
    float corr = 1.f;
    if (s9_lazy_up(q, m, lazy)) {  // the quad's: the same test for its four threads
        float mn = fmaxf(m, q);
        corr = fa_exp2(m - mn);
        m = mn;
    }
    ls[2 * u] *= corr;
    ls[2 * u + 1] *= corr;
#pragma unroll
    for (int j = 0; j < CH / 8; j++) { o[j][2 * u] *= corr; o[j][2 * u + 1] *= corr; }
}

// k_s9_fwd_bmma2 (PF_ATTN_FWD_BMMA=2; attn_fwd_check variant 17; where k_s9_fwd_tma does not apply): k_s9_fwd_bmma
// with each warp owning two 16-query sub-tiles, queries 16 wq .. and 64 + 16 wq .. of the block's
// 128, so that every warp has two independent dependency chains (S MMAs, softmax, P V) to issue
// from (session 13's ncu: k_s9_fwd_bmma is latency-bound, 0.82 eligible warps per scheduler).
// Each K / V fragment is loaded from shared memory once for both sub-tiles (half the ldmatrix per
// score for K and V). Per score the same arithmetic in the same order as k_s9_fwd_bmma: same bits.
// The Q and bias tiles hold 128 query rows; K, V and the mask are as k_s9_fwd_bmma's.
template <int CH>
struct s9d_layout {
    typedef s9_smem_layout<CH, 1, true> SL;
    static constexpr size_t BT = 2 * SL::BT;                     // bias tile [128 queries][S9_BS16] bf16
    static constexpr size_t B = SL::B;                           // [2][BT bytes]
    static constexpr size_t M = B + 2 * BT;                      // fp32 [2][64]
    static constexpr size_t Q = M + 2 * (size_t)S9_K * 4;        // bf16 [128][CH + 8]
    static constexpr size_t P = Q + 2 * (size_t)S9_Q * (CH + 8) * 2;
    static constexpr size_t bytes = P + 260 * 4;  // int: boff [128], kvo [128], rpos, second half in L
};

// PF_ATTN_FWD_BMMA=3 (session 51; the default since session 52): k_s9_fwd_bmma2 with each key tile's K, V and bias
// brought by three TMA tensor-map copies that one thread issues (cu_tma.cuh), landing on the buffer's mbarrier, in
// place of 12 cp.async per thread (the forward was bound by its L2 requests: -12% on an H100, session 51).
// The tiles are TMA's dense swizzled boxes (s9t_kv_at, s9t_bias_at), from a 1024-byte aligned base (the launch
// asks 1024 bytes more): K, V [2][64][32] bf16, bias [2][128 queries][64 keys] bf16, then as s9d_layout: mask
// terms, Q (cp.async, once), the ints, and the two mbarriers. Same arithmetic per score: same bits as bmma2.
struct s9t_layout {
    static constexpr size_t TE = S9_K * 32;                   // bf16 elements of one K or V tile
    static constexpr size_t BT = (size_t)2 * S9_Q * 64 * 2;   // bytes of one bias tile (128 x 64 bf16)
    static constexpr size_t B = 0;                            // [2][BT]: 1024-byte aligned (128-byte swizzle)
    static constexpr size_t K = B + 2 * BT;                   // bf16 [2][TE]: 512-byte aligned (64-byte swizzle)
    static constexpr size_t V = K + 2 * TE * 2;               // bf16 [2][TE]
    static constexpr size_t M = V + 2 * TE * 2;               // fp32 [2][64]
    static constexpr size_t Q = M + 2 * (size_t)S9_K * 4;     // bf16 [128][32 + 8]
    static constexpr size_t P = Q + 2 * (size_t)S9_Q * 40 * 2;
    static constexpr size_t BAR = (P + 260 * 4 + 7) & ~(size_t)7;  // uint64 [2]
    static constexpr size_t bytes = BAR + 16;
    static constexpr uint32_t tx = (uint32_t)(BT + 2 * TE * 2);    // bytes a tile's three copies land
    static_assert(K % 512 == 0 && V % 512 == 0 && BT % 1024 == 0, "swizzle pattern alignment");
};

// Element offset of 16-byte chunk `chunk` of row `row` in a K / V tile: [key][CH + 8] (cp.async, padded rows), or
// SW the dense [key][32] tile TMA writes with the 64-byte swizzle (chunk XOR the 128-byte line's index mod 4; the
// tile 512-byte aligned). Both layouts give ldmatrix's eight rows eight distinct bank groups.
template <int CH, bool SW>
__device__ __forceinline__ int s9t_kv_at(int row, int chunk) {
    if constexpr (SW) {
        static_assert(CH == 32, "the TMA tiles hold 32 channels");
        return row * 32 + ((chunk ^ ((row >> 1) & 3)) << 3);
    } else {
        return row * (CH + 8) + chunk * 8;
    }
}
// The same for the bf16 bias tile: [query][S9_BS16], or SW TMA's dense [query][64] with the 128-byte swizzle
// (chunk XOR the row mod 8; the tile 1024-byte aligned)
template <bool SW>
__device__ __forceinline__ int s9t_bias_at(int row, int chunk) {
    if constexpr (SW) return row * 64 + ((chunk ^ (row & 7)) << 3);
    else return row * S9_BS16 + chunk * 8;
}

// S = c bias + Q K^T of both sub-tiles (s[i]: queries 64 i + 16 wq ..) for NJ 8-key column blocks, Q's A fragments
// qa given, each K fragment used twice; the fragments' ldmatrix by the caller's loaders: bias(b4, i, jp) the bias
// A fragments of sub-tile i and column blocks 2 jp, 2 jp + 1, key(k4, j) K's B fragments of column block j (CH 32:
// x4, k4[0..3]; else x2, k4[0..1]). The loaders hold the addressing (s9d_scores_q's from the tiles' layouts,
// k_s9_fwd_half's AO form's from held offsets); the products and their order are one.
template <int CH, int NJ, class BiasLoad, class KeyLoad>
__device__ __forceinline__ void s9d_scores_by(float (&s)[2][NJ][4], const uint32_t (&qa)[2][CH / 16][4], uint32_t ci,
                                              BiasLoad bias, KeyLoad key) {
#pragma unroll
    for (int jp = 0; jp < NJ / 2; jp++) {
        uint32_t b4[2][4];
#pragma unroll
        for (int i = 0; i < 2; i++) bias(b4[i], i, jp);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int j = 2 * jp + h;
#pragma unroll
            for (int i = 0; i < 2; i++) {
                s[i][j][0] = s[i][j][1] = s[i][j][2] = s[i][j][3] = 0;
                s9b_mma1688(s[i][j], b4[i][2 * h], b4[i][2 * h + 1], ci);
            }
            uint32_t k4[4];
            key(k4, j);
            if constexpr (CH == 32) {
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    fa_mma16816(s[i][j], qa[i][0], k4[0], k4[1]);
                    fa_mma16816(s[i][j], qa[i][1], k4[2], k4[3]);
                }
            } else {
#pragma unroll
                for (int i = 0; i < 2; i++) fa_mma16816(s[i][j], qa[i][0], k4[0], k4[1]);
            }
        }
    }
}
// s9d_scores_by from block j0 of the tiles Kt [64 keys][..], Bt [128][S9_BS16] (the tile's 64 keys: NJ 8, j0 0;
// k_s9_fwd_half's halves: NJ 4, j0 0 or 4; SW: the TMA tiles' swizzled layouts)
template <int CH, bool SW, int NJ>
__device__ __forceinline__ void s9d_scores_q(float (&s)[2][NJ][4], const uint32_t (&qa)[2][CH / 16][4], uint32_t ci,
                                             const bf16 *Kt, const bf16 *Bt, int j0, int wq, int lane) {
    s9d_scores_by<CH, NJ>(
        s, qa, ci,
        [&](uint32_t(&b4)[4], int i, int jp) {
            fa_ldsm4(b4, Bt + s9t_bias_at<SW>(64 * i + 16 * wq + (lane & 15), j0 + 2 * jp + (lane >> 4)));
        },
        [&](uint32_t(&k4)[4], int j) {
            const bf16 *kp = Kt + s9t_kv_at<CH, SW>(8 * (j0 + j) + (lane & 7), lane >> 3);
            if constexpr (CH == 32) fa_ldsm4(k4, kp);
            else fa_ldsm2(k4, kp);
        });
}
// Q's A fragments of both sub-tiles from the [128][CH + 8] tile Qt
template <int CH>
__device__ __forceinline__ void s9d_load_q(uint32_t (&qa)[2][CH / 16][4], const bf16 *Qt, int wq, int lane) {
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int kk = 0; kk < CH / 16; kk++) {
            const bf16 *qp = Qt + (64 * i + 16 * wq + (lane & 15)) * (CH + 8) + kk * 16 + 8 * (lane >> 4);
            fa_ldsm4(qa[i][kk], qp);
        }
}
// The whole 64-key tile, Q's fragments from Qt [128][CH + 8]
template <int CH, bool SW = false>
__device__ __forceinline__ void s9d_scores(float (&s)[2][8][4], const bf16 *Qt, uint32_t ci, const bf16 *Kt,
                                           const bf16 *Bt, int wq, int lane) {
    uint32_t qa[2][CH / 16][4];
    s9d_load_q<CH>(qa, Qt, wq, lane);
    s9d_scores_q<CH, SW, 8>(s, qa, ci, Kt, Bt, 0, wq, lane);
}

// s9b_softmax_update of both sub-tiles (NJ 8-key column blocks; Mt their mask terms), each step done for both
// before the next (one branch on masked for both; the two chains' instructions side by side), in two steps:
// s9d_softmax_max (the mask terms, the lazy reference max, O and the sums rescaled where it moves; returns the
// multiplier of s into log2 units) and s9d_softmax_exp (P), apart so that a form can issue them apart (session 56's
// k_s9_fwd_hp did; removed in session 57)
// Where a key of the tile is masked, its mask term added: s in log2 units (s alpha + term), and the multiplier that
// takes s into log2 units is then 1; else alpha
template <int NJ>
__device__ __forceinline__ float s9d_mask_terms(float (&s)[2][NJ][4], const float *Mt, bool masked, float alpha,
                                                int t) {
    if (!masked) return alpha;
#pragma unroll
    for (int j = 0; j < NJ; j++) {
        float2 mk = *(const float2 *)(Mt + 8 * j + 2 * t);
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[i][j][e] = fmaf(s[i][j][e], alpha, (e & 1) ? mk.y : mk.x);
    }
    return 1.f;
}
template <int CH, int NJ = 8>
__device__ __forceinline__ float s9d_softmax_max(float (&s)[2][NJ][4], float (&m)[2][2], float (&ls)[2][4],
                                                 float (&o)[2][CH / 8][4], const float *Mt, bool masked, float alpha,
                                                 float lazy, int t) {
    const float mul = s9d_mask_terms<NJ>(s, Mt, masked, alpha, t);
    float mx[2][2];
    bool up = false;
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            mx[i][u] = s9_thread_row_max<NJ>(s[i], u);
            up |= s9_lazy_up(mx[i][u] * mul, m[i][u], lazy);
        }
    if (__any_sync(0xffffffffu, up)) {  // some row of the warp moves its reference max
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int u = 0; u < 2; u++) mx[i][u] = fmaxf(mx[i][u], __shfl_xor_sync(0xffffffffu, mx[i][u], 1));
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int u = 0; u < 2; u++) {
                mx[i][u] = fmaxf(mx[i][u], __shfl_xor_sync(0xffffffffu, mx[i][u], 2));
                s9_lazy_row<CH>(mx[i][u] * mul, lazy, m[i][u], ls[i], o[i], u);
            }
    }
    return mul;
}
template <int NJ>
__device__ __forceinline__ void s9d_softmax_exp(float (&s)[2][NJ][4], const float (&m)[2][2], float mul) {
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[i][j][e] = fa_exp2(fmaf(s[i][j][e], mul, -m[i][e >> 1]));
}
template <int CH, int NJ = 8>
__device__ __forceinline__ void s9d_softmax_update(float (&s)[2][NJ][4], float (&m)[2][2], float (&ls)[2][4],
                                                   float (&o)[2][CH / 8][4], const float *Mt, bool masked,
                                                   float alpha, float lazy, int t) {
    s9d_softmax_exp<NJ>(s, m, s9d_softmax_max<CH, NJ>(s, m, ls, o, Mt, masked, alpha, lazy, t));
}

// s9b_accumulate_pv of both sub-tiles, each V fragment loaded once: P of NJ 8-key column blocks; V's B fragments
// by the caller's loader v(v4, kk, jp): keys 16 kk.. of the NJ / 2 key steps, channels 16 jp.. (one ldmatrix.x4.trans)
template <int CH, int NJ, class VLoad>
__device__ __forceinline__ void s9d_accumulate_pv_by(float (&o)[2][CH / 8][4], float (&ls)[2][4],
                                                     const float (&s)[2][NJ][4], VLoad v) {
    const uint32_t one2 = 0x3f803f80u;  // bf16 1.0 in both halves
#pragma unroll
    for (int kk = 0; kk < NJ / 2; kk++) {
        uint32_t pa[2][4];
        s9_pack_p<NJ>(pa[0], s[0], kk);
        s9_pack_p<NJ>(pa[1], s[1], kk);
#pragma unroll
        for (int jp = 0; jp < CH / 16; jp++) {
            uint32_t v4[4];
            v(v4, kk, jp);
#pragma unroll
            for (int i = 0; i < 2; i++) {
                fa_mma16816(o[i][2 * jp], pa[i], v4[0], v4[1]);
                fa_mma16816(o[i][2 * jp + 1], pa[i], v4[2], v4[3]);
            }
        }
        fa_mma16816(ls[0], pa[0], one2, one2);
        fa_mma16816(ls[1], pa[1], one2, one2);
    }
}
// s9d_accumulate_pv_by with keys from 16 kk0 of the tile Vt
template <int CH, bool SW = false, int NJ = 8>
__device__ __forceinline__ void s9d_accumulate_pv(float (&o)[2][CH / 8][4], float (&ls)[2][4],
                                                  const float (&s)[2][NJ][4], const bf16 *Vt, int kk0, int lane) {
    s9d_accumulate_pv_by<CH, NJ>(o, ls, s, [&](uint32_t(&v4)[4], int kk, int jp) {
        if constexpr (SW)
            fa_ldsm4t(v4, Vt + s9t_kv_at<CH, true>((kk0 + kk) * 16 + (lane & 15), 2 * jp + (lane >> 4)));
        else s9_ldsm_v<CH>(v4, Vt, kk0 + kk, jp, lane);
    });
}

// The bias tiles of both halves of the block's 128 queries at k0 into dst (the second half
// only where its queries start before L: the copy has Lp query rows)
__device__ __forceinline__ void s9d_fetch_bias(const fa_args &a, const int *Ps, int k0, unsigned char *dst) {
    int boff = Ps[threadIdx.x];
    s9b_fetch_bias(a, boff, k0, dst);
    if (Ps[257]) s9b_fetch_bias(a, boff + S9_Q * (((int)a.L + 63) & ~63), k0, dst + (size_t)S9_Q * S9_BS16 * 2);
}

// Tile j of k_s9_fwd_bmma2 (not pipelined: S of tile j + 1 not held, so fewer registers):
// everything of tile j + 1 into the buffers of tile j - 1, then tile j's S, softmax and P V
// from buffers b. Same arithmetic per score as k_s9_fwd_bmma. TMA: the copies by tensor maps
// (tm: K, V, bias; s9t_layout), else cp.async (tm NULL).
#if S9_HAVE_WGMMA
// The TMA form's copies of the key tile at k0 into buffer b (one thread): K and V of the block's row (3-D maps
// (HC, L, B): channels h c_h .., keys k0 .. k0 + 63, row r; keys past L read as zero) and the bias tile of its
// 128 queries (2-D map of the (H Lp, Lp) bf16 copy: keys k0 .., rows h Lp + q0 ..; rows past the head's Lp are
// the next head's or zeros, read only for queries past L, whose outputs are not stored).
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_issue(const fa_args &a, const CUtensorMap *tm, const int *Ps, int k0,
                                          unsigned char *sm, int b) {
    uint64_t *bar = (uint64_t *)(sm + TL::BAR) + b;
    tw_expect(bar, TL::tx);
    tma_load_3d(sm + TL::K + b * TL::TE * 2, tm + 0, Ps[258], k0, Ps[259], bar);
    tma_load_3d(sm + TL::V + b * TL::TE * 2, tm + 1, Ps[258], k0, Ps[259], bar);
    tma_load_2d(sm + TL::B + b * TL::BT, tm + 2, k0, Ps[257], bar);
}
// The two buffers' mbarriers (one thread), visible to the copies
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_init(unsigned char *sm) {
    wg_bar_init((uint64_t *)(sm + TL::BAR), 1);
    wg_bar_init((uint64_t *)(sm + TL::BAR) + 1, 1);
    wg_fence_mbarrier_init();
}
// Until buffer b's copies of the key tile at k0 have landed: buffer b's (k0 / 128)-th use, its parity (flip 1: the
// parity the other way, for a second pass over the keys after an odd number of the buffer's uses)
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_wait(unsigned char *sm, int b, int k0, uint32_t flip = 0) {
    wg_bar_wait((uint64_t *)(sm + TL::BAR) + b, ((uint32_t)(k0 / (2 * S9_K)) & 1) ^ flip);
}
#else
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_issue(const fa_args &, const CUtensorMap *, const int *, int, unsigned char *, int) {}
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_wait(unsigned char *, int, int, uint32_t = 0) {}
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_init(unsigned char *) {}
#endif
template <int CH, int b, bool TMA>
__device__ __forceinline__ void s9d_tile(const fa_args &a, const CUtensorMap *tm, int k0, unsigned char *sm,
                                          float (&sc)[2][8][4], uint32_t ci, float (&o)[2][CH / 8][4], float (&m)[2][2],
                                          float (&ls)[2][4], bool &mflag, float alpha, int wq, int t, int lane) {
    typedef s9d_layout<CH> DL;
    typedef s9t_layout TL;
    constexpr int TE = TMA ? (int)TL::TE : DL::SL::TE;
    constexpr size_t BT = TMA ? TL::BT : DL::BT;
    bf16 *Ks = (bf16 *)(sm + (TMA ? TL::K : DL::SL::K)), *Vs = (bf16 *)(sm + (TMA ? TL::V : DL::SL::V));
    unsigned char *Bs = sm + (TMA ? TL::B : DL::B);
    float *Ms = (float *)(sm + (TMA ? TL::M : DL::M));
    const int *Ps = (const int *)(sm + (TMA ? TL::P : DL::P));
    if constexpr (TMA) s9t_wait(sm, b, k0);
    else fa_wait<0>();                      // this thread's copies of tile j
    bool masked = __syncthreads_or(mflag);  // everyone's; every warp is done with tile j - 1
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0;
    if (more) {
        if constexpr (TMA) {
            if (threadIdx.x == 0) s9t_issue(a, tm, Ps, k0 + S9_K, sm, b ^ 1);
        } else {
            int kvo = Ps[128 + threadIdx.x];
            s9b_fetch_rows<CH>(a, a.k, kvo, k0 + S9_K, Ks + (b ^ 1) * TE);
            s9b_fetch_rows<CH>(a, a.v, kvo, k0 + S9_K, Vs + (b ^ 1) * TE);
            s9d_fetch_bias(a, Ps, k0 + S9_K, Bs + (b ^ 1) * DL::BT);
        }
        if (threadIdx.x < S9_K) mnext = s9b_mask(a, Ps[256], k0 + S9_K);
    }
    if constexpr (!TMA) fa_commit();
    s9d_scores<CH, TMA>(sc, (const bf16 *)(sm + (TMA ? TL::Q : DL::Q)), ci, Ks + b * TE,
                        (const bf16 *)(Bs + b * BT), wq, lane);
    s9d_softmax_update<CH>(sc, m, ls, o, Ms + b * S9_K, masked, alpha, a.lazy_step, t);
    s9d_accumulate_pv<CH, TMA>(o, ls, sc, Vs + b * TE, 0, lane);
    if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
    mflag = mnext != 0.f;
}

// The block's queries in k_s9_fwd_bmma2 and the TMA forms: two sub-tiles of S9_Q (k_s9_fwd_bmma2's
// comment in cu_flash_sm90.cu)
#define S9_Q2 (2 * S9_Q)
// k_s9_fwd_bmma2's and k_s9_fwd_tma's blocks per SM (their launches: s9d_launch, s9t_piece)
#ifndef S9_NB1
#define S9_NB1 3  // blocks per SM: 168 registers
#endif
// The block's row r, query tile q0 and head h (blockIdx.x = (h B + r) nqt + query tile), the thread's lane, warp wq,
// mma group g and thread-in-group t, the scale in log2 units, and c I, the bias product's B fragment (as
// k_s9_fwd_bmma): what k_s9_fwd_bmma2 / _tma / _half start from
struct s9d_ids {
    int r, q0, h, lane, wq, g, t;
    float alpha;
    uint32_t ci;
};
__device__ __forceinline__ s9d_ids s9d_block_ids(const fa_args &a) {
    s9d_ids id;
    int nqt = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest = (int)blockIdx.x / nqt;
    id.r = rest % (int)a.B, id.q0 = ((int)blockIdx.x % nqt) * S9_Q2;
    id.h = rest / (int)a.B;
    id.lane = threadIdx.x & 31, id.wq = threadIdx.x >> 5, id.g = id.lane >> 2, id.t = id.lane & 3;
    id.alpha = a.scale * S9_L2E;
    uint32_t cb = __bfloat16_as_ushort(__float2bfloat16_rn(1.f / a.scale));
    id.ci = (id.g == 2 * id.t ? cb : 0u) | (id.g == 2 * id.t + 1 ? cb << 16 : 0u);
    return id;
}

// The kernel's body on its shared memory sm (TMA: from a 1024-byte boundary, tm the K, V and bias maps).
template <int CH, bool TMA>
__device__ __forceinline__ void s9d_run(const fa_args &a, const CUtensorMap *tm, unsigned char *sm) {
    typedef s9d_layout<CH> DL;
    typedef s9t_layout TL;
    static_assert(!TMA || CH == 32, "the TMA form: 32 channels");
    bf16 *Ks = (bf16 *)(sm + (TMA ? TL::K : DL::SL::K)), *Vs = (bf16 *)(sm + (TMA ? TL::V : DL::SL::V));
    unsigned char *Bs = sm + (TMA ? TL::B : DL::B);
    float *Ms = (float *)(sm + (TMA ? TL::M : DL::M));

    const s9d_ids id = s9d_block_ids(a);
    const int r = id.r, q0 = id.q0, h = id.h, lane = id.lane, wq = id.wq, g = id.g, t = id.t;
    const float alpha = id.alpha;
    const uint32_t ci = id.ci;

    // prologue: Q, K V bias mask of tile 0
    int cc = (int)(threadIdx.x % (CH / 8)) * 8;
    int kvo = cc < a.ch ? (int)(fa_pos(a, r, 0) * a.HC) + h * (int)a.ch + cc : -1;
    bf16 *Qs = (bf16 *)(sm + (TMA ? TL::Q : DL::Q));
    s9b_fetch_rows<CH>(a, a.q, kvo, q0, Qs);
    s9b_fetch_rows<CH>(a, a.q, kvo, q0 + S9_Q, Qs + S9_Q * (CH + 8));
    int lp = ((int)a.L + 63) & ~63;
    int *Ps = (int *)(sm + (TMA ? TL::P : DL::P));
    int rpos = r * (int)a.rstride;
    if constexpr (TMA) {  // Ps[257..259]: the copies' coordinates (bias row h Lp + q0, channel h c_h, row r)
        if (threadIdx.x == 0) {
            Ps[256] = rpos, Ps[257] = h * lp + q0, Ps[258] = h * (int)a.ch, Ps[259] = r;
            s9t_init(sm);
        }
    } else {
        Ps[threadIdx.x] = (h * lp + q0 + (int)(threadIdx.x >> 3)) * lp + (threadIdx.x & 7) * 8;  // < H Lp^2 < 2^31
        Ps[128 + threadIdx.x] = kvo;
        if (threadIdx.x == 0) { Ps[256] = rpos; Ps[257] = q0 + S9_Q < (int)a.L; }
    }
    __syncthreads();  // Ps[257] read by every thread's bias copies (TMA: the mbarriers initialised)
    if constexpr (TMA) {
        if (threadIdx.x == 0) s9t_issue(a, tm, Ps, 0, sm, 0);
    } else {
        s9b_fetch_rows<CH>(a, a.k, kvo, 0, Ks);
        s9b_fetch_rows<CH>(a, a.v, kvo, 0, Vs);
        s9d_fetch_bias(a, Ps, 0, Bs);
    }
    fa_commit();
    float m0 = threadIdx.x < S9_K ? s9b_mask(a, rpos, 0) : 0.f;
    if (threadIdx.x < S9_K) Ms[threadIdx.x] = m0;
    bool mflag = m0 != 0.f;
    fa_wait<0>();
    __syncthreads();
    float o[2][CH / 8][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < CH / 8; j++) o[i][j][0] = o[i][j][1] = o[i][j][2] = o[i][j][3] = 0;
    float m[2][2] = {{-INFINITY, -INFINITY}, {-INFINITY, -INFINITY}}, ls[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    float sc[2][8][4];
    for (int k0 = 0;; k0 += 2 * S9_K) {  // two tiles per trip: buffers 0, 1
        s9d_tile<CH, 0, TMA>(a, tm, k0, sm, sc, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + S9_K >= (int)a.L) break;
        s9d_tile<CH, 1, TMA>(a, tm, k0 + S9_K, sm, sc, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + 2 * S9_K >= (int)a.L) break;
    }
    fa_wait<0>();  // the zero fill of K past L: no copy into the block's memory after its end
    {  // (row, query tile, head) again from the block index: not held across the loop (registers)
        uint32_t bx;
        bx = fa_ctaid_x();
        int nqt2 = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest2 = (int)bx / nqt2, q2 = ((int)bx % nqt2) * S9_Q2;
#pragma unroll
        for (int i = 0; i < 2; i++) {
            float l[2] = {ls[i][0], ls[i][2]};  // rows g, g + 8: whole sums (s9b_accumulate_pv)
            s9_store_output<CH, false>(a, o[i], m[i], l, rest2 % (int)a.B, q2 + S9_Q * i, rest2 / (int)a.B, wq, g,
                                       t);
        }
    }
}

// Host code the forward's two files call across: s9b_run (cu_flash_sm90.cu) launches a bias-through-the-tensor-core
// kernel on the natural-order bias copy in pieces of rows, kernel NULL for a TMA form, whose pieces s9t_piece
// (cu_flash_sm90_tma.cu) launches; fa_sm90_forward_tma (cu_flash_sm90_tma.cu): the TMA forms by PF_ATTN_FWD_BMMA's
// value tform, nonzero where they do not apply (nothing launched). (Here rather than in cu_flash_sm90.cuh, which 18
// of the CUDA files include: only these two include this header.)
int s9b_run(cu_impl *c, const fa_args *a, void (*kernel)(fa_args), int qtile, size_t smem, int *attr_set,
            int tform = 3);
int s9t_piece(cu_impl *c, const fa_args *p, int64_t nqt, int tform);
int fa_sm90_forward_tma(cu_impl *c, const fa_args *a, int tform);

#endif
