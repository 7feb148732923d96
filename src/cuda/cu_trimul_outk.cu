// cu_trimul_outk.cu: the triangle multiplication's output projections and gate as one
// tensor-core kernel per row piece (PF_TRIMUL_OUT=1: k_tm_out2; 2: k_tm_out3, below,
// its pipelined form; docs/TRIMUL.md "Session 12").
//
// Today's output part (cu_trimul_out.cu) runs, after LN_out, two K = c GEMMs (Linear_z
// on xl, Linear_g on zl) that store y and the gate's pre-activation g (M, c_z) and then
// a gate kernel that reads them back: out = sigmoid(g) y (forward), or g <- d y, y <- d g
// from d_out (backward, cu_tm_gate_bwd). k_tm_out2 computes y and g of a tile in
// registers instead: a block owns TS_BM positions, loads their xl and zl rows once
// (cp.async) and loops over column tiles of TO_CT output channels, each tile the rows
// [W_z of the tile's channels | W_g of them] packed per launch; two mma.sync products
// (xl W_z^T, zl W_g^T, cu_trimul_side.cuh's ts_mma) leave y and g of the same (position,
// channel) in the same accumulator slot of a thread, and the gate (forward) or its
// backward (backward) is applied there. Bytes per position: forward xl, zl in, out
// written (3 z-sized passes instead of 7: y and g written and read back); backward xl,
// zl, d_out in, d g, d y written (5 instead of 9).
//
// The epilogue rounds y and g to bf16 before the gate, as the stored GEMM outputs were,
// and the bias is its bf16 copy (cu_gemm's bias epilogue in bf16 mode): the arithmetic
// after the products is the old kernels' (k_gate_out_v, k_gate_bwd_pre_v) term for term.
// The products' summation order over k is mma.sync's, not cuBLASLt's, so the bits may
// differ from the old path in the last place of y or g: checked against the CPU reference
// with the module's tolerances (test_cuda, trimul group), not bit for bit. bf16 only,
// sm_80+, c and c_z multiples of 8 up to 256, xl and zl 16-byte aligned; else (and with
// PF_TRIMUL_OUT=0) the GEMMs and gate kernels run as before. k_tm_out3's
// sigmoid is not sigmoidf_ (see there): same tolerance, not k_tm_out2's bits either.
#include "cu_trimul_side.cuh"
#include "cu_small.cuh"
#include "cu_trimul_out3.cuh"
#include "cuda_backend.h"

#define TO_CT 64  // output channels per column tile (the warps' wn halves: 32 each)

struct to_args {
    const bf16 *xl;     // (M, cx) LN_out(x)
    const bf16 *zl;     // (M, cz) LN_in(z)
    const bf16 *w;      // (tiles, 2 TO_CT, KP) packed: per tile [W_z rows | W_g rows], zeros past cx, cz
    const float *bias;  // (tiles, 2 TO_CT) [b_z | b_g] as their bf16 copies, zeros where none
    const bf16 *dy;     // backward: d out (M, cz)
    bf16 *out;          // forward: out (M, cz)
    bf16 *y, *g;        // backward: y <- d g (the pre-activation's gradient), g <- d y
    int64_t M;
    int cx, cz, tiles;
};

__device__ __forceinline__ float to_bf16r(float x) { return __bfloat162float(__float2bfloat16(x)); }
__device__ __forceinline__ void to_st2(bf16 *p, float lo, float hi) {
    *reinterpret_cast<__nv_bfloat162 *>(p) = __floats2bfloat162_rn(lo, hi);
}

// d out at this thread's outputs of column tile `tile` (bf16 pairs as to_epilogue visits
// them; zeros outside M x cz), loaded between the tile's two products: issued together, and
// never behind a store of the epilogue (y, g may alias dy as far as the compiler knows,
// so loads inside the epilogue's loop would each wait for the store before them).
__device__ __forceinline__ void to_load_dy(const to_args &a, uint32_t (*dv)[2][2], int tile, int64_t pos0) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int ch = tile * TO_CT + wn * 32 + j * 8 + 2 * t;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t p = pos0 + wm * 32 + mi * 16 + h * 8 + g;
                dv[j][mi][h] = ch < a.cz && p < a.M ? *reinterpret_cast<const uint32_t *>(a.dy + p * a.cz + ch) : 0u;
            }
    }
}

// The tile's epilogue: ay, ag (ts_mma's layout: 32 positions x 32 channels of this warp)
// are the products xl W_z^T and zl W_g^T at the same (position, channel); channels come in
// pairs (columns 2t, 2t + 1 of an n-tile), so every store is a bf16 pair. dv: to_load_dy's
// (backward).
template <bool BWD>
__device__ __forceinline__ void to_epilogue(const to_args &a, float (*ay)[4][4], float (*ag)[4][4],
                                            const uint32_t (*dv)[2][2], int tile, int64_t pos0) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int g = lane >> 2, t = lane & 3;
    const float *bias = a.bias + (int64_t)tile * 2 * TO_CT;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int bi = wn * 32 + j * 8 + 2 * t, ch = tile * TO_CT + bi;  // this pair's first channel
        if (ch >= a.cz) continue;                                        // cz % 8 == 0: ch + 1 < cz too
        const float2 bz = *reinterpret_cast<const float2 *>(bias + bi);
        const float2 bg = *reinterpret_cast<const float2 *>(bias + TO_CT + bi);
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t p = pos0 + wm * 32 + mi * 16 + h * 8 + g;
                if (p >= a.M) continue;
                const int64_t o = p * a.cz + ch;
                float y0 = to_bf16r(ay[mi][j][2 * h] + bz.x), y1 = to_bf16r(ay[mi][j][2 * h + 1] + bz.y);
                float g0 = to_bf16r(ag[mi][j][2 * h] + bg.x), g1 = to_bf16r(ag[mi][j][2 * h + 1] + bg.y);
                float s0 = sigmoidf_(g0), s1 = sigmoidf_(g1);
                if constexpr (BWD) {  // k_gate_bwd_pre_v's arithmetic
                    uint32_t du = dv[j][mi][h];
                    float2 d = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(&du));
                    to_st2(a.y + o, d.x * y0 * s0 * (1.f - s0), d.y * y1 * s1 * (1.f - s1));
                    to_st2(a.g + o, d.x * s0, d.y * s1);
                } else {  // k_gate_out_v's
                    to_st2(a.out + o, y0 * s0, y1 * s1);
                }
            }
    }
}

// KP: max(cx, cz) rounded up to a power of two (zeros past cx in xl's rows and W_z's,
// past cz in zl's and W_g's). 3 TS_BM-row tiles of shared memory: 104 KB at KP = 128, 2
// blocks per SM. Persistent (k_tm_sides2's scheme): block b owns position blocks b,
// b + gridDim.x, ... of nblk; after the last column tile's products the next position
// block's xl and zl rows load (cp.async) during that tile's epilogue, which touches no
// shared memory; the column tiles run serpentine (forward over one position block,
// backward over the next), so a block starts on the weight tile already loaded.
template <int KP, bool BWD>
__global__ void __launch_bounds__(TS_THREADS, KP > 128 ? 1 : 2) k_tm_out2(to_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char to_smem[];
    const int sk = KP + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(to_smem);  // (TS_BM, sk) xl rows
    bf16 *zs = xs + TS_BM * sk;                     // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 TO_CT, sk) the column tile's [W_z | W_g] rows
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    ts_load_rows_u<KP>(xs, a.xl, a.cx, a.M, blk * TS_BM);
    ts_load_rows_u<KP>(zs, a.zl, a.cz, a.M, blk * TS_BM);
    ts_load_w_u<2 * TO_CT / 16, KP>(ws, a.w, 0);
    fa_commit();
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        for (int step = 0; step < a.tiles; step++) {
            const int tile = buf ? a.tiles - 1 - step : step;  // serpentine: see above
            uint32_t dv[4][2][2];  // backward: d out of this tile, in flight during the second product
            fa_wait<0>();
            __syncthreads();  // xs, zs, ws landed for every thread
            float ay[2][4][4], ag[2][4][4];
            t3_zero(ay, ag);
            ts_mma<4, KP>(ay, xs + wm * 32 * sk, ws + wn * 32 * sk);
            if constexpr (BWD) to_load_dy(a, dv, tile, pos0);
            ts_mma<4, KP>(ag, zs + wm * 32 * sk, ws + (TO_CT + wn * 32) * sk);
            __syncthreads();  // xs, zs, ws read by every warp
            if (step + 1 < a.tiles) {
                ts_load_w_u<2 * TO_CT / 16, KP>(ws, a.w, buf ? tile - 1 : tile + 1);  // lands during the epilogue
            } else if (next < nblk) {  // its first tile is this one: ws stays
                ts_load_rows_u<KP>(xs, a.xl, a.cx, a.M, next * TS_BM);
                ts_load_rows_u<KP>(zs, a.zl, a.cz, a.M, next * TS_BM);
            }
            fa_commit();
            to_epilogue<BWD>(a, ay, ag, dv, tile, pos0);
        }
    }
}

// ---- PF_TRIMUL_OUT=2: k_tm_out3 ---------------------------------------------------------
// Why k_tm_out2 ran at half k_tm_sides2's tensor rate (ncu, N = 1024: 0.49 ms forward,
// ~1.04 ms backward over its two row pieces): per position block it loads 64 KB of rows
// (xl and zl) from DRAM and a 32 KB weight tile from L2 into single buffers, each only
// after every warp finished the products that read that buffer, and has but 2 column
// tiles of products to hide them behind (k_tm_sides2 has 4 per 32 KB of rows), so most of
// each block's time is a wait on cp.async; and the epilogue (IEEE sigmoid: expf, division
// with its slow-path branch; 64-bit index arithmetic per row) was ~1000 of the ~1200
// instructions per warp and tile, against 128 HMMA. k_tm_out3 keeps the whole packed
// weight [W_z | W_g] (c_z <= 128: 256 rows) in shared memory for the kernel's life, double-
// buffers the xl and zl rows (the next position block's load is in flight during this
// one's products and epilogue: one barrier per position block), covers all 128 channels
// per block (16 warps: 4 over positions x 4 over channels, 32 x 32 each, two products
// each as k_tm_out2), and computes the gate with ex2.approx and rcp.approx (relative
// error ~1e-7, below bf16's 4e-3; not sigmoidf_'s bits). 205 KB of shared memory at KP =
// 128: one block of 512 threads per SM. Applies where cx, cz <= 128; elsewhere mode 2
// runs k_tm_out2.
#define T3_THREADS 512  // 16 warps: 4 over positions (32 each) x 4 over channels (32 each)
#define T3_CZ 128       // output channels per block: all of them (cz <= 128)

// ROWS rows from r0 of x (rows of c; zeros past M and past c) into dst (row stride
// KP + TS_PAD), as 16-byte cp.async by NTH threads (tid: this one's index among them): a
// thread's 16-byte column is fixed and its rows step by NTH / (KP / 8), each copy a
// constant offset from one address (the generic loop's 64-bit index arithmetic per copy
// was ~20 instructions: 160 per position block and thread).
template <int KP, int ROWS, int NTH>
__device__ __forceinline__ void t3_load(bf16 *dst, const bf16 *x, int c, int64_t M, int64_t r0, int tid) {
    constexpr int CH = KP / 8, n = ROWS * CH, rs = NTH / CH;
    const int r = tid / CH, k = tid % CH, kin = k < c / 8;
    const bf16 *src = x + (r0 + r) * c + k * 8;
    bf16 *d = dst + r * (KP + TS_PAD) + k * 8;
#pragma unroll
    for (int it = 0; it < (n + NTH - 1) / NTH; it++) {
        if (n % NTH != 0 && r + it * rs >= ROWS) break;  // e.g. KP 16: 256 copies over 512 threads
        const int ok = kin && r0 + r + it * rs < M;
        fa_cp16z(d + it * rs * (KP + TS_PAD), ok ? src + it * rs * c : x, ok ? 16 : 0);
    }
}

// k_tm_out3's epilogue: to_epilogue's arithmetic (y, g rounded to bf16 after the bias)
// with t3_sigmoid, over the 32 x 32 outputs of this warp. The weight rows are packed so
// that accumulator pair j of thread t is channels 8t + 2j, + 1 of the warp's 32
// (k_to_pack's perm): per row a thread holds 8 consecutive channels and stores them as
// one 16 bytes (k_tm_out2: four 4-byte stores, each warp store half-filling 8 sectors).
// bs: the packed bias in shared memory, in the packed rows' order.
template <bool BWD>
__device__ __forceinline__ void t3_epilogue(const to_args &a, float (*ay)[4][4], float (*ag)[4][4],
                                            const uint4 (*dv)[2], const float *bs, int64_t pos0, int wm, int wn) {
    const int lane = threadIdx.x & 31;
    const int t = lane & 3, cb = wn * 32 + 8 * t;  // this thread's 8 channels
    if (cb >= a.cz) return;                        // cz % 8 == 0: all 8 or none
    const int64_t row0 = pos0 + wm * 32 + (lane >> 2);
    const float *bz = bs + (wn >> 1) * 2 * TO_CT + (wn & 1) * 32 + 2 * t, *bg = bz + TO_CT;
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int64_t p = row0 + mi * 16 + h * 8;
            if (p >= a.M) continue;
            uint32_t w0[4], w1[4];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const t3_pair q = t3_gate(ay[mi][j][2 * h], ay[mi][j][2 * h + 1], ag[mi][j][2 * h],
                                          ag[mi][j][2 * h + 1], bz + 8 * j, bg + 8 * j);
                if constexpr (BWD) {
                    const uint4 dq = dv[mi][h];
                    const uint32_t du = j == 0 ? dq.x : j == 1 ? dq.y : j == 2 ? dq.z : dq.w;  // j: a constant
                    t3_gate_bwd(q, du, w0[j], w1[j]);
                } else {
                    w0[j] = w1[j] = t3_gate_out(q);
                }
            }
            const int64_t o = p * a.cz + cb;
            if constexpr (BWD) {
                *reinterpret_cast<uint4 *>(a.y + o) = make_uint4(w0[0], w0[1], w0[2], w0[3]);
                *reinterpret_cast<uint4 *>(a.g + o) = make_uint4(w1[0], w1[1], w1[2], w1[3]);
            } else {
                *reinterpret_cast<uint4 *>(a.out + o) = make_uint4(w0[0], w0[1], w0[2], w0[3]);
            }
        }
}

// KP: max(cx, cz) rounded up to a power of two, at most 128. Shared memory: the packed
// weight (2 T3_CZ rows), two buffers of xl and zl rows (TS_BM each), the bias. Persistent
// (one block per SM). TEAMS 1: the block's 16 warps work on position blocks b, b +
// gridDim.x, ... of nblk (TS_BM positions each) in step, one barrier per position block,
// so all warps are in their products (tensor cores, ldmatrix) or all in their epilogues
// (issue, stores) at once. TEAMS 2 (PF_TRIMUL_OUT=3): two teams of 8 warps, each with its
// own two buffers of TS_BM / 2 rows and its own barrier, over position blocks of TS_BM / 2
// (team k of block b: 2 b + k, + 2 gridDim.x, ...): the teams drift apart, so one's
// epilogue can overlap the other's products (as 2 blocks per SM would, with one copy of
// the weight).
template <int KP, bool BWD, int TEAMS>
__global__ void __launch_bounds__(T3_THREADS, 1) k_tm_out3(to_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char to_smem[];
    constexpr int sk = KP + TS_PAD, BM = TS_BM / TEAMS, NTH = T3_THREADS / TEAMS, WM = BM / 32;
    bf16 *ws = reinterpret_cast<bf16 *>(to_smem);                // (2 T3_CZ, sk) k_to_pack's two tiles
    bf16 *xs = ws + 2 * T3_CZ * sk;                               // (TEAMS, 2, BM, sk) xl rows, double-buffered
    bf16 *zs = xs + 2 * TS_BM * sk;                               // (TEAMS, 2, BM, sk) zl rows
    float *bs = reinterpret_cast<float *>(zs + 2 * TS_BM * sk);  // (2 T3_CZ) the packed bias
    const int warp = threadIdx.x >> 5, team = warp / (16 / TEAMS), tw = warp % (16 / TEAMS);
    const int wm = tw % WM, wn = tw / WM, tid = threadIdx.x % NTH;  // 32 positions x 32 channels per warp
    const int wrow = (wn >> 1) * 2 * TO_CT + (wn & 1) * 32;          // its W_z rows in ws (W_g: + TO_CT)
    bf16 *xt = xs + team * 2 * BM * sk, *zt = zs + team * 2 * BM * sk;  // this team's buffers
    const int64_t stride = (int64_t)gridDim.x * TEAMS;
    int64_t blk = (int64_t)blockIdx.x * TEAMS + team;
    t3_load<KP, 2 * T3_CZ, T3_THREADS>(ws, a.w, KP, 2 * T3_CZ, 0, threadIdx.x);
    t3_load<KP, BM, NTH>(xt, a.xl, a.cx, a.M, blk * BM, tid);  // past M (a team without blocks): zeros
    t3_load<KP, BM, NTH>(zt, a.zl, a.cz, a.M, blk * BM, tid);
    fa_commit();
    for (int i = threadIdx.x; i < 2 * T3_CZ; i += T3_THREADS) bs[i] = a.bias[i];
    if constexpr (TEAMS > 1) {  // the weight and bias, loaded by both teams
        fa_wait<0>();
        __syncthreads();
    }
    for (int buf = 0; blk < nblk; blk += stride, buf ^= 1) {
        const int64_t pos0 = blk * BM, next = blk + stride;
        fa_wait<0>();
        t3_team_bar<TEAMS, T3_THREADS>(team);  // this block's rows landed; the team is done with the other buffer
        if (next < nblk) {    // in flight during this block's products and epilogue
            t3_load<KP, BM, NTH>(xt + (buf ^ 1) * BM * sk, a.xl, a.cx, a.M, next * BM, tid);
            t3_load<KP, BM, NTH>(zt + (buf ^ 1) * BM * sk, a.zl, a.cz, a.M, next * BM, tid);
        }
        fa_commit();
        float ay[2][4][4], ag[2][4][4];
        uint4 dv[2][2];  // backward: d out, in flight during the second product
        t3_zero(ay, ag);
        ts_mma<4, KP>(ay, xt + (buf * BM + wm * 32) * sk, ws + wrow * sk);
        if constexpr (BWD) t3_load_dy(a.dy, a.M, a.cz, dv, pos0, wm, wn);
        ts_mma<4, KP>(ag, zt + (buf * BM + wm * 32) * sk, ws + (wrow + TO_CT) * sk);
        t3_epilogue<BWD>(a, ay, ag, dv, bs, pos0, wm, wn);
    }
}

// The packed weight (tiles, 2 TO_CT, KP) in bf16 (the rounding of cu_weight's copies) and
// the bias (tiles, 2 TO_CT) as its bf16 copy in fp32.
struct to_pack {
    const float *wz, *wg, *bz, *bg;
    bf16 *wout;
    float *bout;
    int cx, cz, KP;
    int perm;   // k_tm_out3: per 32 rows, row 8j + 2t + e holds channel 8t + 2j + e
    int64_t n;  // tiles * 2 TO_CT * KP
};
__global__ void k_to_pack(to_pack q) {
    GRID_STRIDE(i, q.n) {
        int64_t r = i / q.KP;
        int k = (int)(i % q.KP), tile = (int)(r / (2 * TO_CT)), rr = (int)(r % (2 * TO_CT));
        int cr = rr % TO_CT, nr = cr % 32;  // channel row in the tile; in its 32-row group
        if (q.perm) cr = cr - nr + 8 * ((nr % 8) / 2) + 2 * (nr / 8) + nr % 2;
        int isg = rr >= TO_CT, ch = tile * TO_CT + cr, in = isg ? q.cz : q.cx;
        int ok = ch < q.cz && k < in;
        const float *w = isg ? q.wg : q.wz, *b = isg ? q.bg : q.bz;
        q.wout[i] = __float2bfloat16(ok ? w[(int64_t)ch * in + k] : 0.f);
        if (k == 0) q.bout[r] = ch < q.cz && b ? __bfloat162float(__float2bfloat16(b[ch])) : 0.f;
    }
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// PF_TRIMUL_OUT: 0 (the GEMMs and gate kernels), 1 (k_tm_out2), 2 or unset (the default
// since session 12: k_tm_out3 where cx, cz <= 128, else k_tm_out2), 3 (the same with two
// teams per block). Process-wide, read at the first output part; pf_cuda_set_trimul_out
// (tests).
static int g_out = -1;
static int64_t g_out_runs = 0, g_out3_runs = 0;
static int to_mode(void) {
    if (g_out < 0) {
        const char *e = getenv("PF_TRIMUL_OUT");
        if (!e || !*e) g_out = 2;  // the default since session 12 (measured faster)
        else if (!strcmp(e, "0")) g_out = 0;
        else if (!strcmp(e, "1")) g_out = 1;
        else if (!strcmp(e, "2")) g_out = 2;
        else if (!strcmp(e, "3")) g_out = 3;
        else
            pf_die("PF_TRIMUL_OUT=%s: expected 0 (the projection GEMMs and gate kernels), 1 (one "
                   "tensor-core kernel, k_tm_out2), 2 (k_tm_out3: resident weight, double-buffered rows; the default) or 3 "
                   "(k_tm_out3 with two teams of warps per block)",
                   e);
    }
    return g_out;
}
extern "C" void pf_cuda_set_trimul_out(pf_backend *be, int on) {
    (void)be;
    g_out = on >= 0 && on <= 3 ? on : -1;  // else: PF_TRIMUL_OUT / the default again
}
extern "C" int64_t pf_cuda_trimul_out_runs(pf_backend *be) {
    (void)be;
    return g_out_runs;
}
extern "C" int64_t pf_cuda_trimul_out3_runs(pf_backend *be) {
    (void)be;
    return g_out3_runs;
}

static int to_smem_bytes(int KP) { return (int)sizeof(bf16) * 3 * TS_BM * (KP + TS_PAD); }
static int t3_smem_bytes(int KP) {
    return (int)sizeof(bf16) * (2 * T3_CZ + 4 * TS_BM) * (KP + TS_PAD) + (int)sizeof(float) * 2 * T3_CZ;
}

// q's weight and bias outputs: kept across calls (PF_WCACHE, cu_small.cuh; the pack runs when
// new or after a parameter write) or in pool scratch (the caller releases it; packed now).
static void to_pack_into(cu_impl *c, to_pack *q, int tiles) {
    size_t wb = sizeof(bf16) * (size_t)q->n, bb = sizeof(float) * (size_t)(tiles * 2 * TO_CT);
    struct { const void *src[4]; int64_t tag, cx, cz, KP, perm, tiles; } sig;
    memset(&sig, 0, sizeof sig);
    sig.src[0] = q->wz, sig.src[1] = q->wg, sig.src[2] = q->bz, sig.src[3] = q->bg;
    sig.tag = 2, sig.cx = q->cx, sig.cz = q->cz, sig.KP = q->KP, sig.perm = q->perm, sig.tiles = tiles;
    int build;
    char *buf = (char *)cu_wcache(c, PF_WC_TM_OUT, &sig, sizeof sig, wb + bb, &build);  // wb: a multiple of 256 bytes
    q->wout = buf ? (bf16 *)buf : (bf16 *)cu_pool_get(c, wb);
    q->bout = buf ? (float *)(buf + wb) : (float *)cu_pool_get(c, bb);
    if (!build) return;
    k_to_pack<<<cu_blocks(q->n, 256), 256, 0, c->stream>>>(*q);
    CU_LAUNCHED();
}

void cu_tm_out3_weights(cu_impl *c, const pf_trimul_p *p, int cx, int cz, const bf16 **w, const float **bias) {
    to_pack q;
    int tiles = T3_CZ / TO_CT;
    q.wz = p->z.w, q.wg = p->g.w, q.bz = p->z.b, q.bg = p->g.b;
    q.cx = cx, q.cz = cz, q.KP = ts_depth(cx > cz ? cx : cz), q.perm = 1;
    q.n = (int64_t)tiles * 2 * TO_CT * q.KP;
    to_pack_into(c, &q, tiles);  // the same signature as k_tm_out3's: one cached copy for both
    *w = q.wout, *bias = q.bout;
}

// Fills a (packed weights: to_pack_into), *KP and *k3 (k_tm_out3's
// teams, 1 or 2, whose weight is always two 64-channel tiles, rows permuted; 0: k_tm_out2)
// where a kernel applies; 0 otherwise. al16: the outputs (and d out) are 16-byte aligned (k_tm_out3's
// 16-byte stores; cz % 8 == 0 keeps every row so).
static int to_prepare(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                      int al16, to_args *a, int *KP, int *k3) {
    int mode = to_mode();
    if (!mode || cx < 8 || cx % 8 || cx > TS_KMAX || ((uintptr_t)xl & 15)) return 0;
    *KP = ts_depth(cx > cz ? cx : cz);
    *k3 = mode >= 2 && al16 && *KP <= T3_CZ && ts_applies(c, M, cz, 1, zl, t3_smem_bytes(*KP)) ? mode - 1 : 0;
    if (!*k3 && !ts_applies(c, M, cz, 1, zl, to_smem_bytes(*KP))) return 0;
    memset(a, 0, sizeof *a);
    to_pack q;
    int tiles = *k3 ? T3_CZ / TO_CT : (cz + TO_CT - 1) / TO_CT;
    q.wz = p->z.w, q.wg = p->g.w, q.bz = p->z.b, q.bg = p->g.b;
    q.cx = cx, q.cz = cz, q.KP = *KP, q.perm = *k3 > 0;
    q.n = (int64_t)tiles * 2 * TO_CT * *KP;
    to_pack_into(c, &q, tiles);
    a->xl = (const bf16 *)xl, a->zl = (const bf16 *)zl, a->w = q.wout, a->bias = q.bout;
    a->M = M, a->cx = cx, a->cz = cz, a->tiles = tiles;
    return 1;
}

// One wave of persistent blocks (at most one per `teams` position blocks of bm; tests cap
// the grid through pf_cuda_set_trimul_sides' blocks, as for k_tm_sides2, so that small
// cases loop).
template <typename K>
static void to_launch_k(cu_impl *c, K kern, const to_args &a, int threads, int bytes, int bm, int teams) {
    int grid = 0;
    (void)ts_sides_form(&grid);
    int64_t nblk = (a.M + bm - 1) / bm, need = (nblk + teams - 1) / teams;
    kern<<<ts_wave_blocks(c, kern, threads, bytes, need, grid), threads, bytes, c->stream>>>(a, nblk);
    CU_LAUNCHED();
}

template <bool BWD>
static void to_launch(cu_impl *c, const to_args &a, int KP, int k3) {
    if (k3) {  // KP <= 128
        ts_by_depth(KP, [&](auto kp) {
            constexpr int kpc = decltype(kp)::value < T3_CZ ? decltype(kp)::value : T3_CZ;  // 256: not taken
            if (k3 == 1) to_launch_k(c, k_tm_out3<kpc, BWD, 1>, a, T3_THREADS, t3_smem_bytes(KP), TS_BM, 1);
            else to_launch_k(c, k_tm_out3<kpc, BWD, 2>, a, T3_THREADS, t3_smem_bytes(KP), TS_BM / 2, 2);
        });
        g_out3_runs++;
    } else {
        ts_by_depth(KP, [&](auto kp) {
            to_launch_k(c, k_tm_out2<decltype(kp)::value, BWD>, a, TS_THREADS, to_smem_bytes(KP), TS_BM, 1);
        });
    }
    g_out_runs++;
}

int cu_tm_out_fused_fwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        void *out) {
    size_t mark = cu_pool_mark(c);
    to_args a;
    int KP = 0, k3 = 0, al16 = !((uintptr_t)out & 15);
    int ok = !((uintptr_t)out & 3) && to_prepare(c, M, cx, cz, p, xl, zl, al16, &a, &KP, &k3);
    if (ok) {
        a.out = (bf16 *)out;
        to_launch<false>(c, a, KP, k3);
    }
    cu_pool_release(c, mark);
    return ok;
}

int cu_tm_out_fused_bwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        const void *dy, void *y, void *g) {
    size_t mark = cu_pool_mark(c);
    to_args a;
    int KP = 0, k3 = 0, al = (int)(((uintptr_t)dy | (uintptr_t)y | (uintptr_t)g) & 15);
    int ok = !(al & 3) && to_prepare(c, M, cx, cz, p, xl, zl, !al, &a, &KP, &k3);
    if (ok) {
        a.dy = (const bf16 *)dy, a.y = (bf16 *)y, a.g = (bf16 *)g;
        to_launch<true>(c, a, KP, k3);
    }
    cu_pool_release(c, mark);
    return ok;
}
#endif  // PF_EMU_NO_HOST
