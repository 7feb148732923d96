// cu_trimul.cu: triangle multiplicative update (AF2 Alg. 11/12, AF3 Alg. 12/13).
// The gated sides a, b are written channel-major (c, N, N) by a tiled
// transposing kernel, so the contraction is one strided-batched GEMM over the
// c channels (outgoing X_c = A_c B_c^T, incoming X_c = A_c^T B_c): no N^3
// intermediate. Same saved / ws layout as the CPU reference:
// saved: z (N*N, c_z) | x (N*N, c); ws: zl, y, gate, dzl (N*N, c_z) | e[0..4] (N*N*c).
#include "cu_ops.h"
#include "cu_vec.cuh"

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
__global__ void k_side_fwd_v(const T *mask, const T *tp, const T *tg, T *A, int64_t NN, int C) {
    __shared__ float t[VT][VT + VT_PAD];
    int64_t ij0 = (int64_t)blockIdx.x * VT;
    int c0 = blockIdx.y * VT;
    int cg = (threadIdx.x % 8) * 8;
    for (int p = threadIdx.x / 8; p < VT; p += VT_THREADS / 8) {
        int64_t ij = ij0 + p;
        float a[CU_VEC], g[CU_VEC];
        if (ij < NN && c0 + cg < C) {
            int64_t i = ij * C + c0 + cg;
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
__global__ void k_side_bwd_v(const T *mask, const T *dS, T *tp, T *tg, int64_t NN, int C) {
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
        int64_t i = ij * C + c0 + cg;
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

// to_cm: in (R, C) -> out (C, R); else the reverse, out's rows ldo apart (>= C:
// the columns of a wider tensor).
template <typename T>
__global__ void k_transpose_v(const T *in, T *out, int64_t R, int C, int to_cm, int64_t ldo) {
    __shared__ float t[VT][VT + VT_PAD];  // [channel][position]
    int64_t r0 = (int64_t)blockIdx.x * VT;
    int c0 = blockIdx.y * VT;
    int g8 = (threadIdx.x % 8) * 8;
    for (int u = threadIdx.x / 8; u < VT; u += VT_THREADS / 8) {
        float v[CU_VEC];
        if (to_cm) {  // u: position, g8: channel group
            int64_t rr = r0 + u;
            if (rr < R && c0 + g8 < C) ld8(in, rr * C + c0 + g8, v);
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
                st8(out, rr * ldo + c0 + g8, v);
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

static int tm_vec_ok(int64_t R, int C, const void *a, const void *b, const void *c) {
    return C % CU_VEC == 0 && cu_vec_ok(R, a, b, c);
}
static dim3 vgrid(int64_t R, int C) { return dim3((unsigned)((R + VT - 1) / VT), (unsigned)((C + VT - 1) / VT)); }

// A[ch, ij] = mask[ij] * sigmoid(tg[ij, ch]) * tp[ij, ch]
template <typename T>
__global__ void k_side_fwd(const T *mask, const T *tp, const T *tg, T *A, int64_t NN, int C) {
    __shared__ float t[TT][TT + 1];
    int64_t ij0 = (int64_t)blockIdx.x * TT;
    int ch0 = blockIdx.y * TT;
    for (int r = threadIdx.y; r < TT; r += blockDim.y) {
        int64_t ij = ij0 + r;
        int ch = ch0 + threadIdx.x;
        float v = 0;
        if (ij < NN && ch < C) {
            int64_t i = ij * C + ch;
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
__global__ void k_side_bwd(const T *mask, const T *dS, T *tp, T *tg, int64_t NN, int C) {
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
            int64_t i = ij * C + ch;
            float ds = t[threadIdx.x][r] * (mask ? ld(mask, ij) : 1.f);
            float s = sigmoidf_(ld(tg, i)), vp = ld(tp, i);
            st(tp, i, ds * s);
            st(tg, i, ds * vp * s * (1.f - s));
        }
    }
}

// Between (R, C) row-major and (C, R) channel-major; R (= N*N) may be large,
// so the grid's x runs over R. to_cm: in (R, C) -> out (C, R); else the reverse,
// out's rows ldo apart.
template <typename T>
__global__ void k_transpose(const T *in, T *out, int64_t R, int C, int to_cm, int64_t ldo) {
    __shared__ float t[TT][TT + 1];
    int64_t r0 = (int64_t)blockIdx.x * TT;
    int c0 = blockIdx.y * TT;
    if (to_cm) {
        for (int r = threadIdx.y; r < TT; r += blockDim.y) {
            int64_t rr = r0 + r;
            int cc = c0 + threadIdx.x;
            t[r][threadIdx.x] = (rr < R && cc < C) ? ld(in, rr * C + cc) : 0.f;
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
            if (rr < R && cc < C) st(out, rr * ldo + cc, t[threadIdx.x][r]);
        }
    }
}

template <typename T>
__global__ void k_gate_out(T *out, const T *gate, int64_t n) { GRID_STRIDE(i, n) st(out, i, ld(out, i) * sigmoidf_(ld(gate, i))); }

static dim3 tgrid(int64_t R, int C) { return dim3((unsigned)((R + TT - 1) / TT), (unsigned)((C + TT - 1) / TT)); }
static const dim3 TBLK(TT, 8);

// ldo: out's row stride when !to_cm (C for a whole tensor).
static void transpose_act(cu_impl *c, const void *in, void *out, int64_t R, int C, int to_cm, int64_t ldo) {
    if (tm_vec_ok(R, C, in, out, NULL) && ldo % CU_VEC == 0)
        CU_DISPATCH(c, T, k_transpose_v<T><<<vgrid(R, C), VT_THREADS, 0, c->stream>>>((const T *)in, (T *)out, R, C, to_cm, ldo));
    else
        CU_DISPATCH(c, T, k_transpose<T><<<tgrid(R, C), TBLK, 0, c->stream>>>((const T *)in, (T *)out, R, C, to_cm, ldo));
    CU_LAUNCHED();
}

typedef struct { void *zl, *y, *gate, *dzl, *e[5]; } tm_ws;

static size_t tm_layout(cu_impl *c, const pf_trimul_dims *d, void *ws, tm_ws *w) {
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    cu_carver cv = {(char *)ws, 0};
    w->zl = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    w->y = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    w->gate = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    w->dzl = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    for (int k = 0; k < 5; k++) w->e[k] = cu_carve(&cv, (size_t)(NN * d->c) * es);
    return cv.off;
}

// Rows [c0, c0 + n) of a Linear's weight and bias: the projection to those output channels.
static pf_linear_p rows_of(const pf_linear_p *p, int in, int c0) {
    pf_linear_p r = {p->w + (int64_t)c0 * in, p->b ? p->b + c0 : NULL};
    return r;
}

// Channel-major gated side (C, N*N) into A for the C channels from c0, using
// tp, tg (N*N, C) as scratch.
static void tm_side_cols(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                         int c0, int C, const void *zl, const void *mask, void *tp, void *tg, void *A) {
    int64_t NN = d->N * d->N;
    pf_linear_p sp = rows_of(lp, d->c_z, c0), sg = rows_of(lg, d->c_z, c0);
    cu_linear_fwd(c, NN, d->c_z, C, &sp, zl, tp, 0);
    cu_linear_fwd(c, NN, d->c_z, C, &sg, zl, tg, 0);
    if (tm_vec_ok(NN, C, tp, tg, A))
        CU_DISPATCH(c, T, k_side_fwd_v<T><<<vgrid(NN, C), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, NN, C));
    else
        CU_DISPATCH(c, T, k_side_fwd<T><<<tgrid(NN, C), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, NN, C));
    CU_LAUNCHED();
}
static void tm_side(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                    const void *zl, const void *mask, void *tp, void *tg, void *A) {
    tm_side_cols(c, d, lp, lg, 0, d->c, zl, mask, tp, tg, A);
}

// X (C, N*N) = the contraction of C channel-major channels of A and B.
static void tm_contract(cu_impl *c, const pf_trimul_dims *d, int C, const void *A, const void *B, void *X) {
    int64_t N = d->N, NN = N * N;
    if (d->incoming) cu_gemm(c, 1, 0, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, C, NN, NN, NN, NULL);
    else cu_gemm(c, 0, 1, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, C, NN, NN, NN, NULL);
}

// ---- forward without saved (inference): pieces of channels ---------------------
// The channels of the contraction are independent, so the gated sides, their
// products and the transpose back run over pieces of cc channels; only zl and x
// (the products before the output LayerNorm) exist whole. The output LayerNorm,
// projection and gate then run over pieces of rows in the pieces' region. One
// piece (up to 8 GiB of piece buffers) is the forward that saves, op for op.
// ws_fwd: zl (N*N, c_z) | x (N*N, c) | tp, tg (N*N, cc) | A, B, X (cc, N*N).
typedef struct { void *zl, *x, *p[5]; size_t region_bytes; int cc; } tm_inf;

static size_t tm_inf_layout(cu_impl *c, const pf_trimul_dims *d, void *ws, tm_inf *w) {
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    w->cc = (int)cu_chunk_units(c, d->c, 5.0 * (double)NN * (double)es, 8);
    cu_carver cv = {(char *)ws, 0};
    w->zl = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    w->x = cu_carve(&cv, (size_t)(NN * d->c) * es);
    size_t start = cv.off;
    for (int k = 0; k < 5; k++) w->p[k] = cu_carve(&cv, (size_t)(NN * w->cc) * es);
    w->region_bytes = cv.off - start;
    return cv.off;
}

// out = sigmoid(Linear_g(zl)) * Linear_z(LN(x)) over pieces of rows in the region.
static void tm_inf_out(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, const tm_inf *w, pf_act *out) {
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N, cz = d->c_z;
    int64_t R = (int64_t)((w->region_bytes - 512) / (es * (size_t)(d->c + cz)));
    R = R < 1 ? 1 : (R > NN ? NN : R);
    char *xl = (char *)w->p[0], *gate = xl + (((size_t)(R * d->c) * es + 255) & ~(size_t)255);
    for (int64_t r0 = 0; r0 < NN; r0 += R) {
        int64_t n = NN - r0 < R ? NN - r0 : R;
        char *o = (char *)out + (size_t)(r0 * cz) * es;
        cu_ln_fwd(c, n, d->c, &p->ln_out, (const char *)w->x + (size_t)(r0 * d->c) * es, xl);
        cu_linear_fwd(c, n, d->c, (int)cz, &p->z, xl, o, 0);
        cu_linear_fwd(c, n, (int)cz, (int)cz, &p->g, (const char *)w->zl + (size_t)(r0 * cz) * es, gate, 0);
        if (cu_vec_ok(n * cz, o, gate))
            CU_DISPATCH(c, T, k_gate_out_v<T><<<cu_vec_blocks(n * cz), 256, 0, c->stream>>>((T *)o, (const T *)gate, n * cz));
        else
            CU_DISPATCH(c, T, k_gate_out<T><<<cu_blocks(n * cz, 256), 256, 0, c->stream>>>((T *)o, (const T *)gate, n * cz));
        CU_LAUNCHED();
    }
}

static void tm_fwd_pieces(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                          const pf_act *mask, pf_act *out, void *ws) {
    tm_inf w;
    tm_inf_layout(c, d, ws, &w);
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    cu_ln_fwd(c, NN, d->c_z, &p->ln_in, z, w.zl);
    for (int c0 = 0; c0 < d->c; c0 += w.cc) {
        int n = d->c - c0 < w.cc ? d->c - c0 : w.cc;
        tm_side_cols(c, d, &p->a_p, &p->a_g, c0, n, w.zl, mask, w.p[0], w.p[1], w.p[2]);
        tm_side_cols(c, d, &p->b_p, &p->b_g, c0, n, w.zl, mask, w.p[0], w.p[1], w.p[3]);
        tm_contract(c, d, n, w.p[2], w.p[3], w.p[4]);
        transpose_act(c, w.p[4], (char *)w.x + (size_t)c0 * es, NN, n, 0, d->c);  // columns c0.. of x
    }
    tm_inf_out(c, d, p, &w, out);
}

pf_mem cu_trimul_mem(pf_backend *be, const pf_trimul_dims *d) {
    tm_ws w;
    tm_inf wi;
    pf_mem m;
    m.ws = tm_layout(CU(be), d, NULL, &w);
    m.ws_fwd = tm_inf_layout(CU(be), d, NULL, &wi);
    if (m.ws_fwd > m.ws) m.ws = m.ws_fwd;
    m.saved = (size_t)(d->N * d->N * (d->c_z + d->c)) * cu_esz(CU(be));
    return m;
}

void cu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                   const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    if (!saved) {
        tm_fwd_pieces(c, d, p, z, mask, out, ws);
        return;
    }
    tm_ws w;
    tm_layout(c, d, ws, &w);
    int64_t NN = d->N * d->N;
    int cz = d->c_z;
    void *A = w.e[2], *B = w.e[3], *X = w.e[0];
    void *x = (char *)saved + (size_t)(NN * cz) * cu_esz(c);
    cu_ln_fwd(c, NN, cz, &p->ln_in, z, w.zl);
    tm_side(c, d, &p->a_p, &p->a_g, w.zl, mask, w.e[0], w.e[1], A);
    tm_side(c, d, &p->b_p, &p->b_g, w.zl, mask, w.e[0], w.e[1], B);
    tm_contract(c, d, d->c, A, B, X);
    transpose_act(c, X, x, NN, d->c, 0, d->c);  // (c, N*N) -> (N*N, c)
    void *xl = A;
    cu_ln_fwd(c, NN, d->c, &p->ln_out, x, xl);
    cu_linear_fwd(c, NN, d->c, cz, &p->z, xl, out, 0);
    cu_linear_fwd(c, NN, cz, cz, &p->g, w.zl, w.gate, 0);
    if (cu_vec_ok(NN * cz, out, w.gate))
        CU_DISPATCH(c, T, k_gate_out_v<T><<<cu_vec_blocks(NN * cz), 256, 0, c->stream>>>((T *)out, (const T *)w.gate, NN * cz));
    else
        CU_DISPATCH(c, T, k_gate_out<T><<<cu_blocks(NN * cz, 256), 256, 0, c->stream>>>((T *)out, (const T *)w.gate, NN * cz));
    CU_LAUNCHED();
    cu_copy_act(c, saved, z, NN * cz);
}

// One side's projection gradients from dS (c, N*N); tp, tg are scratch (N*N, c).
static void tm_side_bwd(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, const void *mask, const void *dS, const tm_ws *w,
                        void *tp, void *tg) {
    int64_t NN = d->N * d->N;
    cu_linear_fwd(c, NN, d->c_z, d->c, lp, w->zl, tp, 0);
    cu_linear_fwd(c, NN, d->c_z, d->c, lg, w->zl, tg, 0);
    if (tm_vec_ok(NN, d->c, dS, tp, tg))
        CU_DISPATCH(c, T, k_side_bwd_v<T><<<vgrid(NN, d->c), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, NN, d->c));
    else
        CU_DISPATCH(c, T, k_side_bwd<T><<<tgrid(NN, d->c), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, NN, d->c));
    CU_LAUNCHED();
    cu_linear_bwd(c, NN, d->c_z, d->c, lp, gp, w->zl, tp, w->dzl);
    cu_linear_bwd(c, NN, d->c_z, d->c, lg, gg, w->zl, tg, w->dzl);
}

void cu_trimul_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                   const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    tm_ws w;
    tm_layout(c, d, ws, &w);
    int64_t N = d->N, NN = N * N;
    int cz = d->c_z;
    const void *z = saved;
    const void *x = (const char *)saved + (size_t)(NN * cz) * cu_esz(c);
    void **e = w.e;
    cu_ln_fwd(c, NN, cz, &p->ln_in, z, w.zl);
    cu_ln_fwd(c, NN, d->c, &p->ln_out, x, e[0]);  // xl
    cu_linear_fwd(c, NN, d->c, cz, &p->z, e[0], w.y, 0);
    cu_linear_fwd(c, NN, cz, cz, &p->g, w.zl, w.gate, 0);
    // out = sigmoid(gate) * y: y <- d gate_pre, gate <- d y
    cu_sigmoid(c, w.gate, NN * cz);
    cu_gate_bwd(c, d_out, w.gate, w.y, w.gate, w.y, NN * cz);
    cu_fill(c, w.dzl, 0.f, NN * cz);
    cu_linear_bwd(c, NN, cz, cz, &p->g, &g->g, w.zl, w.y, w.dzl);
    cu_fill(c, e[1], 0.f, NN * d->c);
    cu_linear_bwd(c, NN, d->c, cz, &p->z, &g->z, e[0], w.gate, e[1]);  // d xl
    cu_fill(c, e[0], 0.f, NN * d->c);
    cu_ln_bwd(c, NN, d->c, &p->ln_out, &g->ln_out, x, e[1], e[0]);    // dx (N*N, c)
    void *dX = e[1];
    transpose_act(c, e[0], dX, NN, d->c, 1, d->c);                    // (c, N*N)
    void *A = e[3], *B = e[4], *dA = e[0], *dB = e[2];
    tm_side(c, d, &p->a_p, &p->a_g, w.zl, mask, e[0], e[2], A);
    tm_side(c, d, &p->b_p, &p->b_g, w.zl, mask, e[0], e[2], B);
    if (d->incoming) {  // X = A^T B: dA = B dX^T, dB = A dX
        cu_gemm(c, 0, 1, N, N, N, 1.f, B, CU_ACT, N, dX, CU_ACT, N, 0.f, dA, CU_ACT, N, d->c, NN, NN, NN, NULL);
        cu_gemm(c, 0, 0, N, N, N, 1.f, A, CU_ACT, N, dX, CU_ACT, N, 0.f, dB, CU_ACT, N, d->c, NN, NN, NN, NULL);
    } else {  // X = A B^T: dA = dX B, dB = dX^T A
        cu_gemm(c, 0, 0, N, N, N, 1.f, dX, CU_ACT, N, B, CU_ACT, N, 0.f, dA, CU_ACT, N, d->c, NN, NN, NN, NULL);
        cu_gemm(c, 1, 0, N, N, N, 1.f, dX, CU_ACT, N, A, CU_ACT, N, 0.f, dB, CU_ACT, N, d->c, NN, NN, NN, NULL);
    }
    tm_side_bwd(c, d, &p->a_p, &p->a_g, &g->a_p, &g->a_g, mask, dA, &w, e[3], e[4]);
    tm_side_bwd(c, d, &p->b_p, &p->b_g, &g->b_p, &g->b_g, mask, dB, &w, e[3], e[4]);
    cu_ln_bwd(c, NN, cz, &p->ln_in, &g->ln_in, z, w.dzl, d_z);
}

// ---- for the row-sharded update (cu_dap_trimul.cu) ------------------------------
// The same kernels over M positions that need not form a square.
void cu_tm_side(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg, const void *zl,
                const void *mask, void *tp, void *tg, void *A) {
    cu_linear_fwd(c, M, c_z, C, lp, zl, tp, 0);
    cu_linear_fwd(c, M, c_z, C, lg, zl, tg, 0);
    if (tm_vec_ok(M, C, tp, tg, A))
        CU_DISPATCH(c, T, k_side_fwd_v<T><<<vgrid(M, C), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, M, C));
    else
        CU_DISPATCH(c, T, k_side_fwd<T><<<tgrid(M, C), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, M, C));
    CU_LAUNCHED();
}

void cu_tm_side_grad(cu_impl *c, int64_t M, int C, const void *mask, const void *dS, void *tp, void *tg) {
    if (tm_vec_ok(M, C, dS, tp, tg))
        CU_DISPATCH(c, T, k_side_bwd_v<T><<<vgrid(M, C), VT_THREADS, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, M, C));
    else
        CU_DISPATCH(c, T, k_side_bwd<T><<<tgrid(M, C), TBLK, 0, c->stream>>>(
                              (const T *)mask, (const T *)dS, (T *)tp, (T *)tg, M, C));
    CU_LAUNCHED();
}

void cu_tm_transpose(cu_impl *c, const void *in, void *out, int64_t R, int C, int to_cm, int64_t ldo) {
    transpose_act(c, in, out, R, C, to_cm, ldo);
}

void cu_tm_gate_out(cu_impl *c, void *out, const void *gate, int64_t n) {
    if (cu_vec_ok(n, out, gate))
        CU_DISPATCH(c, T, k_gate_out_v<T><<<cu_vec_blocks(n), 256, 0, c->stream>>>((T *)out, (const T *)gate, n));
    else
        CU_DISPATCH(c, T, k_gate_out<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((T *)out, (const T *)gate, n));
    CU_LAUNCHED();
}
