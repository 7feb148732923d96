// cu_trimul.cu: triangle multiplicative update (AF2 Alg. 11/12, AF3 Alg. 12/13).
// The gated sides a, b are written channel-major (c, N, N) by a tiled
// transposing kernel, so the contraction is one strided-batched GEMM over the
// c channels (outgoing X_c = A_c B_c^T, incoming X_c = A_c^T B_c): no N^3
// intermediate. Same saved / ws layout as the CPU reference:
// saved: z (N*N, c_z) | x (N*N, c); ws: zl, y, gate, dzl (N*N, c_z) | e[0..4] (N*N*c).
#include "cu_ops.h"

#define TT 32

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
// so the grid's x runs over R. to_cm: in (R, C) -> out (C, R); else the reverse.
template <typename T>
__global__ void k_transpose(const T *in, T *out, int64_t R, int C, int to_cm) {
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
            if (rr < R && cc < C) st(out, rr * C + cc, t[threadIdx.x][r]);
        }
    }
}

template <typename T>
__global__ void k_gate_out(T *out, const T *gate, int64_t n) { GRID_STRIDE(i, n) st(out, i, ld(out, i) * sigmoidf_(ld(gate, i))); }

static dim3 tgrid(int64_t R, int C) { return dim3((unsigned)((R + TT - 1) / TT), (unsigned)((C + TT - 1) / TT)); }
static const dim3 TBLK(TT, 8);

static void transpose_act(cu_impl *c, const void *in, void *out, int64_t R, int C, int to_cm) {
    CU_DISPATCH(c, T, k_transpose<T><<<tgrid(R, C), TBLK, 0, c->stream>>>((const T *)in, (T *)out, R, C, to_cm));
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

pf_mem cu_trimul_mem(pf_backend *be, const pf_trimul_dims *d) {
    tm_ws w;
    pf_mem m;
    m.ws = tm_layout(CU(be), d, NULL, &w);
    m.saved = (size_t)(d->N * d->N * (d->c_z + d->c)) * cu_esz(CU(be));
    return m;
}

// Channel-major gated side (c, N*N) into A, using tp, tg (N*N, c) as scratch.
static void tm_side(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                    const void *zl, const void *mask, void *tp, void *tg, void *A) {
    int64_t NN = d->N * d->N;
    cu_linear_fwd(c, NN, d->c_z, d->c, lp, zl, tp, 0);
    cu_linear_fwd(c, NN, d->c_z, d->c, lg, zl, tg, 0);
    CU_DISPATCH(c, T, k_side_fwd<T><<<tgrid(NN, d->c), TBLK, 0, c->stream>>>(
                          (const T *)mask, (const T *)tp, (const T *)tg, (T *)A, NN, d->c));
    CU_LAUNCHED();
}

void cu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                   const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    tm_ws w;
    tm_layout(c, d, ws, &w);
    int64_t N = d->N, NN = N * N;
    int cz = d->c_z;
    void *A = w.e[2], *B = w.e[3], *X = w.e[0];
    void *x = saved ? (char *)saved + (size_t)(NN * cz) * cu_esz(c) : w.e[1];
    cu_ln_fwd(c, NN, cz, &p->ln_in, z, w.zl);
    tm_side(c, d, &p->a_p, &p->a_g, w.zl, mask, w.e[0], w.e[1], A);
    tm_side(c, d, &p->b_p, &p->b_g, w.zl, mask, w.e[0], w.e[1], B);
    if (d->incoming) cu_gemm(c, 1, 0, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, d->c, NN, NN, NN, NULL);
    else cu_gemm(c, 0, 1, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, d->c, NN, NN, NN, NULL);
    transpose_act(c, X, x, NN, d->c, 0);  // (c, N*N) -> (N*N, c)
    void *xl = A;
    cu_ln_fwd(c, NN, d->c, &p->ln_out, x, xl);
    cu_linear_fwd(c, NN, d->c, cz, &p->z, xl, out, 0);
    cu_linear_fwd(c, NN, cz, cz, &p->g, w.zl, w.gate, 0);
    CU_DISPATCH(c, T, k_gate_out<T><<<cu_blocks(NN * cz, 256), 256, 0, c->stream>>>((T *)out, (const T *)w.gate, NN * cz));
    CU_LAUNCHED();
    if (saved) cu_copy_act(c, saved, z, NN * cz);
}

// One side's projection gradients from dS (c, N*N); tp, tg are scratch (N*N, c).
static void tm_side_bwd(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, const void *mask, const void *dS, const tm_ws *w,
                        void *tp, void *tg) {
    int64_t NN = d->N * d->N;
    cu_linear_fwd(c, NN, d->c_z, d->c, lp, w->zl, tp, 0);
    cu_linear_fwd(c, NN, d->c_z, d->c, lg, w->zl, tg, 0);
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
    transpose_act(c, e[0], dX, NN, d->c, 1);                          // (c, N*N)
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
