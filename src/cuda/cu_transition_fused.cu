// cu_transition_fused.cu: the transition's hidden layer as one tensor-core kernel per
// pass (issue 11, scope 2), after the triangle multiplication's side kernels
// (cu_trimul_side.cu: their mma.sync tile product ts_mma is shared).
//
// Forward: h (R, n c) = act(xl W^T + b) * mask. A block owns TS_BM rows, loads their xl
// rows once (cp.async; or their x rows and applies the input LayerNorm in place, one
// warp per row, with cu_ln_fwd's statistics, writing xl out only where the backward
// needs it) and loops over column tiles of the packed weight; SwiGLU's rows
// are [a, b]-interleaved (packed row 2k = W_a channel k, 2k + 1 = W_b channel k), so a
// thread's accumulator pair (columns 2t, 2t + 1) holds a and b of one channel and
// silu(a) b is formed in fp32 registers. The tile goes row-major through shared memory
// so that every store to h is a 16-byte run of channels. Replaces two GEMMs writing a,
// b (R, n c) and the activation kernel reading them (5 hidden-sized passes) with one
// write of h. ReLU is the same kernel with unpaired columns (not dispatched yet: cu_tr_fused_applies).
//
// Backward: from dh (R, n c), a and b recomputed in fp32 accumulators (the forward's
// numbers) and turned into da = dh b silu'(a), db = dh silu(a) (ReLU: da = dh [a > 0]),
// written row-major [da | db] (R, 2 n c) for the weight-gradient and dxl GEMMs; no a, b
// buffers, no activation kernel, nothing zero-filled. The gate as the trimul's, by
// tanh.approx: sigmoid(a) = (1 + tanh(a / 2)) / 2 (absolute error <= 2.5e-4, below
// the bf16 rounding of the stored h); the backward uses the same s, so its gradient is
// that of the stored h. bf16 only; the fp32 parity mode and other shapes keep the
// unfused path (cu_transition.cu), as does PF_TR_FUSED=0. PF_TR_HID=2 (the default) to 5
// take k_tr_hidden2 / k_tr_hidden_grad2 (below: persistent, pair-packed tiles; the same
// bits); PF_TR_HID=1 the first kernels, k_tr_hidden / k_tr_hidden_grad; 6 and 7 the
// Hopper wgmma kernels of cu_transition_wg.cu (k_trwg, packed once more by cu_tr_pack).
#include "cu_transition_fused.cuh"
#include "cu_small.cuh"
#include "cuda_backend.h"

template <int NT>
__device__ __forceinline__ void tr_zero(float (*acc)[NT][4]) {
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int j = 0; j < NT; j++) acc[mi][j][0] = acc[mi][j][1] = acc[mi][j][2] = acc[mi][j][3] = 0.f;
}

// h of the tile into st (TS_BM, so) row-major: SwiGLU 8 NT channels (column pairs),
// ReLU 16 NT.
template <bool SWI, int NT>
__device__ __forceinline__ void tr_fwd_epilogue(float (*acc)[NT][4], const float *ms, const float *bias, bf16 *st,
                                                int so) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int col = wn * 8 * NT + 8 * j + 2 * t;  // packed columns col, col + 1
        float b0 = bias ? __ldg(bias + col) : 0.f, b1 = bias ? __ldg(bias + col + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                float m = ms[row], x0 = acc[mi][j][2 * hh] + b0, x1 = acc[mi][j][2 * hh + 1] + b1;
                if (SWI) {
                    st[row * so + col / 2] = __float2bfloat16(x0 * tr_sigmoid(x0) * x1 * m);
                } else {
                    __nv_bfloat162 v = __floats2bfloat162_rn(fmaxf(x0, 0.f) * m, fmaxf(x1, 0.f) * m);
                    *reinterpret_cast<__nv_bfloat162 *>(st + row * so + col) = v;
                }
            }
    }
}

// segs segments of OW channels of st (TS_BM, so) into out rows pos0.. (row stride
// segs nc): segment s at columns s nc + cbase.. of out, s OW.. of st; 16-byte runs.
template <int OW>
__device__ __forceinline__ void tr_store(bf16 *out, int64_t M, int nc, int segs, const bf16 *st, int so, int cbase,
                                         int64_t pos0) {
    const int cpr = OW / 8;  // 16-byte chunks of a segment
    for (int i = threadIdx.x; i < TS_BM * segs * cpr; i += TS_THREADS) {
        int row = i / (segs * cpr), q = i % (segs * cpr), s = q / cpr, ch = 8 * (q % cpr);
        int64_t p = pos0 + row;
        if (p >= M || cbase + ch >= nc) continue;
        *reinterpret_cast<uint4 *>(out + p * segs * nc + s * nc + cbase + ch) =
            *reinterpret_cast<const uint4 *>(st + row * so + s * OW + ch);
    }
}

// KP: c rounded up to a power of two (>= 16; zeros past c).
template <bool SWI, int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden(tr_args a) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = SWI ? 8 * NT : 16 * NT, so = OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows
    bf16 *st = ws + 16 * NT * sk;                   // (TS_BM, so) h of the tile, row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, pos0);
    if (a.ln_w) {
        fa_wait<0>();
        __syncthreads();  // x rows landed
        tr_ln_rows<KP>(xs, a, pos0);
    }
    for (int tile = 0; tile < a.tiles; tile++) {
        fa_wait<0>();
        __syncthreads();  // xs (LayerNormed), ws landed for every thread; st's last tile stored
        float acc[2][NT][4];
        tr_zero<NT>(acc);
        ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
        __syncthreads();  // ws read by every warp
        if (tile + 1 < a.tiles) ts_load_w<NT, KP>(ws, a.w, tile + 1);  // lands during the epilogue
        fa_commit();
        tr_fwd_epilogue<SWI, NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL, st, so);
        __syncthreads();
        tr_store<OW>(a.h, a.M, a.nc, 1, st, so, tile * OW, pos0);
    }
}

// dh rows pos0.., columns cbase.. (OW channels) into ds (TS_BM, OW + TS_PAD); zeros
// past M and nc.
template <int OW>
__device__ __forceinline__ void tr_load_dh(bf16 *ds, const tr_args &a, int cbase, int64_t pos0) {
    for (int i = threadIdx.x; i < TS_BM * (OW / 8); i += TS_THREADS) {
        int row = i / (OW / 8), ch = 8 * (i % (OW / 8));
        int64_t p = pos0 + row;
        int ok = p < a.M && cbase + ch < a.nc;
        fa_cp16z(ds + row * (OW + TS_PAD) + ch, ok ? a.dh + p * a.nc + cbase + ch : a.dh, ok ? 16 : 0);
    }
}

// [da | db] of the tile into st (TS_BM, so) row-major (SwiGLU: da in columns [0, OW),
// db in [OW, 2 OW); ReLU da in [0, OW)), dh from ds (TS_BM, sd).
template <bool SWI, int NT>
__device__ __forceinline__ void tr_bwd_epilogue(float (*acc)[NT][4], const float *ms, const float *bias,
                                                const bf16 *ds, int sd, bf16 *st, int so) {
    constexpr int OW = SWI ? 8 * NT : 16 * NT;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int col = wn * 8 * NT + 8 * j + 2 * t;  // packed columns col, col + 1
        float b0 = bias ? __ldg(bias + col) : 0.f, b1 = bias ? __ldg(bias + col + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                float m = ms[row], x0 = acc[mi][j][2 * hh] + b0, x1 = acc[mi][j][2 * hh + 1] + b1;
                if (SWI) {
                    int ch = col / 2;
                    float gd = __bfloat162float(ds[row * sd + ch]) * m, s = tr_sigmoid(x0);
                    st[row * so + ch] = __float2bfloat16(gd * x1 * s * fmaf(x0, 1.f - s, 1.f));
                    st[row * so + OW + ch] = __float2bfloat16(gd * x0 * s);
                } else {
                    __nv_bfloat162 gv = *reinterpret_cast<const __nv_bfloat162 *>(ds + row * sd + col);
                    float g0 = __low2float(gv) * m, g1 = __high2float(gv) * m;
                    *reinterpret_cast<__nv_bfloat162 *>(st + row * so + col) =
                        __floats2bfloat162_rn(x0 > 0.f ? g0 : 0.f, x1 > 0.f ? g1 : 0.f);
                }
            }
    }
}

template <bool SWI, int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden_grad(tr_args a) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = SWI ? 8 * NT : 16 * NT, sd = OW + TS_PAD, so = (SWI ? 2 : 1) * OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows
    bf16 *ds = ws + 16 * NT * sk;                   // 2 x (TS_BM, sd) dh of a tile
    bf16 *st = ds + 2 * TS_BM * sd;                 // (TS_BM, so) [da | db] of the tile
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    tr_load_dh<OW>(ds, a, 0, pos0);  // joins the group of xl and column tile 0
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, pos0);
    for (int tile = 0; tile < a.tiles; tile++) {
        fa_wait<0>();
        __syncthreads();  // xs, ws, this tile's dh landed; st of the last tile stored
        float acc[2][NT][4];
        tr_zero<NT>(acc);
        ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
        __syncthreads();  // ws read by every warp; the other dh buffer's last reader done
        if (tile + 1 < a.tiles) {  // both land during the epilogue and the stores
            ts_load_w<NT, KP>(ws, a.w, tile + 1);
            tr_load_dh<OW>(ds + ((tile + 1) & 1) * TS_BM * sd, a, (tile + 1) * OW, pos0);
        }
        fa_commit();
        tr_bwd_epilogue<SWI, NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL,
                                 ds + (tile & 1) * TS_BM * sd, sd, st, so);
        __syncthreads();
        tr_store<OW>(a.dab, a.M, a.nc, SWI ? 2 : 1, st, so, tile * OW, pos0);
    }
}

// ---- PF_TR_HID=2, 3, 5: k_tr_hidden2, k_tr_hidden_grad2 (SwiGLU) ----------------------
// The same tile products (ts_mma, k in the same order) and the same fp32 arithmetic per
// element as k_tr_hidden / k_tr_hidden_grad (the same bits; test_cuda's transition cases
// compare them), after k_tm_sides2 (cu_trimul_side.cu):
// - weight rows packed per 16 as [W_a of channels 8q..8q+7, W_b of them] (cu_tr_pack form
//   2): n-tiles 2q, 2q + 1 of a warp hold a and b of the same 8 channels, so a thread's
//   accumulators are a, b of two consecutive channels at one row and h leaves as bf16
//   pairs (half the conversions and shared-memory stores; conflict free: the word of row
//   g, pair t is 36 g + t at 64 channels). h is row-major, so unlike k_tm_sides2 the
//   operands keep their roles: rows (positions) are already the output's major index.
// - persistent blocks on one wave: the next position block's rows (and the backward's
//   first dh tile of it) load during the last column tile's epilogue and store instead
//   of a new block starting on an empty pipeline;
// - serpentine column tiles: forward over one position block, backward over the next, so
//   a block starts on the weight tile already in shared memory (7 of 8 weight tiles
//   loaded per position block at n c = 512);
// - tile loads and stores with compile-time trip counts (ts_load_w_u, ts_load_rows_u,
//   tr_load_dh_u, tr_store_u: no divisions or 64-bit index arithmetic per 16 bytes);
// - the backward writes da in place over its dh tile (each element read and written by
//   one thread), so only db needs a staging tile: 82 KiB per block at c = 128 (was
//   89.5), two per SM.
// Form 3 is form 2 with 32-channel forward tiles (NT 4: 62 KiB, three blocks per SM).
// Form 5 is form 2 whose backward gets h from k_tr_hidden_grad2 (HOUT: it has a and b in
// registers) instead of recomputing it with k_tr_hidden2 (see cu_transition.cu).

// dh rows pos0.., channels cbase.. (OW) into ds (TS_BM, OW + TS_PAD), zeros past M and
// nc; tr_load_dh with the trip count fixed (a thread's 16-byte column is fixed).
template <int OW>
__device__ __forceinline__ void tr_load_dh_u(bf16 *ds, const tr_args &a, int cbase, int64_t pos0) {
    constexpr int cpr = OW / 8, n = TS_BM * cpr, rs = TS_THREADS / cpr;
    static_assert(n % TS_THREADS == 0 && TS_THREADS % cpr == 0, "OW 16..256");
    const int r = threadIdx.x / cpr, ch = 8 * (threadIdx.x % cpr), cin = cbase + ch < a.nc;
    const bf16 *src = a.dh + (pos0 + r) * a.nc + cbase + ch;
    bf16 *dst = ds + r * (OW + TS_PAD) + ch;
#pragma unroll
    for (int it = 0; it < n / TS_THREADS; it++) {
        int ok = cin && pos0 + r + it * rs < a.M;
        fa_cp16z(dst + it * rs * (OW + TS_PAD), ok ? src + (int64_t)it * rs * a.nc : a.dh, ok ? 16 : 0);
    }
}

// st (TS_BM, OW + TS_PAD) into out rows pos0.. (row stride ldo), columns cbase.. below
// nlim: 16-byte runs, the trip count fixed (tr_store's work).
template <int OW>
__device__ __forceinline__ void tr_store_u(bf16 *out, int64_t ldo, int64_t M, int nlim, const bf16 *st, int cbase,
                                           int64_t pos0) {
    constexpr int cpr = OW / 8, n = TS_BM * cpr, rs = TS_THREADS / cpr;
    static_assert(n % TS_THREADS == 0 && TS_THREADS % cpr == 0, "OW 16..256");
    const int r = threadIdx.x / cpr, ch = 8 * (threadIdx.x % cpr);
    if (cbase + ch >= nlim) return;
    const bf16 *s = st + r * (OW + TS_PAD) + ch;
    bf16 *d = out + (pos0 + r) * ldo + cbase + ch;
#pragma unroll
    for (int it = 0; it < n / TS_THREADS; it++) {
        if (pos0 + r + it * rs >= M) break;  // rows grow with it
        *reinterpret_cast<uint4 *>(d + (int64_t)it * rs * ldo) =
            *reinterpret_cast<const uint4 *>(s + it * rs * (OW + TS_PAD));
    }
}

// The biases of a thread's packed columns col, col + 1 of a and their b partners 8 columns on
// (zeros without a bias).
__device__ __forceinline__ void tr_bias_ab(const float *bias, int col, float *ba, float *bb) {
#pragma unroll
    for (int e = 0; e < 2; e++) {
        ba[e] = bias ? __ldg(bias + col + e) : 0.f;
        bb[e] = bias ? __ldg(bias + col + 8 + e) : 0.f;
    }
}

// h of the tile (8 NT channels) into st (TS_BM, 8 NT + TS_PAD) row-major as bf16 pairs: n-tiles 2q, 2q + 1
// of the warp are a, b of channels 8q.. of its 4 NT (form 2); tr_fwd_epilogue's arithmetic.
template <int NT>
__device__ __forceinline__ void tr_fwd_epilogue2(float (*acc)[NT][4], const float *ms, const float *bias, bf16 *st) {
    constexpr int so = 8 * NT + TS_PAD;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int q = 0; q < NT / 2; q++) {
        int col = wn * 8 * NT + 16 * q + 2 * t, ch = wn * 4 * NT + 8 * q + 2 * t;  // packed a column; channel
        float ba[2], bb[2];
        tr_bias_ab(bias, col, ba, bb);
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                float m = ms[row], v[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    float x0 = acc[mi][2 * q][2 * hh + e] + ba[e], x1 = acc[mi][2 * q + 1][2 * hh + e] + bb[e];
                    v[e] = x0 * tr_sigmoid(x0) * x1 * m;
                }
                *reinterpret_cast<__nv_bfloat162 *>(st + row * so + ch) = __floats2bfloat162_rn(v[0], v[1]);
            }
    }
}

// The block's mask (TS_BM) for position block pos0, one value per thread < TS_BM.
__device__ __forceinline__ float tr_mask_at(const tr_args &a, int64_t pos0) {
    int64_t p = pos0 + threadIdx.x;
    return threadIdx.x < TS_BM && p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
}

// Persistent: block b owns position blocks b, b + gridDim.x, ... of nblk. ms holds two
// masks (this position block's and the next one's, written during the last epilogue).
template <int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, NT == 8 || KP > 128 ? 2 : 3) k_tr_hidden2(tr_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = 8 * NT, so = OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows (form 2)
    bf16 *st = ws + 16 * NT * sk;                   // (TS_BM, so) h of the tile, row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (2, TS_BM) the masks
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, blk * TS_BM);
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        if (a.ln_w) {
            fa_wait<0>();
            __syncthreads();  // x rows landed
            tr_ln_rows<KP>(xs, a, pos0);
        }
        for (int step = 0; step < a.tiles; step++) {
            const int tile = buf ? a.tiles - 1 - step : step;  // serpentine: see the top
            fa_wait<0>();
            __syncthreads();  // xs (LayerNormed), ws, this block's mask landed; st's last tile stored
            float acc[2][NT][4];
            tr_zero<NT>(acc);
            ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
            __syncthreads();  // xs, ws read by every warp
            float mnext = 0.f;
            int last = step + 1 == a.tiles && next < nblk;  // the next position block loads now
            if (step + 1 < a.tiles) ts_load_w_u<NT, KP>(ws, a.w, buf ? tile - 1 : tile + 1);  // lands in the epilogue
            else if (last) {  // its first tile is this one: ws stays
                ts_load_rows_u<KP>(xs, a.xl, a.c, a.M, next * TS_BM);
                mnext = tr_mask_at(a, next * TS_BM);
            }
            fa_commit();
            tr_fwd_epilogue2<NT>(acc, ms + buf * TS_BM, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL, st);
            if (last && threadIdx.x < TS_BM) ms[(buf ^ 1) * TS_BM + threadIdx.x] = mnext;  // read after a barrier
            __syncthreads();
            tr_store_u<OW>(a.h, a.nc, a.M, a.nc, st, tile * OW, pos0);
        }
    }
}

// ---- PF_TR_HID=4: k_tr_hidden3, the forward software-pipelined ------------------------
// In k_tr_hidden2 every warp of a block is in the same phase between barriers (product,
// then epilogue, then stores), and the two blocks of an SM start together and stay in step,
// so the tensor cores wait during the gate epilogue (a tanh and a conversion per h
// element: the special-function pipe) and the special-function pipe during the
// products. Here a warp issues the product of column tile i (into one accumulator set)
// and then the epilogue of tile i - 1 (from the other), between the same two barriers:
// the mma.sync instructions run while the epilogue's instructions issue. Two accumulator
// sets fit the registers at 32-channel tiles (NT 4: 2 x 32 floats), the weight tiles are
// double-buffered (tile i + 1 loads during step i), and the pipeline drains at the end of
// each position block (its last epilogue alone, while the next block's rows load).
// Persistent, form 2 packing, the same arithmetic per element (the same bits); column
// tiles in order (no serpentine: the next block's tile 0 loads during the drain).

// Step i of a position block: the product of tile i (ws_i) into accm, the epilogue of
// tile i - 1 from acce into st, then its store.
template <int KP>
__device__ __forceinline__ void tr_pipe_step(float (*accm)[4][4], float (*acce)[4][4], const tr_args &a,
                                             const bf16 *xs, bf16 *ws2, bf16 *st, const float *msb, int i,
                                             int64_t pos0) {
    constexpr int NT = 4, sk = KP + TS_PAD, wsz = 16 * NT * sk;
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    fa_wait<0>();
    __syncthreads();  // tile i landed; every warp's product i - 1 done (its buffer free), store i - 2 done (st free)
    if (i + 1 < a.tiles) ts_load_w_u<NT, KP>(ws2 + ((i + 1) & 1) * wsz, a.w, i + 1);  // lands during this step
    fa_commit();
    tr_zero<NT>(accm);
    ts_mma<NT, KP>(accm, xs + wm * 32 * sk, ws2 + (i & 1) * wsz + wn * 8 * NT * sk);
    tr_fwd_epilogue2<NT>(acce, msb, a.bias ? a.bias + (int64_t)(i - 1) * 16 * NT : NULL, st);
    __syncthreads();
    tr_store_u<8 * NT>(a.h, a.nc, a.M, a.nc, st, (i - 1) * 8 * NT, pos0);
}

template <int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden3(tr_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int NT = 4, sk = KP + TS_PAD, OW = 8 * NT, so = OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws2 = xs + TS_BM * sk;                    // 2 x (16 NT, sk) weight rows of tiles i, i + 1 (form 2)
    bf16 *st = ws2 + 2 * 16 * NT * sk;              // (TS_BM, so) h of a tile, row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (2, TS_BM) the masks
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    ts_load_block<NT, KP>(xs, ms, ws2, a.xl, a.c, a.M, a.mask, a.w, blk * TS_BM);
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        const float *msb = ms + buf * TS_BM;
        if (a.ln_w) {
            fa_wait<0>();
            __syncthreads();  // x rows landed
            tr_ln_rows<KP>(xs, a, pos0);
        }
        float acc0[2][NT][4], acc1[2][NT][4];  // tiles of even and odd steps
        fa_wait<0>();
        __syncthreads();  // xs (LayerNormed), tile 0, the mask landed; the last block's store done
        if (a.tiles > 1) ts_load_w_u<NT, KP>(ws2 + 16 * NT * sk, a.w, 1);
        fa_commit();
        tr_zero<NT>(acc0);
        ts_mma<NT, KP>(acc0, xs + wm * 32 * sk, ws2 + wn * 8 * NT * sk);
        for (int i = 1; i < a.tiles; i += 2) {  // two steps per trip: the accumulator sets stay in registers
            tr_pipe_step<KP>(acc1, acc0, a, xs, ws2, st, msb, i, pos0);
            if (i + 1 < a.tiles) tr_pipe_step<KP>(acc0, acc1, a, xs, ws2, st, msb, i + 1, pos0);
        }
        const int tl = a.tiles - 1;  // the drain: tile tl's epilogue while the next block loads
        __syncthreads();  // every warp's last product done: xs and both weight buffers free
        float mnext = 0.f;
        int more = next < nblk;
        if (more) {
            ts_load_rows_u<KP>(xs, a.xl, a.c, a.M, next * TS_BM);
            ts_load_w_u<NT, KP>(ws2, a.w, 0);
            mnext = tr_mask_at(a, next * TS_BM);
        }
        fa_commit();
        const float *bl = a.bias ? a.bias + (int64_t)tl * 16 * NT : NULL;
        if (tl & 1) tr_fwd_epilogue2<NT>(acc1, msb, bl, st);  // static register indices either way
        else tr_fwd_epilogue2<NT>(acc0, msb, bl, st);
        if (more && threadIdx.x < TS_BM) ms[(buf ^ 1) * TS_BM + threadIdx.x] = mnext;  // read after a barrier
        __syncthreads();
        tr_store_u<OW>(a.h, a.nc, a.M, a.nc, st, tl * OW, pos0);
    }
}

// [da | db] of the tile from dh in dsc (TS_BM, sd): da over dh in place (each element
// read and written by the same thread), db into st (TS_BM, sd), and with HOUT (form 5) h
// into sth (TS_BM, sd) by tr_fwd_epilogue2's expression (the forward's bits); bf16 pairs
// as tr_fwd_epilogue2, tr_bwd_epilogue's arithmetic.
template <int NT, bool HOUT>
__device__ __forceinline__ void tr_bwd_epilogue2(float (*acc)[NT][4], const float *ms, const float *bias, bf16 *dsc,
                                                 bf16 *st, bf16 *sth) {
    constexpr int sd = 8 * NT + TS_PAD;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int q = 0; q < NT / 2; q++) {
        int col = wn * 8 * NT + 16 * q + 2 * t, ch = wn * 4 * NT + 8 * q + 2 * t;
        float ba[2], bb[2];
        tr_bias_ab(bias, col, ba, bb);
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                __nv_bfloat162 *dp = reinterpret_cast<__nv_bfloat162 *>(dsc + row * sd + ch);
                __nv_bfloat162 gv = *dp;
                float m = ms[row], dh[2] = {__low2float(gv), __high2float(gv)}, da[2], db[2], hv[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    float x0 = acc[mi][2 * q][2 * hh + e] + ba[e], x1 = acc[mi][2 * q + 1][2 * hh + e] + bb[e];
                    float gd = dh[e] * m, s = tr_sigmoid(x0);
                    da[e] = gd * x1 * s * fmaf(x0, 1.f - s, 1.f);
                    db[e] = gd * x0 * s;
                    hv[e] = x0 * s * x1 * m;  // = x0 * tr_sigmoid(x0) * x1 * m, left to right as the forward
                }
                *dp = __floats2bfloat162_rn(da[0], da[1]);
                *reinterpret_cast<__nv_bfloat162 *>(st + row * sd + ch) = __floats2bfloat162_rn(db[0], db[1]);
                if (HOUT)
                    *reinterpret_cast<__nv_bfloat162 *>(sth + row * sd + ch) = __floats2bfloat162_rn(hv[0], hv[1]);
            }
    }
}

// Persistent as k_tr_hidden2. The dh tiles alternate between two buffers over the whole
// sequence of (position block, column tile) steps: step i's lands during step i - 1.
// HOUT (form 5): h of each tile too, written over its dh in a.h (= a.dh: a tile's dh is
// read once, into shared memory, before its h is stored, and position blocks belong to
// one block), and with a.ln_w the input LayerNorm in the prologue of each position block
// as k_tr_hidden2's (xl written to a.xl_out): the backward then runs no forward kernel.
template <int NT, int KP, bool HOUT>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden_grad2(tr_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = 8 * NT, sd = OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows (form 2)
    bf16 *ds = ws + 16 * NT * sk;                   // 2 x (TS_BM, sd) dh of a tile, then its da
    bf16 *st = ds + 2 * TS_BM * sd;                 // (TS_BM, sd) db of the tile
    bf16 *sth = st + TS_BM * sd;                    // HOUT: (TS_BM, sd) h of the tile
    float *ms = reinterpret_cast<float *>(sth + (HOUT ? TS_BM * sd : 0));  // (2, TS_BM) the masks
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    int cur = 0;  // the dh buffer of this step
    tr_load_dh_u<OW>(ds, a, 0, blk * TS_BM);  // joins the group of xl and column tile 0
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, blk * TS_BM);
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        if (HOUT && a.ln_w) {
            fa_wait<0>();
            __syncthreads();  // x rows landed
            tr_ln_rows<KP>(xs, a, pos0);
        }
        for (int step = 0; step < a.tiles; step++, cur ^= 1) {
            const int tile = buf ? a.tiles - 1 - step : step;
            fa_wait<0>();
            __syncthreads();  // xs (LayerNormed), ws, this step's dh, the mask landed; the last step's tiles stored
            float acc[2][NT][4];
            tr_zero<NT>(acc);
            ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
            __syncthreads();  // xs, ws read by every warp
            float mnext = 0.f;
            int last = step + 1 == a.tiles && next < nblk;
            bf16 *dnext = ds + (cur ^ 1) * TS_BM * sd;
            if (step + 1 < a.tiles) {  // both land during the epilogue and the stores
                int nt = buf ? tile - 1 : tile + 1;
                ts_load_w_u<NT, KP>(ws, a.w, nt);
                tr_load_dh_u<OW>(dnext, a, nt * OW, pos0);
            } else if (last) {  // the next position block starts on this tile: ws stays
                ts_load_rows_u<KP>(xs, a.xl, a.c, a.M, next * TS_BM);
                tr_load_dh_u<OW>(dnext, a, tile * OW, next * TS_BM);
                mnext = tr_mask_at(a, next * TS_BM);
            }
            fa_commit();
            bf16 *dsc = ds + cur * TS_BM * sd;
            tr_bwd_epilogue2<NT, HOUT>(acc, ms + buf * TS_BM, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL, dsc,
                                       st, sth);
            if (last && threadIdx.x < TS_BM) ms[(buf ^ 1) * TS_BM + threadIdx.x] = mnext;
            __syncthreads();
            tr_store_u<OW>(a.dab, 2 * (int64_t)a.nc, a.M, a.nc, dsc, tile * OW, pos0);
            tr_store_u<OW>(a.dab + a.nc, 2 * (int64_t)a.nc, a.M, a.nc, st, tile * OW, pos0);
            if (HOUT) tr_store_u<OW>(a.h, a.nc, a.M, a.nc, sth, tile * OW, pos0);
        }
    }
}

// ---- host side ---------------------------------------------------------------------
struct tr_pack_q {
    const float *wa, *wb, *ba, *bb;  // wb, bb: SwiGLU only
    bf16 *wout;
    float *bout;
    int c, KP, nc, swi, form;  // forms 2-6 (SwiGLU): per 16 rows W_a of 8 channels, then W_b of them
    int64_t n;                 // rows * KP
    bf16 *wg;                  // forms 6, 7 on sm_90: the same rows again in wgmma's layout (trwg_off), or NULL
};
__global__ void k_tr_pack(tr_pack_q q) {
    GRID_STRIDE(i, q.n) {
        int64_t r = i / q.KP;
        int k = (int)(i % q.KP), ch = (int)(q.swi ? r / 2 : r), sb = q.swi && (r & 1);
        if (q.swi && q.form >= 2) ch = (int)(r >> 4) * 8 + (int)(r & 7), sb = (int)(r >> 3) & 1;
        const float *w = sb ? q.wb : q.wa, *b = sb ? q.bb : q.ba;
        int in = ch < q.nc;
        bf16 v = __float2bfloat16(in && k < q.c ? w[(int64_t)ch * q.c + k] : 0.f);
        q.wout[i] = v;
        if (q.wg) q.wg[trwg_off(r, k, q.KP)] = v;
        if (q.bout && k == 0) q.bout[r] = in && b ? b[ch] : 0.f;
    }
}

// Column tiles: 8 n-tiles (64 SwiGLU channels, 128 ReLU) forward at depth <= 128, 4
// otherwise and in the backward (its dh and [da | db] tiles need shared memory too:
// two blocks per SM at c = 128).
static int tr_nt_fwd(int KP) { return KP > 128 ? 4 : 8; }
static int tr_smem_fwd(int swi, int KP, int NT) {
    int ow = swi ? 8 * NT : 16 * NT;
    return (int)sizeof(bf16) * ((TS_BM + 16 * NT) * (KP + TS_PAD) + TS_BM * (ow + TS_PAD)) +
           (int)sizeof(float) * TS_BM;
}
static int tr_smem_bwd(int swi, int KP, int NT) {
    int ow = swi ? 8 * NT : 16 * NT;
    return (int)sizeof(bf16) * ((TS_BM + 16 * NT) * (KP + TS_PAD) + 2 * TS_BM * (ow + TS_PAD) +
                                TS_BM * ((swi ? 2 : 1) * ow + TS_PAD)) +
           (int)sizeof(float) * TS_BM;
}

// Forms 2, 3 (k_tr_hidden2 with 8 NT-channel tiles, k_tr_hidden_grad2 with NT 4): no [da]
// staging tile (da over dh), two masks; form 4 (k_tr_hidden3, NT 4): two weight tiles.
static int tr_smem_fwd2(int KP, int NT, int form) {
    int wtiles = form == 4 ? 2 : 1;
    return (int)sizeof(bf16) * ((TS_BM + wtiles * 16 * NT) * (KP + TS_PAD) + TS_BM * (8 * NT + TS_PAD)) +
           (int)sizeof(float) * 2 * TS_BM;
}
// Form 5's backward (hout) stages h too: 92 KiB at c = 128 (82 without), two per SM.
static int tr_smem_bwd2(int KP, int hout) {
    return (int)sizeof(bf16) * ((TS_BM + 64) * (KP + TS_PAD) + (hout ? 4 : 3) * TS_BM * (32 + TS_PAD)) +
           (int)sizeof(float) * 2 * TS_BM;
}
// The forward's n-tiles by form and depth: forms 3, 4 NT 4; else (1, 2, 5) 8 up to depth 128, 4 at 256.
static int tr_nt_fwd_form(int form, int KP) { return form == 3 || form == 4 ? 4 : tr_nt_fwd(KP); }

// the fastest measured: 6 (H200, session 14, bench_cuda_ops transition f+b: 2.62 / 7.28 / 28.96 ms
// with 5 -> 2.39 / 6.69 / 26.70 with 6 at N = 512 / 1024 / 2048); see docs/CUDA.md
#define TR_HID_DEFAULT 6
static int g_tr_hid = 0, g_tr_hid_grid = 0;  // the kernels' form (0: PF_TR_HID at the next call); tests' grid cap
// PF_TR_HID (unset: TR_HID_DEFAULT): 1 (k_tr_hidden, k_tr_hidden_grad: the first kernels), 2
// (k_tr_hidden2, k_tr_hidden_grad2: persistent, pair-packed tiles; the same bits), 3 (2
// with 32-channel forward tiles, three blocks per SM), 4 (k_tr_hidden3: the forward
// software-pipelined, 32-channel tiles; the backward of 2), 5 (2 whose backward's grad
// kernel writes h and runs the LayerNorm: no recompute of h by a forward kernel; the same
// bits), 6 (5 with the forward and the backward's grad kernel on Hopper wgmma, k_trwg in
// cu_transition_wg.cu, where cu_trwg_applies: sm_90, c <= 128; else form 5; not the same
// bits), 7 (6's forward, 5's backward); process-wide, parsed at the first fused call.
static int tr_hid_form(void) {
    if (!g_tr_hid) {
        const char *e = getenv("PF_TR_HID");
        if (!e || !*e) g_tr_hid = TR_HID_DEFAULT;
        else if (e[0] >= '1' && e[0] <= '7' && !e[1]) g_tr_hid = e[0] - '0';
        else pf_die("PF_TR_HID=%s: expected 1 (k_tr_hidden), 2 (k_tr_hidden2, persistent, the same "
                    "bits), 3 (k_tr_hidden2 with 32-channel forward tiles), 4 (k_tr_hidden3, pipelined) or 5 (2 "
                    "with h written by the backward's grad kernel, no recompute), 6 (5 on Hopper wgmma, sm_90 and "
                    "c <= 128) or 7 (6's forward, 5's backward)", e);
    }
    return g_tr_hid;
}
extern "C" void pf_cuda_set_transition_hidden(pf_backend *be, int form, int blocks) {
    (void)be;
    g_tr_hid = form >= 1 && form <= 7 ? form : 0;  // 0: PF_TR_HID / the default again
    g_tr_hid_grid = blocks > 0 ? blocks : 0;
}

int cu_tr_fused_applies(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p) {
    int swi = d->act == PF_ACT_SWIGLU;
    if (!c->bf16 || !c->tr_fused || d->M < 1 || d->n < 1 || d->c < 8 || d->c % 8 || d->c > TS_KMAX) return 0;
    if (swi && (p->lin_a.b || p->lin_b.b)) return 0;
    // ReLU (AF2) keeps the unfused path: its fused backward gave gradients 2-9% off the CPU
    // reference in test_cuda on the H200 (session 8; the forward matched). Not yet found.
    if (!swi) return 0;
    int KP = ts_depth(d->c), form = tr_hid_form();
    int fwd = form > 1 ? tr_smem_fwd2(KP, tr_nt_fwd_form(form, KP), form) : tr_smem_fwd(swi, KP, tr_nt_fwd(KP));
    int bwd = form > 1 ? tr_smem_bwd2(KP, form >= 5) : tr_smem_bwd(swi, KP, 4);
    int dev = 0, major = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) return 0;
    return major >= 8 && (fwd > bwd ? fwd : bwd) <= optin;
}

// q's outputs (the bias where a Linear has one, wgmma's copy where wg): kept across calls
// (PF_WCACHE, cu_small.cuh; k_tr_pack runs when new or after a parameter write) or in pool
// scratch (the caller releases it; packed now).
static void tr_pack_into(cu_impl *c, tr_pack_q *q, int rows, int wg) {
    size_t wb = sizeof(bf16) * (size_t)q->n, bb = q->ba || q->bb ? sizeof(float) * (size_t)rows : 0;
    struct { const void *src[4]; int64_t tag, c, nc, KP, swi, form, wg; } sig;
    memset(&sig, 0, sizeof sig);
    sig.src[0] = q->wa, sig.src[1] = q->wb, sig.src[2] = q->ba, sig.src[3] = q->bb;
    sig.tag = 3, sig.c = q->c, sig.nc = q->nc, sig.KP = q->KP, sig.swi = q->swi, sig.form = q->form, sig.wg = wg;
    int build;
    char *buf = (char *)cu_wcache(c, PF_WC_TR_PACK, &sig, sizeof sig, (wg ? 2 : 1) * wb + bb, &build);  // wb: rows % 128 == 0
    if (buf) {
        q->wout = (bf16 *)buf;
        q->wg = wg ? (bf16 *)(buf + wb) : NULL;
        q->bout = bb ? (float *)(buf + (wg ? 2 : 1) * wb) : NULL;
    } else {
        q->wout = (bf16 *)cu_pool_get(c, wb);
        q->bout = bb ? (float *)cu_pool_get(c, bb) : NULL;
        q->wg = wg ? (bf16 *)cu_pool_get(c, wb) : NULL;
    }
    if (!build) return;
    k_tr_pack<<<cu_blocks(q->n, 256), 256, 0, c->stream>>>(*q);
    CU_LAUNCHED();
}

void cu_tr_pack(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, cu_tr_packed *pk) {
    tr_pack_q q;
    q.swi = d->act == PF_ACT_SWIGLU;
    q.c = d->c, q.nc = d->n * d->c, q.KP = ts_depth(d->c), q.form = q.swi ? tr_hid_form() : 1;
    int rows = (q.swi ? 2 : 1) * q.nc;
    rows = (rows + 127) / 128 * 128;
    q.wa = p->lin_a.w, q.ba = p->lin_a.b;
    q.wb = q.swi ? p->lin_b.w : NULL, q.bb = q.swi ? p->lin_b.b : NULL;
    q.n = (int64_t)rows * q.KP;
    tr_pack_into(c, &q, rows, q.form >= 6 && cu_trwg_applies(q.KP));
    pk->w = q.wout, pk->bias = q.bout, pk->KP = q.KP, pk->rows = rows, pk->form = q.form;
    pk->grad_h = q.form >= 5;
    pk->wg = q.wg, pk->wg_bwd = q.wg && q.form == 6;
}

static tr_args tr_make_args(const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R, const void *xl,
                            const void *mask, int NT) {
    tr_args a;
    memset(&a, 0, sizeof a);
    a.xl = (const bf16 *)xl, a.w = pk->w, a.bias = pk->bias, a.mask = (const bf16 *)mask;
    a.M = R, a.c = d->c, a.nc = d->n * d->c;
    int ow = (d->act == PF_ACT_SWIGLU ? 8 : 16) * NT;
    a.tiles = (a.nc + ow - 1) / ow;
    return a;
}

// One kernel instance over the R rows, TS_BM per block, with its shared memory opted in.
template <typename K>
static void tr_launch(cu_impl *c, K kern, const tr_args &a, int bytes) {
    CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    kern<<<(unsigned)((a.M + TS_BM - 1) / TS_BM), TS_THREADS, bytes, c->stream>>>(a);
    CU_LAUNCHED();
}

// The forward's tile width by depth, as tr_nt_fwd: 8 n-tiles up to 128, 4 at 256.
template <bool SWI>
static void tr_launch_fwd(cu_impl *c, const tr_args &a, int KP, int bytes) {
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        tr_launch(c, k_tr_hidden<SWI, (K > 128 ? 4 : 8), K>, a, bytes);
    });
}

// A persistent kernel (k_tr_hidden2, k_tr_hidden_grad2: kern(a, position blocks)) on one
// wave of blocks, at most one per position block and at most g_tr_hid_grid where set.
template <typename K>
static void tr_launch_persistent(cu_impl *c, K kern, const tr_args &a, int bytes) {
    CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    int occ = 0;
    CU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, TS_THREADS, (size_t)bytes));
    int64_t nblk = (a.M + TS_BM - 1) / TS_BM, wave = (int64_t)(occ > 0 ? occ : 1) * (c->n_sm > 0 ? c->n_sm : 1);
    if (g_tr_hid_grid > 0 && g_tr_hid_grid < wave) wave = g_tr_hid_grid;
    kern<<<(unsigned)(nblk < wave ? nblk : wave), TS_THREADS, bytes, c->stream>>>(a, nblk);
    CU_LAUNCHED();
}

// Forms 2, 3, 4 (SwiGLU; packed by cu_tr_pack in that form).
static void tr_hidden2(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R, const void *xl,
                       const pf_layernorm_p *ln, void *xl_out, const void *mask, void *h) {
    int NT = tr_nt_fwd_form(pk->form, pk->KP);
    tr_args a = tr_make_args(d, pk, R, xl, mask, NT);
    a.h = (bf16 *)h;
    if (ln) a.ln_w = ln->w, a.ln_b = ln->b, a.xl_out = (bf16 *)xl_out;
    int bytes = tr_smem_fwd2(pk->KP, NT, pk->form);
    ts_by_depth(pk->KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        if (pk->form == 4) tr_launch_persistent(c, k_tr_hidden3<K>, a, bytes);
        else if (NT == 4) tr_launch_persistent(c, k_tr_hidden2<4, K>, a, bytes);
        else if constexpr (K <= 128) tr_launch_persistent(c, k_tr_hidden2<8, K>, a, bytes);
    });
}

void cu_tr_hidden_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                        const void *xl, const pf_layernorm_p *ln, void *xl_out, const void *mask, void *h) {
    if (pk->wg) {  // forms 6, 7 on sm_90
        tr_args a = tr_make_args(d, pk, R, xl, mask, 4);
        a.h = (bf16 *)h;
        if (ln) a.ln_w = ln->w, a.ln_b = ln->b, a.xl_out = (bf16 *)xl_out;
        cu_trwg_hidden(c, &a, pk->wg, pk->KP);
        c->tr_fused_runs++;
        return;
    }
    if (pk->form >= 2) {
        tr_hidden2(c, d, pk, R, xl, ln, xl_out, mask, h);
        c->tr_fused_runs++;
        return;
    }
    int swi = d->act == PF_ACT_SWIGLU, NT = tr_nt_fwd(pk->KP);
    tr_args a = tr_make_args(d, pk, R, xl, mask, NT);
    a.h = (bf16 *)h;
    if (ln) a.ln_w = ln->w, a.ln_b = ln->b, a.xl_out = (bf16 *)xl_out;
    if (swi) tr_launch_fwd<true>(c, a, pk->KP, tr_smem_fwd(1, pk->KP, NT));
    else tr_launch_fwd<false>(c, a, pk->KP, tr_smem_fwd(0, pk->KP, NT));
    c->tr_fused_runs++;
}

void cu_tr_hidden_grad_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                             const void *xl, const pf_layernorm_p *ln, void *xl_out, const void *mask, void *dh,
                             void *dab) {
    int swi = d->act == PF_ACT_SWIGLU;
    tr_args a = tr_make_args(d, pk, R, xl, mask, 4);
    a.dh = (const bf16 *)dh, a.dab = (bf16 *)dab;
    if (pk->grad_h) {  // h over dh; the LayerNorm in the prologue where ln is given
        a.h = (bf16 *)dh;
        if (ln) a.ln_w = ln->w, a.ln_b = ln->b, a.xl_out = (bf16 *)xl_out;
    } else if (ln) {
        pf_die("cu_tr_hidden_grad_fused: a LayerNorm prologue without form 5");  // cu_transition.cu's caller
    }
    if (pk->wg_bwd) {  // form 6 on sm_90 (grad_h)
        cu_trwg_hidden_grad(c, &a, pk->wg, pk->KP);
        c->tr_fused_runs++;
        return;
    }
    if (pk->form >= 2) {
        ts_by_depth(pk->KP, [&](auto kp) {
            constexpr int K = decltype(kp)::value;
            if (pk->grad_h) tr_launch_persistent(c, k_tr_hidden_grad2<4, K, true>, a, tr_smem_bwd2(K, 1));
            else tr_launch_persistent(c, k_tr_hidden_grad2<4, K, false>, a, tr_smem_bwd2(K, 0));
        });
        c->tr_fused_runs++;
        return;
    }
    int bytes = tr_smem_bwd(swi, pk->KP, 4);
    ts_by_depth(pk->KP, [&](auto kp) {
        if (swi) tr_launch(c, k_tr_hidden_grad<true, 4, decltype(kp)::value>, a, bytes);
        else tr_launch(c, k_tr_hidden_grad<false, 4, decltype(kp)::value>, a, bytes);
    });
    c->tr_fused_runs++;
}
