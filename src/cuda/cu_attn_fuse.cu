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
#include "cu_vec.cuh"
#include <type_traits>

// The switch is process-wide (not in cu_impl): parsed at the first attention call.
static int g_fuse = -1;
static int64_t g_lnb_runs;

int attn_fuse_on(void) {
    if (g_fuse < 0) {
        const char *e = getenv("PF_ATTN_FUSE");
        if (!e || !*e || !strcmp(e, "1")) g_fuse = 1;
        else if (!strcmp(e, "0")) g_fuse = 0;
        else pf_die("PF_ATTN_FUSE=%s: expected 0 (off) or 1 (on, the default)", e);
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
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) {
            gi[k] = sigmoidf_(gi[k]);
            p[k] = d[k] * o[k] * gi[k] * (1.f - gi[k]);
            o[k] = gi[k] * o[k];
            d[k] = d[k] * gi[k];
        }
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

template <int LPR>
__device__ __forceinline__ float lnb_sum(float s) {
#pragma unroll
    for (int o = LPR / 2; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    return s;
}

// mu, 1 / sqrt(var + eps) as cu_layernorm_vec.cu's kernels compute them (same bits of LN(src))
template <int LPR>
__device__ __forceinline__ void lnb_stats(const float (&v)[8], float &mu, float &rs) {
    constexpr float inv_c = 1.f / (8 * LPR);
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) s += v[j];
    mu = lnb_sum<LPR>(s) * inv_c;
    float q = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float d = v[j] - mu;
        q += d * d;
    }
    rs = rsqrtf(lnb_sum<LPR>(q) * inv_c + LN_EPS);
}

template <typename T>
__device__ __forceinline__ void lnb_load(const T *p, int64_t i, bool ok, float (&v)[8]) {
    if (ok && p) ld8(p, i, v);
    else {
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = 0.f;
    }
}

// W_bias (H, C) into shared memory in the act type's precision (the GEMM's operand),
// zeros after it up to total
template <typename T>
__device__ __forceinline__ void lnb_weights(float *ws, const float *wb, int n, int total) {
    for (int t = threadIdx.x; t < total; t += blockDim.x) ws[t] = t < n ? lnb_rnd<T>(wb[t]) : 0.f;
    __syncthreads();
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
        lnb_load(x, row * C + c0, ok, v);
        if (cp && ok) st8(cp, row * C + c0, v);
        lnb_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = lnb_rnd<T>((v[j] - mu) * rs * wr[j] + br[j]);
        if (xln && ok) st8(xln, row * C + c0, v);
        for (int h = 0; h < H; h++) {
            const float4 *w4 = reinterpret_cast<const float4 *>(ws + h * C + c0);
            float4 a = w4[0], b = w4[1];
            float s = v[0] * a.x + v[1] * a.y + v[2] * a.z + v[3] * a.w + v[4] * b.x + v[5] * b.y + v[6] * b.z + v[7] * b.w;
            s = lnb_sum<LPR>(s);
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
        lnb_load(x, i, ok, v);
        lnb_load(dxln, i, ok, g);
        lnb_load(dx, i, ok && acc, dxo);
#pragma unroll
        for (int h = 0; h < HB; h++) dz[h] = ok && h < H ? ld(dzb, row * H + h) : 0.f;
        lnb_stats<LPR>(v, mu, rs);
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
            s1 = lnb_sum<LPR>(s1) * (1.f / C);
            s2 = lnb_sum<LPR>(s2) * (1.f / C);
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

// ---- Linear backward with a 16-byte column sum ------------------------------------------

// part (gridDim.x, N): column sums of x (M, N) over the block's contiguous rows; N / 8 threads
// per row (8 columns each), 256 / (N / 8) rows at once, summed per slot then over slots in order.
template <typename T>
__global__ void __launch_bounds__(256) k_colsum_v(int64_t M, int N, const T *x, float *part) {
    __shared__ float red[256 * 8];
    int tpr = N / 8, slots = 256 / tpr, slot = threadIdx.x / tpr, c0 = (threadIdx.x % tpr) * 8;
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    float a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (slot < slots) {
#pragma unroll 4
        for (int64_t r = r0 + slot; r < r1; r += slots) {
            float v[8];
            ld8(x, r * N + c0, v);
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
static void attn_colsum_add(cu_impl *c, int64_t M, int N, const void *x, float *out) {
    if (N % 8 || N > 2048 || !cu_vec_ok((int64_t)N, x)) return cu_colsum_add(c, M, N, x, CU_ACT, out, 1.f);
    int64_t nbl = (M + 63) / 64;
    int nb = (int)(nbl < 1024 ? (nbl < 1 ? 1 : nbl) : 1024);
    size_t mark = cu_pool_mark(c);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * (size_t)N);
    CU_DISPATCH(c, T, k_colsum_v<T><<<nb, 256, 0, c->stream>>>(M, N, (const T *)x, part));
    CU_LAUNCHED();
    k_lnb_reduce<<<(N + 255) / 256, 256, 0, c->stream>>>(nb, 1, N, part, out, NULL, NULL);
    CU_LAUNCHED();
    cu_pool_release(c, mark);
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

static int lnb_lpr(int C) { return C == 32 || C == 64 || C == 128 || C == 256 ? C / 8 : 0; }

// launch(std::integral_constant<int, LPR>) for lpr in {4, 8, 16, 32}
template <typename F>
static void lnb_by_lpr(int lpr, F launch) {
    switch (lpr) {
    case 4: launch(std::integral_constant<int, 4>()); break;
    case 8: launch(std::integral_constant<int, 8>()); break;
    case 16: launch(std::integral_constant<int, 16>()); break;
    default: launch(std::integral_constant<int, 32>()); break;
    }
}

int attn_lnb_fwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, const real *w_bias, const void *src,
                 void *zb, void *copy, void *xln) {
    int lpr = lnb_lpr(cb);
    if (!attn_fuse_on() || !lpr || H < 1 || H > LNB_HMAX || n <= 0 || !cu_vec_ok(n * cb, src, copy, xln)) return 0;
    int64_t groups = (n + 32 / lpr - 1) / (32 / lpr);
    unsigned nb = cu_blocks(groups, LNB_WARPS);
    if (nb > 2048) nb = 2048;  // each warp loops over several row groups (as cu_ln_fwd_vec)
    lnb_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        CU_DISPATCH(c, T, k_lnb_fwd<T, LPR><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                              n, H, ln->w, ln->b, w_bias, (const T *)src, (T *)zb, (T *)copy, (T *)xln));
    });
    CU_LAUNCHED();
    g_lnb_runs++;
    return 1;
}

int attn_lnb_bwd(cu_impl *c, int64_t n, int cb, int H, const pf_layernorm_p *ln, pf_layernorm_p *g_ln,
                 const pf_linear_p *bias, pf_linear_p *g_bias, const void *src, const void *d_ln, const void *dzb,
                 void *d_src) {
    int lpr = lnb_lpr(cb);
    if (!attn_fuse_on() || !lpr || H < 1 || H > LNB_HBWD || n <= 0 || bias->b || (g_bias && g_bias->b) ||
        !cu_vec_ok(n * cb, src, d_ln, d_src))
        return 0;
    int64_t nbl = (n + 63) / 64;
    int nb = (int)(nbl < 1024 ? nbl : 1024), K = 2 + H;
    size_t mark = cu_pool_mark(c);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * (size_t)K * (size_t)cb);
    lnb_by_lpr(lpr, [&](auto L) {
        constexpr int LPR = decltype(L)::value;
        if (H <= 4)
            CU_DISPATCH(c, T, k_lnb_bwd<T, LPR, 4><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                                  n, H, ln->w, ln->b, bias->w, (const T *)src, (const T *)d_ln, (const T *)dzb,
                                  (T *)d_src, 1, part));
        else
            CU_DISPATCH(c, T, k_lnb_bwd<T, LPR, LNB_HBWD><<<nb, 32 * LNB_WARPS, 0, c->stream>>>(
                                  n, H, ln->w, ln->b, bias->w, (const T *)src, (const T *)d_ln, (const T *)dzb,
                                  (T *)d_src, 1, part));
    });
    CU_LAUNCHED();
    k_lnb_reduce<<<(K * cb + 255) / 256, 256, 0, c->stream>>>(nb, K, cb, part, g_ln ? g_ln->w : NULL,
                                                                g_ln ? g_ln->b : NULL, g_bias ? g_bias->w : NULL);
    CU_LAUNCHED();
    cu_pool_release(c, mark);
    g_lnb_runs++;
    return 1;
}
