// cu_trimul_outb.cu: the triangle multiplication's output part with LN_out as one kernel per pass
// (PF_TRIMUL_OUTB; docs/TRIMUL.md "Session 36"): k_tm_outf (forward), k_tm_outb (backward).
//
// Why: the output part's backward was the module's largest byte user. Per row piece it ran
// LN_out's recompute (X read, xl written), k_tm_out3's backward (xl, zl, d out read; d g, d y
// written), two dx GEMMs (dzl = d g W_g, dxl = d y W_z: each reads its gradient and writes a
// z-sized result) and LN_out's backward (X, dxl read, dX written): 15 z-sized passes before
// the weight gradients, ~1.2 ms f+b at N = 1024 (ncu, session 34). k_tm_outb keeps a tile of
// positions in shared memory through all of it: X (channel-major) is read once, the products'
// gradients pass from k_tm_out3's epilogue into the dx products through shared memory, dxl never
// leaves the SM: 8 passes (X, zl, d out read; xl, d y, d g, dzl, dX written). The weight
// gradients stay cuBLASLt GEMMs on the stored xl, d y, d g. The forward, k_tm_outf, is P1 and
// P2 with k_tm_out3's forward epilogue: xl is not written (3 passes where the two kernels took 5).
//
// A persistent block of 16 warps (one per SM: 211 KB of shared memory) in TM teams
// (PF_TRIMUL_OUTB_TEAMS, default 2: 8 warps, tiles of 64 positions, own buffers and named
// barrier, so one team's LayerNorm phases overlap the other's products), per tile:
//   P1  LN_out of the tile from X's staging (a warp per 8 positions, a lane per channels
//       lane + 32 j: ln_stats' sums through ob_sum8 and k_tm_ln_cm_fwd's roundings: the same
//       xl bits) into a1, and xl out to global memory;
//   P2  y = xl W_z^T, g = zl W_g^T (k_tm_out3's products and epilogue arithmetic: the same
//       d g, d y bits), d g and d y stored, and kept in a2 / a1 in the packed rows' order;
//   P4  dzl = d g W_g, dxl = d y W_z (B by ldmatrix.trans from the same packed weight:
//       its rows are the K index, in the order d g / d y were kept), dzl stored;
//   P5  LN_out's backward per position (k_tm_ln_cm_bwd's arithmetic term for term, on dxl
//       rounded to bf16 as the GEMM stored it) into X's staging, stored channel-major.
// The next tile's X is in flight from the start of a tile, its zl from the end of P4. Tile rows
// past n are zeros (X, zl, d out), so everything made from them is finite and never stored.
// LN_out's parameter gradients: per thread over its tiles, per block over its warps in
// order, over blocks by k_tm_ln_parts: fixed order, the same bits every run on a device.
// Measured (H200, session 36): trimul f+b 5.77 -> 5.54 ms at N = 1024; what holds the kernels
// back is in docs/TRIMUL.md "Session 36".
#include "cu_trimul.cuh"
#include "cu_trimul_side.cuh"
#include "cu_trimul_out3.cuh"
#include "cu_env.cuh"
#include "cu_lnv.cuh"

#define OB_THREADS 512          // 16 warps: per team, P2 / P4 BT / 32 over positions x 4 over channels; P1 / P5 8 positions each
#define OB_BM 128               // positions per block step (a tile per team)
#define OB_C 128                // c = c_z
#define OB_SK (OB_C + TS_PAD)   // row stride (elements) of every shared tile: ldmatrix rows on distinct banks
#define OB_TILE (OB_BM * OB_SK) // elements of 128 rows of OB_SK (the packed weight is two)
// Shared memory (ob_t::SMEM): the packed weight (256 rows of OB_SK), per team X's staging x 2, a1, a2
// (bf16); the bias (256), LN_out's weight and bias (2 x 128), per position mean and 1 / std (2 x 128) (fp32).
// TM teams of 16 / TM warps per block (PF_TRIMUL_OUTB_TEAMS), each with its own tiles of OB_BM / TM
// positions, buffers and named barrier, so that one team's LayerNorm phases overlap the other's products.
template <int TM>
struct ob_t {
    static constexpr int BT = OB_BM / TM;          // positions per tile
    static constexpr int XS = BT + TS_PAD;         // X's staging row stride: 16-byte rows, the lanes' runs on distinct banks
    static constexpr int NT = OB_THREADS / TM;     // threads per team
    static constexpr int WM = BT / 32;             // warps over positions in the products (4 over channels)
    static constexpr int XT = 128 * XS;            // elements of one X staging tile (at least BT * OB_SK: it holds zl in k_tm_outf)
    static constexpr int RT = BT * OB_SK;          // elements of one row tile
    static constexpr int TEAM = 2 * XT + 2 * RT;   // a team's elements: X x 2, a1, a2
    static constexpr int SMEM = (int)(sizeof(bf16) * (2 * OB_TILE + TM * TEAM) + sizeof(float) * (256 + 256 + 256));
    static_assert(XT >= RT, "X's second buffer holds a zl tile in the forward");
    static_assert((TM < 4 ? RT : 2 * XT) * sizeof(bf16) >= 16 * 2 * OB_C * sizeof(float), "room for the partial sums");
};

struct ob_args {
    const bf16 *X;              // (128, ldx) channel-major: positions [0, M) of the piece
    bf16 *dX;                   // the same layout (may be X)
    int64_t ldx, M;
    const bf16 *zl, *dout;      // (M, 128)
    const bf16 *w;              // k_tm_out3's packed weight (2 tiles of [64 W_z | 64 W_g] rows, 128 deep)
    const float *bias;          // its packed bias (256)
    const float *ln_w, *ln_b;   // LN_out (128)
    bf16 *xl, *dy, *dgp, *dzl;  // (M, 128) outputs (backward)
    bf16 *out;                  // (M, 128) the forward's output
    float *part;                // (gridDim.x, 2, 128): sum dxl * xhat, sum dxl
};

// s (rows of OB_SK) -> rows [p0, p0 + BT) of x (M, 128), rows past M not stored.
template <int TM>
__device__ __forceinline__ void ob_store_rows(bf16 *x, const bf16 *s, int64_t M, int64_t p0, int tid) {
#pragma unroll
    for (int it = 0; it < 4; it++) {
        const int i = tid + it * ob_t<TM>::NT, r = i >> 4, k = i & 15;
        if (p0 + r < M)
            *reinterpret_cast<uint4 *>(x + (p0 + r) * OB_C + 8 * k) = *reinterpret_cast<const uint4 *>(s + r * OB_SK + 8 * k);
    }
}
// The 8 positions [8 w, 8 w + 8) of X's staging (rows of XS) at this lane's channels lane + 32 j: v[q][j].
template <int XS>
__device__ __forceinline__ void ob_read_x(const bf16 *xs, int w, int lane, float (&v)[8][4]) {
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint4 u = *reinterpret_cast<const uint4 *>(xs + (lane + 32 * j) * XS + 8 * w);
        const uint32_t q4[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
        for (int e = 0; e < 4; e++) v[2 * e][j] = t3_lo(q4[e]), v[2 * e + 1][j] = t3_hi(q4[e]);
    }
}

// The sums over the warp's 32 lanes of 8 values per lane (one per position), every lane getting all
// 8: a reduce-scatter butterfly (xor 16, 8, 4: each lane keeps half of the positions it still holds
// and sends the other half; then xor 2, 1 on the one left) and 8 broadcasts, 17 shuffles where 8
// butterflies take 40. The same additions in the same order as `s += __shfl_xor_sync(s, k)` for k =
// 16 .. 1 on each position (own value first; a + b == b + a), so the same bits as ln_stats' sums.
__device__ __forceinline__ void ob_sum8(float (&v)[8], int lane) {
    const bool b4 = lane & 16, b3 = lane & 8, b2 = lane & 4;
    float w[4], x[2];
#pragma unroll
    for (int i = 0; i < 4; i++)  // w[i]: position 4 b4 + i
        w[i] = (b4 ? v[4 + i] : v[i]) + __shfl_xor_sync(0xffffffffu, b4 ? v[i] : v[4 + i], 16);
#pragma unroll
    for (int k = 0; k < 2; k++)  // x[k]: position 4 b4 + 2 b3 + k
        x[k] = (b3 ? w[2 + k] : w[k]) + __shfl_xor_sync(0xffffffffu, b3 ? w[k] : w[2 + k], 8);
    float y = (b2 ? x[1] : x[0]) + __shfl_xor_sync(0xffffffffu, b2 ? x[0] : x[1], 4);  // position lane / 4
    y += __shfl_xor_sync(0xffffffffu, y, 2);
    y += __shfl_xor_sync(0xffffffffu, y, 1);
#pragma unroll
    for (int q = 0; q < 8; q++) v[q] = __shfl_sync(0xffffffffu, y, 4 * q);
}

// P1: xl = LN_out(X) of the warp's 8 positions into a1 (rows), their statistics into st (2, BT):
// ln_stats' arithmetic (per lane its channels in order, then the lanes) through ob_sum8, and
// k_tm_ln_cm_fwd's roundings: the same xl bits.
template <int TM>
__device__ __forceinline__ void ob_ln_fwd(const bf16 *xs, bf16 *a1, float *st, const float *lnw, const float *lnb,
                                          int w, int lane) {
    float v[8][4], mu[8], rs[8];
    ob_read_x<ob_t<TM>::XS>(xs, w, lane, v);
#pragma unroll
    for (int q = 0; q < 8; q++) {
        float s = 0;
#pragma unroll
        for (int j = 0; j < 4; j++) s += v[q][j];
        mu[q] = s;
    }
    ob_sum8(mu, lane);
#pragma unroll
    for (int q = 0; q < 8; q++) {
        mu[q] = mu[q] / OB_C;
        float d2 = 0;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const float d = v[q][j] - mu[q];
            d2 += d * d;
        }
        rs[q] = d2;
    }
    ob_sum8(rs, lane);
#pragma unroll
    for (int q = 0; q < 8; q++) {
        rs[q] = rsqrtf(rs[q] / OB_C + LN_EPS);
        if (lane == q) st[8 * w + q] = mu[q], st[ob_t<TM>::BT + 8 * w + q] = rs[q];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int ch = lane + 32 * j;
            const float y = __fmaf_rn(__fmul_rn(__fsub_rn(v[q][j], mu[q]), rs[q]), lnw[ch], lnb[ch]);  // k_tm_ln_cm_fwd's
            a1[(8 * w + q) * OB_SK + ch] = __float2bfloat16(y);
        }
    }
}

// P5: dX of the warp's 8 positions from dxl (a1 rows) into X's staging (in place), k_tm_ln_cm_bwd's
// arithmetic term for term (its two lane sums through ob_sum8); aw, ab += this lane's channels'
// dxl * xhat, dxl.
template <int TM>
__device__ __forceinline__ void ob_ln_bwd(bf16 *xs, const bf16 *a1, const float *st, const float *lnw, int w,
                                          int lane, float (&aw)[4], float (&ab)[4]) {
    float v[8][4], s1[8], s2[8];  // dxl is read from a1 twice (not held: registers)
    ob_read_x<ob_t<TM>::XS>(xs, w, lane, v);
    const bf16 *gq = a1 + 8 * w * OB_SK + lane;
#pragma unroll
    for (int q = 0; q < 8; q++) {
        const float mu = st[8 * w + q], rs = st[ob_t<TM>::BT + 8 * w + q];
        s1[q] = 0, s2[q] = 0;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const float g = __bfloat162float(gq[q * OB_SK + 32 * j]);
            const float xh = __fmul_rn(__fsub_rn(v[q][j], mu), rs);
            v[q][j] = xh;
            const float dxh = __fmul_rn(g, lnw[lane + 32 * j]);
            s1[q] = __fadd_rn(s1[q], dxh);
            s2[q] = __fmaf_rn(xh, dxh, s2[q]);
            aw[j] = __fmaf_rn(xh, g, aw[j]);
            ab[j] = __fadd_rn(ab[j], g);
        }
    }
    ob_sum8(s1, lane);
    ob_sum8(s2, lane);
#pragma unroll
    for (int q = 0; q < 8; q++) {
        const float rs = st[ob_t<TM>::BT + 8 * w + q], m1 = s1[q] / OB_C, m2 = s2[q] / OB_C;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const float g = __bfloat162float(gq[q * OB_SK + 32 * j]);
            const float t = __fmaf_rn(-v[q][j], m2, __fmaf_rn(g, lnw[lane + 32 * j], -m1));  // g w - s1 - xh s2
            v[q][j] = __fmaf_rn(rs, t, 0.f);
        }
    }
#pragma unroll
    for (int j = 0; j < 4; j++) {
        uint32_t u[4];
#pragma unroll
        for (int e = 0; e < 4; e++) u[e] = fa_pack2(v[2 * e][j], v[2 * e + 1][j]);
        *reinterpret_cast<uint4 *>(xs + (lane + 32 * j) * ob_t<TM>::XS + 8 * w) = make_uint4(u[0], u[1], u[2], u[3]);
    }
}

// Both kernels' start: the packed weight (the block's threads) and the team's first tile's X (its
// buffer 0) and zl (a2) in flight as one cp.async group; the biases and LN_out's parameters into
// shared memory. The caller waits for the group and meets the block at a barrier before the loop.
template <int TM>
__device__ __forceinline__ void ob_prologue(const ob_args &a, bf16 *ws, bf16 *xs, bf16 *a2, float *bs, float *lnw,
                                            float *lnb, int64_t blk, int64_t nblk, int tid) {
#pragma unroll
    for (int it = 0; it < 8; it++) {  // the packed weight: 256 rows of 16 chunks
        const int i = threadIdx.x + it * OB_THREADS, r = i >> 4, k = i & 15;
        fa_cp16(ws + r * OB_SK + 8 * k, a.w + r * OB_C + 8 * k);
    }
    using T = ob_t<TM>;
    if (blk < nblk)
        t3_load_x<T::BT, T::NT, T::XS>(xs, a.X, a.ldx, a.M, blk * T::BT, tid),
            t3_load_rows<T::BT, T::NT, OB_SK>(a2, a.zl, a.M, blk * T::BT, tid);
    fa_commit();
    for (int i = threadIdx.x; i < 256; i += OB_THREADS) bs[i] = a.bias[i];
    for (int i = threadIdx.x; i < OB_C; i += OB_THREADS) lnw[i] = a.ln_w[i], lnb[i] = a.ln_b ? a.ln_b[i] : 0.f;
}

// P2's epilogue: k_tm_out3's backward arithmetic (t3_epilogue<true>) on the warp's 32 x 32 of
// y (ay) and g (ag): dg = d out y s (1 - s), dd = d out s (bf16 pairs; [mi][h][j]: row
// 16 mi + 8 h + lane / 4 of the warp's 32, packed rows 8 j + 2 t, + 1 of its 32), the rows
// below M stored to dgp, dy (16 bytes: channels 8 t .. 8 t + 7 of the warp's 32).
__device__ __forceinline__ void ob_gate_bwd(const ob_args &a, const float (*ay)[4][4], const float (*ag)[4][4],
                                            const uint4 (*dv)[2], const float *bs, int64_t pos0, int wm, int wn,
                                            uint32_t (*dg)[2][4], uint32_t (*dd)[2][4]) {
    const int lane = threadIdx.x & 31, t = lane & 3, cb = wn * 32 + 8 * t;
    const int64_t row0 = pos0 + wm * 32 + (lane >> 2);
    const float *bz = bs + (wn >> 1) * 128 + (wn & 1) * 32 + 2 * t, *bg = bz + 64;
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t p = row0 + mi * 16 + h * 8;
            const uint32_t d4[4] = {dv[mi][h].x, dv[mi][h].y, dv[mi][h].z, dv[mi][h].w};
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const t3_pair q = t3_gate(ay[mi][j][2 * h], ay[mi][j][2 * h + 1], ag[mi][j][2 * h],
                                          ag[mi][j][2 * h + 1], bz + 8 * j, bg + 8 * j);
                t3_gate_bwd(q, d4[j], dg[mi][h][j], dd[mi][h][j]);
            }
            if (p < a.M) {
                stg16(a.dgp + p * OB_C + cb, make_uint4(dg[mi][h][0], dg[mi][h][1], dg[mi][h][2], dg[mi][h][3]));
                stg16(a.dy + p * OB_C + cb, make_uint4(dd[mi][h][0], dd[mi][h][1], dd[mi][h][2], dd[mi][h][3]));
            }
        }
}

// P4's products for the warp's 32 positions x 32 channels (from wn * 32): dz = a2 (d g, K in the
// packed rows' order) W_g, dx = a1 (d y) W_z, with B[k][n] = the packed weight's row of k, column n
// by ldmatrix.trans.
__device__ __forceinline__ void ob_dx_mma(float (*dx)[4][4], float (*dz)[4][4], const bf16 *a1, const bf16 *a2,
                                          const bf16 *ws, int wm, int wn) {
    const int lane = threadIdx.x & 31;
    const int aoff = (wm * 32 + (lane & 15)) * OB_SK + (lane >> 4) * 8;
    const int boff = (lane & 15) * OB_SK + wn * 32 + (lane >> 4) * 8;
#pragma unroll
    for (int k0 = 0; k0 < OB_C; k0 += 16) {
        uint32_t fy[2][4], fg[2][4];
        ts_ldsm4(fy[0], a1 + aoff + k0);
        ts_ldsm4(fy[1], a1 + aoff + 16 * OB_SK + k0);
        ts_ldsm4(fg[0], a2 + aoff + k0);
        ts_ldsm4(fg[1], a2 + aoff + 16 * OB_SK + k0);
        const bf16 *wz = ws + ((k0 >> 6) * 128 + (k0 & 63)) * OB_SK + boff, *wg = wz + 64 * OB_SK;  // packed z rows k0..
#pragma unroll
        for (int jp = 0; jp < 2; jp++) {
            uint32_t bz[4], bg[4];
            ts_ldsm4t(bz, wz + 16 * jp);
            ts_ldsm4t(bg, wg + 16 * jp);
#pragma unroll
            for (int mi = 0; mi < 2; mi++) {
                fa_mma16816(dx[mi][2 * jp], fy[mi], bz[0], bz[1]);
                fa_mma16816(dx[mi][2 * jp + 1], fy[mi], bz[2], bz[3]);
                fa_mma16816(dz[mi][2 * jp], fg[mi], bg[0], bg[1]);
                fa_mma16816(dz[mi][2 * jp + 1], fg[mi], bg[2], bg[3]);
            }
        }
    }
}

template <int TM>
__global__ void __launch_bounds__(OB_THREADS, 1) k_tm_outb(ob_args a, int64_t nblk) {
    using T = ob_t<TM>;
    extern __shared__ __align__(16) unsigned char ob_smem[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, team = warp / (16 / TM), tw = warp % (16 / TM);
    const int wm = tw % T::WM, wn = tw / T::WM, tid = threadIdx.x % T::NT;
    bf16 *ws = reinterpret_cast<bf16 *>(ob_smem);     // (256, OB_SK) the packed weight
    bf16 *xs = ws + 2 * OB_TILE + team * T::TEAM;      // (2, 128 channels, XS) X's staging, double-buffered
    bf16 *a1 = xs + 2 * T::XT;                         // (BT positions, OB_SK) xl, then d y, then dxl
    bf16 *a2 = a1 + T::RT;                             // zl, then d g
    float *bs = reinterpret_cast<float *>(ws + 2 * OB_TILE + TM * T::TEAM);  // (256) packed bias
    float *lnw = bs + 256, *lnb = lnw + OB_C;          // (128) each
    float *st = lnb + OB_C + team * 2 * T::BT;         // (2, BT) the team's mean, 1 / std
    const int wrow = (wn >> 1) * 128 + (wn & 1) * 32;  // the warp's W_z rows in ws (W_g: + 64)
    float aw[4] = {0, 0, 0, 0}, ab[4] = {0, 0, 0, 0};
    const int64_t stride = (int64_t)gridDim.x * TM;
    int64_t blk = (int64_t)blockIdx.x * TM + team;
    ob_prologue<TM>(a, ws, xs, a2, bs, lnw, lnb, blk, nblk, tid);
    fa_wait<0>();
    __syncthreads();  // the weight, biases and parameters (every thread's copies) visible to both teams
    for (int buf = 0; blk < nblk; blk += stride, buf ^= 1) {
        const int64_t p0 = blk * T::BT, next = blk + stride;
        bf16 *xb = xs + buf * T::XT;
        fa_wait<0>();
        t3_team_bar<TM, OB_THREADS>(team);  // this tile's X and zl landed; the last tile's reads of every buffer done
        if (next < nblk) t3_load_x<T::BT, T::NT, T::XS>(xs + (buf ^ 1) * T::XT, a.X, a.ldx, a.M, next * T::BT, tid);
        fa_commit();
        ob_ln_fwd<TM>(xb, a1, st, lnw, lnb, tw, lane);  // P1
        t3_team_bar<TM, OB_THREADS>(team);
        ob_store_rows<TM>(a.xl, a1, a.M, p0, tid);
        uint32_t dg[2][2][4], dd[2][2][4];
        {  // P2
            float ay[2][4][4], ag[2][4][4];
            t3_zero(ay, ag);
            uint4 dv[2][2];
            ts_mma<4, OB_C>(ay, a1 + wm * 32 * OB_SK, ws + wrow * OB_SK);
            t3_load_dy(a.dout, a.M, OB_C, dv, p0, wm, wn);
            ts_mma<4, OB_C>(ag, a2 + wm * 32 * OB_SK, ws + (wrow + 64) * OB_SK);
            ob_gate_bwd(a, ay, ag, dv, bs, p0, wm, wn, dg, dd);
        }
        t3_team_bar<TM, OB_THREADS>(team);  // every warp's products read a1, a2
        {
            const int r0 = wm * 32 + (lane >> 2), k0 = wn * 32 + 2 * (lane & 3);
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int h = 0; h < 2; h++)
#pragma unroll
                    for (int j = 0; j < 4; j++) {
                        const int o = (r0 + 16 * mi + 8 * h) * OB_SK + k0 + 8 * j;
                        *reinterpret_cast<uint32_t *>(a1 + o) = dd[mi][h][j];
                        *reinterpret_cast<uint32_t *>(a2 + o) = dg[mi][h][j];
                    }
        }
        t3_team_bar<TM, OB_THREADS>(team);
        {  // P4
            float dx[2][4][4], dz[2][4][4];
            t3_zero(dx, dz);
            ob_dx_mma(dx, dz, a1, a2, ws, wm, wn);
            t3_team_bar<TM, OB_THREADS>(team);  // every warp's products read d y, d g: a2 takes the next tile's zl
            if (next < nblk) t3_load_rows<T::BT, T::NT, OB_SK>(a2, a.zl, a.M, next * T::BT, tid);
            fa_commit();
            const int r0 = wm * 32 + (lane >> 2), c0 = wn * 32 + 2 * (lane & 3);
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int r = r0 + 16 * mi + 8 * h;
                    const int64_t p = p0 + r;
#pragma unroll
                    for (int j = 0; j < 4; j++) {
                        *reinterpret_cast<uint32_t *>(a1 + r * OB_SK + c0 + 8 * j) =
                            fa_pack2(dx[mi][j][2 * h], dx[mi][j][2 * h + 1]);
                        if (p < a.M)  // dzl's pairs straight out (L2 merges the warp's 16-byte row pieces)
                            *reinterpret_cast<uint32_t *>(a.dzl + p * OB_C + c0 + 8 * j) =
                                fa_pack2(dz[mi][j][2 * h], dz[mi][j][2 * h + 1]);
                    }
                }
        }
        t3_team_bar<TM, OB_THREADS>(team);
        ob_ln_bwd<TM>(xb, a1, st, lnw, tw, lane, aw, ab);  // P5
        t3_team_bar<TM, OB_THREADS>(team);  // dX in xb
        t3_store_x<T::BT, T::NT, T::XS>(a.dX, a.ldx, a.M, xb, p0, tid);
    }
    fa_wait<0>();
    __syncthreads();  // every team done: team 0's a1 (17 KB at 1 or 2 teams) or X buffers (20 KB at 4) hold the sums
    float *red = reinterpret_cast<float *>(ws + 2 * OB_TILE + (TM < 4 ? 2 * T::XT : 0));  // (16 warps, 2, 128)
#pragma unroll
    for (int j = 0; j < 4; j++) {
        red[(warp * 2 + 0) * OB_C + lane + 32 * j] = aw[j];
        red[(warp * 2 + 1) * OB_C + lane + 32 * j] = ab[j];
    }
    __syncthreads();
    if (threadIdx.x < 2 * OB_C) {
        const int k = threadIdx.x / OB_C, ch = threadIdx.x % OB_C;
        float s = 0;
        for (int u = 0; u < OB_THREADS / 32; u++) s += red[(u * 2 + k) * OB_C + ch];
        a.part[(int64_t)blockIdx.x * 2 * OB_C + threadIdx.x] = s;
    }
}

// The forward's epilogue: k_tm_out3's (t3_epilogue<false>) on the warp's 32 x 32: out = y s.
__device__ __forceinline__ void ob_gate_fwd(const ob_args &a, const float (*ay)[4][4], const float (*ag)[4][4],
                                            const float *bs, int64_t pos0, int wm, int wn) {
    const int lane = threadIdx.x & 31, t = lane & 3, cb = wn * 32 + 8 * t;
    const int64_t row0 = pos0 + wm * 32 + (lane >> 2);
    const float *bz = bs + (wn >> 1) * 128 + (wn & 1) * 32 + 2 * t, *bg = bz + 64;
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t p = row0 + mi * 16 + h * 8;
            if (p >= a.M) continue;
            uint32_t o[4];
#pragma unroll
            for (int j = 0; j < 4; j++)
                o[j] = t3_gate_out(t3_gate(ay[mi][j][2 * h], ay[mi][j][2 * h + 1], ag[mi][j][2 * h],
                                           ag[mi][j][2 * h + 1], bz + 8 * j, bg + 8 * j));
            stg16(a.out + p * OB_C + cb, make_uint4(o[0], o[1], o[2], o[3]));  // (a cast store: 4 x 4 bytes)
        }
}

// The forward with LN_out in the prologue (P1 and P2 of k_tm_outb, k_tm_out3's forward epilogue):
// k_tm_ln_cm_fwd + k_tm_out3 without xl in global memory, the same bits.
template <int TM>
__global__ void __launch_bounds__(OB_THREADS, 1) k_tm_outf(ob_args a, int64_t nblk) {
    using T = ob_t<TM>;
    extern __shared__ __align__(16) unsigned char ob_smem[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, team = warp / (16 / TM), tw = warp % (16 / TM);
    const int wm = tw % T::WM, wn = tw / T::WM, tid = threadIdx.x % T::NT;
    bf16 *ws = reinterpret_cast<bf16 *>(ob_smem), *xs = ws + 2 * OB_TILE + team * T::TEAM;
    bf16 *a1 = xs + 2 * T::XT, *a2 = a1 + T::RT;
    bf16 *const z2 = xs + T::XT;  // zl double-buffered (a2, X's second buffer: X is read in P1 only)
    float *bs = reinterpret_cast<float *>(ws + 2 * OB_TILE + TM * T::TEAM), *lnw = bs + 256, *lnb = lnw + OB_C;
    float *st = lnb + OB_C + team * 2 * T::BT;
    const int wrow = (wn >> 1) * 128 + (wn & 1) * 32;
    const int64_t stride = (int64_t)gridDim.x * TM;
    int64_t blk = (int64_t)blockIdx.x * TM + team;
    ob_prologue<TM>(a, ws, xs, a2, bs, lnw, lnb, blk, nblk, tid);
    fa_wait<0>();
    __syncthreads();
    for (int buf = 0; blk < nblk; blk += stride, buf ^= 1) {
        const int64_t p0 = blk * T::BT, next = blk + stride;
        fa_wait<0>();
        t3_team_bar<TM, OB_THREADS>(team);  // this tile's X and zl landed; the last tile's products done with a1 and its zl
        if (next < nblk) t3_load_rows<T::BT, T::NT, OB_SK>(buf ? a2 : z2, a.zl, a.M, next * T::BT, tid);
        fa_commit();
        ob_ln_fwd<TM>(xs, a1, st, lnw, lnb, tw, lane);
        t3_team_bar<TM, OB_THREADS>(team);  // xl in a1; X read: the next tile's comes in
        if (next < nblk) t3_load_x<T::BT, T::NT, T::XS>(xs, a.X, a.ldx, a.M, next * T::BT, tid);
        fa_commit();
        float ay[2][4][4], ag[2][4][4];
        t3_zero(ay, ag);
        ts_mma<4, OB_C>(ay, a1 + wm * 32 * OB_SK, ws + wrow * OB_SK);
        ts_mma<4, OB_C>(ag, (buf ? z2 : a2) + wm * 32 * OB_SK, ws + (wrow + 64) * OB_SK);
        ob_gate_fwd(a, ay, ag, bs, p0, wm, wn);
    }
    fa_wait<0>();
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// PF_TRIMUL_OUTB (read at the first use; pf_cuda_set_trimul_outb): 2 (the default) k_tm_outf and
// k_tm_outb where they apply, 1 k_tm_outb alone, 0 neither (the separate kernels).
static int ob_mode_v = -1, ob_teams_v = -1;
static int ob_mode(void) {
    if (ob_mode_v < 0)
        ob_mode_v = (int)cu_env_int("PF_TRIMUL_OUTB", 0, 2, 2,
                                    "the trimul output part with LN_out in one kernel: 0 neither pass, 1 the "
                                    "backward, 2 the forward and the backward");
    return ob_mode_v;
}
// PF_TRIMUL_OUTB_TEAMS: teams of warps per block (1, 2 (the default) or 4; 3 runs as 2; ob_t).
static int ob_teams(void) {
    if (ob_teams_v < 0)
        ob_teams_v = (int)cu_env_int("PF_TRIMUL_OUTB_TEAMS", 1, 4, 2,
                                     "teams of warps per block of the trimul output part's fused kernels");
    return ob_teams_v;
}
static int64_t ob_runs, of_runs;  // launches of k_tm_outb, k_tm_outf
extern "C" int pf_cuda_set_trimul_outb(pf_backend *be, int mode) {
    (void)be;
    int was = ob_mode();
    ob_mode_v = mode >= 0 && mode <= 2 ? mode : -1;
    return was;
}
extern "C" int64_t pf_cuda_trimul_outb_runs(pf_backend *be) { return (void)be, ob_runs; }
extern "C" int64_t pf_cuda_trimul_outf_runs(pf_backend *be) { return (void)be, of_runs; }
// Shared memory of the kernels at the PF_TRIMUL_OUTB_TEAMS in force.
static int ob_smem_bytes(void) {
    const int tm = ob_teams();
    return tm == 4 ? ob_t<4>::SMEM : tm == 2 ? ob_t<2>::SMEM : ob_t<1>::SMEM;
}
// f(std::integral_constant<int, TM>()) for the team count in force (3 runs as 2).
template <typename F>
static auto ob_by_teams(F f) {
    const int tm = ob_teams();
    return tm == 4 ? f(std::integral_constant<int, 4>()) : tm == 1 ? f(std::integral_constant<int, 1>())
                                                                   : f(std::integral_constant<int, 2>());
}
extern "C" int pf_cuda_trimul_outb_fits(pf_backend *be) {
    int dev = 0, optin = 0;
    (void)be;
    return cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) == cudaSuccess &&
           ob_smem_bytes() <= optin;
}

// Whether the kernel of the pass (bwd) applies (PF_TRIMUL_OUTB, the widths, X channel-major with
// 16-byte runs, the buffers in al 16-byte aligned, bf16 and the shared memory: ts_applies), and if
// so a's common fields (the packed weight from pool scratch or the cache: the caller marks the pool).
static int ob_prepare(cu_impl *c, int bwd, int64_t n, int cx, int cz, const pf_trimul_p *p, const void *X,
                      int64_t ldx, const void *zl, uintptr_t al, ob_args *a) {
    if (ob_mode() < 2 - bwd || cx != OB_C || cz != OB_C || n < 1 || !ldx || ldx % 8) return 0;
    if (((al | (uintptr_t)X) & 15) || !ts_applies(c, n, cz, 1, zl, ob_smem_bytes())) return 0;
    memset(a, 0, sizeof *a);
    cu_tm_out3_weights(c, p, cx, cz, &a->w, &a->bias);
    a->X = (const bf16 *)X, a->ldx = ldx, a->M = n, a->zl = (const bf16 *)zl;
    a->ln_w = p->ln_out.w, a->ln_b = p->ln_out.b;
    return 1;
}

// One wave of persistent blocks (at most one per TM tiles), capped where a test asks
// (ts_sides_form: small cases loop), then the launch; a.part (the backward) from pool scratch.
// Returns the blocks.
template <int TM, bool BWD>
static unsigned ob_launch(cu_impl *c, ob_args &a) {
    const int64_t nblk = (a.M + ob_t<TM>::BT - 1) / ob_t<TM>::BT;
    auto kern = BWD ? k_tm_outb<TM> : k_tm_outf<TM>;
    int grid = 0;
    (void)ts_sides_form(&grid);
    unsigned nb = ts_wave_blocks(c, kern, OB_THREADS, ob_t<TM>::SMEM, (nblk + TM - 1) / TM, grid);
    if (BWD) a.part = (float *)cu_pool_get(c, sizeof(float) * 2 * OB_C * nb);
    kern<<<nb, OB_THREADS, ob_t<TM>::SMEM, c->stream>>>(a, nblk);
    CU_LAUNCHED();
    return nb;
}

int cu_tm_out_fwd_ln(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const void *X, int64_t ldx,
                     const void *zl, void *out) {
    if (ob_mode() == 2 && cu_tm_out_fwd_wg(c, n, cx, cz, p, X, ldx, zl, out)) return 1;  // PF_TRIMUL_OUTW
    size_t mark = cu_pool_mark(c);
    ob_args a;
    int ok = ob_prepare(c, 0, n, cx, cz, p, X, ldx, zl, (uintptr_t)out, &a);
    if (ok) {
        a.out = (bf16 *)out;
        ob_by_teams([&](auto tm) { return ob_launch<decltype(tm)::value, false>(c, a); });
        of_runs++;
    }
    cu_pool_release(c, mark);
    return ok;
}

int cu_tm_out_bwd_ln_dwz(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const pf_trimul_p *g,
                         const void *X, int64_t ldx, const void *zl, uintptr_t al) {
    return ob_mode() >= 1 && cu_tm_out_bwd_wg_dwz(c, n, cx, cz, p, g, X, ldx, zl, al);
}

int cu_tm_out_bwd_ln(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *X,
                        void *dX, int64_t ldx, const void *zl, void *dzl, const void *dout, void *xl, void *dy,
                        void *dgp) {
    const uintptr_t al = (uintptr_t)dX | (uintptr_t)dzl | (uintptr_t)dout | (uintptr_t)xl | (uintptr_t)dy |
                         (uintptr_t)dgp;
    if (ob_mode() >= 1) {
        const int r = cu_tm_out_bwd_wg(c, n, cx, cz, p, g, X, dX, ldx, zl, dzl, dout, xl, dy, dgp);
        if (r) return r;  // 2: dW_z done as well (PF_TRIMUL_OUTW_DWZ)
    }
    if (!xl) return 0;  // cu_tm_out_bwd_ln_dwz's layout: no xl, dy for k_tm_outb
    size_t mark = cu_pool_mark(c);
    ob_args a;
    if (!ob_prepare(c, 1, n, cx, cz, p, X, ldx, zl, al, &a)) {
        cu_pool_release(c, mark);
        return 0;
    }
    a.dX = (bf16 *)dX, a.dout = (const bf16 *)dout;
    a.xl = (bf16 *)xl, a.dy = (bf16 *)dy, a.dgp = (bf16 *)dgp, a.dzl = (bf16 *)dzl;
    unsigned nb = ob_by_teams([&](auto tm) { return ob_launch<decltype(tm)::value, true>(c, a); });
    cu_tm_ln_parts_add(c, (int)nb, OB_C, a.part, g ? &g->ln_out : NULL);
    cu_pool_release(c, mark);
    ob_runs++;
    return 1;
}
#endif  // PF_EMU_NO_HOST
