// cu_trimul_out3.cuh: what the triangle multiplication's output-part kernels share: k_tm_out3
// (cu_trimul_outk.cu), k_tm_outf / k_tm_outb (cu_trimul_outb.cu) and the Hopper k_tm_outfw / k_tm_outbw
// (cu_trimul_outw.cu, cu_trimul_outwb.cu): the gate's arithmetic, the packed weight, bf16 halves, and the
// copies of X's channel-major tiles and of (M, 128) row tiles.
#ifndef PF_CU_TRIMUL_OUT3_CUH
#define PF_CU_TRIMUL_OUT3_CUH
#include "cu_trimul.cuh"
#include "cu_mma.cuh"

// sigmoid(x) = 1 / (1 + 2^(-x log2 e)) in 4 instructions (ex2.approx, rcp.approx; ftz:
// x -> -inf gives 1 / inf = 0). __expf and __fdividef added range fix-ups (4 more).
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ float t3_sigmoid(float x) {
    float e, r;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(e) : "f"(x * -1.4426950408889634f));
    asm("rcp.approx.ftz.f32 %0, %1;\n" : "=f"(r) : "f"(1.f + e));
    return r;
}
#endif
// The low and high bf16 halves of a pair as floats.
__device__ __forceinline__ float t3_lo(uint32_t u) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float t3_hi(uint32_t u) { return __uint_as_float(u & 0xffff0000u); }
// A warp's 32 x 32 accumulators of the two products (y and the gate) to zero.
__device__ __forceinline__ void t3_zero(float (*ay)[4][4], float (*ag)[4][4]) {
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) ay[mi][j][e] = ag[mi][j][e] = 0.f;
}

// X's positions [p0, p0 + BT) of all 128 channels (X (128, ldx) channel-major, M positions) into xs
// (channel rows of XS) by NT threads (tid: this one's index among them), 16-byte cp.async, not
// committed; positions past M zero (a partial run copies its part).
template <int BT, int NT, int XS>
__device__ __forceinline__ void t3_load_x(bf16 *xs, const bf16 *X, int64_t ldx, int64_t M, int64_t p0, int tid) {
    constexpr int CPR = BT / 8;  // 16-byte runs per channel
#pragma unroll
    for (int it = 0; it < 128 * CPR / NT; it++) {
        const int i = tid + it * NT, ch = i / CPR, k = i % CPR;
        const int64_t p = p0 + 8 * k, left = M - p;
        const int bytes = left >= 8 ? 16 : left > 0 ? (int)left * 2 : 0;
        fa_cp16z(xs + ch * XS + 8 * k, bytes ? X + ch * ldx + p : X, bytes);
    }
}
// xs (channel rows of XS) -> dX's positions [p0, p0 + BT) (the same layout as t3_load_x's X), by NT
// threads; positions past M not stored.
template <int BT, int NT, int XS>
__device__ __forceinline__ void t3_store_x(bf16 *dX, int64_t ldx, int64_t M, const bf16 *xs, int64_t p0, int tid) {
    constexpr int CPR = BT / 8;
#pragma unroll
    for (int it = 0; it < 128 * CPR / NT; it++) {
        const int i = tid + it * NT, ch = i / CPR, k = i % CPR;
        const int64_t p = p0 + 8 * k, left = M - p;
        const bf16 *s = xs + ch * XS + 8 * k;
        bf16 *d = dX + ch * ldx + p;
        if (left >= 8) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < left; e++) d[e] = s[e];
    }
}
// Rows [p0, p0 + BT) of x (M, 128) into s (rows of SK) by NT threads, cp.async, not committed; zeros
// past M.
template <int BT, int NT, int SK>
__device__ __forceinline__ void t3_load_rows(bf16 *s, const bf16 *x, int64_t M, int64_t p0, int tid) {
#pragma unroll
    for (int it = 0; it < 16 * BT / NT; it++) {
        const int i = tid + it * NT, r = i >> 4, k = i & 15;
        const int ok = p0 + r < M;
        fa_cp16z(s + r * SK + 8 * k, ok ? x + (p0 + r) * 128 + 8 * k : x, ok ? 16 : 0);
    }
}

// (lo, hi) rounded to bf16 and back: one pack and two bit operations.
__device__ __forceinline__ float2 t3_bf16r2(float lo, float hi) {
    __nv_bfloat162 b = __floats2bfloat162_rn(lo, hi);
    uint32_t u = *reinterpret_cast<const uint32_t *>(&b);
    return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
}

// The gate's arithmetic for one accumulator pair of k_tm_out3's epilogue (and cu_trimul_outb.cu's):
// y = bf16(a + b_z) and s = sigmoid(bf16(g + b_g)) of two adjacent packed channels (a0, a1: the y
// products; g0, g1: the gate's; bz, bg: their packed biases).
struct t3_pair {
    float2 y, s;
};
__device__ __forceinline__ t3_pair t3_gate(float a0, float a1, float g0, float g1, const float *bz, const float *bg) {
    const float2 z2 = *reinterpret_cast<const float2 *>(bz);
    const float2 g2 = *reinterpret_cast<const float2 *>(bg);
    t3_pair r;
    r.y = t3_bf16r2(a0 + z2.x, a1 + z2.y);
    const float2 gp = t3_bf16r2(g0 + g2.x, g1 + g2.y);
    r.s = make_float2(t3_sigmoid(gp.x), t3_sigmoid(gp.y));
    return r;
}
// Its backward from d out's pair du (bf16 pair bits): dg = d out y s (1 - s) (the gate pre-activation's
// gradient) and dy = d out s, as bf16 pairs.
__device__ __forceinline__ void t3_gate_bwd(const t3_pair &q, uint32_t du, uint32_t &dg, uint32_t &dy) {
    const float d0 = __uint_as_float(du << 16), d1 = __uint_as_float(du & 0xffff0000u);
    __nv_bfloat162 a = __floats2bfloat162_rn(d0 * q.y.x * q.s.x * (1.f - q.s.x), d1 * q.y.y * q.s.y * (1.f - q.s.y));
    __nv_bfloat162 b = __floats2bfloat162_rn(d0 * q.s.x, d1 * q.s.y);
    dg = *reinterpret_cast<const uint32_t *>(&a);
    dy = *reinterpret_cast<const uint32_t *>(&b);
}
// The forward's output pair y s as a bf16 pair.
__device__ __forceinline__ uint32_t t3_gate_out(const t3_pair &q) {
    __nv_bfloat162 o = __floats2bfloat162_rn(q.y.x * q.s.x, q.y.y * q.s.y);
    return *reinterpret_cast<const uint32_t *>(&o);
}

#ifndef PF_EMU  // emu/emu_ptx.h
// A barrier over one of TEAMS teams of a THREADS-thread block (named barrier 1 + team), or the block's.
template <int TEAMS, int THREADS>
__device__ __forceinline__ void t3_team_bar(int team) {
    if constexpr (TEAMS == 1) __syncthreads();
    else asm volatile("bar.sync %0, %1;\n" ::"r"(team + 1), "n"(THREADS / TEAMS) : "memory");
}
#endif

// d out (M, cz) at this thread's outputs of a warp's 32 x 32 tile (rows pos0 + 32 wm + ..., channels 32 wn
// + 8 (lane % 4) ..: per row one run of 8 channels, t3_gate's pairs 0..3; zeros outside M x cz), as 16-byte
// loads issued together (between the tile's two products).
__device__ __forceinline__ void t3_load_dy(const bf16 *dy, int64_t M, int cz, uint4 (*dv)[2], int64_t pos0, int wm,
                                           int wn) {
    const int lane = threadIdx.x & 31;
    const int cb = wn * 32 + 8 * (lane & 3);
    const int64_t row0 = pos0 + wm * 32 + (lane >> 2);
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t p = row0 + mi * 16 + h * 8;
            dv[mi][h] = cb < cz && p < M ? *reinterpret_cast<const uint4 *>(dy + p * cz + cb)
                                         : make_uint4(0u, 0u, 0u, 0u);
        }
}

// k_tm_out3's packed weight and bias for cx, cz <= 128 (KP = ts_depth(max(cx, cz)); two
// column tiles of [64 W_z rows | 64 W_g rows], within each 32 rows row 8j + 2t + e holding
// channel 8t + 2j + e; the bias (256) likewise, as its bf16 copy in fp32), kept across calls
// (PF_WCACHE) or in pool scratch: the caller marks and releases the pool.
void cu_tm_out3_weights(cu_impl *c, const pf_trimul_p *p, int cx, int cz, const bf16 **w, const float **bias);

#endif
