// cu_opm.cu: outer product mean (AF2 Alg. 10), the CPU reference's blocking on
// the GPU: with a, b viewed as (S, N*c) matrices, the outer products of a block
// of rows i go straight into P' (bi, N, c2, c1) for linear_out: one GEMM b^T a_i
// (N*c, c) per row i, batched over the block with b shared (batch stride 0), so
// no permute pass; linear_out takes W_o with its input columns in the same (c2, c1)
// order (cu_opm_w_t, per call: c_z c^2 elements), and its weight gradient comes out
// in that order too (fp32 scratch, put back in W_o's order once per call). The
// backward still needs dP in C's layout (bi*c, N*c) for db = a_blk dC: dP = dpre W_o
// (W_o's own order), then one permute. The (N, N, c*c) tensor never exists whole.
// (Before session 35 the forward wrote C = a_blk^T b and permuted it into P: one
// read and one write of the block's c^2 activations more per forward and per
// backward recompute; k_opm_perm_v was 4% of the AF2 blocks' kernel time at N = 384.)
// saved: m (S, N, c_m). ws: ml | a, b | norm (N, N) fp32 | C, P | dpre | da, db | dml |
//     W_o^t (c_z, c^2) | dW_o^t (c_z, c^2) fp32.
#include "cu_ops.h"
#include "cu_vec.cuh"
#include "cu_opm.cuh"

#define OPM_EPS 1e-3
#define OPM_BLOCK_ELEMS ((int64_t)1 << 25)

int64_t cu_opm_block(int64_t rows, int64_t N, int c) {
    int64_t row = N * c * c;
    int64_t bi = row > 0 ? OPM_BLOCK_ELEMS / row : 1;
    return bi < 1 ? 1 : (bi > rows ? rows : bi);
}
static int64_t opm_block(const pf_opm_dims *d) { return cu_opm_block(d->N, d->N, d->c); }

typedef struct { void *ml, *a, *b, *C, *P, *dpre, *da, *db, *dml, *wt; float *norm, *dwt; } opm_ws;

static size_t opm_layout(cu_impl *c, const pf_opm_dims *d, void *ws, opm_ws *w) {
    size_t e = cu_esz(c);
    int64_t SN = d->S * d->N, N = d->N, bi = opm_block(d);
    cu_carver cv = {(char *)ws, 0};
    w->ml = cu_carve(&cv, (size_t)(SN * d->c_m) * e);
    w->a = cu_carve(&cv, (size_t)(SN * d->c) * e);
    w->b = cu_carve(&cv, (size_t)(SN * d->c) * e);
    w->norm = (float *)cu_carve(&cv, sizeof(float) * (size_t)(N * N));
    w->C = cu_carve(&cv, (size_t)(bi * N * d->c * d->c) * e);
    w->P = cu_carve(&cv, (size_t)(bi * N * d->c * d->c) * e);
    w->dpre = cu_carve(&cv, (size_t)(bi * N * d->c_z) * e);
    w->da = cu_carve(&cv, (size_t)(SN * d->c) * e);
    w->db = cu_carve(&cv, (size_t)(SN * d->c) * e);
    w->dml = cu_carve(&cv, (size_t)(SN * d->c_m) * e);
    w->wt = cu_carve(&cv, (size_t)(d->c_z * d->c * d->c) * e);
    w->dwt = (float *)cu_carve(&cv, sizeof(float) * (size_t)(d->c_z * d->c * d->c));
    return cv.off;
}

pf_mem cu_opm_mem(pf_backend *be, const pf_opm_dims *d) {
    opm_ws w;
    pf_mem m;
    m.ws = opm_layout(CU(be), d, NULL, &w);
    m.saved = (size_t)(d->S * d->N * d->c_m) * cu_esz(CU(be));
    m.ws_fwd = m.ws;  // already pieces of rows: the same workspace serves inference
    return m;
}

__global__ void k_opm_norm(float *norm, int64_t n, float S, int have_mask) {
    GRID_STRIDE(i, n) norm[i] = (float)(1.0 / (OPM_EPS + (double)(have_mask ? norm[i] : S)));
}
// y[r, :] = x[r, :] * s[r] (fp32 scale)
template <typename T>
__global__ void k_row_scale(T *y, const T *x, const float *s, int64_t M, int C) {
    GRID_STRIDE(i, M * C) st(y, i, ld(x, i) * s[i / C]);
}
// The same in 8-element vectors (C a multiple of 8: a vector lies in one row; 16-byte aligned
// buffers): one 64-bit division per 8 elements instead of per element, 16-byte accesses. The
// same product per element: the same bits. (The scalar form ran at 0.46 TB/s: session 34, ncu.)
template <typename T>
__global__ void k_row_scale_v(T *y, const T *x, const float *s, int64_t M, int C) {
    GRID_STRIDE_VEC(i, M * C) {
        float v[CU_VEC], sc = s[i / C];
        ld8(x, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) v[k] *= sc;
        st8(y, i, v);
    }
}
// C[(ii*c + c1) * Nc + j*c + c2] = P[ij, c1*c + c2]: the backward's dP into C's layout (dC).
// One block per ij (a grid-stride loop past 2^31 - 1); threadIdx.x walks c2 and
// threadIdx.y walks c1, so a warp moves c contiguous elements on both sides and no
// thread divides (64-bit division per element made this 8x slower than memory).
template <typename T>
__global__ void k_opm_perm(T *C, const T *P, int64_t bi, int64_t N, int c) {
    int64_t Nc = N * c, cc = (int64_t)c * c;
    for (int64_t ij = blockIdx.x; ij < bi * N; ij += gridDim.x) {
        int64_t ii = ij / N, j = ij - ii * N;
        T *cb = C + ii * c * Nc + j * c;
        const T *pb = P + ij * cc;
        for (int c1 = threadIdx.y; c1 < c; c1 += blockDim.y)
            for (int c2 = threadIdx.x; c2 < c; c2 += blockDim.x) cb[(int64_t)c1 * Nc + c2] = pb[c1 * c + c2];
    }
}
// The same with 8-element accesses (c a multiple of 8, buffers 16-byte aligned):
// thread u of the block moves vector u of the c x c block of ij.
template <typename T>
__global__ void k_opm_perm_v(T *C, const T *P, int64_t bi, int64_t N, int c) {
    int64_t Nc = N * c, cc = (int64_t)c * c;
    int cv = c / CU_VEC, nv = c * cv;
    for (int64_t ij = blockIdx.x; ij < bi * N; ij += gridDim.x) {
        int64_t ii = ij / N, j = ij - ii * N;
        T *cb = C + ii * c * Nc + j * c;
        const T *pb = P + ij * cc;
        for (int u = threadIdx.x; u < nv; u += blockDim.x) {
            int c1 = u / cv, c2 = (u - c1 * cv) * CU_VEC;
            float v[CU_VEC];
            ld8(pb, c1 * c + c2, v);
            st8(cb, (int64_t)c1 * Nc + c2, v);
        }
    }
}
static unsigned perm_blocks(int64_t rows) { return (unsigned)(rows < 2147483647LL ? rows : 2147483647LL); }
void cu_opm_perm_to_c(cu_impl *c, void *C, const void *P, int64_t bi, int64_t N, int ch) {
    if (ch % CU_VEC == 0 && cu_vec_ok(CU_VEC, C, P))
        CU_DISPATCH(c, T, k_opm_perm_v<T><<<perm_blocks(bi * N), 128, 0, c->stream>>>((T *)C, (const T *)P, bi, N, ch));
    else
        CU_DISPATCH(c, T, k_opm_perm<T><<<perm_blocks(bi * N), dim3(32, 8), 0, c->stream>>>((T *)C, (const T *)P, bi, N, ch));
    CU_LAUNCHED();
}

// W^t (cz, c2*c + c1) = W (cz, c1*c + c2): linear_out's weight in P''s column order (any act type)
template <typename T>
__global__ void k_opm_w_t(T *wt, const T *w, int64_t cz, int c) {
    int64_t cc = (int64_t)c * c;
    GRID_STRIDE(i, cz * cc) {
        int64_t o = i / cc, k = i - o * cc, c2 = k / c, c1 = k - c2 * c;
        st(wt, i, ld(w, o * cc + c1 * c + c2));
    }
}
// gw (cz, c1*c + c2) += dwt (cz, c2*c + c1) (fp32)
__global__ void k_opm_dw_t_add(float *gw, const float *dwt, int64_t cz, int c) {
    int64_t cc = (int64_t)c * c;
    GRID_STRIDE(i, cz * cc) {
        int64_t o = i / cc, k = i - o * cc, c1 = k / c, c2 = k - c1 * c;
        gw[i] += dwt[o * cc + c2 * c + c1];
    }
}
void cu_opm_w_t(cu_impl *c, const pf_linear_p *o, int cz, int ch, void *wt) {
    int64_t n = (int64_t)cz * ch * ch;
    const void *w = cu_weight(c, o->w, (size_t)n);
    CU_DISPATCH(c, T, k_opm_w_t<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((T *)wt, (const T *)w, cz, ch));
    CU_LAUNCHED();
}
void cu_opm_dw_t_add(cu_impl *c, const float *dwt, int cz, int ch, float *gw) {
    int64_t n = (int64_t)cz * ch * ch;
    k_opm_dw_t_add<<<cu_blocks(n, 256), 256, 0, c->stream>>>(gw, dwt, cz, ch);
    CU_LAUNCHED();
}
// P' (bi, N, c2, c1) of rows i of a_blk (S, bi*c, leading dimension lda): per row i one
// GEMM b^T a_i (N*c, c), batched over the block with b (S, N*c) shared (stride 0)
void cu_opm_outer_t(cu_impl *c, const void *a_blk, int64_t lda, const void *b, int64_t S, int64_t bi, int64_t N,
                    int ch, void *Pt) {
    int64_t Nc = N * ch;
    cu_gemm(c, 1, 0, Nc, ch, S, 1.f, b, CU_ACT, Nc, a_blk, CU_ACT, lda, 0.f, Pt, CU_ACT, ch, (int)bi, 0, ch,
            Nc * ch, NULL);
}
// out (M, cz) = P' W^t^T + b_o (linear_out on P''s column order)
void cu_opm_out_t(cu_impl *c, int64_t M, int cz, int ch, const pf_linear_p *o, const void *Pt, const void *wt,
                  void *out) {
    int cc = ch * ch;
    cu_gemm(c, 0, 1, M, cz, cc, 1.f, Pt, CU_ACT, cc, wt, CU_ACT, cc, 0.f, out, CU_ACT, cz, 1, 0, 0, 0, o->b);
}
// Linear_out's parameter gradients from P' (M, c^2): dwt (+)= dpre^T P' (beta 0 at a call's first
// block: first), the bias's column sums straight into g->b
void cu_opm_out_t_dw(cu_impl *c, int64_t M, int cz, int ch, const void *Pt, const void *dpre, float *dwt, int first,
                     pf_linear_p *g) {
    int cc = ch * ch;
    cu_gemm(c, 1, 0, cz, cc, M, 1.f, dpre, CU_ACT, cz, Pt, CU_ACT, cc, first ? 0.f : 1.f, dwt, CU_F32, cc, 1, 0, 0, 0,
            NULL);
    if (g->b) cu_colsum_add(c, M, cz, dpre, CU_ACT, g->b, 1.f);
}

static void opm_prologue(cu_impl *c, const pf_opm_dims *d, const pf_opm_p *p, const void *m, const void *mask,
                         const opm_ws *w) {
    int64_t SN = d->S * d->N, N = d->N;
    cu_ln_fwd(c, SN, d->c_m, &p->ln, m, w->ml);
    cu_linear_fwd(c, SN, d->c_m, d->c, &p->a, w->ml, w->a, 0);
    cu_linear_fwd(c, SN, d->c_m, d->c, &p->b, w->ml, w->b, 0);
    if (mask) {
        cu_row_mask(c, w->a, w->a, mask, SN, d->c);
        cu_row_mask(c, w->b, w->b, mask, SN, d->c);
        cu_gemm(c, 1, 0, N, N, d->S, 1.f, mask, CU_ACT, N, mask, CU_ACT, N, 0.f, w->norm, CU_F32, N, 1, 0, 0, 0, NULL);
    }
    cu_opm_norm(c, w->norm, N * N, (float)d->S, mask != NULL);
}

void cu_opm_norm(cu_impl *c, float *norm, int64_t n, float S, int have_mask) {
    k_opm_norm<<<cu_blocks(n, 256), 256, 0, c->stream>>>(norm, n, S, have_mask);
    CU_LAUNCHED();
}

void cu_opm_row_scale(cu_impl *c, void *y, const void *x, const float *s, int64_t M, int C) {
    if (M * C <= 0) return;
    if (C % CU_VEC == 0 && cu_vec_ok(M * C, y, x))
        CU_DISPATCH(c, T, k_row_scale_v<T><<<cu_vec_blocks(M * C), 256, 0, c->stream>>>((T *)y, (const T *)x, s, M, C));
    else
        CU_DISPATCH(c, T, k_row_scale<T><<<cu_blocks(M * C, 256), 256, 0, c->stream>>>((T *)y, (const T *)x, s, M, C));
    CU_LAUNCHED();
}

// P' of rows [i0, i0 + bi) into w->P
static void opm_outer_block(cu_impl *c, const pf_opm_dims *d, const opm_ws *w, int64_t i0, int64_t bi) {
    int64_t ch = d->c;
    cu_opm_outer_t(c, (char *)w->a + (size_t)(i0 * ch) * cu_esz(c), d->N * ch, w->b, d->S, bi, d->N, d->c, w->P);
}

void cu_opm_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m, const pf_act *mask,
                pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    opm_ws w;
    opm_layout(c, d, ws, &w);
    int64_t N = d->N, bmax = opm_block(d);
    int cz = d->c_z;
    size_t e = cu_esz(c);
    opm_prologue(c, d, p, m, mask, &w);
    cu_opm_w_t(c, &p->o, cz, d->c, w.wt);
    for (int64_t i0 = 0; i0 < N; i0 += bmax) {
        int64_t bi = bmax < N - i0 ? bmax : N - i0;
        opm_outer_block(c, d, &w, i0, bi);
        void *o = (char *)out + (size_t)(i0 * N * cz) * e;
        cu_opm_out_t(c, bi * N, cz, d->c, &p->o, w.P, w.wt, o);
        cu_opm_row_scale(c, o, o, w.norm + i0 * N, bi * N, cz);
    }
    if (saved) cu_copy_act(c, saved, m, d->S * N * d->c_m);
}

void cu_opm_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask,
                const void *saved, const pf_act *d_out, pf_act *d_m, void *ws) {
    cu_impl *c = CU(be);
    opm_ws w;
    opm_layout(c, d, ws, &w);
    int64_t S = d->S, N = d->N, SN = S * N, bmax = opm_block(d), ch = d->c, Nc = N * ch;
    int cz = d->c_z;
    size_t e = cu_esz(c);
    opm_prologue(c, d, p, saved, mask, &w);
    cu_fill(c, w.db, 0.f, SN * ch);
    for (int64_t i0 = 0; i0 < N; i0 += bmax) {
        int64_t bi = bmax < N - i0 ? bmax : N - i0;
        opm_outer_block(c, d, &w, i0, bi);
        const void *dob = (const char *)d_out + (size_t)(i0 * N * cz) * e;
        cu_opm_row_scale(c, w.dpre, dob, w.norm + i0 * N, bi * N, cz);
        cu_opm_out_t_dw(c, bi * N, cz, d->c, w.P, w.dpre, w.dwt, i0 == 0, &g->o);  // W_o's gradient (P' order)
        cu_linear_bwd_set(c, bi * N, (int)(ch * ch), cz, &p->o, NULL, NULL, w.dpre, w.P);  // dP (W_o's order) over P'
        cu_opm_perm_to_c(c, w.C, w.P, bi, N, d->c);
        cu_gemm(c, 0, 1, S, bi * ch, Nc, 1.f, w.b, CU_ACT, Nc, w.C, CU_ACT, Nc, 0.f,
                (char *)w.da + (size_t)(i0 * ch) * e, CU_ACT, Nc, 1, 0, 0, 0, NULL);
        cu_gemm(c, 0, 0, S, Nc, bi * ch, 1.f, (char *)w.a + (size_t)(i0 * ch) * e, CU_ACT, Nc, w.C, CU_ACT, Nc, 1.f,
                w.db, CU_ACT, Nc, 1, 0, 0, 0, NULL);
    }
    if (N > 0) cu_opm_dw_t_add(c, w.dwt, cz, d->c, g->o.w);  // dwt: the blocks' sum
    if (mask) {
        cu_row_mask(c, w.da, w.da, mask, SN, d->c);
        cu_row_mask(c, w.db, w.db, mask, SN, d->c);
    }
    cu_linear_bwd_set(c, SN, d->c_m, d->c, &p->a, &g->a, w.ml, w.da, w.dml);
    cu_linear_bwd(c, SN, d->c_m, d->c, &p->b, &g->b, w.ml, w.db, w.dml);
    cu_ln_bwd(c, SN, d->c_m, &p->ln, &g->ln, saved, w.dml, d_m);
}
