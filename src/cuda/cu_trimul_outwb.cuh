// cu_trimul_outwb.cuh: k_tm_outbw's device pieces (cu_trimul_outwb.cu's header comment has the phases P1-P5
// and both forms, <2> and <3>): the stores of fragment pairs, the gate's backward, the products, LN_out's
// backward, the parameter sums. Also used by the fused-dW_z form (cu_trimul_outwd.cu).
#ifndef PF_CU_TRIMUL_OUTWB_CUH
#define PF_CU_TRIMUL_OUTWB_CUH
#include "cu_trimul_outw.cuh"
#include "cu_small.cuh"

#if S9_HAVE_WGMMA

// The warp's rows r0 + g, + 8 of dst (M, 128): per row 16 pairs, pair J (bf16x2 bits pair(h, J)) at
// channels 8 J + 2 t, + 1 (a quad's run of 16 bytes per J: the A fragments' and the N-major products'
// channels); rows past M not stored.
// (J0, NJ: pairs J0 .. J0 + NJ - 1 only.)
template <int J0 = 0, int NJ = 16, typename F>
__device__ __forceinline__ void ow_store_pairs(bf16 *dst, int64_t M, int64_t r0, F pair) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int64_t p = r0 + (lane >> 2) + 8 * h;
        if (p >= M) continue;
        bf16 *d = dst + p * OW_C + 2 * (lane & 3);
#pragma unroll
        for (int J = J0; J < J0 + NJ; J++) *reinterpret_cast<uint32_t *>(d + 8 * J) = pair(h, J);
    }
}

// Tile jt's gate backward (t3_gate, t3_gate_bwd: k_tm_out3's arithmetic) of the warp's rows r0 + g, + 8
// (rows `row` + .. of the d out staging ds): d g and d y of channels 64 jt + 16 t .. + 15 stored (two
// 16-byte stores each per row; rows past M not) and kept as A fragments over the tile's packed rows:
// fg[q], fy[q] = the pairs of accumulator columns 16 q .. 16 q + 15.
__device__ __forceinline__ void ow_gate_bwd(const ow_args &a, const float (&ay)[32], const float (&ag)[32],
                                            const bf16 *ds, const float *bias, int jt, int row, int64_t r0,
                                            uint32_t (&fg)[4][4], uint32_t (&fy)[4][4]) {
    const int lane = threadIdx.x & 31, c0 = 64 * jt + 16 * (lane & 3);
    const float *bz = bias + c0, *bg = bias + OW_C + c0;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int rr = row + (lane >> 2) + 8 * h;
        const int64_t p = r0 + (lane >> 2) + 8 * h;
        const uint4 u0 = *reinterpret_cast<const uint4 *>(ds + rr * OW_ZS + c0);
        const uint4 u1 = *reinterpret_cast<const uint4 *>(ds + rr * OW_ZS + c0 + 8);
        const uint32_t du[8] = {u0.x, u0.y, u0.z, u0.w, u1.x, u1.y, u1.z, u1.w};
        uint32_t dg[8], dy[8];
#pragma unroll
        for (int j = 0; j < 8; j++)
            t3_gate_bwd(t3_gate(ay[4 * j + 2 * h], ay[4 * j + 2 * h + 1], ag[4 * j + 2 * h], ag[4 * j + 2 * h + 1],
                                bz + 2 * j, bg + 2 * j),
                        du[j], dg[j], dy[j]);
        if (p < a.M) {
            bf16 *g8 = a.dgp + p * OW_C + c0, *y8 = a.dy + p * OW_C + c0;  // stg16: cast stores came out as 4 x 4 B
            stg16(g8, make_uint4(dg[0], dg[1], dg[2], dg[3])), stg16(g8 + 8, make_uint4(dg[4], dg[5], dg[6], dg[7]));
            stg16(y8, make_uint4(dy[0], dy[1], dy[2], dy[3])), stg16(y8 + 8, make_uint4(dy[4], dy[5], dy[6], dy[7]));
        }
#pragma unroll
        for (int q = 0; q < 4; q++) fg[q][h] = dg[2 * q], fg[q][2 + h] = dg[2 * q + 1], fy[q][h] = dy[2 * q], fy[q][2 + h] = dy[2 * q + 1];
    }
}

// Half q of ow_gate_bwd (its arithmetic for pairs j = 4 q .. 4 q + 3: channels 64 jt + 16 t + 8 q .. + 7,
// one 16-byte store of d g and of d y per row), the pairs into fg, fy where ow_gate_bwd puts them. (Not
// shared with ow_gate_bwd through one template: that changed k_tm_outbw<2>'s machine code, session 40.)
__device__ __forceinline__ void ow_gate_bwd_half(const ow_args &a, const float (&ay)[16], const float (&ag)[16],
                                                 const bf16 *ds, const float *bias, int jt, int q, int row, int64_t r0,
                                                 uint32_t (&fg)[4][4], uint32_t (&fy)[4][4]) {
    const int lane = threadIdx.x & 31, c0 = 64 * jt + 16 * (lane & 3) + 8 * q;
    const float *bz = bias + c0, *bg = bias + OW_C + c0;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int rr = row + (lane >> 2) + 8 * h;
        const int64_t p = r0 + (lane >> 2) + 8 * h;
        const uint4 u0 = *reinterpret_cast<const uint4 *>(ds + rr * OW_ZS + c0);
        const uint32_t du[4] = {u0.x, u0.y, u0.z, u0.w};
        uint32_t dg[4], dy[4];
#pragma unroll
        for (int i = 0; i < 4; i++)
            t3_gate_bwd(t3_gate(ay[4 * i + 2 * h], ay[4 * i + 2 * h + 1], ag[4 * i + 2 * h], ag[4 * i + 2 * h + 1],
                                bz + 2 * i, bg + 2 * i),
                        du[i], dg[i], dy[i]);
        if (p < a.M) {
            stg16(a.dgp + p * OW_C + c0, make_uint4(dg[0], dg[1], dg[2], dg[3]));  // (a cast store: 4 x 4 bytes)
            if (a.dy)  // k_tm_outbw_dwz: d y stays in shared memory
                stg16(a.dy + p * OW_C + c0, make_uint4(dy[0], dy[1], dy[2], dy[3]));
        }
#pragma unroll
        for (int i = 0; i < 4; i++) fg[2 * q + (i >> 1)][2 * (i & 1) + h] = dg[i], fy[2 * q + (i >> 1)][2 * (i & 1) + h] = dy[i];
    }
}

// acc (the warpgroup's 64 positions x channels 64 nb ..) = f (A: both tiles' packed rows as K) times the
// weight tiles wt (jt = 0, 1) read N-major: 8 wgmma, issued, not committed.
__device__ __forceinline__ void ow_dx_product_nb(float (&acc)[32], const uint32_t (&f)[2][4][4], const unsigned char *wt,
                                                 int nb) {
#pragma unroll
    for (int jt = 0; jt < 2; jt++) {
        const uint64_t d0 = s9_desc(wt + jt * OW_WT * 2, OW_C * 16, 128);
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const uint64_t d = d0 + ((q * 32 * OW_C + nb * 64 * 16) >> 4);
            if (jt == 0 && q == 0) wg_n64_tb_first(acc, f[0][0], d);
            else wg_n64_tb(acc, f[jt][q], d);
        }
    }
}
// Both channel tiles: 16 wgmma.
__device__ __forceinline__ void ow_dx_product(float (&acc)[2][32], const uint32_t (&f)[2][4][4], const unsigned char *wt) {
#pragma unroll
    for (int nb = 0; nb < 2; nb++) ow_dx_product_nb(acc[nb], f, wt, nb);
}

// The 64 sums v (slot s < 32: dxl xhat of the thread's channel slot s, s >= 32: dxl of slot s - 32) over the
// 8 lanes that hold the same channels (lane bits 2..4), reduce-scatter: per step (xor 16, 8, 4) a lane keeps
// the half its bit names and adds its partner's; acc8 += the 8 left: kind (lane >> 4) & 1, slots 16 ((lane
// >> 3) & 1) + 8 ((lane >> 2) & 1) + i.
__device__ __forceinline__ void ow_param_sums(float (&v)[64], float (&acc8)[8]) {
    const int lane = threadIdx.x & 31;
    const bool b4 = lane & 16, b3 = lane & 8, b2 = lane & 4;
#pragma unroll
    for (int i = 0; i < 32; i++)
        v[i] = (b4 ? v[32 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b4 ? v[i] : v[32 + i], 16);
#pragma unroll
    for (int i = 0; i < 16; i++)
        v[i] = (b3 ? v[16 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b3 ? v[i] : v[16 + i], 8);
#pragma unroll
    for (int i = 0; i < 8; i++)
        acc8[i] += (b2 ? v[8 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b2 ? v[i] : v[8 + i], 4);
}
// The channel of slot s (0..31) of this thread: the X fragments' 16 kk + 8 u + 2 t + e, s = 4 kk + 2 u + e.
__device__ __forceinline__ int ow_slot_ch(int s) { return 16 * (s >> 2) + 8 * ((s >> 1) & 1) + 2 * (threadIdx.x & 3) + (s & 1); }

// LEAN form's (k_tm_outbw<3>) sums of one kind: the 32 slot sums over the 8 lanes of the same channels
// reduced as channel groups complete, in order: ow_rs_step (xor 4) on groups 2 m and 2 m + 1 (slots 8 m ..
// 8 m + 7: lane bit 2 keeps one half), then ow_rs_rest's xor 8 and xor 16 steps; acc4[i] += slot 16 ((lane
// >> 3) & 1) + 8 ((lane >> 4) & 1) + 4 ((lane >> 2) & 1) + i. (Another order than ow_param_sums': these
// sums follow the grid anyway.)
__device__ __forceinline__ void ow_rs_step(const float *lo, const float *hi, float *out) {
    const bool b = threadIdx.x & 4;
#pragma unroll
    for (int i = 0; i < 4; i++) out[i] = (b ? hi[i] : lo[i]) + __shfl_xor_sync(0xffffffffu, b ? lo[i] : hi[i], 4);
}
__device__ __forceinline__ void ow_rs_rest(float (&v)[16], float *acc4) {
    const int lane = threadIdx.x & 31;
    const bool b3 = lane & 8, b4 = lane & 16;
#pragma unroll
    for (int i = 0; i < 8; i++)
        v[i] = (b3 ? v[8 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b3 ? v[i] : v[8 + i], 8);
#pragma unroll
    for (int i = 0; i < 4; i++)
        acc4[i] += (b4 ? v[4 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b4 ? v[i] : v[4 + i], 16);
}

// LN_out's backward per element (k_tm_ln_cm_bwd's arithmetic): x, g = dxl (bf16-rounded), wc = LN_out's
// weight of the channel, mu, rs of the row. ow_lnb_sums: the row sums s1 += g wc, s2 += xhat g wc and
// returns xhat (xhat g is the weight gradient's term); ow_lnb_out: dX = rs (g wc - m1 - xhat m2).
__device__ __forceinline__ float ow_lnb_sums(float x, float g, float wc, float mu, float rs, float &s1, float &s2) {
    const float xh = __fmul_rn(__fsub_rn(x, mu), rs), dxh = __fmul_rn(g, wc);
    s1 = __fadd_rn(s1, dxh);
    s2 = __fmaf_rn(xh, dxh, s2);
    return xh;
}
__device__ __forceinline__ float ow_lnb_out(float x, float g, float wc, float mu, float rs, float m1, float m2) {
    const float xh = __fmul_rn(__fsub_rn(x, mu), rs);
    const float tt = __fmaf_rn(-xh, m2, __fmaf_rn(g, wc, -m1));  // g w - s1 - xh s2
    return __fmaf_rn(rs, tt, 0.f);
}

// P5 (k_tm_outbw<2>): LN_out's backward of the warp's two rows (mu, rs from P1) from dx (acc) and X's
// staging xs (re-read), dX written into xs in place (the warp's 16 positions of every channel: no other
// warp's); acc8 += the parameter sums (ow_param_sums).
__device__ __forceinline__ void ow_ln_bwd(bf16 *xs, const float (&acc)[2][32], const float (&mu)[2], const float (&rs)[2],
                                          const float *lnw, int w, float (&acc8)[8]) {
    const int lane = threadIdx.x & 31, t = lane & 3;
    uint32_t xf[8][4];
    ow_x_frags(xf, xs, w);
    float s1[2] = {0.f, 0.f}, s2[2] = {0.f, 0.f}, v[64];
#pragma unroll
    for (int s = 0; s < 64; s++) v[s] = 0.f;
#pragma unroll
    for (int kk = 0; kk < 8; kk++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const float2 wv = *reinterpret_cast<const float2 *>(lnw + 16 * kk + 8 * u + 2 * t);
            const int nb = kk >> 2, j = 2 * (kk & 3) + u;
#pragma unroll
            for (int h = 0; h < 2; h++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const float x = e ? t3_hi(xf[kk][2 * u + h]) : t3_lo(xf[kk][2 * u + h]);
                    const float g = __bfloat162float(__float2bfloat16(acc[nb][4 * j + 2 * h + e]));
                    const float xh = ow_lnb_sums(x, g, e ? wv.y : wv.x, mu[h], rs[h], s1[h], s2[h]);
                    const int s = 4 * kk + 2 * u + e;
                    v[s] = __fmaf_rn(xh, g, v[s]);
                    v[32 + s] = __fadd_rn(v[32 + s], g);
                }
        }
    float m1[2], m2[2];
#pragma unroll
    for (int h = 0; h < 2; h++) m1[h] = ow_quad_sum(s1[h]) / OW_C, m2[h] = ow_quad_sum(s2[h]) / OW_C;
#pragma unroll
    for (int kk = 0; kk < 8; kk++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const float2 wv = *reinterpret_cast<const float2 *>(lnw + 16 * kk + 8 * u + 2 * t);
            const int nb = kk >> 2, j = 2 * (kk & 3) + u;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                float o[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const float x = e ? t3_hi(xf[kk][2 * u + h]) : t3_lo(xf[kk][2 * u + h]);
                    const float g = __bfloat162float(__float2bfloat16(acc[nb][4 * j + 2 * h + e]));
                    o[e] = ow_lnb_out(x, g, e ? wv.y : wv.x, mu[h], rs[h], m1[h], m2[h]);
                }
                xf[kk][2 * u + h] = fa_pack2(o[0], o[1]);
            }
        }
    ow_param_sums(v, acc8);
    const bf16 *xp = xs + ((lane & 7) + 8 * (lane >> 4)) * OW_XS + 16 * w + 8 * ((lane >> 3) & 1);
#pragma unroll
    for (int kk = 0; kk < 8; kk++) tsw_stsm4t(xp + 16 * kk * OW_XS, xf[kk]);
}

// P5 of k_tm_outbw<3> (168 registers): ow_ln_bwd's arithmetic per element and its row sums' order (the
// same dX bits) with fewer registers live: dxl as rounded pairs dxp[nb][2 j + h] (packed after its
// products), X's fragments loaded and dX's stored per channel group kk in each loop (4 registers, not
// 32), each pair of groups' first reduce-scatter step taken as it completes, the dxl sums after the
// stores; acc8[0..3] the dxl xhat sums, acc8[4..7] the dxl ones, of ow_rs_rest's slots.
__device__ __forceinline__ void ow_ln_bwd_lean(bf16 *xs, const uint32_t (&dxp)[2][16], const float (&mu)[2],
                                               const float (&rs)[2], const float *lnw, int w, float (&acc8)[8]) {
    const int lane = threadIdx.x & 31, t = lane & 3;
    const bf16 *xp = xs + ((lane & 7) + 8 * (lane >> 4)) * OW_XS + 16 * w + 8 * ((lane >> 3) & 1);
    auto gv = [&](int kk, int u, int h, int e) {
        const uint32_t p = dxp[kk >> 2][2 * (2 * (kk & 3) + u) + h];
        return e ? t3_hi(p) : t3_lo(p);
    };
    float s1[2] = {0.f, 0.f}, s2[2] = {0.f, 0.f}, v[16];
#pragma unroll
    for (int m = 0; m < 4; m++) {
        float vk[2][4];  // groups 2 m, 2 m + 1: slot 2 u + e
#pragma unroll
        for (int half = 0; half < 2; half++) {
            const int kk = 2 * m + half;
            uint32_t xk[4];
            ts_ldsm4t(xk, xp + 16 * kk * OW_XS);
#pragma unroll
            for (int i = 0; i < 4; i++) vk[half][i] = 0.f;
#pragma unroll
            for (int u = 0; u < 2; u++) {
                const float2 wv = *reinterpret_cast<const float2 *>(lnw + 16 * kk + 8 * u + 2 * t);
#pragma unroll
                for (int h = 0; h < 2; h++)
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const float x = e ? t3_hi(xk[2 * u + h]) : t3_lo(xk[2 * u + h]), g = gv(kk, u, h, e);
                        const float xh = ow_lnb_sums(x, g, e ? wv.y : wv.x, mu[h], rs[h], s1[h], s2[h]);
                        vk[half][2 * u + e] = __fmaf_rn(xh, g, vk[half][2 * u + e]);
                    }
            }
        }
        ow_rs_step(vk[0], vk[1], v + 4 * m);
    }
    ow_rs_rest(v, acc8);
    float m1[2], m2[2];
#pragma unroll
    for (int h = 0; h < 2; h++) m1[h] = ow_quad_sum(s1[h]) / OW_C, m2[h] = ow_quad_sum(s2[h]) / OW_C;
#pragma unroll
    for (int kk = 0; kk < 8; kk++) {
        uint32_t xk[4];
        ts_ldsm4t(xk, xp + 16 * kk * OW_XS);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const float2 wv = *reinterpret_cast<const float2 *>(lnw + 16 * kk + 8 * u + 2 * t);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                float o[2];
#pragma unroll
                for (int e = 0; e < 2; e++)
                    o[e] = ow_lnb_out(e ? t3_hi(xk[2 * u + h]) : t3_lo(xk[2 * u + h]), gv(kk, u, h, e), e ? wv.y : wv.x,
                                      mu[h], rs[h], m1[h], m2[h]);
                xk[2 * u + h] = fa_pack2(o[0], o[1]);
            }
        }
        tsw_stsm4t(xp + 16 * kk * OW_XS, xk);
    }
#pragma unroll
    for (int m = 0; m < 4; m++) {  // the dxl sums: each slot's two rows in order, as ow_ln_bwd's
        float vk[2][4];
#pragma unroll
        for (int half = 0; half < 2; half++)
#pragma unroll
            for (int u = 0; u < 2; u++)
#pragma unroll
                for (int e = 0; e < 2; e++)
                    vk[half][2 * u + e] = __fadd_rn(__fadd_rn(0.f, gv(2 * m + half, u, 0, e)), gv(2 * m + half, u, 1, e));
        ow_rs_step(vk[0], vk[1], v + 4 * m);
    }
    ow_rs_rest(v, acc8 + 4);
}

// P2 of k_tm_outbw<3>: a half tile (32 channels) at a time, 32 accumulator registers live, not 128; the g
// products' A is zl's staging zs by descriptor.
__device__ __forceinline__ void ow_p2_halves(const ow_args &a, const uint32_t (&xf)[8][4], const bf16 *zs, const bf16 *ds,
                                             const float *bias, int w, int64_t r0, uint32_t (&fg)[2][4][4],
                                             uint32_t (&fy)[2][4][4], const unsigned char *sm) {
    ow_halves(xf, zs, sm, [&](const float (&ay)[16], const float (&ag)[16], int jt, int q) {
        ow_gate_bwd_half(a, ay, ag, ds, bias, jt, q, 16 * w, r0, fg[jt], fy[jt]);
    });
}
// P4 of k_tm_outbw<3> and k_tm_outbw_dwz: one channel tile of one product at a time (32 accumulator
// registers live, not 128), dzl stored; dxl's rounded pairs into dxp[nb][2 j + h] right away (fa_pack2:
// the rounding ow_ln_bwd applies per element) for ow_ln_bwd_lean (P5).
__device__ __forceinline__ void ow_p4_lean(const ow_args &a, const uint32_t (&fg)[2][4][4], const uint32_t (&fy)[2][4][4],
                                           int64_t r0, uint32_t (&dxp)[2][16], const unsigned char *sm) {
#pragma unroll
    for (int nb = 0; nb < 2; nb++) {
        float dz[32];
        __syncwarp();
        s9_wg_fence();  // the A fragments (and the last accumulator reads) before the products
        ow_dx_product_nb(dz, fg, sm + 2 * OW_WT * 2, nb);
        s9_wg_commit();
        wg_mma_wait<0>();
        s9_wg_hold<32>(dz);
        auto pair = [&](int h, int J) { return fa_pack2(dz[4 * (J & 7) + 2 * h], dz[4 * (J & 7) + 2 * h + 1]); };
        if (nb == 0) ow_store_pairs<0, 8>(a.dzl, a.M, r0, pair);
        else ow_store_pairs<8, 8>(a.dzl, a.M, r0, pair);
    }
#pragma unroll
    for (int nb = 0; nb < 2; nb++) {
        float dx[32];
        __syncwarp();
        s9_wg_fence();
        ow_dx_product_nb(dx, fy, sm + 0 * OW_WT * 2, nb);
        s9_wg_commit();
        wg_mma_wait<0>();
        s9_wg_hold<32>(dx);
#pragma unroll
        for (int i = 0; i < 16; i++) dxp[nb][i] = fa_pack2(dx[2 * i], dx[2 * i + 1]);
    }
}
// The block's LN_out parameter sums (red: warpgroup 0's X buffers, (warps, 2, 128) floats) over its warps
// in order into a.part[blockIdx.x]; after every warpgroup's last tile.
template <int NWG>
__device__ __forceinline__ void ow_block_sums(const ow_args &a, const float (&acc8)[8], float *red) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (NWG == 2) {  // ow_param_sums' lanes: kind (lane >> 4) & 1, slots s0 + i
        const int kind = (lane >> 4) & 1, s0 = 16 * ((lane >> 3) & 1) + 8 * ((lane >> 2) & 1);
#pragma unroll
        for (int i = 0; i < 8; i++) red[(warp * 2 + kind) * OW_C + ow_slot_ch(s0 + i)] = acc8[i];
    } else {  // ow_rs_rest's: both kinds, slots s0 + i
        const int s0 = 16 * ((lane >> 3) & 1) + 8 * ((lane >> 4) & 1) + 4 * ((lane >> 2) & 1);
#pragma unroll
        for (int i = 0; i < 4; i++)
            red[warp * 2 * OW_C + ow_slot_ch(s0 + i)] = acc8[i], red[(warp * 2 + 1) * OW_C + ow_slot_ch(s0 + i)] = acc8[4 + i];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * OW_C; i += blockDim.x) {
        float s = 0.f;
        for (int u = 0; u < 4 * NWG; u++) s += red[u * 2 * OW_C + i];
        a.part[(int64_t)blockIdx.x * 2 * OW_C + i] = s;
    }
}

#endif

#endif
