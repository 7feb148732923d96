// cu_trimul_ln.cu: LayerNorm_out of the triangle multiplication read straight from
// the contraction's channel-major output X (C, ld) (PF_TRIMUL_FUSED=3; cu_trimul.cuh).
//
// Without it X is transposed into x (positions, C) and LayerNorm runs on x: two passes
// over a z-sized tensor more than needed (the transpose's read and write) in the
// forward and in the backward's recompute, and the backward transposes dx back to
// channel-major for dA, dB. Here a block takes a tile of P positions: it loads the
// (C x P) tile of X coalesced along positions (16-byte loads where aligned) into shared
// memory, a warp per position reduces over the channels there (the statistics of
// cu_prim.cu's k_ln_fwd: lane holds channels lane + 32 j, two passes, fp32; so the same
// bits as that kernel), and the (P x C) result leaves through shared memory as one
// contiguous run of 16-byte stores. The backward reads X the same way, writes dx over
// X channel-major in place (the layout dA, dB take) and its parameter-gradient partials
// per block over a fixed range of tiles, summed in block order: no atomics. The blocks
// are one wave of the device (SMs x occupancy): the same bits every run on a device.
// PF_TM_LN_CM=2 runs the forward with C constant and the backward as k_tm_ln_cm_bwd2 (the
// same bits, fewer instructions; below, docs/TRIMUL.md).
#include "cu_trimul.cuh"
#include "cu_lnv.cuh"
#include "cuda_backend.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_WARPS 8
#define TL_THREADS (32 * TL_WARPS)
#define TL_SMEM 40960       // bytes of one block's tiles: under the 48 KB without opt-in

static int64_t tl_runs;  // launches of the forward kernel (tests: the path was taken)

// Row stride (elements) of the channel-major staging tile: P + pad is an odd number of
// 4-byte words for P a multiple of 8, so a warp reading one position across 32
// channels touches 32 banks.
template <typename T>
__host__ __device__ constexpr int tl_stride(int P) {
    return P + (sizeof(T) == 4 ? 1 : 2);
}
// Bytes of a block's tiles: X's (C x P) channel-major, then the (P x C) rows.
template <typename T>
__host__ __device__ constexpr size_t tl_tile_bytes_c(int C, int P) {
    return (((size_t)C * tl_stride<T>(P) * sizeof(T) + 15) & ~(size_t)15) + (size_t)P * C * sizeof(T);
}
template <typename T>
static size_t tl_tile_bytes(int C, int P) {
    return tl_tile_bytes_c<T>(C, P);
}
template <typename T>
__device__ __forceinline__ T *tl_rows_of(T *s, int C, int P) {
    size_t cm = ((size_t)C * tl_stride<T>(P) * sizeof(T) + 15) & ~(size_t)15;
    return reinterpret_cast<T *>(reinterpret_cast<char *>(s) + cm);
}

// 8 elements as 16-byte words (raw bits): TL_NV of them.
#define TL_NV(T) ((int)(8 * sizeof(T) / 16))
template <typename T>
__device__ __forceinline__ void tl_ld8(const T *g, uint4 *r) {  // g 16-byte aligned
#pragma unroll
    for (int v = 0; v < TL_NV(T); v++) r[v] = reinterpret_cast<const uint4 *>(g)[v];
}
template <typename T>
__device__ __forceinline__ void tl_sts8(T *s, const uint4 *r) {  // s 4-byte aligned
    uint32_t *sw = reinterpret_cast<uint32_t *>(s);
#pragma unroll
    for (int v = 0; v < TL_NV(T); v++)
        sw[4 * v] = r[v].x, sw[4 * v + 1] = r[v].y, sw[4 * v + 2] = r[v].z, sw[4 * v + 3] = r[v].w;
}
// 8 elements: global (16-byte aligned) -> shared (4-byte aligned), raw bits.
template <typename T>
__device__ __forceinline__ void tl_g2s8(const T *g, T *s) {
    uint4 r[TL_NV(T)];
    tl_ld8(g, r);
    tl_sts8(s, r);
}
// 8 elements: shared (4-byte aligned) -> global (16-byte aligned), raw bits.
template <typename T>
__device__ __forceinline__ void tl_s2g8(const T *s, T *g) {
    const uint32_t *sw = reinterpret_cast<const uint32_t *>(s);
    uint4 *gv = reinterpret_cast<uint4 *>(g);
#pragma unroll
    for (int v = 0; v < (int)(8 * sizeof(T) / 16); v++)  // stg16: a cast store came out as 4 x 4 bytes
        stg16(gv + v, make_uint4(sw[4 * v], sw[4 * v + 1], sw[4 * v + 2], sw[4 * v + 3]));
}

// A whole tile of 16-byte runs: each thread's TL_U loads in flight before their stores.
#define TL_U 4
template <typename T>
__device__ __forceinline__ void tl_load_cm_full(const T *X, int64_t ldx, int64_t p0, int P, int C, T *s) {
    const int S = tl_stride<T>(P), per = P / 8, n = C * per;
    for (int i0 = threadIdx.x; i0 < n; i0 += TL_U * blockDim.x) {
        uint4 r[TL_U][TL_NV(T)];
#pragma unroll
        for (int u = 0; u < TL_U; u++) {
            int i = i0 + u * blockDim.x;
            if (i < n) tl_ld8(X + (int64_t)(i / per) * ldx + p0 + (i % per) * 8, r[u]);
        }
#pragma unroll
        for (int u = 0; u < TL_U; u++) {
            int i = i0 + u * blockDim.x;
            if (i < n) tl_sts8(s + (i / per) * S + (i % per) * 8, r[u]);
        }
    }
}
// s (C, stride) <- X's positions [p0, p0 + np) of every channel (0 past np).
// vec: X and ld allow 16-byte runs of 8 positions.
template <typename T>
__device__ void tl_load_cm(const T *X, int64_t ldx, int64_t p0, int np, int P, int C, T *s, bool vec) {
    if (vec && np == P) {
        tl_load_cm_full(X, ldx, p0, P, C, s);
        return;
    }
    const int S = tl_stride<T>(P), per = vec ? P / 8 : P, w = vec ? 8 : 1;
    for (int i = threadIdx.x; i < C * per; i += blockDim.x) {
        int ch = i / per, k0 = (i % per) * w;
        const T *g = X + (int64_t)ch * ldx + p0 + k0;
        T *d = s + ch * S + k0;
        if (vec && k0 + 8 <= np) tl_g2s8(g, d);
        else
            for (int k = 0; k < w; k++) d[k] = k0 + k < np ? g[k] : T(0.f);
    }
}
// X's positions [p0, p0 + np) <- s (C, stride).
template <typename T>
__device__ void tl_store_cm(const T *s, T *X, int64_t ldx, int64_t p0, int np, int P, int C, bool vec) {
    const int S = tl_stride<T>(P), per = vec ? P / 8 : P, w = vec ? 8 : 1;
    for (int i = threadIdx.x; i < C * per; i += blockDim.x) {
        int ch = i / per, k0 = (i % per) * w;
        T *g = X + (int64_t)ch * ldx + p0 + k0;
        const T *d = s + ch * S + k0;
        if (vec && k0 + 8 <= np) tl_s2g8(d, g);
        else
            for (int k = 0; k < w && k0 + k < np; k++) g[k] = d[k];
    }
}
// A contiguous run of n elements, global <-> shared (to_s: into shared; loads from
// global TL_U at a time before their stores).
template <typename T>
__device__ void tl_copy_rows(const T *src, T *dst, int n, bool vec, bool to_s) {
    if (vec && to_s) {
        for (int i0 = threadIdx.x * 8; i0 < n; i0 += TL_U * blockDim.x * 8) {
            uint4 r[TL_U][TL_NV(T)];
#pragma unroll
            for (int u = 0; u < TL_U; u++)
                if (i0 + u * (int)blockDim.x * 8 < n) tl_ld8(src + i0 + u * blockDim.x * 8, r[u]);
#pragma unroll
            for (int u = 0; u < TL_U; u++)
                if (i0 + u * (int)blockDim.x * 8 < n) tl_sts8(dst + i0 + u * blockDim.x * 8, r[u]);
        }
    } else if (vec) {
        for (int i = threadIdx.x * 8; i < n; i += blockDim.x * 8) tl_s2g8(src + i, dst + i);
    } else {
        for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
    }
}

// One position's channels from the staging tile (0 past C), its mean and 1 / sqrt(var
// + eps) by ln_stats (cu_lnv.cuh), as cu_prim.cu's LayerNorm.
template <typename T, int CPL>
__device__ __forceinline__ void tl_stats(const T *s, int S, int p, int C, int lane, float (&v)[CPL], float &mu,
                                         float &rs) {
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        v[j] = ch < C ? ld(s, (int64_t)ch * S + p) : 0.f;
    }
    ln_stats<CPL>(v, C, lane, mu, rs);
}
template <int CPL>
__device__ __forceinline__ void tl_param(const float *w, int C, int lane, float (&r)[CPL]) {
#pragma unroll
    for (int j = 0; j < CPL; j++) r[j] = lane + 32 * j < C ? w[lane + 32 * j] : 0.f;
}

// y (n, C) = LN(X's positions [0, n)), X (C, ld); a block per tile of P positions.
// CC, PP: C and P as constants (variant 2, PF_TM_LN_CM=2: no run-time divisions by C, no
// per-channel branches; the same bits), else 0 (C_, P_ at run time).
template <typename T, int CPL, int CC, int PP>
__global__ void __launch_bounds__(TL_THREADS)
    k_tm_ln_cm_fwd(int64_t n, int C_, int P_, const float *w, const float *b, const T *X, int64_t ldx, T *y,
                   bool xvec, bool yvec) {
    const int C = CC ? CC : C_, P = PP ? PP : P_;
    extern __shared__ __align__(16) unsigned char tl_sm[];
    T *s = reinterpret_cast<T *>(tl_sm), *o = tl_rows_of(s, C, P);  // (C, S), (P, C)
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, S = tl_stride<T>(P);
    int64_t p0 = (int64_t)blockIdx.x * P;
    int np = n - p0 < P ? (int)(n - p0) : P;
    tl_load_cm(X, ldx, p0, np, P, C, s, xvec);
    float wr[CPL], br[CPL];
    tl_param<CPL>(w, C, lane, wr);
    tl_param<CPL>(b, C, lane, br);
    __syncthreads();
    for (int p = wid; p < np; p += TL_WARPS) {
        float v[CPL], mu, rs;
        tl_stats<T, CPL>(s, S, p, C, lane, v, mu, rs);
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            float yv = __fmaf_rn(__fmul_rn(__fsub_rn(v[j], mu), rs), wr[j], br[j]);  // roundings spelled out
            if (ch < C) st(o, (int64_t)p * C + ch, yv);
        }
    }
    __syncthreads();
    tl_copy_rows(o, y + p0 * C, np * C, yvec, false);
}

// dX (C, ld) <- dx over positions [0, n) from dy (n, C) (the gradient of LN(X)); dX may
// be X (in place: a tile is read whole before its dx is stored); part
// (gridDim.x, 2, C): the block's sums of dy * xhat and dy over its tiles (a contiguous
// range, so the order is fixed). k_ln_bwd's arithmetic, term for term.
template <typename T, int CPL>
__global__ void __launch_bounds__(TL_THREADS)
    k_tm_ln_cm_bwd(int64_t n, int C, int P, const float *w, const T *X, T *dX, int64_t ldx, const T *dy, float *part,
                   bool xvec, bool dvec) {
    extern __shared__ __align__(16) unsigned char tl_sm[];
    T *s = reinterpret_cast<T *>(tl_sm), *o = tl_rows_of(s, C, P);  // (C, S), (P, C)
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, S = tl_stride<T>(P);
    int64_t tiles = (n + P - 1) / P, per = (tiles + gridDim.x - 1) / gridDim.x;
    int64_t t0 = (int64_t)blockIdx.x * per, t1 = t0 + per < tiles ? t0 + per : tiles;
    float wr[CPL], aw[CPL], ab[CPL];
    tl_param<CPL>(w, C, lane, wr);
#pragma unroll
    for (int j = 0; j < CPL; j++) aw[j] = ab[j] = 0.f;
    for (int64_t t = t0; t < t1; t++) {
        int64_t p0 = t * P;
        int np = n - p0 < P ? (int)(n - p0) : P;
        tl_load_cm(X, ldx, p0, np, P, C, s, xvec);
        tl_copy_rows(dy + p0 * C, o, np * C, dvec, true);
        __syncthreads();
        for (int p = wid; p < np; p += TL_WARPS) {
            float v[CPL], g[CPL], mu, rs, s1 = 0, s2 = 0;
            tl_stats<T, CPL>(s, S, p, C, lane, v, mu, rs);
#pragma unroll
            for (int j = 0; j < CPL; j++) {
                int ch = lane + 32 * j;
                g[j] = ch < C ? ld(o, (int64_t)p * C + ch) : 0.f;
                // the roundings spelled out (no contraction left to the compiler, which
                // chose per code path: k_tm_ln_cm_bwd2 does the same operations)
                float xh = __fmul_rn(__fsub_rn(v[j], mu), rs);
                v[j] = xh;
                if (ch < C) {
                    float dxh = __fmul_rn(g[j], wr[j]);
                    s1 = __fadd_rn(s1, dxh);
                    s2 = __fmaf_rn(xh, dxh, s2);
                    aw[j] = __fmaf_rn(xh, g[j], aw[j]);
                    ab[j] = __fadd_rn(ab[j], g[j]);
                }
            }
#pragma unroll
            for (int k = 16; k; k >>= 1) {
                s1 += __shfl_xor_sync(0xffffffffu, s1, k);
                s2 += __shfl_xor_sync(0xffffffffu, s2, k);
            }
            s1 /= C;
            s2 /= C;
#pragma unroll
            for (int j = 0; j < CPL; j++) {  // the lane's own channels of column p: read above
                int ch = lane + 32 * j;
                float t = __fmaf_rn(-v[j], s2, __fmaf_rn(g[j], wr[j], -s1));  // g w - s1 - xh s2
                if (ch < C) st(s, (int64_t)ch * S + p, __fmaf_rn(rs, t, 0.f));
            }
        }
        __syncthreads();
        tl_store_cm(s, dX, ldx, p0, np, P, C, xvec);
        __syncthreads();
    }
    float *red = reinterpret_cast<float *>(tl_sm);  // (TL_WARPS, 2, 32 CPL): the tiles are done
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        red[(wid * 2 + 0) * 32 * CPL + lane + 32 * j] = aw[j];
        red[(wid * 2 + 1) * 32 * CPL + lane + 32 * j] = ab[j];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * C; i += blockDim.x) {
        int k = i / C, ch = i % C;
        float a = 0;
        for (int u = 0; u < TL_WARPS; u++) a += red[(u * 2 + k) * 32 * CPL + ch];
        part[(int64_t)blockIdx.x * 2 * C + i] = a;
    }
}

// ---- the backward, variant 2 (PF_TM_LN_CM=2) -------------------------------------
// k_tm_ln_cm_bwd measured ~0.45 ms per (2^20, 128) bf16 call on the H200 where its bytes
// need ~0.19: it is instruction-bound. With C and P known only at run time every
// position pays 4 IEEE divisions by C (a slow-path check and call each), a branch and
// an address recomputation around each of its CPL shared-memory stores, and integer
// divisions by P / 8 in the tile copies (~310 instructions per position, SASS); and a
// tile's X and dy loads are two round trips. Variant 2 is the same kernel with C and
// P as template constants where C = 32 CPL (the model's widths: divisions by a power
// of two become exact multiplications, no per-channel branches), two positions per warp
// step (their shuffle chains overlap), and X's and dy's loads of a tile issued together.
// The arithmetic is variant 1's, term for term, in the same order (both spell out their
// roundings: __fmul_rn, __fmaf_rn ...), over variant 1's blocks and tile ranges: dx and
// the parameter gradients the same bits.

// dy's rows of a whole tile (P x C, contiguous, 16-byte aligned) -> o, asynchronously
// (cp.async, sm_80+: no registers held; tl_cp_wait before the block's barrier).
template <typename T>
__device__ __forceinline__ void tl_cp_rows(const T *dy, T *o, int n) {
    const char *src = reinterpret_cast<const char *>(dy);
    uint32_t dst = (uint32_t)__cvta_generic_to_shared(o);
    for (int i = threadIdx.x; i < n * (int)sizeof(T) / 16; i += TL_THREADS)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst + 16 * i), "l"(src + 16 * (int64_t)i));
    asm volatile("cp.async.commit_group;\n" ::);
}
__device__ __forceinline__ void tl_cp_wait() { asm volatile("cp.async.wait_all;\n" ::); }

// X's positions [p0, p0 + P) <- s (C, stride): a whole tile of 16-byte runs (tl_s2g8's stg16).
template <typename T>
__device__ __forceinline__ void tl_store_cm_full(const T *s, T *X, int64_t ldx, int64_t p0, int P, int C) {
    const int S = tl_stride<T>(P), per = P / 8, n = C * per;
    for (int i = threadIdx.x; i < n; i += TL_THREADS)
        tl_s2g8(s + (i / per) * S + (i % per) * 8, X + (int64_t)(i / per) * ldx + p0 + (i % per) * 8);
}

// Positions pp[0], pp[1] of the tile (the second only where two): dx over X's staging
// tile s, the lane's parameter-gradient sums aw, ab. k_tm_ln_cm_bwd's loop body, two
// positions at once, in its order (pp[0] < pp[1] are consecutive positions of the warp).
template <typename T, int CPL>
__device__ __forceinline__ void tl_bwd_two(T *s, const T *o, int S, int C, int lane, const int (&pp)[2], bool two,
                                           const float (&wr)[CPL], float (&aw)[CPL], float (&ab)[CPL]) {
    float v[2][CPL], g[2][CPL], mu[2], rs[2], s1[2] = {0, 0}, s2[2] = {0, 0};
#pragma unroll
    for (int k = 0; k < 2; k++) {
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            v[k][j] = ch < C ? ld(s, (int64_t)ch * S + pp[k]) : 0.f;
            g[k][j] = ch < C ? ld(o, (int64_t)pp[k] * C + ch) : 0.f;
        }
    }
#pragma unroll
    for (int k = 0; k < 2; k++) ln_stats<CPL>(v[k], C, lane, mu[k], rs[k]);
#pragma unroll
    for (int k = 0; k < 2; k++) {
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            // variant 1's operations, the roundings spelled out as there
            float xh = __fmul_rn(__fsub_rn(v[k][j], mu[k]), rs[k]);
            v[k][j] = xh;
            if (ch < C) {
                float dxh = __fmul_rn(g[k][j], wr[j]);
                s1[k] = __fadd_rn(s1[k], dxh);
                s2[k] = __fmaf_rn(xh, dxh, s2[k]);
                if (k == 0 || two) {
                    aw[j] = __fmaf_rn(xh, g[k][j], aw[j]);
                    ab[j] = __fadd_rn(ab[j], g[k][j]);
                }
            }
        }
    }
#pragma unroll
    for (int m = 16; m; m >>= 1) {
#pragma unroll
        for (int k = 0; k < 2; k++) {
            s1[k] += __shfl_xor_sync(0xffffffffu, s1[k], m);
            s2[k] += __shfl_xor_sync(0xffffffffu, s2[k], m);
        }
    }
#pragma unroll
    for (int k = 0; k < 2; k++) {
        s1[k] /= C;
        s2[k] /= C;
        if (k == 1 && !two) break;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            float t = __fmaf_rn(-v[k][j], s2[k], __fmaf_rn(g[k][j], wr[j], -s1[k]));  // as variant 1
            if (ch < C) st(s, (int64_t)ch * S + pp[k], __fmaf_rn(rs[k], t, 0.f));
        }
    }
}

// k_tm_ln_cm_bwd's contract (part (gridDim.x, 2, C)); CC, PP: C and P where constant, else 0.
// bf16 with C constant, C <= 128: TL_BWD2_MINB blocks per SM at least (64 registers at
// 256 threads: 4 blocks, 32 warps; unbounded, C = 128 took 80, 3 blocks); the bound
// spills elsewhere (fp32, C at run time), which keep their registers.
#define TL_BWD2_MINB 4
template <typename T, int CPL, int CC, int PP>
__global__ void __launch_bounds__(TL_THREADS, sizeof(T) == 2 && CC && CPL <= 4 ? TL_BWD2_MINB : 1)
    k_tm_ln_cm_bwd2(int64_t n, int C_, int P_, const float *w, const T *X, T *dX, int64_t ldx, const T *dy,
                    float *part, bool xvec, bool dvec) {
    extern __shared__ __align__(16) unsigned char tl_sm[];
    const int C = CC ? CC : C_, P = PP ? PP : P_;
    T *s = reinterpret_cast<T *>(tl_sm), *o = tl_rows_of(s, C, P);  // (C, S), (P, C)
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, S = tl_stride<T>(P);
    int64_t tiles = (n + P - 1) / P, per = (tiles + gridDim.x - 1) / gridDim.x;
    int64_t t0 = (int64_t)blockIdx.x * per, t1 = t0 + per < tiles ? t0 + per : tiles;
    float wr[CPL], aw[CPL], ab[CPL];
    tl_param<CPL>(w, C, lane, wr);
#pragma unroll
    for (int j = 0; j < CPL; j++) aw[j] = ab[j] = 0.f;
    // whole 16-byte tiles (fast): dy's rows come by cp.async, issued while the tile
    // before stores its dx (o is free then), so only X's loads wait in the tile
    auto fast = [&](int64_t t) { return xvec && dvec && n - t * P >= P; };
    if (t0 < t1 && fast(t0)) tl_cp_rows(dy + t0 * P * C, o, P * C);
    for (int64_t t = t0; t < t1; t++) {
        int64_t p0 = t * P;
        int np = n - p0 < P ? (int)(n - p0) : P;
        if (fast(t)) {
            tl_load_cm_full(X, ldx, p0, P, C, s);
            tl_cp_wait();
        } else {
            tl_load_cm(X, ldx, p0, np, P, C, s, xvec);
            tl_copy_rows(dy + p0 * C, o, np * C, dvec, true);
        }
        __syncthreads();
        // the warp's positions wid, wid + 8, ... in pairs (a lone last one computed twice,
        // stored and summed once)
        for (int p = wid; p < np; p += 2 * TL_WARPS) {
            bool two = p + TL_WARPS < np;
            const int pp[2] = {p, two ? p + TL_WARPS : p};
            tl_bwd_two<T, CPL>(s, o, S, C, lane, pp, two, wr, aw, ab);
        }
        __syncthreads();
        if (t + 1 < t1 && fast(t + 1)) tl_cp_rows(dy + (p0 + P) * C, o, P * C);
        if (xvec && np == P) tl_store_cm_full(s, dX, ldx, p0, P, C);
        else tl_store_cm(s, dX, ldx, p0, np, P, C, xvec);
        __syncthreads();
    }
    float *red = reinterpret_cast<float *>(tl_sm);  // (TL_WARPS, 2, 32 CPL): the tiles are done
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        red[(wid * 2 + 0) * 32 * CPL + lane + 32 * j] = aw[j];
        red[(wid * 2 + 1) * 32 * CPL + lane + 32 * j] = ab[j];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * C; i += TL_THREADS) {
        int k = i / C, ch = i % C;
        float a = 0;
        for (int u = 0; u < TL_WARPS; u++) a += red[(u * 2 + k) * 32 * CPL + ch];
        part[(int64_t)blockIdx.x * 2 * C + i] = a;
    }
}

// gw, gb (C) += the sums over nb partials (nb, 2, C): a block per column, its threads'
// strided sums then a tree, in a fixed order.
__global__ void k_tm_ln_parts(int nb, int C, const float *part, float *gw, float *gb) {
    __shared__ float r[128];
    int i = blockIdx.x;
    float a = 0;
    for (int b = threadIdx.x; b < nb; b += 128) a += part[(int64_t)b * 2 * C + i];
    r[threadIdx.x] = a;
    __syncthreads();
    for (int h = 64; h; h >>= 1) {
        if ((int)threadIdx.x < h) r[threadIdx.x] += r[threadIdx.x + h];
        __syncthreads();
    }
    float *o = i < C ? gw : gb;
    if (threadIdx.x == 0 && o) o[i % C] += r[0];
}

// Positions per tile: the most (64 down to 8) whose tiles fit TL_SMEM.
template <typename T>
__host__ __device__ constexpr int tl_positions_c(int C) {
    int P = 64;
    while (P > 8 && tl_tile_bytes_c<T>(C, P) > TL_SMEM) P /= 2;
    return P;
}
template <typename T>
static int tl_positions(int C) {
    return tl_positions_c<T>(C);
}
static bool tl_vec_cm(const void *X, int64_t ldx) { return ldx % 8 == 0 && ((uintptr_t)X & 15) == 0; }
// The backward's X and dX (the same buffer in place) both allow 16-byte runs.
static bool tl_vec_cm2(const void *X, const void *dX, int64_t ldx) { return tl_vec_cm(X, ldx) && tl_vec_cm(dX, ldx); }
static bool tl_vec_rows(const void *y, int C) { return C % 8 == 0 && ((uintptr_t)y & 15) == 0; }

// PF_TM_LN_CM, mode 3's LN_out kernels: 1, k_tm_ln_cm_fwd with C at run time and
// k_tm_ln_cm_bwd; 2 or unset (the default since session 11), k_tm_ln_cm_fwd with C and P
// constant where C = 32 CPL and k_tm_ln_cm_bwd2. Read once; pf_cuda_set_tm_ln_cm overrides it (tests).
static int tl_cm_variant;
static int64_t tl_cm2_runs;  // launches of variant 2's kernels (tests: the path was taken)
static int tl_cm_env(void) {
    if (!tl_cm_variant) {
        const char *e = getenv("PF_TM_LN_CM");
        if (e && !strcmp(e, "1")) tl_cm_variant = 1;
        else if (!e || !*e || !strcmp(e, "2")) tl_cm_variant = 2;
        else pf_die("PF_TM_LN_CM=%s: expected 1 (C at run time, k_tm_ln_cm_bwd) or 2 (C constant, "
                    "k_tm_ln_cm_bwd2: the default)", e);
    }
    return tl_cm_variant;
}

template <typename T, int CPL, bool FULL>
static void tl_launch_fwd_t(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, const void *X, int64_t ldx,
                            void *y) {
    constexpr int CC = FULL ? 32 * CPL : 0;
    constexpr int PP = FULL ? tl_positions_c<T>(32 * CPL) : 0;
    int P = tl_positions<T>(C);
    int64_t tiles = (n + P - 1) / P;
    k_tm_ln_cm_fwd<T, CPL, CC, PP><<<(unsigned)tiles, TL_THREADS, tl_tile_bytes<T>(C, P), c->stream>>>(
        n, C, P, p->w, p->b, (const T *)X, ldx, (T *)y, tl_vec_cm(X, ldx), tl_vec_rows(y, C));
    CU_LAUNCHED();
}
template <int CPL>
static void tl_launch_fwd(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, const void *X, int64_t ldx, void *y) {
    const int full = tl_cm_env() == 2 && C == 32 * CPL;
    CU_DISPATCH(c, T, {
        if (full) tl_launch_fwd_t<T, CPL, true>(c, n, C, p, X, ldx, y);
        else tl_launch_fwd_t<T, CPL, false>(c, n, C, p, X, ldx, y);
    });
    tl_runs++;
    tl_cm2_runs += full;
}
// Blocks of one wave of kernel k (the device's SMs x occupancy: the same bits every run
// on it), at most the tiles.
static int tl_wave(cu_impl *c, const void *k, size_t sm, int64_t tiles) {
    int occ = 0;
    CU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, TL_THREADS, sm));
    int64_t cap = (int64_t)(c->n_sm > 0 ? c->n_sm : 1) * (occ > 0 ? occ : 1);
    return (int)(tiles < cap ? tiles : cap);
}

// k_tm_ln_cm_bwd2 with C = 32 CPL and P constants where they are the host's choice for T
// (FULL), else both at run time.
template <typename T, int CPL, bool FULL>
static void tl_launch_bwd2(cu_impl *c, int64_t n, int C, int P, size_t sm, const float *w, const void *X, void *dX,
                           int64_t ldx, const void *dy, float *part, int nb) {
    constexpr int CC = FULL ? 32 * CPL : 0;
    constexpr int PP = FULL ? tl_positions_c<T>(32 * CPL) : 0;
    k_tm_ln_cm_bwd2<T, CPL, CC, PP><<<nb, TL_THREADS, sm, c->stream>>>(
        n, C, P, w, (const T *)X, (T *)dX, ldx, (const T *)dy, part, tl_vec_cm2(X, dX, ldx), tl_vec_rows(dy, C));
    CU_LAUNCHED();
    tl_cm2_runs++;
}

template <int CPL>
static void tl_launch_bwd(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, pf_layernorm_p *g, const void *X,
                          void *dX, int64_t ldx, const void *dy) {
    size_t mark = cu_pool_mark(c);
    const int v2 = tl_cm_env() == 2, full = C == 32 * CPL;
    CU_DISPATCH(c, T, {
        int P = tl_positions<T>(C);
        int64_t tiles = (n + P - 1) / P;
        size_t red = sizeof(float) * TL_WARPS * 2 * 32 * CPL, sm = tl_tile_bytes<T>(C, P);
        if (sm < red) sm = red;
        // variant 2 takes variant 1's blocks (its wave), so the same partials: the same bits
        // (bf16 C = 128: both 4 blocks per SM, 64 registers)
        int nb = tl_wave(c, (const void *)k_tm_ln_cm_bwd<T, CPL>, sm, tiles);
        float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * 2 * C);
        if (!v2) {
            k_tm_ln_cm_bwd<T, CPL><<<nb, TL_THREADS, sm, c->stream>>>(n, C, P, p->w, (const T *)X, (T *)dX, ldx,
                                                                     (const T *)dy, part, tl_vec_cm2(X, dX, ldx),
                                                                     tl_vec_rows(dy, C));
            CU_LAUNCHED();
        } else if (full) tl_launch_bwd2<T, CPL, true>(c, n, C, P, sm, p->w, X, dX, ldx, dy, part, nb);
        else tl_launch_bwd2<T, CPL, false>(c, n, C, P, sm, p->w, X, dX, ldx, dy, part, nb);
        if (g) {
            k_tm_ln_parts<<<2 * C, 128, 0, c->stream>>>(nb, C, part, g->w, g->b);
            CU_LAUNCHED();
        }
    });
    cu_pool_release(c, mark);
}

void cu_tm_ln_parts_add(cu_impl *c, int nb, int C, const float *part, pf_layernorm_p *g) {
    if (!g || nb < 1) return;
    k_tm_ln_parts<<<2 * C, 128, 0, c->stream>>>(nb, C, part, g->w, g->b);
    CU_LAUNCHED();
}

#define TL_SWITCH(C, F, ...)                                                              \
    do {                                                                                  \
        int cpl_ = ((C) + 31) / 32;                                                       \
        if (cpl_ <= 1) F<1>(__VA_ARGS__);                                                 \
        else if (cpl_ <= 2) F<2>(__VA_ARGS__);                                            \
        else if (cpl_ <= 4) F<4>(__VA_ARGS__);                                            \
        else if (cpl_ <= 8) F<8>(__VA_ARGS__);                                            \
        else if (cpl_ <= 16) F<16>(__VA_ARGS__);                                          \
        else pf_die("trimul LayerNorm_out: %d channels > 512 not supported on CUDA", (C)); \
    } while (0)

void cu_tm_ln_cm_fwd(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, const void *X, int64_t ldx, void *y) {
    if (n <= 0) return;
    TL_SWITCH(C, tl_launch_fwd, c, n, C, p, X, ldx, y);
}
void cu_tm_ln_cm_bwd_set(cu_impl *c, int64_t n, int C, const pf_layernorm_p *p, pf_layernorm_p *g, const void *X,
                         void *dX, int64_t ldx, const void *dy) {
    if (n <= 0) return;
    TL_SWITCH(C, tl_launch_bwd, c, n, C, p, g, X, dX, ldx, dy);
}

extern "C" int64_t pf_cuda_trimul_cm_runs(pf_backend *be) {
    (void)be;
    return tl_runs;
}
extern "C" int pf_cuda_set_tm_ln_cm(pf_backend *be, int variant) {
    (void)be;
    if (variant != 1 && variant != 2) pf_die("pf_cuda_set_tm_ln_cm: variant %d, expected 1 or 2", variant);
    int was = tl_cm_env();
    tl_cm_variant = variant;
    return was;
}
extern "C" int64_t pf_cuda_tm_ln_cm2_runs(pf_backend *be) {
    (void)be;
    return tl_cm2_runs;
}
