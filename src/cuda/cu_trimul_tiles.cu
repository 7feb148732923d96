// cu_trimul_tiles.cu: the triangle multiplication's memory-bound kernels
// (cu_trimul.cuh): the gated sides written channel-major (C, M) by a tiled
// transposing kernel, their gradient, the transposes between (M, C) and (C, M),
// and the output gate. M positions need not form a square (the row-sharded update
// runs them on its rows).
#include "cu_trimul.cuh"
#include "cu_vec.cuh"
#include "cu_small.cuh"
#include "cu_trimul_side.cuh"  // ts_sg2_run (PF_TRIMUL_SG2)

#define TT 32

// ---- 16-byte tiles (cu_vec.cuh) ----------------------------------------------
// Tiles of VT positions x VT channels between the row-major (N*N, C) and the
// channel-major (C, N*N) layouts, every global access 8 activations wide: a
// thread reads 8 channels of one position, or writes 8 positions of one
// channel. Used when C and N*N are multiples of 8 and the buffers 16-byte
// aligned (tm_vec_ok); the scalar kernels below serve the rest. The arithmetic
// per element is the scalar kernels', so the results are the same bits.
#define VT 64
#define VT_THREADS 256
#define VT_PAD 1  // float row padding of the tile (bank spread)

// Row-major side: thread u covers channels 8 (u % 8) .. +7 of position u / 8 (+ 32 k).
// v[k] = f(row-major inputs at (ij, ch0 + k)) goes into t[ch][pos].
template <typename T>
__global__ void k_side_fwd_v(const T *mask, const T *tp, const T *tg, T *A, int64_t NN, int C, int64_t rs) {
    __shared__ float t[VT][VT + VT_PAD];
    int64_t ij0 = (int64_t)blockIdx.x * VT;
    int c0 = blockIdx.y * VT;
    int cg = (threadIdx.x % 8) * 8;
    for (int p = threadIdx.x / 8; p < VT; p += VT_THREADS / 8) {
        int64_t ij = ij0 + p;
        float a[CU_VEC], g[CU_VEC];
        if (ij < NN && c0 + cg < C) {
            int64_t i = ij * rs + c0 + cg;
            ld8(tp, i, a);
            ld8(tg, i, g);
            float m = mask ? ld(mask, ij) : 1.f;
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) a[k] = m * sigmoidf_(g[k]) * a[k];
        } else {
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) a[k] = 0.f;
        }
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) t[cg + k][p] = a[k];
    }
    __syncthreads();
    int pg = (threadIdx.x % 8) * 8;
    for (int ch = threadIdx.x / 8; ch < VT; ch += VT_THREADS / 8) {
        int64_t ij = ij0 + pg;
        if (ij < NN && c0 + ch < C) st8(A, (int64_t)(c0 + ch) * NN + ij, &t[ch][pg]);
    }
}

// From dS (C, N*N): tp <- dS m sigmoid(tg), tg <- dS m tp s (1 - s), in (N*N, C).
template <typename T>
__global__ void k_side_bwd_v(const T *mask, const T *dS, T *tp, T *tg, int64_t NN, int C, int64_t rs) {
    __shared__ float t[VT][VT + VT_PAD];
    int64_t ij0 = (int64_t)blockIdx.x * VT;
    int c0 = blockIdx.y * VT;
    int pg = (threadIdx.x % 8) * 8;
    for (int ch = threadIdx.x / 8; ch < VT; ch += VT_THREADS / 8) {
        int64_t ij = ij0 + pg;
        float v[CU_VEC];
        if (ij < NN && c0 + ch < C) ld8(dS, (int64_t)(c0 + ch) * NN + ij, v);
        else {
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) v[k] = 0.f;
        }
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) t[ch][pg + k] = v[k];
    }
    __syncthreads();
    int cg = (threadIdx.x % 8) * 8;
    for (int p = threadIdx.x / 8; p < VT; p += VT_THREADS / 8) {
        int64_t ij = ij0 + p;
        if (ij >= NN || c0 + cg >= C) continue;
        int64_t i = ij * rs + c0 + cg;
        float vp[CU_VEC], vg[CU_VEC];
        ld8(tp, i, vp);
        ld8(tg, i, vg);
        float m = mask ? ld(mask, ij) : 1.f;
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) {
            float ds = t[cg + k][p] * m;
            float sg = sigmoidf_(vg[k]);
            vg[k] = ds * vp[k] * sg * (1.f - sg);
            vp[k] = ds * sg;
        }
        st8(tp, i, vp);
        st8(tg, i, vg);
    }
}

// to_cm: in (R, C) -> out (C, R); else the reverse. rs: the row-major side's row
// stride (>= C: the columns of a wider tensor), in's when to_cm, out's otherwise.
template <typename T>
__global__ void k_transpose_v(const T *in, T *out, int64_t R, int C, int to_cm, int64_t rs) {
    __shared__ float t[VT][VT + VT_PAD];  // [channel][position]
    int64_t r0 = (int64_t)blockIdx.x * VT;
    int c0 = blockIdx.y * VT;
    int g8 = (threadIdx.x % 8) * 8;
    for (int u = threadIdx.x / 8; u < VT; u += VT_THREADS / 8) {
        float v[CU_VEC];
        if (to_cm) {  // u: position, g8: channel group
            int64_t rr = r0 + u;
            if (rr < R && c0 + g8 < C) ld8(in, rr * rs + c0 + g8, v);
            else {
#pragma unroll
                for (int k = 0; k < CU_VEC; k++) v[k] = 0.f;
            }
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) t[g8 + k][u] = v[k];
        } else {  // u: channel, g8: position group
            int64_t rr = r0 + g8;
            if (rr < R && c0 + u < C) ld8(in, (int64_t)(c0 + u) * R + rr, v);
            else {
#pragma unroll
                for (int k = 0; k < CU_VEC; k++) v[k] = 0.f;
            }
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) t[u][g8 + k] = v[k];
        }
    }
    __syncthreads();
    for (int u = threadIdx.x / 8; u < VT; u += VT_THREADS / 8) {
        if (to_cm) {  // u: channel, g8: position group
            int64_t rr = r0 + g8;
            if (rr < R && c0 + u < C) st8(out, (int64_t)(c0 + u) * R + rr, &t[u][g8]);
        } else {      // u: position, g8: channel group
            int64_t rr = r0 + u;
            if (rr < R && c0 + g8 < C) {
                float v[CU_VEC];
#pragma unroll
                for (int k = 0; k < CU_VEC; k++) v[k] = t[g8 + k][u];
                st8(out, rr * rs + c0 + g8, v);
            }
        }
    }
}

template <typename T>
__global__ void k_gate_out_v(T *out, const T *gate, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float o[CU_VEC], g[CU_VEC];
        ld8(out, i, o);
        ld8(gate, i, g);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) o[k] *= sigmoidf_(g[k]);
        st8(out, i, o);
    }
}

// The output gate's backward from its pre-activation (out = sigmoid(g) y): in
// place, g <- dy s (d y), y <- dy y s (1 - s) (d g), s = sigmoid(g) in fp32: one
// pass where a stored sigmoid took two.
template <typename T>
__global__ void k_gate_bwd_pre_v(const T *dy, T *g, T *y, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float d[CU_VEC], s[CU_VEC], v[CU_VEC];
        ld8(dy, i, d);
        ld8(g, i, s);
        ld8(y, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) {
            float sg = sigmoidf_(s[k]);
            v[k] = d[k] * v[k] * sg * (1.f - sg);
            s[k] = d[k] * sg;
        }
        st8(g, i, s);
        st8(y, i, v);
    }
}
template <typename T>
__global__ void k_gate_bwd_pre(const T *dy, T *g, T *y, int64_t n) {
    GRID_STRIDE(i, n) {
        float d = ld(dy, i), sg = sigmoidf_(ld(g, i)), v = ld(y, i);
        st(y, i, d * v * sg * (1.f - sg));
        st(g, i, d * sg);
    }
}

static int tm_vec_ok(int64_t R, int C, const void *a, const void *b, const void *c) {
    return C % CU_VEC == 0 && cu_vec_ok(R, a, b, c);
}
static dim3 vgrid(int64_t R, int C) { return dim3((unsigned)((R + VT - 1) / VT), (unsigned)((C + VT - 1) / VT)); }

// A[ch, ij] = mask[ij] * sigmoid(tg[ij, ch]) * tp[ij, ch]; tp, tg rows rs apart (>= C)
template <typename T>
__global__ void k_side_fwd(const T *mask, const T *tp, const T *tg, T *A, int64_t NN, int C, int64_t rs) {
    __shared__ float t[TT][TT + 1];
    int64_t ij0 = (int64_t)blockIdx.x * TT;
    int ch0 = blockIdx.y * TT;
    for (int r = threadIdx.y; r < TT; r += blockDim.y) {
        int64_t ij = ij0 + r;
        int ch = ch0 + threadIdx.x;
        float v = 0;
        if (ij < NN && ch < C) {
            int64_t i = ij * rs + ch;
            v = (mask ? ld(mask, ij) : 1.f) * sigmoidf_(ld(tg, i)) * ld(tp, i);
        }
        t[r][threadIdx.x] = v;
    }
    __syncthreads();
    for (int r = threadIdx.y; r < TT; r += blockDim.y) {
        int ch = ch0 + r;
        int64_t ij = ij0 + threadIdx.x;
        if (ij < NN && ch < C) st(A, (int64_t)ch * NN + ij, t[threadIdx.x][r]);
    }
}

// From dS (c, N*N): tp <- dS m sigmoid(tg), tg <- dS m tp s (1 - s), in (N*N, c).
template <typename T>
__global__ void k_side_bwd(const T *mask, const T *dS, T *tp, T *tg, int64_t NN, int C, int64_t rs) {
    __shared__ float t[TT][TT + 1];
    int64_t ij0 = (int64_t)blockIdx.x * TT;
    int ch0 = blockIdx.y * TT;
    for (int r = threadIdx.y; r < TT; r += blockDim.y) {
        int ch = ch0 + r;
        int64_t ij = ij0 + threadIdx.x;
        t[r][threadIdx.x] = (ij < NN && ch < C) ? ld(dS, (int64_t)ch * NN + ij) : 0.f;
    }
    __syncthreads();
    for (int r = threadIdx.y; r < TT; r += blockDim.y) {
        int64_t ij = ij0 + r;
        int ch = ch0 + threadIdx.x;
        if (ij < NN && ch < C) {
            int64_t i = ij * rs + ch;
            float ds = t[threadIdx.x][r] * (mask ? ld(mask, ij) : 1.f);
            float s = sigmoidf_(ld(tg, i)), vp = ld(tp, i);
            st(tp, i, ds * s);
            st(tg, i, ds * vp * s * (1.f - s));
        }
    }
}

// Between (R, C) row-major and (C, R) channel-major; R (= N*N) may be large,
// so the grid's x runs over R. to_cm: in (R, C) -> out (C, R); else the reverse.
// rs: the row-major side's row stride (in's when to_cm, out's otherwise).
template <typename T>
__global__ void k_transpose(const T *in, T *out, int64_t R, int C, int to_cm, int64_t rs) {
    __shared__ float t[TT][TT + 1];
    int64_t r0 = (int64_t)blockIdx.x * TT;
    int c0 = blockIdx.y * TT;
    if (to_cm) {
        for (int r = threadIdx.y; r < TT; r += blockDim.y) {
            int64_t rr = r0 + r;
            int cc = c0 + threadIdx.x;
            t[r][threadIdx.x] = (rr < R && cc < C) ? ld(in, rr * rs + cc) : 0.f;
        }
        __syncthreads();
        for (int r = threadIdx.y; r < TT; r += blockDim.y) {
            int cc = c0 + r;
            int64_t rr = r0 + threadIdx.x;
            if (rr < R && cc < C) st(out, (int64_t)cc * R + rr, t[threadIdx.x][r]);
        }
    } else {
        for (int r = threadIdx.y; r < TT; r += blockDim.y) {
            int cc = c0 + r;
            int64_t rr = r0 + threadIdx.x;
            t[r][threadIdx.x] = (rr < R && cc < C) ? ld(in, (int64_t)cc * R + rr) : 0.f;
        }
        __syncthreads();
        for (int r = threadIdx.y; r < TT; r += blockDim.y) {
            int64_t rr = r0 + r;
            int cc = c0 + threadIdx.x;
            if (rr < R && cc < C) st(out, rr * rs + cc, t[threadIdx.x][r]);
        }
    }
}

template <typename T>
__global__ void k_gate_out(T *out, const T *gate, int64_t n) { GRID_STRIDE(i, n) st(out, i, ld(out, i) * sigmoidf_(ld(gate, i))); }

static dim3 tgrid(int64_t R, int C) { return dim3((unsigned)((R + TT - 1) / TT), (unsigned)((C + TT - 1) / TT)); }
static const dim3 TBLK(TT, 8);

// rs: the row-major side's row stride (C for a whole tensor).
void cu_tm_transpose(cu_impl *c, const void *in, void *out, int64_t R, int C, int to_cm, int64_t rs) {
    if (tm_vec_ok(R, C, in, out, NULL) && rs % CU_VEC == 0)
        CU_DISPATCH(c, T, k_transpose_v<T><<<vgrid(R, C), VT_THREADS, 0, c->stream>>>((const T *)in, (T *)out, R, C, to_cm, rs));
    else
        CU_DISPATCH(c, T, k_transpose<T><<<tgrid(R, C), TBLK, 0, c->stream>>>((const T *)in, (T *)out, R, C, to_cm, rs));
    CU_LAUNCHED();
}

// A (C, M) from tp, tg (M, C), rows ld apart.
static void side_kernel(cu_impl *c, int64_t M, int C, const void *mask, const void *tp, const void *tg, int64_t ld,
                        void *A) {
    if (tm_vec_ok(M, C, tp, tg, A) && ld % CU_VEC == 0)
        CU_DISPATCH(c, T, k_side_fwd_v<T><<<vgrid(M, C), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, M, C, ld));
    else
        CU_DISPATCH(c, T, k_side_fwd<T><<<tgrid(M, C), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, M, C, ld));
    CU_LAUNCHED();
}

void cu_tm_side(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg, const void *zl,
                const void *mask, void *tp, void *tg, void *A) {
    if (cu_tm_sides_fused(c, M, c_z, C, lp, lg, NULL, NULL, zl, mask, A, NULL)) return;  // tp, tg unused
    cu_linear_fwd(c, M, c_z, C, lp, zl, tp, 0);
    cu_linear_fwd(c, M, c_z, C, lg, zl, tg, 0);
    side_kernel(c, M, C, mask, tp, tg, C, A);
}

static void side_grad(cu_impl *c, int64_t M, int C, const void *mask, const void *dS, void *tp, void *tg, int64_t ld) {
    if (tm_vec_ok(M, C, dS, tp, tg) && ld % CU_VEC == 0)
        CU_DISPATCH(c, T, k_side_bwd_v<T><<<vgrid(M, C), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, M, C, ld));
    else
        CU_DISPATCH(c, T, k_side_bwd<T><<<tgrid(M, C), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, M, C, ld));
    CU_LAUNCHED();
}

void cu_tm_side_grad(cu_impl *c, int64_t M, int C, const void *mask, const void *dS, void *tp, void *tg) {
    side_grad(c, M, C, mask, dS, tp, tg, C);
}

// ---- one side's two projections as one GEMM -----------------------------------
// tpg (M, 2C) = [tp | tg]: zl read once for both. The weight [W_p; W_g] (2C, c_z) is
// the two cached act-type copies (cu_weight) side by side in pool scratch, so the
// operands are the unfused ones'; biases (AF2) are added after the product.
template <typename T>
__global__ void k_add_cols2(T *y, const float *bp, const float *bg, int64_t M, int C) {
    GRID_STRIDE(i, M * 2 * C) {
        int col = (int)(i % (2 * C));
        const float *b = col < C ? bp : bg;
        if (b) st(y, i, ld(y, i) + b[col < C ? col : col - C]);
    }
}
__global__ void k_add_f32(float *y, const float *x, int64_t n) { GRID_STRIDE(i, n) y[i] += x[i]; }

// The n (2 or 4) Linears' weights stacked, (n C, c_z) in the act type: a side's [W_p; W_g], or
// both sides' [W_ap; W_ag; W_bp; W_bg] (PF_TRIMUL_BWDCAT). In pool scratch (the caller releases
// it) or kept across calls (PF_WCACHE, cu_small.cuh: copied when new or after a parameter write).
static void *cat_weights(cu_impl *c, int c_z, int C, const pf_linear_p *const *l, int n) {
    size_t es = cu_esz(c), part = (size_t)C * c_z * es;
    struct { const void *src[4]; int64_t tag, c_z, C; } sig;
    memset(&sig, 0, sizeof sig);
    for (int k = 0; k < n; k++) sig.src[k] = l[k]->w;
    sig.tag = n == 2 ? 4 : 5, sig.c_z = c_z, sig.C = C;
    int build;
    char *w = (char *)cu_wcache(c, PF_WC_TM_CAT, &sig, sizeof sig, n * part, &build);
    if (!w) w = (char *)cu_pool_get(c, n * part);
    if (!build) return w;
    for (int k = 0; k < n; k++)
        CU_CHECK(cudaMemcpyAsync(w + k * part, cu_weight(c, l[k]->w, (size_t)C * c_z), part, cudaMemcpyDeviceToDevice,
                                 c->stream));
    return w;
}
static void *cat_weight(cu_impl *c, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg) {
    const pf_linear_p *l[2] = {lp, lg};
    return cat_weights(c, c_z, C, l, 2);
}

// tpg (M, 2C) = zl [W_p; W_g]^T (+ biases); w: cat_weight's.
static void proj_cat(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                     const void *w, const void *zl, void *tpg) {
    cu_gemm(c, 0, 1, M, 2 * C, c_z, 1.f, zl, CU_ACT, c_z, w, CU_ACT, c_z, 0.f, tpg, CU_ACT, 2 * C, 1, 0, 0, 0, NULL);
    if (lp->b || lg->b) {
        CU_DISPATCH(c, T, k_add_cols2<T><<<cu_blocks(M * 2 * C, 256), 256, 0, c->stream>>>((T *)tpg, lp->b, lg->b, M, C));
        CU_LAUNCHED();
    }
}

void cu_tm_side_cat(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                    const void *zl, const void *mask, void *tpg, void *A) {
    if (cu_tm_sides_fused(c, M, c_z, C, lp, lg, NULL, NULL, zl, mask, A, NULL)) return;  // tpg unused
    size_t mark = cu_pool_mark(c);
    proj_cat(c, M, c_z, C, lp, lg, cat_weight(c, c_z, C, lp, lg), zl, tpg);
    side_kernel(c, M, C, mask, tpg, (char *)tpg + (size_t)C * cu_esz(c), 2 * C, A);
    cu_pool_release(c, mark);
}

// The n (2 or 4) gradients gr[k] += their rows of t^T zl and the biases' column sums of t (M, n C),
// rows n C apart: a side's [d tp | d tg], or both sides' (PF_TRIMUL_BWDCAT). [dW_0; ..] = t^T zl
// in one GEMM: added by it where the n weight gradients lie back to back (PF_DW_ACC), else into
// fp32 scratch and added to each.
static void side_dw_n(cu_impl *c, int64_t M, int c_z, int C, pf_linear_p *const *gr, int n, const void *zl,
                      const void *t) {
    size_t mark = cu_pool_mark(c);
    size_t nw = (size_t)C * c_z;
    int rows = n * C, back = gr[0]->w != NULL, any_b = 0;
    for (int k = 1; k < n && back; k++) back = gr[k]->w == gr[0]->w + k * nw;
    for (int k = 0; k < n; k++) any_b |= gr[k]->b != NULL;
    if (back && cu_dw_acc_on()) {
        cu_gemm(c, 1, 0, rows, c_z, M, 1.f, t, CU_ACT, rows, zl, CU_ACT, c_z, 1.f, gr[0]->w, CU_F32, c_z, 1, 0, 0, 0,
                NULL);
        cu_dw_acc_ran();
    } else {
        float *dw = (float *)cu_pool_get(c, sizeof(float) * n * nw);
        cu_gemm(c, 1, 0, rows, c_z, M, 1.f, t, CU_ACT, rows, zl, CU_ACT, c_z, 0.f, dw, CU_F32, c_z, 1, 0, 0, 0, NULL);
        for (int k = 0; k < n; k++)
            k_add_f32<<<cu_blocks((int64_t)nw, 256), 256, 0, c->stream>>>(gr[k]->w, dw + k * nw, (int64_t)nw);
        CU_LAUNCHED();
    }
    if (any_b) {
        float *db = (float *)cu_pool_get(c, sizeof(float) * (size_t)rows);
        CU_CHECK(cudaMemsetAsync(db, 0, sizeof(float) * (size_t)rows, c->stream));
        cu_colsum_add(c, M, rows, t, CU_ACT, db, 1.f);
        for (int k = 0; k < n; k++)
            if (gr[k]->b) k_add_f32<<<cu_blocks(C, 256), 256, 0, c->stream>>>(gr[k]->b, db + k * C, C);
        CU_LAUNCHED();
    }
    cu_pool_release(c, mark);
}
static void side_dw(cu_impl *c, int64_t M, int c_z, int C, pf_linear_p *gp, pf_linear_p *gg, const void *zl,
                    const void *tpg) {
    pf_linear_p *const gr[2] = {gp, gg};
    side_dw_n(c, M, c_z, C, gr, 2, zl, tpg);
}

// side_dw with d tp, d tg in two buffers (M, C) each: a GEMM and a column sum per weight
// (dW += dt^T zl by the GEMM itself under PF_DW_ACC, else through fp32 scratch).
static void side_dw_split(cu_impl *c, int64_t M, int c_z, int C, pf_linear_p *const gr[2], const void *zl,
                          const void *const dt[2]) {
    size_t mark = cu_pool_mark(c);
    size_t nw = (size_t)C * c_z;
    float *dw = (float *)cu_pool_get(c, sizeof(float) * (nw + (size_t)C));
    float *db = dw + nw;
    for (int k = 0; k < 2; k++) {
        if (cu_dw_acc_on()) {
            cu_gemm(c, 1, 0, C, c_z, M, 1.f, dt[k], CU_ACT, C, zl, CU_ACT, c_z, 1.f, gr[k]->w, CU_F32, c_z, 1, 0, 0,
                    0, NULL);
            cu_dw_acc_ran();
        } else {
            cu_gemm(c, 1, 0, C, c_z, M, 1.f, dt[k], CU_ACT, C, zl, CU_ACT, c_z, 0.f, dw, CU_F32, c_z, 1, 0, 0, 0, NULL);
            k_add_f32<<<cu_blocks((int64_t)nw, 256), 256, 0, c->stream>>>(gr[k]->w, dw, (int64_t)nw);
            CU_LAUNCHED();
        }
        if (gr[k]->b) {
            CU_CHECK(cudaMemsetAsync(db, 0, sizeof(float) * (size_t)C, c->stream));
            cu_colsum_add(c, M, C, dt[k], CU_ACT, db, 1.f);
            k_add_f32<<<cu_blocks(C, 256), 256, 0, c->stream>>>(gr[k]->b, db, C);
            CU_LAUNCHED();
        }
    }
    cu_pool_release(c, mark);
}

void cu_tm_side_bwd_cat(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, const void *zl, const void *mask, const void *dS,
                        void *tpg, void *dzl) {
    size_t mark = cu_pool_mark(c);
    const void *w = cat_weight(c, c_z, C, lp, lg);
    if (!cu_tm_side_grad_fused(c, M, c_z, C, lp, lg, zl, mask, dS, tpg, 2 * (int64_t)C)) {  // tpg <- [d tp | d tg]
        proj_cat(c, M, c_z, C, lp, lg, w, zl, tpg);
        side_grad(c, M, C, mask, dS, tpg, (char *)tpg + (size_t)C * cu_esz(c), 2 * C);
    }
    // dzl += [d tp | d tg] [W_p; W_g]: one product of depth 2C
    cu_gemm(c, 0, 0, M, c_z, 2 * C, 1.f, tpg, CU_ACT, 2 * C, w, CU_ACT, c_z, 1.f, dzl, CU_ACT, c_z, 1, 0, 0, 0, NULL);
    side_dw(c, M, c_z, C, gp, gg, zl, tpg);
    cu_pool_release(c, mark);
}

int cu_tm_sides_bwd_cat4(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                         pf_linear_p *const grad[2][2], const void *zl, const void *mask, const void *dA,
                         const void *dB, void *G, void *dzl) {
    const int64_t ld = 4 * (int64_t)C;
    const pf_linear_p *const l[4] = {lin[0][0], lin[0][1], lin[1][0], lin[1][1]};
    pf_linear_p *const gr[4] = {grad[0][0], grad[0][1], grad[1][0], grad[1][1]};
    int any_b = 0;
    for (int k = 0; k < 4; k++) any_b |= gr[k]->b != NULL || l[k]->b != NULL;
    // PF_TRIMUL_GDW: dzl and the weight gradients from one read of G (2: G written in k_tm_gdw's tile order by
    // k_tm_sgrad_wgp, where that kernel takes both sides)
    int gdw = c_z == 128 && C == 128 && !any_b ? cu_tm_gdw_mode(c, M, G, zl, dzl) : 0;
    if (gdw == 2 && ts_side_grad_wgp(c, M, c_z, C, lin[0][0], lin[0][1], zl, mask, dA, G, ld, 0)) {
        if (!ts_side_grad_wgp(c, M, c_z, C, lin[1][0], lin[1][1], zl, mask, dB, G, ld, 2 * C))
            pf_die("cu_tm_sides_bwd_cat4: k_tm_sgrad_wgp ran for side a but not for side b (M %lld)", (long long)M);
    } else {
        if (gdw == 2) gdw = 1;  // k_tm_sgrad_wgp did not take side a: G row-major
        if (!cu_tm_side_grad_fused(c, M, c_z, C, lin[0][0], lin[0][1], zl, mask, dA, G, ld)) return 0;
        // side b: the same shapes, so the same kernel applies (its conditions do not look at dS or tpg)
        if (!cu_tm_side_grad_fused(c, M, c_z, C, lin[1][0], lin[1][1], zl, mask, dB,
                                   (char *)G + 2 * (size_t)C * cu_esz(c), ld))
            pf_die("cu_tm_sides_bwd_cat4: the fused side gradient ran for side a but not for side b (M %lld, c_z "
                   "%d, C %d)", (long long)M, c_z, C);
    }
    size_t mark = cu_pool_mark(c);
    const void *wc = cat_weights(c, c_z, C, l, 4);
    if (gdw) {
        float *const dw[4] = {gr[0]->w, gr[1]->w, gr[2]->w, gr[3]->w};
        cu_tm_gdw(c, M, G, gdw == 2, zl, wc, dzl, dw);
    } else {
        // dzl += G [W_ap; W_ag; W_bp; W_bg]: one product of depth 4C
        cu_gemm(c, 0, 0, M, c_z, (int)ld, 1.f, G, CU_ACT, ld, wc, CU_ACT, c_z, 1.f, dzl, CU_ACT, c_z, 1, 0, 0, 0, NULL);
        side_dw_n(c, M, c_z, C, gr, 4, zl, G);  // the four weight gradients as one GEMM, zl read once
    }
    cu_pool_release(c, mark);
    return 1;
}

int cu_tm_sides_bwd_sg2(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                        pf_linear_p *const grad[2][2], const void *zl, const void *mask, const void *dA,
                        const void *dB, void *tpg_a, void *dtp_b, void *dtg_b, void *dzl) {
    void *const dtp[2] = {tpg_a, dtp_b}, *const dtg[2] = {(char *)tpg_a + (size_t)C * cu_esz(c), dtg_b};
    const int64_t ldt[2] = {2 * (int64_t)C, C};
    if (!ts_sg2_run(c, M, c_z, C, lin, zl, mask, dA, dB, dtp, dtg, ldt, dzl)) return 0;
    side_dw(c, M, c_z, C, grad[0][0], grad[0][1], zl, tpg_a);  // side a: as cu_tm_side_bwd_cat
    const void *const dtb[2] = {dtp_b, dtg_b};
    side_dw_split(c, M, c_z, C, grad[1], zl, dtb);
    return 1;
}

void cu_tm_gate_out(cu_impl *c, void *out, const void *gate, int64_t n) {
    if (cu_vec_ok(n, out, gate))
        CU_DISPATCH(c, T, k_gate_out_v<T><<<cu_vec_blocks(n), 256, 0, c->stream>>>((T *)out, (const T *)gate, n));
    else
        CU_DISPATCH(c, T, k_gate_out<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((T *)out, (const T *)gate, n));
    CU_LAUNCHED();
}

void cu_tm_gate_bwd(cu_impl *c, const void *dy, void *g, void *y, int64_t n) {
    if (cu_vec_ok(n, dy, g, y))
        CU_DISPATCH(c, T, k_gate_bwd_pre_v<T><<<cu_vec_blocks(n), 256, 0, c->stream>>>((const T *)dy, (T *)g, (T *)y, n));
    else
        CU_DISPATCH(c, T, k_gate_bwd_pre<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((const T *)dy, (T *)g, (T *)y, n));
    CU_LAUNCHED();
}
