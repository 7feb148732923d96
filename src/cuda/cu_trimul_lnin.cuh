// cu_trimul_lnin.cuh: PF_TRIMUL_LNIN's LayerNorm of z rows held in shared memory, the prologue
// of the forward sides kernels (k_tm_sides_wg<KP, false, true>, cu_trimul_side_wg.cu: 128 rows,
// 8 warps; k_tm_sides_wgp<KP, true>, cu_trimul_side_wgp.cu: a warpgroup's 64 rows, 4 warps).
// One row's arithmetic does not depend on which warp takes it, so both kernels' zl (and A, B)
// are the bits of the LayerNorm kernel cu_ln_fwd would launch.
#ifndef PF_CU_TRIMUL_LNIN_CUH
#define PF_CU_TRIMUL_LNIN_CUH
#include "cu_trimul_side.cuh"
#include "cu_lnv.cuh"

// c_z = KP in {32, 64, 128}: the ROWS z rows in xs (from position pos0) LayerNormed in place
// by NWARP warps (this one: warp) with k_ln_fwd_v's arithmetic and mapping per row (LPR = KP / 8
// lanes, 8 channels each, lnv_stats, fp32 (x - mu) rs w + b rounded once to bf16), so zl is
// cu_ln_fwd's bits; written to a.zl_out (and z to a.cp where set) as 16-byte runs. ROWS = a
// whole number of passes of NWARP warps x 32 / LPR rows: every lane runs the same trip count
// (the shuffles). Rows past M: LayerNormed zeros in xs (never stored), nothing written out.
template <int KP, int ROWS, int NWARP>
__device__ __forceinline__ void tsw_ln_vec(const ts_args &a, bf16 *xs, int64_t pos0, int warp) {
    constexpr int LPR = KP / 8, RPW = 32 / LPR, PASS = NWARP * RPW, SK = KP + TS_PAD;
    static_assert(ROWS % PASS == 0, "uniform trip count");
    const int lane = threadIdx.x & 31, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = a.ln_w[c0 + j], br[j] = a.ln_b[c0 + j];
    for (int r = warp * RPW + lane / LPR; r < ROWS; r += PASS) {
        const int64_t row = pos0 + r;
        const bool ok = row < a.M;
        float v[8], mu, rs;
        uint4 *x16 = reinterpret_cast<uint4 *>(xs + (int64_t)r * SK + c0);
        const uint4 zr = *x16;
        if (a.cp && ok) stg16(a.cp + row * KP + c0, zr);  // z's bits as loaded
        unpack8(zr, v);
        lnv_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = (v[j] - mu) * rs * wr[j] + br[j];
        const uint4 y = pack8(v);  // one rounding for zl and the A operand: the same bits
        if (ok) stg16(a.zl_out + row * KP + c0, y);  // (st8's cast store came out as 4 x 4 bytes here)
        *x16 = y;
    }
}

// Other c_z (8..128, a multiple of 8): cu_prim.cu's k_ln_fwd<CPL> per row (one warp per row,
// lane channels lane + 32 j, ln_stats; CPL = LN_SWITCH's for c_z), in place, the ROWS rows
// of xs shared by NWARP warps (this one: warp); 2-byte stores (small c_z: test sizes). Rows
// past M stay zero; columns past c_z stay zero (the product's padding).
template <int KP, int ROWS, int NWARP>
__device__ __forceinline__ void tsw_ln_row(const ts_args &a, bf16 *xs, int64_t pos0, int warp) {
    constexpr int CPL = (KP + 31) / 32, SK = KP + TS_PAD;
    const int lane = threadIdx.x & 31, C = a.c_z;
    float wr[CPL], br[CPL];
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        const int ch = lane + 32 * j;
        wr[j] = ch < C ? a.ln_w[ch] : 0.f;
        br[j] = ch < C ? a.ln_b[ch] : 0.f;
    }
    for (int r = warp; r < ROWS && pos0 + r < a.M; r += NWARP) {
        const int64_t row = pos0 + r;
        bf16 *x = xs + r * SK;
        float v[CPL], mu, rs;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            const int ch = lane + 32 * j;
            v[j] = ch < C ? __bfloat162float(x[ch]) : 0.f;
            if (a.cp && ch < C) a.cp[row * C + ch] = x[ch];
        }
        ln_stats<CPL>(v, C, lane, mu, rs);
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            const int ch = lane + 32 * j;
            if (ch >= C) continue;
            const bf16 y = __float2bfloat16((v[j] - mu) * rs * wr[j] + br[j]);
            a.zl_out[row * C + ch] = y;
            x[ch] = y;
        }
    }
}

// Either of the two for the ROWS rows (the kernels' choice: a.ln_vec where c_z = KP >= 32).
template <int KP, int ROWS, int NWARP>
__device__ __forceinline__ void tsw_ln_rows(const ts_args &a, bf16 *xs, int64_t pos0, int warp) {
    if constexpr (KP >= 32) {
        if (a.ln_vec) tsw_ln_vec<KP, ROWS, NWARP>(a, xs, pos0, warp);
        else tsw_ln_row<KP, ROWS, NWARP>(a, xs, pos0, warp);
    } else {
        tsw_ln_row<KP, ROWS, NWARP>(a, xs, pos0, warp);
    }
}
#endif
