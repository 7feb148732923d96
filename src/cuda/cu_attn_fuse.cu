// cu_attn_fuse.cu: the attention module's fused passes around the core (cu_attn.cuh),
// PF_ATTN_FUSE=1 or unset (default), PF_ATTN_FUSE=0 the unfused path (A/B runs, tests):
//  - the gate's sigmoid inside the multiply g * o and inside the gate's backward (the
//    projection stores the gate's pre-activation: no sigmoid pass of its own); the backward
//    makes g * o (for W_o's gradient), d o and d g_pre in one pass after d(g * o);
//  - the bias logits zb = LN(src) W_bias^T in one kernel (k_lnb_fwd: LPR = C / 8 lanes per
//    position, the LayerNorm in registers, then H dot products) instead of LN(src) written
//    and a GEMM with H (= 4) outputs, which cuBLAS runs far below bandwidth; it can also
//    write the saved copy of src and LN(src) itself (the rows' xln) from the same read;
//  - its backward (k_lnb_bwd): dy = d_xln + dzb W_bias, the LayerNorm backward of dy, the
//    parameter gradients of the LayerNorm and of W_bias as per-block partials summed in
//    block order (no atomics: the same bits every run).
//  - the Linears' backward (attn_linear_bwd): dx written by the GEMM (beta 0) where the old
//    path filled it with zeros first, the bias gradient as a 16-byte column sum.
// bf16: LN(src) and W_bias are rounded as the unfused path stores them, but the gate and
// the bias pass's dy stay fp32 where the old path stored bf16, and sums run in other orders:
// close to the old path, not the same bits. fp32: the gate is bit-identical; the bias pass,
// the column sums and the beta-0 GEMMs (another cuBLASLt algorithm may be picked) differ
// in sum order only. PF_ATTN_FUSE=0 runs the old path unchanged (the same bits as before).
#include "cu_attn.cuh"
#include "cu_lnv.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"

// The switch is process-wide (not in cu_impl): parsed at the first attention call.
static int g_fuse = -1;
static int64_t g_lnb_runs;

int attn_fuse_on(void) {
    if (g_fuse < 0) {
        g_fuse = cu_env_flag("PF_ATTN_FUSE", 1, "off", "on, the default");
    }
    return g_fuse;
}

extern "C" void pf_cuda_set_attn_module_fused(pf_backend *be, int on) {
    (void)be;
    g_fuse = on != 0;
}
extern "C" int64_t pf_cuda_attn_module_fused_runs(pf_backend *be) {
    (void)be;
    return g_lnb_runs;
}

// ---- the gate ------------------------------------------------------------------------

template <typename T>
__global__ void k_gate_mul(T *og, const T *gp, const T *o, int64_t n) {
    GRID_STRIDE(i, n) st(og, i, sigmoidf_(ld(gp, i)) * ld(o, i));
}
template <typename T>
__global__ void k_gate_mul_v(T *og, const T *gp, const T *o, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float g[CU_VEC], v[CU_VEC];
        ld8(gp, i, g);
        ld8(o, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) g[k] = sigmoidf_(g[k]) * v[k];
        st8(og, i, g);
    }
}
// From dy = d og (the gate's output): og = s * x, dy <- d x = dy * s, gp <- d pre = dy * x * s (1 - s)
// with s = sigmoid(gp): cu_mul and cu_gate_bwd's arithmetic in one pass, in place.
template <typename T>
__global__ void k_gate_bwd_og(T *dy, T *gp, const T *x, T *og, int64_t n) {
    GRID_STRIDE(i, n) {
        float d = ld(dy, i), gi = sigmoidf_(ld(gp, i)), xi = ld(x, i);
        st(og, i, gi * xi);
        st(gp, i, d * xi * gi * (1.f - gi));
        st(dy, i, d * gi);
    }
}
template <typename T>
__global__ void k_gate_bwd_og_v(T *dy, T *gp, const T *x, T *og, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float d[CU_VEC], gi[CU_VEC], o[CU_VEC], p[CU_VEC];
        ld8(dy, i, d);
        ld8(gp, i, gi);
        ld8(x, i, o);
        gate_bwd8(d, gi, o, p);
        st8(og, i, o);
        st8(gp, i, p);
        st8(dy, i, d);
    }
}

#define L1(n) cu_blocks(n, 256), 256, 0, c->stream
#define LV(n) cu_vec_blocks(n), 256, 0, c->stream

void attn_gate_mul(cu_impl *c, void *og, const void *g, const void *o, int64_t n) {
    if (!attn_fuse_on()) return cu_mul(c, og, g, o, n);
    if (n <= 0) return;
    if (cu_vec_ok(n, og, g, o)) CU_DISPATCH(c, T, k_gate_mul_v<T><<<LV(n)>>>((T *)og, (const T *)g, (const T *)o, n));
    else CU_DISPATCH(c, T, k_gate_mul<T><<<L1(n)>>>((T *)og, (const T *)g, (const T *)o, n));
    CU_LAUNCHED();
}

void attn_gate_bwd_og(cu_impl *c, void *dy, void *gp, const void *x, void *og, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, dy, gp, x) && cu_vec_ok(n, og))
        CU_DISPATCH(c, T, k_gate_bwd_og_v<T><<<LV(n)>>>((T *)dy, (T *)gp, (const T *)x, (T *)og, n));
    else CU_DISPATCH(c, T, k_gate_bwd_og<T><<<L1(n)>>>((T *)dy, (T *)gp, (const T *)x, (T *)og, n));
    CU_LAUNCHED();
}

// ---- LayerNorm + bias projection ------------------------------------------------------

#define LNB_WARPS 8
#define LNB_HMAX 16  // forward: heads of W_bias in shared memory
#define LNB_HBWD 8   // backward: heads accumulated in registers

template <typename T> __device__ __forceinline__ float lnb_rnd(float v);
template <> __device__ __forceinline__ float lnb_rnd<float>(float v) { return v; }
template <> __device__ __forceinline__ float lnb_rnd<bf16>(float v) { return __bfloat162float(__float2bfloat16(v)); }

// W_bias (H, C) into shared memory in the act type's precision (the GEMM's operand),
// zeros after it up to total
template <typename T>
__device__ __forceinline__ void lnb_weights(float *ws, const float *wb, int n, int total) {
    for (int t = threadIdx.x; t < total; t += blockDim.x) ws[t] = t < n ? lnb_rnd<T>(wb[t]) : 0.f;
    __syncthreads();
}

// s = v . w (8 channels) in the order nvcc compiles a plain sum v0 w0 + v1 w1 + .. into (v1 w1, then fma from v0
// on), written out so that k_lnb_fwd and k_lnb_fwd_p give the same bits on any compiler (the emulator's host build
// does not contract: session 55 found its fp32 "bias kernels same bits" checks failing on 1-ulp differences)
__device__ __forceinline__ float lnb_dot8(const float (&v)[8], const float (&w)[8]) {
    float s = __fmul_rn(v[1], w[1]);
    s = __fmaf_rn(v[0], w[0], s);
#pragma unroll
    for (int j = 2; j < 8; j++) s = __fmaf_rn(v[j], w[j], s);
    return s;
}

// zb (M, H) = LN(x) W_bias^T; cp (may be NULL) = x; xln (may be NULL) = LN(x). Rows in groups
// of 32 / LPR per warp, grid-stride, warp-uniform trip counts (rows past M: zeros, no store).
template <typename T, int LPR>
__global__ void __launch_bounds__(32 * LNB_WARPS)
    k_lnb_fwd(int64_t M, int H, const float *lw, const float *lb, const float *wb, const T *x, T *zb, T *cp, T *xln) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR;
    __shared__ __align__(16) float ws[LNB_HMAX * C];
    lnb_weights<T>(ws, wb, H * C, H * C);
    int lane = threadIdx.x & 31, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = lw[c0 + j], br[j] = lb[c0 + j];
    int64_t stride = (int64_t)gridDim.x * LNB_WARPS * RPW;
    for (int64_t rb = ((int64_t)blockIdx.x * LNB_WARPS + (threadIdx.x >> 5)) * RPW; rb < M; rb += stride) {
        int64_t row = rb + lane / LPR;
        bool ok = row < M;
        float v[8], mu, rs;
        lnv_load(x, row * C + c0, ok, v);
        if (cp && ok) st8(cp, row * C + c0, v);
        lnv_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = lnb_rnd<T>((v[j] - mu) * rs * wr[j] + br[j]);
        if (xln && ok) st8(xln, row * C + c0, v);
        for (int h = 0; h < H; h++) {
            const float4 *w4 = reinterpret_cast<const float4 *>(ws + h * C + c0);
            float4 a = w4[0], b = w4[1];
            const float w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
            float s = lnb_dot8(v, w);
            s = lnv_row_sum<LPR>(s);
            if (ok && lane % LPR == 0) st(zb, row * H + h, s);
        }
    }
}

// The per-lane sums of the warp's row groups (lanes l, l + LPR, ... hold the same channels)
// into the block's shared red, warp by warp in order.
template <int LPR, int N>
__device__ __forceinline__ void lnb_block_sum(float (&a)[N][8], float *red, int c0, int C) {
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
    for (int k = 0; k < N; k++)
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int o = LPR; o < 32; o <<= 1) a[k][j] += __shfl_xor_sync(0xffffffffu, a[k][j], o);
    for (int w = 0; w < LNB_WARPS; w++) {
        if (wid == w && lane < LPR)
#pragma unroll
            for (int k = 0; k < N; k++)
#pragma unroll
                for (int j = 0; j < 8; j++) red[k * C + c0 + j] = (w ? red[k * C + c0 + j] : 0.f) + a[k][j];
        __syncthreads();
    }
}

// dy = dxln (may be NULL: 0) + dzb W_bias; dx (may be NULL) = (acc: dx +) the LayerNorm's
// backward of dy; part (gridDim.x, 2 + H, C): sums of dy * xhat, dy, and dzb[h] * LN(x) over
// the block's contiguous rows (the order is fixed). Every load of a row before its store.
template <typename T, int LPR, int HB>
__global__ void __launch_bounds__(32 * LNB_WARPS, HB <= 4 ? 2 : 1)
    k_lnb_bwd(int64_t M, int H, const float *lw, const float *lb, const float *wb, const T *x, const T *dxln,
              const T *dzb, T *dx, int acc, float *part) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR, SLOTS = LNB_WARPS * RPW;
    __shared__ __align__(16) float ws[HB * C];
    __shared__ float red[(2 + HB) * C];
    lnb_weights<T>(ws, wb, H * C, HB * C);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, c0 = (lane % LPR) * 8;
    float wr[8], br[8], a[2 + HB][8];
#pragma unroll
    for (int j = 0; j < 8; j++) {
        wr[j] = lw[c0 + j], br[j] = lb[c0 + j];
#pragma unroll
        for (int k = 0; k < 2 + HB; k++) a[k][j] = 0.f;
    }
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    for (int64_t rb = r0 + (int64_t)wid * RPW; rb < r1; rb += SLOTS) {
        int64_t row = rb + lane / LPR, i = row * C + c0;
        bool ok = row < r1;
        float v[8], g[8], dxo[8], dz[HB], mu, rs;
        lnv_load(x, i, ok, v);
        lnv_load(dxln, i, ok && dxln, g);
        lnv_load(dx, i, ok && dx && acc, dxo);
#pragma unroll
        for (int h = 0; h < HB; h++) dz[h] = ok && h < H ? ld(dzb, row * H + h) : 0.f;
        lnv_stats<LPR>(v, mu, rs);
        float s1 = 0, s2 = 0;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float xh = (v[j] - mu) * rs, xl = lnb_rnd<T>(xh * wr[j] + br[j]), t = 0;
#pragma unroll
            for (int h = 0; h < HB; h++) {
                t += dz[h] * ws[h * C + c0 + j];  // heads h >= H: dz and ws are 0
                a[2 + h][j] += dz[h] * xl;
            }
            g[j] += t;
            float dxh = g[j] * wr[j];
            v[j] = xh;
            s1 += dxh;
            s2 += dxh * xh;
            a[0][j] += g[j] * xh;
            a[1][j] += g[j];
        }
        if (dx) {
            s1 = lnv_row_sum<LPR>(s1) * (1.f / C);
            s2 = lnv_row_sum<LPR>(s2) * (1.f / C);
#pragma unroll
            for (int j = 0; j < 8; j++) dxo[j] += rs * (g[j] * wr[j] - s1 - v[j] * s2);
            if (ok) st8(dx, i, dxo);
        }
    }
    lnb_block_sum<LPR, 2 + HB>(a, red, c0, C);
    for (int t = threadIdx.x; t < (2 + H) * C; t += blockDim.x) part[(int64_t)blockIdx.x * (2 + H) * C + t] = red[t];
}

// o_k[ch] += the sum over nb partials (nb, K, C) in block order; outputs 0, 1, then 2.. (K - 2 rows)
__global__ void k_lnb_reduce(int nb, int K, int C, const float *part, float *o0, float *o1, float *o2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= K * C) return;
    float s = 0;
    for (int b = 0; b < nb; b++) s += part[(int64_t)b * K * C + i];
    int k = i / C;
    float *o = k == 0 ? o0 : k == 1 ? o1 : o2 ? o2 + (int64_t)(k - 2) * C : NULL;
    if (o) o[i % C] += s;
}

// ---- the pipelined kernels (PF_ATTN_LNB=1, the default) ------------------------------
// The kernels above keep one 16-byte load per thread in flight, and only while the warp is
// not computing: k_lnb_fwd then ran its H dot products as H serial chains (a runtime head
// loop, 4 dependent shuffles per head), k_lnb_bwd a long dependent body, so at N = 1024
// (2^20 rows of 128 bf16) both took ~0.47 ms per call where the bytes need ~0.15 / 0.22.
// Here each thread copies its own 16-byte slices into shared memory with cp.async
// (sm_80+) S - 1 row groups ahead of the one it computes (no block barrier: a thread only
// reads its own copies), the forward's head count is a template (HB = 4, 8, 16: all dot
// products unrolled) and its H sums are a reduce-scatter over the row's lanes (each
// butterfly step halves the heads a lane keeps: HB - 1 shuffles instead of 4 HB for 16
// lanes), ending with one store instruction for the warp's logits. Same arithmetic, same
// rows per thread, same sum trees: bit-identical to the kernels above.

__device__ __forceinline__ void lnb_cp16(void *dst, const void *src, int bytes) {
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void lnb_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void lnb_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// A row slice (8 elements, one or two 16-byte pieces) -> this thread's shared slot; zeros where
// !ok (src then only an address, not read).
template <typename T>
__device__ __forceinline__ void lnb_stage(T *slot, const T *p, int64_t i, bool ok) {
    const T *s = ok ? p + i : p;
#pragma unroll
    for (int k = 0; k < (int)sizeof(T) / 2; k++) lnb_cp16(slot + k * (16 / sizeof(T)), s + k * (16 / sizeof(T)), ok ? 16 : 0);
}

// One butterfly step (offset O) of the reduce-scatter over N heads kept: lanes with bit O set
// keep the upper half, send the lower; s_l + s_(l^O) as lnv_row_sum adds them (the same bits).
// base: the first head kept; plain: the offsets summed without halving (lanes equal there).
template <int O, int N, int HB>
__device__ __forceinline__ void lnb_rs(float (&s)[HB], int lane, int &base, int &plain) {
    if constexpr (O > 0) {
        if constexpr (N > 1) {
            constexpr int HALF = N / 2;
            bool up = lane & O;
#pragma unroll
            for (int k = 0; k < HALF; k++) {
                float send = up ? s[k] : s[k + HALF], keep = up ? s[k + HALF] : s[k];
                s[k] = keep + __shfl_xor_sync(0xffffffffu, send, O);
            }
            base += up ? HALF : 0;
            lnb_rs<O / 2, HALF, HB>(s, lane, base, plain);
        } else {
            s[0] += __shfl_xor_sync(0xffffffffu, s[0], O);
            plain |= O;
            lnb_rs<O / 2, 1, HB>(s, lane, base, plain);
        }
    }
}

// W_bias (H, C) into shared memory as lnb_weights does, each row h split in halves: channels
// q * 8 + 0..3 at h * C + q * 4, q * 8 + 4..7 at h * C + C / 2 + q * 4. A row's 16 lanes then
// read 256 contiguous bytes per 16-byte load (2 shared-memory wavefronts) where the plain
// layout's 32-byte lane stride costs 4; rows past H are zeros.
template <typename T, int C>
__device__ __forceinline__ void lnb_weights_split(float *ws, const float *wb, int H, int total) {
    for (int t = threadIdx.x; t < total; t += blockDim.x) {
        int h = t / C, r = t % C, c = (r % (C / 2)) / 4 * 8 + r / (C / 2) * 4 + r % 4;
        ws[t] = h < H ? lnb_rnd<T>(wb[h * C + c]) : 0.f;
    }
    __syncthreads();
}
template <int C>
__device__ __forceinline__ void lnb_wrow(const float *ws, int h, int c0, float (&w)[8]) {
    const float4 a = *reinterpret_cast<const float4 *>(ws + h * C + c0 / 2);
    const float4 b = *reinterpret_cast<const float4 *>(ws + h * C + C / 2 + c0 / 2);
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w, w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
}

#define LNB_THREADS (32 * LNB_WARPS)
// Stages of the staging ring (S - 1 row groups in flight per thread): the forward's
// (S, 256, 8) slices are static (at most 32 KiB with W_bias: fp32, C 256, 16 heads), the
// backward's (S, 3, 256, 8) dynamic (36 KiB for bf16, 4 heads: two blocks per SM); its 8-head
// form runs one block per SM (~200 registers) and so keeps more stages in flight.
template <typename T> struct lnb_stages { static constexpr int fwd = 4; };
template <> struct lnb_stages<float> { static constexpr int fwd = 2; };
template <typename T, int HB>
__host__ __device__ constexpr int lnb_bwd_stages() {  // <= 96 KiB per block in all (sm_86's 99 KiB)
    return sizeof(T) == 2 ? (HB > 4 ? 6 : 3) : (HB > 4 ? 3 : 2);
}

// k_lnb_fwd (the same rows per warp, the same results) with HB >= H heads (W_bias rows
// past H are zeros, their sums not stored) and the input staged S - 1 row groups ahead.
template <typename T, int LPR, int HB>
__global__ void __launch_bounds__(LNB_THREADS, HB <= 4 ? 4 : HB <= 8 ? 3 : 2)
    k_lnb_fwd_p(int64_t M, int H, const float *lw, const float *lb, const float *wb, const T *x, T *zb, T *cp, T *xln) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR, S = lnb_stages<T>::fwd;
    constexpr int NF = HB > LPR ? HB / LPR : 1;  // heads a lane holds after the reduce-scatter
    __shared__ __align__(16) float ws[HB * C];
    __shared__ __align__(16) T stg[S][LNB_THREADS][8];
    lnb_weights_split<T, C>(ws, wb, H, HB * C);
    int lane = threadIdx.x & 31, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = lw[c0 + j], br[j] = lb[c0 + j];
    int64_t stride = (int64_t)gridDim.x * LNB_WARPS * RPW;
    int64_t r0 = ((int64_t)blockIdx.x * LNB_WARPS + (threadIdx.x >> 5)) * RPW + lane / LPR;
    int64_t warp0 = r0 - lane / LPR, n_it = warp0 < M ? (M - 1 - warp0) / stride + 1 : 0;  // warp-uniform
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        if (s < n_it) lnb_stage(stg[s][threadIdx.x], x, (r0 + s * stride) * C + c0, r0 + s * stride < M);
        lnb_commit();
    }
    for (int64_t it = 0; it < n_it; it++) {
        int64_t pre = it + S - 1, rp = r0 + pre * stride;
        if (pre < n_it) lnb_stage(stg[pre % S][threadIdx.x], x, rp * C + c0, rp < M);
        lnb_commit();
        lnb_wait<S - 1>();
        int64_t row = r0 + it * stride;
        bool ok = row < M;
        float v[8], mu, rs, s[HB];
        ld8(stg[it % S][threadIdx.x], 0, v);
        if (cp && ok) st8(cp, row * C + c0, v);
        lnv_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = lnb_rnd<T>((v[j] - mu) * rs * wr[j] + br[j]);
        if (xln && ok) st8(xln, row * C + c0, v);
#pragma unroll
        for (int h = 0; h < HB; h++) {
            float w[8];
            lnb_wrow<C>(ws, h, c0, w);
            s[h] = lnb_dot8(v, w);
        }
        int base = 0, plain = 0;
        lnb_rs<LPR / 2, HB, HB>(s, lane, base, plain);
        if (ok && !(lane & plain))
#pragma unroll
            for (int k = 0; k < NF; k++)
                if (base + k < H) st(zb, row * H + base + k, s[k]);
    }
    lnb_wait<0>();
}

// PF_LNB_FWD2=1 (bf16, 9 to 16 heads: the single attention's pair bias): k_lnb_fwd_p took
// 0.40 ms per (2^20, 128) call at 16 heads (ncu, N = 1024) where the bytes need ~0.14: each
// row group's weight reads (2 16-byte loads per head), dot products and 15-shuffle
// reduce-scatter form one long dependent chain per warp, at 16 warps per SM. Here a warp takes
// two row groups (it, it + 1) per step: each weight load serves both, the two chains interleave.
// Per row the same arithmetic in the same order (lnb_dot8, lnb_rs): bit-identical to
// k_lnb_fwd_p. Staging: 4 slots; groups it + 2, it + 3 go to the other two while it, it + 1
// are computed (a thread only reads its own copies, as k_lnb_fwd_p).
template <int LPR>
__device__ __forceinline__ void lnb_fwd2_row(float (&v)[8], const float (&wr)[8], const float (&br)[8], bool ok,
                                             bf16 *cp, bf16 *xln, int64_t i) {
    float mu, rs;
    if (cp && ok) st8(cp, i, v);
    lnv_stats<LPR>(v, mu, rs);
#pragma unroll
    for (int j = 0; j < 8; j++) v[j] = lnb_rnd<bf16>((v[j] - mu) * rs * wr[j] + br[j]);
    if (xln && ok) st8(xln, i, v);
}
template <int LPR, int HB>
__global__ void __launch_bounds__(LNB_THREADS, 2)
    k_lnb_fwd_p2(int64_t M, int H, const float *lw, const float *lb, const float *wb, const bf16 *x, bf16 *zb,
                 bf16 *cp, bf16 *xln) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR, S = 4;
    constexpr int NF = HB > LPR ? HB / LPR : 1;
    __shared__ __align__(16) float ws[HB * C];
    __shared__ __align__(16) bf16 stg[S][LNB_THREADS][8];
    lnb_weights_split<bf16, C>(ws, wb, H, HB * C);
    int lane = threadIdx.x & 31, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = lw[c0 + j], br[j] = lb[c0 + j];
    int64_t stride = (int64_t)gridDim.x * LNB_WARPS * RPW;
    int64_t r0 = ((int64_t)blockIdx.x * LNB_WARPS + (threadIdx.x >> 5)) * RPW + lane / LPR;
    int64_t warp0 = r0 - lane / LPR, n_it = warp0 < M ? (M - 1 - warp0) / stride + 1 : 0;  // warp-uniform
    auto stage = [&](int64_t k) {
        if (k < n_it) lnb_stage(stg[k % S][threadIdx.x], x, (r0 + k * stride) * C + c0, r0 + k * stride < M);
        lnb_commit();
    };
    stage(0);
    stage(1);
    for (int64_t it = 0; it < n_it; it += 2) {
        lnb_wait<0>();  // groups it, it + 1 landed: the last two committed
        int64_t ra = r0 + it * stride, rb = ra + stride;
        bool oka = ra < M, okb = it + 1 < n_it && rb < M;
        float va[8], vb[8], sa[HB], sb[HB];
        ld8(stg[it % S][threadIdx.x], 0, va);
        if (it + 1 < n_it) ld8(stg[(it + 1) % S][threadIdx.x], 0, vb);
        else
#pragma unroll
            for (int j = 0; j < 8; j++) vb[j] = 0.f;
        stage(it + 2);
        stage(it + 3);
        lnb_fwd2_row<LPR>(va, wr, br, oka, cp, xln, ra * C + c0);
        lnb_fwd2_row<LPR>(vb, wr, br, okb, cp, xln, rb * C + c0);
#pragma unroll
        for (int h = 0; h < HB; h++) {
            float w[8];
            lnb_wrow<C>(ws, h, c0, w);
            sa[h] = lnb_dot8(va, w);
            sb[h] = lnb_dot8(vb, w);
        }
        int basea = 0, plaina = 0, baseb = 0, plainb = 0;
        lnb_rs<LPR / 2, HB, HB>(sa, lane, basea, plaina);
        lnb_rs<LPR / 2, HB, HB>(sb, lane, baseb, plainb);
#pragma unroll
        for (int k = 0; k < NF; k++) {
            if (oka && !(lane & plaina) && basea + k < H) st(zb, ra * H + basea + k, sa[k]);
            if (okb && !(lane & plainb) && baseb + k < H) st(zb, rb * H + baseb + k, sb[k]);
        }
    }
    lnb_wait<0>();
}

// k_lnb_bwd (the same rows per thread, the same arithmetic and sum orders) with x, dxln and
// dx staged S - 1 row groups ahead in dynamic shared memory (S, 3, LNB_THREADS) slices of 8,
// and the logits' gradient dzb loaded one row group ahead.
template <typename T, int LPR, int HB>
__global__ void __launch_bounds__(LNB_THREADS, HB <= 4 ? 2 : 1)
    k_lnb_bwd_p(int64_t M, int H, const float *lw, const float *lb, const float *wb, const T *x, const T *dxln,
                const T *dzb, T *dx, int acc, float *part) {
    constexpr int C = 8 * LPR, RPW = 32 / LPR, SLOTS = LNB_WARPS * RPW, S = lnb_bwd_stages<T, HB>();
    extern __shared__ __align__(16) unsigned char lnb_dyn[];
    T(*stg)[8] = reinterpret_cast<T(*)[8]>(lnb_dyn);
    __shared__ __align__(16) float ws[HB * C];
    __shared__ float red[(2 + HB) * C];
    lnb_weights_split<T, C>(ws, wb, H, HB * C);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, c0 = (lane % LPR) * 8;
    float wr[8], br[8], a[2 + HB][8];
#pragma unroll
    for (int j = 0; j < 8; j++) {
        wr[j] = lw[c0 + j], br[j] = lb[c0 + j];
#pragma unroll
        for (int k = 0; k < 2 + HB; k++) a[k][j] = 0.f;
    }
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    int64_t rb0 = r0 + (int64_t)wid * RPW, n_it = rb0 < r1 ? (r1 - 1 - rb0) / SLOTS + 1 : 0;  // warp-uniform
    int64_t rl = rb0 + lane / LPR;
    bool has_g = dxln != NULL, has_d = dx && acc;
    auto slot = [&](int64_t k, int arr) { return stg[((k % S) * 3 + arr) * LNB_THREADS + threadIdx.x]; };
    auto stage = [&](int64_t k) {
        int64_t row = rl + k * SLOTS, i = row * C + c0;
        bool ok = row < r1;
        lnb_stage(slot(k, 0), x, i, ok);
        if (has_g) lnb_stage(slot(k, 1), dxln, i, ok);
        if (has_d) lnb_stage(slot(k, 2), (const T *)dx, i, ok);
    };
    float dzn[HB];
    auto load_dz = [&](int64_t k) {
        int64_t row = rl + k * SLOTS;
        bool ok = k < n_it && row < r1;
#pragma unroll
        for (int h = 0; h < HB; h++) dzn[h] = ok && h < H ? ld(dzb, row * H + h) : 0.f;
    };
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        if (s < n_it) stage(s);
        lnb_commit();
    }
    load_dz(0);
    for (int64_t it = 0; it < n_it; it++) {
        if (it + S - 1 < n_it) stage(it + S - 1);
        lnb_commit();
        float dz[HB];
#pragma unroll
        for (int h = 0; h < HB; h++) dz[h] = dzn[h];
        load_dz(it + 1);
        lnb_wait<S - 1>();
        int64_t row = rl + it * SLOTS, i = row * C + c0;
        bool ok = row < r1;
        float v[8], g[8], dxo[8], mu, rs;
        ld8(slot(it, 0), 0, v);
        if (has_g) ld8(slot(it, 1), 0, g);
        else
#pragma unroll
            for (int j = 0; j < 8; j++) g[j] = 0.f;
        if (has_d) ld8(slot(it, 2), 0, dxo);
        else
#pragma unroll
            for (int j = 0; j < 8; j++) dxo[j] = 0.f;
        lnv_stats<LPR>(v, mu, rs);
        float s1 = 0, s2 = 0, t[8];
#pragma unroll
        for (int j = 0; j < 8; j++) t[j] = 0;
#pragma unroll
        for (int h = 0; h < HB; h++) {  // t[j] as k_lnb_bwd sums it (heads in order), 16-byte loads
            float w[8];
            lnb_wrow<C>(ws, h, c0, w);
#pragma unroll
            for (int j = 0; j < 8; j++) t[j] += dz[h] * w[j];  // heads h >= H: dz and ws are 0
        }
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float xh = (v[j] - mu) * rs, xl = lnb_rnd<T>(xh * wr[j] + br[j]);
#pragma unroll
            for (int h = 0; h < HB; h++) a[2 + h][j] += dz[h] * xl;
            g[j] += t[j];
            float dxh = g[j] * wr[j];
            v[j] = xh;
            s1 += dxh;
            s2 += dxh * xh;
            a[0][j] += g[j] * xh;
            a[1][j] += g[j];
        }
        if (dx) {
            s1 = lnv_row_sum<LPR>(s1) * (1.f / C);
            s2 = lnv_row_sum<LPR>(s2) * (1.f / C);
#pragma unroll
            for (int j = 0; j < 8; j++) dxo[j] += rs * (g[j] * wr[j] - s1 - v[j] * s2);
            if (ok) st8(dx, i, dxo);
        }
    }
    lnb_wait<0>();
    lnb_block_sum<LPR, 2 + HB>(a, red, c0, C);
    for (int t = threadIdx.x; t < (2 + H) * C; t += blockDim.x) part[(int64_t)blockIdx.x * (2 + H) * C + t] = red[t];
}

// ---- Linear backward with a 16-byte column sum ------------------------------------------

// part (gridDim.x, N): column sums of x (M, N; rows ldx apart) over the block's contiguous rows;
// N / 8 threads per row (8 columns each), 256 / (N / 8) rows at once, summed per slot then over
// slots in order.
template <typename T>
__global__ void __launch_bounds__(256) k_colsum_v(int64_t M, int N, const T *x, int64_t ldx, float *part) {
    __shared__ float red[256 * 8];
    int tpr = N / 8, slots = 256 / tpr, slot = threadIdx.x / tpr, c0 = (threadIdx.x % tpr) * 8;
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    float a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (slot < slots) {
#pragma unroll 4
        for (int64_t r = r0 + slot; r < r1; r += slots) {
            float v[8];
            ld8(x, r * ldx + c0, v);
#pragma unroll
            for (int j = 0; j < 8; j++) a[j] += v[j];
        }
#pragma unroll
        for (int j = 0; j < 8; j++) red[slot * N + c0 + j] = a[j];
    }
    __syncthreads();
    for (int col = threadIdx.x; col < N; col += blockDim.x) {
        float t = 0;
        for (int u = 0; u < slots; u++) t += red[u * N + col];
        part[(int64_t)blockIdx.x * N + col] = t;
    }
}

__global__ void k_lnb_reduce(int nb, int K, int C, const float *part, float *o0, float *o1, float *o2);

// out (N) += the column sums of x (M, N) act: the 16-byte kernel where N is a multiple of 8 up
// to 2048 and x aligned (cu_colsum_add's one column per thread, 2-byte loads, keeps too few
// bytes in flight for a z-sized x), else cu_colsum_add.
// ldx (>= N, a multiple of 8): x's rows ldx elements apart (attn_colsum_add_ld only).
static void attn_colsum_add(cu_impl *c, int64_t M, int N, const void *x, float *out, int64_t ldx = 0) {
    if (ldx && ldx != N) {
        if (N % 8 || N > 2048 || ldx % 8 || !cu_vec_ok((int64_t)N, x)) pf_die("attn_colsum_add_ld: N %d, ldx %lld", N, (long long)ldx);
    } else if (N % 8 || N > 2048 || !cu_vec_ok((int64_t)N, x)) {
        return cu_colsum_add(c, M, N, x, CU_ACT, out, 1.f);
    }
    int64_t nbl = (M + 63) / 64;
    int nb = (int)(nbl < 1024 ? (nbl < 1 ? 1 : nbl) : 1024);
    size_t mark = cu_pool_mark(c);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * (size_t)N);
    CU_DISPATCH(c, T, k_colsum_v<T><<<nb, 256, 0, c->stream>>>(M, N, (const T *)x, ldx ? ldx : N, part));
    CU_LAUNCHED();
    if (!cu_reduce_parts(c, nb, 1, N, part, out, NULL, NULL, NULL)) {
        k_lnb_reduce<<<(N + 255) / 256, 256, 0, c->stream>>>(nb, 1, N, part, out, NULL, NULL);
        CU_LAUNCHED();
    }
    cu_pool_release(c, mark);
}

void attn_colsum_add_ld(cu_impl *c, int64_t M, int N, const void *x, int64_t ldx, float *out) {
    attn_colsum_add(c, M, N, x, out, ldx);
}

void attn_linear_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const void *x,
                     const void *dy, void *dx, int set) {
    if (!attn_fuse_on()) {
        if (set && dx) cu_fill(c, dx, 0.f, M * in);
        return cu_linear_bwd(c, M, in, out, p, g, x, dy, dx);
    }
    if (g) {  // dW (out, in) += dy^T x, straight into the fp32 gradient (as cu_linear_bwd)
        cu_gemm(c, 1, 0, out, in, M, 1.f, dy, CU_ACT, out, x, CU_ACT, in, 1.f, g->w, CU_F32, in, 1, 0, 0, 0, NULL);
        if (g->b) attn_colsum_add(c, M, out, dy, g->b);
    }
    if (dx) {
        const void *w = cu_weight(c, p->w, (size_t)out * in);
        cu_gemm(c, 0, 0, M, in, out, 1.f, dy, CU_ACT, out, w, CU_ACT, in, set ? 0.f : 1.f, dx, CU_ACT, in, 1, 0, 0, 0,
                NULL);
    }
}

// PF_ATTN_LNB: 1 or unset (the pipelined kernels k_lnb_*_p, the default), 0 (k_lnb_fwd and
// k_lnb_bwd, A/B runs); process-wide, parsed at the first fused bias call.
static int g_lnb_pipe = -1;

static int lnb_pipe_on(void) {
    if (g_lnb_pipe < 0) {
        g_lnb_pipe = cu_env_flag("PF_ATTN_LNB", 1, "the unpipelined bias kernels", "pipelined, the default");
    }
    return g_lnb_pipe;
}

extern "C" void pf_cuda_set_attn_lnb(pf_backend *be, int on) {
    (void)be;
    g_lnb_pipe = on != 0;
}

// PF_LNB_FWD2: 1 or unset k_lnb_fwd_p2 (bf16, 9 to 16 heads; the default since session 14), 0 k_lnb_fwd_p;
// parsed at the first call.
static int g_lnb_fwd2 = -1;
static int64_t g_lnb_fwd2_runs;
extern "C" void pf_cuda_set_lnb_fwd2(pf_backend *be, int on) {
    (void)be;
    g_lnb_fwd2 = on == 0 || on == 1 ? on : -1;  // else: PF_LNB_FWD2 / the default again
}
extern "C" int64_t pf_cuda_lnb_fwd2_runs(pf_backend *be) {
    (void)be;
    return g_lnb_fwd2_runs;
}

// Tests: at most this many blocks for both forms (0: by size), so that small cases run many
// row groups per warp (the staging ring wraps, ragged last groups).
static int g_lnb_grid;
extern "C" void pf_cuda_set_attn_lnb_grid(pf_backend *be, int blocks) {
    (void)be;
    g_lnb_grid = blocks > 0 ? blocks : 0;
}

// launch(std::integral_constant<int, HB>) for the head counts 4, 8, 16 (H <= HB)
template <typename F>
static void lnb_by_heads(int H, F launch) {
    if (H <= 4) launch(std::integral_constant<int, 4>());
    else if (H <= 8) launch(std::integral_constant<int, 8>());
    else launch(std::integral_constant<int, 16>());
}

int attn_lnb_fwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, const real *w_bias, const void *src,
                 void *zb, void *copy, void *xln) {
    int lpr = lnv_lpr(cb);
    if (!attn_fuse_on() || !lpr || H < 1 || H > LNB_HMAX || n <= 0 || !cu_vec_ok(n * cb, src, copy, xln)) return 0;
    int64_t groups = (n + 32 / lpr - 1) / (32 / lpr);
    unsigned nb = cu_blocks(groups, LNB_WARPS);
    if (nb > 2048) nb = 2048;  // each warp loops over several row groups (as cu_ln_fwd_vec)
    if (g_lnb_grid && nb > (unsigned)g_lnb_grid) nb = (unsigned)g_lnb_grid;
    int pipe = lnb_pipe_on();
    if (pipe && attn_lnb_fwd_mma(c, n, cb, H, ln, w_bias, src, zb, copy, xln, g_lnb_grid)) {  // cu_lnb_mma.cu
        g_lnb_runs++;
        return 1;
    }
    if (g_lnb_fwd2 < 0)
        g_lnb_fwd2 = cu_env_flag("PF_LNB_FWD2", 1, "k_lnb_fwd_p", "two row groups per step at 9 to 16 heads, bf16: the default");
    int two = pipe && g_lnb_fwd2 && c->bf16 && H > 8;
    lnv_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        if (two)
            k_lnb_fwd_p2<LPR, 16><<<nb, LNB_THREADS, 0, c->stream>>>(n, H, ln->w, ln->b, w_bias, (const bf16 *)src,
                                                                     (bf16 *)zb, (bf16 *)copy, (bf16 *)xln);
        else if (pipe)
            lnb_by_heads(H, [&](auto HBc) {
                constexpr int HB = decltype(HBc)::value;
                CU_DISPATCH(c, T, k_lnb_fwd_p<T, LPR, HB><<<nb, LNB_THREADS, 0, c->stream>>>(
                                      n, H, ln->w, ln->b, w_bias, (const T *)src, (T *)zb, (T *)copy, (T *)xln));
            });
        else
            CU_DISPATCH(c, T, k_lnb_fwd<T, LPR><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                                  n, H, ln->w, ln->b, w_bias, (const T *)src, (T *)zb, (T *)copy, (T *)xln));
    });
    CU_LAUNCHED();
    g_lnb_runs++;
    g_lnb_fwd2_runs += two;
    return 1;
}

// k_lnb_bwd_p<T, LPR, HB>: its staging (S, 3, LNB_THREADS, 8) in dynamic shared memory, over the
// 48 KiB default with the static arrays (the attribute set once per instantiation).
template <typename T, int LPR, int HB>
static void lnb_bwd_pipe(cu_impl *c, int nb, int64_t n, int H, const float *lw, const float *lb, const float *wb,
                         const T *x, const T *dxln, const T *dzb, T *dx, float *part) {
    static unsigned done;  // devices with the attribute set
    size_t dyn = (size_t)lnb_bwd_stages<T, HB>() * 3 * LNB_THREADS * 8 * sizeof(T);
    int dev = 0;
    CU_CHECK(cudaGetDevice(&dev));
    if (dev >= 32 || !(done >> dev & 1u)) {
        CU_CHECK(cudaFuncSetAttribute(k_lnb_bwd_p<T, LPR, HB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
        if (dev < 32) done |= 1u << dev;
    }
    k_lnb_bwd_p<T, LPR, HB><<<nb, LNB_THREADS, dyn, c->stream>>>(n, H, lw, lb, wb, x, dxln, dzb, dx, 1, part);
}

int attn_lnb_bwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, pf_layernorm_p *g_ln,
                 const pf_linear_p *bias, pf_linear_p *g_bias, const void *src, const void *d_ln, const void *dzb,
                 void *d_src) {
    int lpr = lnv_lpr(cb);
    if (!attn_fuse_on() || !lpr || H < 1 || H > LNB_HBWD || n <= 0 || bias->b || (g_bias && g_bias->b) ||
        !cu_vec_ok(n * cb, src, d_ln, d_src))
        return 0;
    int64_t nbl = (n + 63) / 64;
    int nb = (int)(nbl < 1024 ? nbl : 1024), K = 2 + H;
    if (g_lnb_grid && nb > g_lnb_grid) nb = g_lnb_grid;
    size_t mark = cu_pool_mark(c);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * (size_t)K * (size_t)cb);
    int pipe = lnb_pipe_on();
    lnv_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        if (pipe && H <= 4)
            CU_DISPATCH(c, T, (lnb_bwd_pipe<T, LPR, 4>(c, nb, n, H, ln->w, ln->b, bias->w, (const T *)src,
                                                       (const T *)d_ln, (const T *)dzb, (T *)d_src, part)));
        else if (pipe)
            CU_DISPATCH(c, T, (lnb_bwd_pipe<T, LPR, LNB_HBWD>(c, nb, n, H, ln->w, ln->b, bias->w, (const T *)src,
                                                              (const T *)d_ln, (const T *)dzb, (T *)d_src, part)));
        else if (H <= 4)
            CU_DISPATCH(c, T, k_lnb_bwd<T, LPR, 4><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                                  n, H, ln->w, ln->b, bias->w, (const T *)src, (const T *)d_ln, (const T *)dzb,
                                  (T *)d_src, 1, part));
        else
            CU_DISPATCH(c, T, k_lnb_bwd<T, LPR, LNB_HBWD><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                                  n, H, ln->w, ln->b, bias->w, (const T *)src, (const T *)d_ln, (const T *)dzb,
                                  (T *)d_src, 1, part));
    });
    CU_LAUNCHED();
    float *o0 = g_ln ? g_ln->w : NULL, *o1 = g_ln ? g_ln->b : NULL, *o2 = g_bias ? g_bias->w : NULL;
    if (!cu_reduce_parts(c, nb, K, cb, part, o0, o1, o2, NULL)) {
        k_lnb_reduce<<<(K * cb + 255) / 256, 256, 0, c->stream>>>(nb, K, cb, part, o0, o1, o2);
        CU_LAUNCHED();
    }
    cu_pool_release(c, mark);
    g_lnb_runs++;
    return 1;
}
