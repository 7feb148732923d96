// cu_trimul_side_wg.cuh: the device pieces the triangle multiplication's Hopper sides kernels share
// (cu_trimul_side_wg.cu: k_tm_sides_wg, k_tm_sg2; cu_trimul_side_wgp.cu: k_tm_sides_wgp;
// cu_trimul_side_wgpb.cu: k_tm_sgrad_wgp), so the forms' bits stay each other's by construction:
// the forward epilogue (the gate), the side gradient's dS fetch, its expressions and its stores,
// and the persistent forms' row loads, warpgroup barrier and product issue.
#pragma once
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"

#define TSW_SO 24  // staging row stride (bf16) per channel: 48 B, a stmatrix / ldmatrix's 8 rows on distinct banks
#define TSW_GO 72  // the backward's [d tp | d tg] staging row stride (bf16): 144 B, a stmatrix's 8 rows on distinct banks

#if S9_HAVE_WGMMA
#ifndef PF_EMU  // emu/emu_ptx.h
// stmatrix without .trans: register j of the lanes to matrix j, lanes 8 j .. 8 j + 7 giving its row
// addresses (ts_ldsm4's inverse; tsw_dgrad's [d tp | d tg] tile, k_tm_outbw_dwz's xl and d y staging)
__device__ __forceinline__ void tsw_stsm4(const bf16 *p, const uint32_t *r) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(fa_smem(p)), "r"(r[0]),
                 "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}
// The 16 bytes of stmatrix.trans: ts_ldsm4t's inverse (the same addresses and registers).
__device__ __forceinline__ void tsw_stsm4t(const bf16 *p, const uint32_t *r) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(fa_smem(p)),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
}
#endif

// The lane's row address for ldmatrix / stmatrix x4 number x (.trans) over a channel-major staging tile p0
// (rows: channels, SO apart; columns: 16 positions): its matrix 2 q + hh (q = 2 x, 2 x + 1) is channels 8 q..
// x positions 8 hh.., so register 2 q + hh of a lane is the pair (channels 8 q + 2 t, + 1) at position g + 8 hh:
// an m16n8 accumulator's pair of n8 tile q. Rows SO apart with SO / 8 odd: the 8 rows of a matrix on distinct banks.
template <int SO>
__device__ __forceinline__ const bf16 *tsw_cm_row(const bf16 *p0, int x) {
    static_assert((SO / 8) % 2 == 1 && SO % 8 == 0, "16-byte rows on distinct bank groups");
    const int lane = threadIdx.x & 31, mi = lane >> 3;
    return p0 + (16 * x + 8 * (mi >> 1) + (lane & 7)) * SO + 8 * (mi & 1);
}

// Channel of 16-byte run i = lane + 32 it (half i & 1) of a (32, TSW_SO) staging tile: it 0 even channels, it 1 odd.
// Rows are 48 B (16-byte bank slot 3 ch + h mod 8): a quarter-warp's c, c + 2, c + 4, c + 6 take 8 distinct slots
// (channels 0..3 of ch = i >> 1 took slot 1 twice).
__device__ __forceinline__ int tsw_ch(int i) { return (i & 30) | (i >> 5); }

// Tile j's gated 32 channels of the warp's 16 positions from acc (m64n64: for q, columns
// 16 q + 2 t + e are tp and 16 q + 8 + 2 t + e tg of channel 8 q + 2 t + e; rows g, g + 8) as
// bf16 pairs: o[2 q + hh] = channels 8 q + 2 t, + 1 at row g + 8 hh (tsw_cm_row's register order).
// BIAS false: the caller knows a.bias is NULL (AF3's bias-free Linears): no bias loads and adds
// (the same values but for the sign of an exact zero).
template <bool BIAS = true>
__device__ __forceinline__ void tsw_gate(const float (&acc)[32], const float (&m)[2], const ts_args &a, int j,
                                         uint32_t (&o)[8]) {
    const int t = threadIdx.x & 3;
    const float *bias = BIAS && a.bias ? a.bias + (int64_t)j * 64 : NULL;
    const float hm[2] = {0.5f * m[0], 0.5f * m[1]};  // mask / 2 at rows g, g + 8
#pragma unroll
    for (int q = 0; q < 4; q++) {
        float v[2][2];
#pragma unroll
        for (int e = 0; e < 2; e++) {
            const int col = 16 * q + 2 * t + e;
            float bp = bias ? __ldg(bias + col) : 0.f, hbg = bias ? 0.5f * __ldg(bias + col + 8) : 0.f;
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                const float tg = acc[8 * q + 4 + 2 * hh + e], tp = acc[8 * q + 2 * hh + e];
                float th = ts_tanh(BIAS ? fmaf(0.5f, tg, hbg) : 0.5f * tg);  // tanh((tg + b_g) / 2)
                v[hh][e] = fmaf(hm[hh], th, hm[hh]) * (BIAS ? tp + bp : tp);
            }
        }
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {  // round to nearest, as __float2bfloat16 of each: the same bits
            const __nv_bfloat162 w = __floats2bfloat162_rn(v[hh][0], v[hh][1]);
            o[2 * q + hh] = *reinterpret_cast<const uint32_t *>(&w);
        }
    }
}

// Tile j's gated channels (tsw_gate) of the warp's 16 positions (first rw0) via st (32, TSW_SO),
// written by two stmatrix.trans (the staging's rows are channels), into out rows cbase..,
// 16-byte runs where a.vec.
template <bool BIAS = true>
__device__ __forceinline__ void tsw_epilogue(const float (&acc)[32], const float (&m)[2], const ts_args &a, int j,
                                             bf16 *st, int64_t rw0) {
    const int lane = threadIdx.x & 31;
    uint32_t o[8];
    tsw_gate<BIAS>(acc, m, a, j, o);
    tsw_stsm4t(tsw_cm_row<TSW_SO>(st, 0), o);
    tsw_stsm4t(tsw_cm_row<TSW_SO>(st, 1), o + 4);
    __syncwarp();
    bf16 *out = j < a.nct ? a.out[0] : a.out[1];
    const int cbase = (j % a.nct) * 32;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 32 channels x 2 runs of 8 positions
        const int i = lane + 32 * it, ch = tsw_ch(i), h8 = 8 * (i & 1);
        const int64_t p = rw0 + h8;
        if (cbase + ch >= a.C || p >= a.M) continue;
        const bf16 *s = st + ch * TSW_SO + h8;
        bf16 *d = out + (int64_t)(cbase + ch) * a.M + p;
        if (a.vec) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && p + e < a.M; e++) d[e] = s[e];
    }
    __syncwarp();  // st read before the next tile's writes
}

// dS (C, M) of column tile j (channels 32 j.., the warp's 16 positions from rw0) into ds
// (32, TSW_SO); zeros past C and M. 16-byte cp.async where a.vec (not committed:
// the caller commits), else plain loads.
__device__ __forceinline__ void tsw_fetch_ds(bf16 *ds, const ts_args &a, const bf16 *dS, int j, int64_t rw0) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 32 channels x 2 runs of 8 positions
        const int i = lane + 32 * it, c = tsw_ch(i), ch = 32 * j + c, h8 = 8 * (i & 1);
        const int64_t p = rw0 + h8;
        const int in = ch < a.C;
        bf16 *d = ds + c * TSW_SO + h8;
        const bf16 *src = dS + (int64_t)(in ? ch : 0) * a.M + p;
        if (a.vec) {
            const int ok = in && p < a.M;
            fa_cp16z(d, ok ? src : dS, ok ? 16 : 0);
        } else {
            for (int e = 0; e < 8; e++) d[e] = in && p + e < a.M ? src[e] : __float2bfloat16(0.f);
        }
    }
}

// d tp = dS m s, d tg = dS m tp s (1 - s) of the warp's 16 positions x 32 channels from
// acc (bias: the tile's packed bias or NULL) and the warp's dS tile st, bf16 into go
// (16, TSW_GO): row g + 8 hh, [d tp of channels 0..31 | d tg of 0..31]. fd: the same
// bf16 pairs as wgmma A fragments of the product over the tile's 64 packed rows (k16
// chunk q: rows 16 q.., p then g of channels 8 q..; the accumulator's columns, so
// registers 8 q .. 8 q + 7 of acc: FlashAttention-3's P -> A reuse). BIAS false: bias is NULL
// (as tsw_epilogue's). dS read by two ldmatrix.trans (tsw_cm_row: the lane's own pairs).
template <bool BIAS = true>
__device__ __forceinline__ void tsw_dgrad(const float (&acc)[32], const float (&m)[2], const float *bias,
                                          const bf16 *st, bf16 *go, uint32_t (&fd)[4][4]) {
    const int lane = threadIdx.x & 31, t = lane & 3;
    uint32_t dsp[8];  // register 2 q + hh: dS of channels 8 q + 2 t, + 1 at row g + 8 hh
    ts_ldsm4t(dsp, tsw_cm_row<TSW_SO>(st, 0));
    ts_ldsm4t(dsp + 4, tsw_cm_row<TSW_SO>(st, 1));
#pragma unroll
    for (int q = 0; q < 4; q++) {
        float bp[2], hbg[2];
#pragma unroll
        for (int e = 0; e < 2; e++) {
            const int col = 16 * q + 2 * t + e;
            bp[e] = BIAS && bias ? __ldg(bias + col) : 0.f;
            hbg[e] = BIAS && bias ? 0.5f * __ldg(bias + col + 8) : 0.f;
        }
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            float dp[2], dg[2];
            const __nv_bfloat162 dsq = *reinterpret_cast<const __nv_bfloat162 *>(&dsp[2 * q + hh]);
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const float tg = acc[8 * q + 4 + 2 * hh + e];
                float tp = BIAS ? acc[8 * q + 2 * hh + e] + bp[e] : acc[8 * q + 2 * hh + e];
                float s = fmaf(0.5f, ts_tanh(BIAS ? fmaf(0.5f, tg, hbg[e]) : 0.5f * tg), 0.5f);
                float d = __bfloat162float(e ? dsq.y : dsq.x) * m[hh];
                dp[e] = d * s;
                dg[e] = d * tp * s * (1.f - s);
            }
            __nv_bfloat162 wp = __floats2bfloat162_rn(dp[0], dp[1]), wg = __floats2bfloat162_rn(dg[0], dg[1]);
            fd[q][hh] = *reinterpret_cast<const uint32_t *>(&wp);
            fd[q][2 + hh] = *reinterpret_cast<const uint32_t *>(&wg);
        }
        // fd[q]'s 4 registers are 4 8 x 8 matrices of go (rows g + 8 hh; d tp, then d tg, channels 8 q..):
        // stmatrix (not transposed), lanes 8 k .. 8 k + 7 giving matrix k's rows
        tsw_stsm4(go + ((lane & 7) + 8 * ((lane >> 3) & 1)) * TSW_GO + 8 * q + 32 * (lane >> 4), fd[q]);
    }
}

// go (16 positions from rw0, [d tp | d tg] of channels ch0..ch0 + 31) into dp, dg (M, C;
// rows ld apart), 16-byte runs where vec_out.
__device__ __forceinline__ void tsw_store_dgrad(const ts_args &a, const bf16 *go, bf16 *dp, bf16 *dg, int64_t ld,
                                                int ch0, int64_t rw0) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 4; it++) {  // 16 rows x [4 runs of d tp | 4 of d tg]
        const int i = lane + 32 * it, row = i >> 3, seg = (i >> 2) & 1, c8 = 8 * (i & 3), ch = ch0 + c8;
        const int64_t p = rw0 + row;
        if (p >= a.M || ch >= a.C) continue;
        const bf16 *s = go + row * TSW_GO + 32 * seg + c8;
        bf16 *d = a.tiled ? a.tpg + tm_gdw_off(p, a.tiled_col0 + seg * a.C + ch) : (seg ? dg : dp) + p * ld + ch;
        if (a.vec_out) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && ch + e < a.C; e++) d[e] = s[e];
    }
}

// The warpgroup's 64 zl rows from pos0 into xs (zeros past M and c_z) by its 128 threads
// (tid), cp.async, not committed (the caller commits).
template <int KP>
__device__ __forceinline__ void tswp_load_rows(bf16 *xs, const bf16 *x, int c, int64_t M, int64_t pos0, int tid) {
    constexpr int n = 64 * (KP / 8), rs = 128 / (KP / 8);
    static_assert(n % 128 == 0 && 128 % (KP / 8) == 0, "KP 16..128");
    const int r = tid / (KP / 8), k = tid % (KP / 8), kin = k < c / 8;
    const bf16 *src = x + (pos0 + r) * c + k * 8;
    bf16 *dst = xs + r * (KP + TS_PAD) + k * 8;
#pragma unroll
    for (int it = 0; it < n / 128; it++) {
        int ok = kin && pos0 + r + it * rs < M;
        fa_cp16z(dst + it * rs * (KP + TS_PAD), ok ? src + (int64_t)it * rs * c : x, ok ? 16 : 0);
    }
}

// The warpgroup's barrier (named barrier 1 + wg, its 128 threads).
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ void tswp_wg_sync(int wg) { asm volatile("bar.sync %0, 128;\n" ::"r"(1 + wg) : "memory"); }
#endif

// acc = af (the warp's 16 positions x KP) times column tile j of the weight w (64 rows x KP,
// trwg_off layout: LBO 128 B, SBO 16 KP B), issued and committed, not waited for:
// tw_ring_product's instructions.
template <int KP>
__device__ __forceinline__ void tswp_issue(float (&acc)[32], const uint32_t (&af)[KP / 16][4],
                                           const unsigned char *w, int j) {
    __syncwarp();  // converged for the .aligned wgmma instructions
    const uint64_t d = s9_desc(w + (int64_t)j * 64 * KP * 2, 128, KP * 16);
    s9_wg_fence();  // acc last read by an epilogue: ordered before the MMA writes it
    wg_n64_first(acc, af[0], d);
#pragma unroll
    for (int kk = 1; kk < KP / 16; kk++) s9_wg_n64(acc, af[kk], d + ((kk * 256) >> 4), 1);
    s9_wg_commit();
}
#endif
