// cu_prim.cu: Linear (cuBLASLt with the bias in the epilogue), LayerNorm
// forward/backward, deterministic column sums, small elementwise helpers.
//
// LayerNorm: one warp per row, the row held in registers (CPL channels per
// lane), statistics in fp32 (C of 32, 64, 128, 256 with aligned buffers: the 16-byte
// kernels of cu_layernorm_vec.cu). The backward writes dx and accumulates per-lane
// partial dw/db; a block's warps are combined in a fixed order, then the
// per-block partials are summed in block order by a second kernel, so the
// parameter gradients never depend on scheduling (no atomics).
#include "cu_lnv.cuh"
#include "cu_small.cuh"

#define LN_WARPS 8
#define LN_MAX_BLOCKS 1024
#define LN_SMALL_BLOCKS 256  // ln_launch_bwd's blocks for a short M

// v <- the row (0 past C); lane holds channels lane + 32 j.
template <typename T, int CPL>
__device__ __forceinline__ void ln_load(const T *xr, int C, int lane, float (&v)[CPL]) {
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        v[j] = ch < C ? ld(xr, ch) : 0.f;
    }
}
// Parameters of the lane's channels (0 past C), loaded once per warp.
template <int CPL>
__device__ __forceinline__ void ln_param(const float *w, int C, int lane, float (&r)[CPL]) {
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        r[j] = ch < C ? w[ch] : 0.f;
    }
}

template <typename T, int CPL>
__global__ void k_ln_fwd(int64_t M, int C, const float *w, const float *b, const T *x, T *y) {
    int lane = threadIdx.x & 31;
    float wr[CPL], br[CPL];
    ln_param<CPL>(w, C, lane, wr);
    ln_param<CPL>(b, C, lane, br);
    int64_t row = (int64_t)blockIdx.x * LN_WARPS + (threadIdx.x >> 5);
    for (; row < M; row += (int64_t)gridDim.x * LN_WARPS) {
        float v[CPL], mu, rs;
        ln_load<T, CPL>(x + row * C, C, lane, v);
        ln_stats<CPL>(v, C, lane, mu, rs);
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            if (ch < C) st(y, row * C + ch, (v[j] - mu) * rs * wr[j] + br[j]);
        }
    }
}

// part: (gridDim.x, 2, C) partial sums of dy * xhat and dy.
template <typename T, int CPL>
__global__ void k_ln_bwd(int64_t M, int C, const float *w, const T *x, const T *dy, T *dx, float *part, int acc) {
    __shared__ float red[LN_WARPS][2][CPL * 32];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    float aw[CPL], ab[CPL];
#pragma unroll
    for (int j = 0; j < CPL; j++) aw[j] = ab[j] = 0;
    // rows of this block: a contiguous chunk, so the partial order is fixed
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    float wr[CPL];
    ln_param<CPL>(w, C, lane, wr);
    for (int64_t row = r0 + wid; row < r1; row += LN_WARPS) {
        // every load of the row first (x, dy, the dx accumulated into), then the math:
        // so dx may be x itself when it is overwritten (acc = 0; one warp per row)
        float v[CPL], g[CPL], dxo[CPL], mu, rs;
        ln_load<T, CPL>(x + row * C, C, lane, v);
        ln_load<T, CPL>(dy + row * C, C, lane, g);
        if (dx && acc) ln_load<T, CPL>(dx + row * C, C, lane, dxo);
        else {
#pragma unroll
            for (int j = 0; j < CPL; j++) dxo[j] = 0.f;
        }
        ln_stats<CPL>(v, C, lane, mu, rs);
        float s1 = 0, s2 = 0;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            float xh = (v[j] - mu) * rs;
            v[j] = xh;
            if (ch < C) {
                float dxh = g[j] * wr[j];
                s1 += dxh;
                s2 += dxh * xh;
                aw[j] += g[j] * xh;
                ab[j] += g[j];
            }
        }
        if (dx) {
#pragma unroll
            for (int o = 16; o; o >>= 1) {
                s1 += __shfl_xor_sync(0xffffffffu, s1, o);
                s2 += __shfl_xor_sync(0xffffffffu, s2, o);
            }
            s1 /= C;
            s2 /= C;
#pragma unroll
            for (int j = 0; j < CPL; j++) {
                int ch = lane + 32 * j;
                if (ch < C) st(dx, row * C + ch, dxo[j] + rs * (g[j] * wr[j] - s1 - v[j] * s2));
            }
        }
    }
    if (!part) return;
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        red[wid][0][lane + 32 * j] = aw[j];
        red[wid][1][lane + 32 * j] = ab[j];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * C; i += blockDim.x) {
        int k = i / C, ch = i % C;
        float s = 0;
        for (int u = 0; u < LN_WARPS; u++) s += red[u][k][ch];
        part[((int64_t)blockIdx.x * 2 + k) * C + ch] = s;
    }
}

// out[k][ch] += sum over nb partials (nb, K, C) in order.
__global__ void k_reduce_parts(int nb, int K, int C, const float *part, float *o0, float *o1, float scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= K * C) return;
    float s = 0;
    for (int b = 0; b < nb; b++) s += part[(int64_t)b * K * C + i];
    float *o = i < C ? o0 : o1;
    if (o) o[i % C] += s * scale;
}

template <int CPL>
static void ln_launch_fwd(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y) {
    if (cu_ln_fwd_vec(c, M, C, p, x, y)) return;
    unsigned nb = cu_blocks(M, LN_WARPS);
    if (nb > 65536) nb = 65536;
    CU_DISPATCH(c, T, k_ln_fwd<T, CPL><<<nb, 32 * LN_WARPS, 0, c->stream>>>(M, C, p->w, p->b, (const T *)x, (T *)y));
    CU_LAUNCHED();
}
template <int CPL>
static void ln_launch_bwd(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, pf_layernorm_p *g,
                          const void *x, const void *dy, void *dx, int acc) {
    // 64 rows per block; a short M (the single stream's N rows) down to one row per warp, up to
    // LN_SMALL_BLOCKS blocks: 64 per block left N = 512 on 8 blocks (18.5 us for a 1.5 MB pass, ncu,
    // session 23). A function of M alone, so the partial sums' order is too.
    int64_t nbl = (M + 63) / 64, small = (M + LN_WARPS - 1) / LN_WARPS;
    if (nbl < LN_SMALL_BLOCKS) nbl = small < LN_SMALL_BLOCKS ? small : LN_SMALL_BLOCKS;
    int nb = (int)(nbl < LN_MAX_BLOCKS ? (nbl < 1 ? 1 : nbl) : LN_MAX_BLOCKS);
    size_t mark = cu_pool_mark(c);
    float *part = g ? (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * 2 * C) : NULL;
    if (!cu_ln_bwd_vec(c, M, C, p, x, dy, dx, part, nb, acc)) {
        CU_DISPATCH(c, T, k_ln_bwd<T, CPL><<<nb, 32 * LN_WARPS, 0, c->stream>>>(M, C, p->w, (const T *)x, (const T *)dy,
                                                                                (T *)dx, part, acc));
        CU_LAUNCHED();
    }
    if (g) {
        const float one = 1.f;
        if (!cu_reduce_parts(c, nb, 2, C, part, g->w, g->b, NULL, &one)) {
            k_reduce_parts<<<(2 * C + 255) / 256, 256, 0, c->stream>>>(nb, 2, C, part, g->w, g->b, 1.f);
            CU_LAUNCHED();
        }
    }
    cu_pool_release(c, mark);
}

#define LN_SWITCH(C, F, ...)                          \
    do {                                              \
        int cpl_ = ((C) + 31) / 32;                   \
        if (cpl_ <= 1) F<1>(__VA_ARGS__);             \
        else if (cpl_ <= 2) F<2>(__VA_ARGS__);        \
        else if (cpl_ <= 4) F<4>(__VA_ARGS__);        \
        else if (cpl_ <= 8) F<8>(__VA_ARGS__);        \
        else if (cpl_ <= 12) F<12>(__VA_ARGS__);      \
        else if (cpl_ <= 16) F<16>(__VA_ARGS__);      \
        else pf_die("LayerNorm: %d channels > 512 not supported on CUDA", (C)); \
    } while (0)

void cu_ln_fwd(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, const void *x, void *y) {
    if (M <= 0) return;
    LN_SWITCH(C, ln_launch_fwd, c, M, C, p, x, y);
}
void cu_ln_bwd(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, pf_layernorm_p *g,
               const void *x, const void *dy, void *dx) {
    if (M <= 0 || (!g && !dx)) return;
    LN_SWITCH(C, ln_launch_bwd, c, M, C, p, g, x, dy, dx, 1);
}
void cu_ln_bwd_set(cu_impl *c, int64_t M, int C, const pf_layernorm_p *p, pf_layernorm_p *g,
                   const void *x, const void *dy, void *dx) {
    if (M <= 0) return;
    LN_SWITCH(C, ln_launch_bwd, c, M, C, p, g, x, dy, dx, 0);
}

// ---- column sums -----------------------------------------------------------
template <typename T>
__global__ void k_colsum_part(int64_t M, int N, const T *x, float *part) {
    int64_t per = (M + gridDim.x - 1) / gridDim.x;
    int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    for (int col = threadIdx.x; col < N; col += blockDim.x) {
        float s = 0;
        for (int64_t r = r0; r < r1; r++) s += ld(x, r * N + col);
        part[(int64_t)blockIdx.x * N + col] = s;
    }
}

// The same in 8-column vectors (N a multiple of 8, at most 8 * 256 columns, x 16-byte aligned):
// the block's threads are cv = N / 8 vector columns times `lanes` rows; each thread sums its
// vector over rows r0 + lane, r0 + lane + lanes, ..., then the lanes' sums are added in lane
// order through shared memory (a fixed order: the same bits every run). The scalar kernel's
// 2-byte loads, one row after another per thread, ran at 0.88 TB/s (ncu, AF2 blocks at N = 384,
// session 34).
template <typename T>
__global__ void k_colsum_part_v(int64_t M, int N, const T *x, float *part) {
    extern __shared__ float cs_lane[];  // [lanes][N]
    const int cv = N / CU_VEC, lanes = blockDim.x / cv;
    const int64_t per = (M + gridDim.x - 1) / gridDim.x;
    const int64_t r0 = (int64_t)blockIdx.x * per, r1 = r0 + per < M ? r0 + per : M;
    const int vc = threadIdx.x % cv, lane = threadIdx.x / cv;  // blockDim.x = lanes * cv (the launcher)
    float s[CU_VEC] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f}, v[CU_VEC];
#pragma unroll 4
    for (int64_t r = r0 + lane; r < r1; r += lanes) {
        ld8(x, r * N + (int64_t)vc * CU_VEC, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) s[k] += v[k];
    }
#pragma unroll
    for (int k = 0; k < CU_VEC; k++) cs_lane[lane * N + vc * CU_VEC + k] = s[k];
    __syncthreads();
    for (int col = threadIdx.x; col < N; col += blockDim.x) {
        float t = 0.f;
        for (int l = 0; l < lanes; l++) t += cs_lane[l * N + col];
        part[(int64_t)blockIdx.x * N + col] = t;
    }
}

// Blocks of at least COLSUM_ROWS rows, at most COLSUM_BLOCKS of them: with 256 rows a block, the
// AF2 blocks' narrower sums (23K-49K rows) ran on 90-192 blocks, under one per SM (0.45-0.87 TB/s,
// session 35's ncu).
#define COLSUM_ROWS 64
#define COLSUM_BLOCKS 1024
void cu_colsum_add(cu_impl *c, int64_t M, int N, const void *x, int tyX, float *out, float scale) {
    if (M <= 0 || N <= 0) return;
    int64_t nbl = (M + COLSUM_ROWS - 1) / COLSUM_ROWS;
    int nb = (int)(nbl < COLSUM_BLOCKS ? nbl : COLSUM_BLOCKS);
    size_t mark = cu_pool_mark(c);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nb * N);
    const int f32 = tyX == CU_F32 || !c->bf16;
    if (N % CU_VEC == 0 && N / CU_VEC <= 256 && cu_vec_ok(CU_VEC, x)) {
        int cv = N / CU_VEC, th = (256 / cv) * cv;
        size_t sm = sizeof(float) * (size_t)(256 / cv) * N;  // at most 8 KB
        if (f32) k_colsum_part_v<float><<<nb, th, sm, c->stream>>>(M, N, (const float *)x, part);
        else k_colsum_part_v<bf16><<<nb, th, sm, c->stream>>>(M, N, (const bf16 *)x, part);
    } else {
        int th = N < 256 ? ((N + 31) / 32) * 32 : 256;
        if (f32) k_colsum_part<float><<<nb, th, 0, c->stream>>>(M, N, (const float *)x, part);
        else k_colsum_part<bf16><<<nb, th, 0, c->stream>>>(M, N, (const bf16 *)x, part);
    }
    CU_LAUNCHED();
    if (!cu_reduce_parts(c, nb, 1, N, part, out, NULL, NULL, &scale)) {
        k_reduce_parts<<<(N + 255) / 256, 256, 0, c->stream>>>(nb, 1, N, part, out, NULL, scale);
        CU_LAUNCHED();
    }
    cu_pool_release(c, mark);
}

// ---- Linear ----------------------------------------------------------------
void cu_linear_fwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p,
                   const void *x, void *y, int accumulate) {
    const void *w = cu_weight(c, p->w, (size_t)out * in);
    cu_gemm(c, 0, 1, M, out, in, 1.f, x, CU_ACT, in, w, CU_ACT, in, accumulate ? 1.f : 0.f,
            y, CU_ACT, out, 1, 0, 0, 0, p->b);
}

// dx_beta: 1, dx += dy W (cu_linear_bwd); 0, dx = dy W (cu_linear_bwd_set: no fill before and no
// read of dx; x may be dx, its last read is the weight gradient's, which runs first).
static void linear_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const void *x,
                       const void *dy, void *dx, float dx_beta) {
    if (g) {
        // dW (out, in) += dy^T x, straight into the fp32 gradient
        cu_gemm(c, 1, 0, out, in, M, 1.f, dy, CU_ACT, out, x, CU_ACT, in, 1.f, g->w, CU_F32, in, 1, 0, 0, 0, NULL);
        if (g->b) cu_colsum_add(c, M, out, dy, CU_ACT, g->b, 1.f);
    }
    if (dx) {
        const void *w = cu_weight(c, p->w, (size_t)out * in);
        cu_gemm(c, 0, 0, M, in, out, 1.f, dy, CU_ACT, out, w, CU_ACT, in, dx_beta, dx, CU_ACT, in, 1, 0, 0, 0, NULL);
    }
}
void cu_linear_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const void *x,
                   const void *dy, void *dx) {
    linear_bwd(c, M, in, out, p, g, x, dy, dx, 1.f);
}
void cu_linear_bwd_set(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const void *x,
                       const void *dy, void *dx) {
    linear_bwd(c, M, in, out, p, g, x, dy, dx, 0.f);
}

// ---- elementwise -------------------------------------------------------------
template <typename T>
__global__ void k_add(T *y, const T *x, int64_t n) { GRID_STRIDE(i, n) st(y, i, ld(y, i) + ld(x, i)); }
template <typename T>
__global__ void k_fill(T *y, float v, int64_t n) { GRID_STRIDE(i, n) st(y, i, v); }
template <typename T>
__global__ void k_add_v(T *y, const T *x, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float a[CU_VEC], b[CU_VEC];
        ld8(y, i, a);
        ld8(x, i, b);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) a[k] += b[k];
        st8(y, i, a);
    }
}
template <typename T>
__global__ void k_fill_v(T *y, float v, int64_t n) {
    float a[CU_VEC];
#pragma unroll
    for (int k = 0; k < CU_VEC; k++) a[k] = v;
    GRID_STRIDE_VEC(i, n) st8(y, i, a);
}

void cu_add(cu_impl *c, void *y, const void *x, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, y, x)) CU_DISPATCH(c, T, k_add_v<T><<<cu_vec_blocks(n), 256, 0, c->stream>>>((T *)y, (const T *)x, n));
    else CU_DISPATCH(c, T, k_add<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((T *)y, (const T *)x, n));
    CU_LAUNCHED();
}
void cu_fill(cu_impl *c, void *y, float v, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, y)) CU_DISPATCH(c, T, k_fill_v<T><<<cu_vec_blocks(n), 256, 0, c->stream>>>((T *)y, v, n));
    else CU_DISPATCH(c, T, k_fill<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((T *)y, v, n));
    CU_LAUNCHED();
}
void cu_copy_act(cu_impl *c, void *dst, const void *src, int64_t n) {
    if (n <= 0 || dst == src) return;
    CU_CHECK(cudaMemcpyAsync(dst, src, (size_t)n * cu_esz(c), cudaMemcpyDeviceToDevice, c->stream));
}
