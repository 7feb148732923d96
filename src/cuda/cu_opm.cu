// cu_opm.cu: outer product mean (AF2 Alg. 10), the CPU reference's blocking on
// the GPU: with a, b viewed as (S, N*c) matrices, the outer products of a block
// of rows i are one GEMM a_blk^T b (bi*c, N*c), permuted to (bi, N, c*c) for
// linear_out, so the (N, N, c*c) tensor never exists whole.
// saved: m (S, N, c_m). ws: ml | a, b | norm (N, N) fp32 | C, P | dpre | da, db | dml.
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

typedef struct { void *ml, *a, *b, *C, *P, *dpre, *da, *db, *dml; float *norm; } opm_ws;

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
// dir 0: P[ij, c1*c + c2] = C[(ii*c + c1) * Nc + j*c + c2]; dir 1: the inverse.
// One block per ij (a grid-stride loop past 2^31 - 1); threadIdx.x walks c2 and
// threadIdx.y walks c1, so a warp moves c contiguous elements on both sides and no
// thread divides (64-bit division per element made this 8x slower than memory).
template <typename T>
__global__ void k_opm_perm(T *C, T *P, int64_t bi, int64_t N, int c, int dir) {
    int64_t Nc = N * c, cc = (int64_t)c * c;
    for (int64_t ij = blockIdx.x; ij < bi * N; ij += gridDim.x) {
        int64_t ii = ij / N, j = ij - ii * N;
        T *cb = C + ii * c * Nc + j * c, *pb = P + ij * cc;
        for (int c1 = threadIdx.y; c1 < c; c1 += blockDim.y)
            for (int c2 = threadIdx.x; c2 < c; c2 += blockDim.x) {
                if (dir == 0) pb[c1 * c + c2] = cb[(int64_t)c1 * Nc + c2];
                else cb[(int64_t)c1 * Nc + c2] = pb[c1 * c + c2];
            }
    }
}
// The same with 8-element accesses (c a multiple of 8, buffers 16-byte aligned):
// thread u of the block moves vector u of the c x c block of ij.
template <typename T>
__global__ void k_opm_perm_v(T *C, T *P, int64_t bi, int64_t N, int c, int dir) {
    int64_t Nc = N * c, cc = (int64_t)c * c;
    int cv = c / CU_VEC, nv = c * cv;
    for (int64_t ij = blockIdx.x; ij < bi * N; ij += gridDim.x) {
        int64_t ii = ij / N, j = ij - ii * N;
        T *cb = C + ii * c * Nc + j * c, *pb = P + ij * cc;
        for (int u = threadIdx.x; u < nv; u += blockDim.x) {
            int c1 = u / cv, c2 = (u - c1 * cv) * CU_VEC;
            float v[CU_VEC];
            if (dir == 0) {
                ld8(cb, (int64_t)c1 * Nc + c2, v);
                st8(pb, c1 * c + c2, v);
            } else {
                ld8(pb, c1 * c + c2, v);
                st8(cb, (int64_t)c1 * Nc + c2, v);
            }
        }
    }
}
static unsigned perm_blocks(int64_t rows) { return (unsigned)(rows < 2147483647LL ? rows : 2147483647LL); }
void cu_opm_perm(cu_impl *c, void *C, void *P, int64_t bi, int64_t N, int ch, int dir) {
    if (ch % CU_VEC == 0 && cu_vec_ok(CU_VEC, C, P))
        CU_DISPATCH(c, T, k_opm_perm_v<T><<<perm_blocks(bi * N), 128, 0, c->stream>>>((T *)C, (T *)P, bi, N, ch, dir));
    else
        CU_DISPATCH(c, T, k_opm_perm<T><<<perm_blocks(bi * N), dim3(32, 8), 0, c->stream>>>((T *)C, (T *)P, bi, N, ch, dir));
    CU_LAUNCHED();
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

static void opm_outer_block(cu_impl *c, const pf_opm_dims *d, const opm_ws *w, int64_t i0, int64_t bi) {
    int64_t N = d->N, ch = d->c, Nc = N * ch;
    size_t e = cu_esz(c);
    cu_gemm(c, 1, 0, bi * ch, Nc, d->S, 1.f, (char *)w->a + (size_t)(i0 * ch) * e, CU_ACT, Nc, w->b, CU_ACT, Nc,
            0.f, w->C, CU_ACT, Nc, 1, 0, 0, 0, NULL);
    cu_opm_perm(c, w->C, w->P, bi, N, d->c, 0);
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
    for (int64_t i0 = 0; i0 < N; i0 += bmax) {
        int64_t bi = bmax < N - i0 ? bmax : N - i0;
        opm_outer_block(c, d, &w, i0, bi);
        void *o = (char *)out + (size_t)(i0 * N * cz) * e;
        cu_linear_fwd(c, bi * N, d->c * d->c, cz, &p->o, w.P, o, 0);
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
        cu_linear_bwd_set(c, bi * N, (int)(ch * ch), cz, &p->o, &g->o, w.P, w.dpre, w.P);  // W_o's gradient, then dP over P
        cu_opm_perm(c, w.C, w.P, bi, N, d->c, 1);
        cu_gemm(c, 0, 1, S, bi * ch, Nc, 1.f, w.b, CU_ACT, Nc, w.C, CU_ACT, Nc, 0.f,
                (char *)w.da + (size_t)(i0 * ch) * e, CU_ACT, Nc, 1, 0, 0, 0, NULL);
        cu_gemm(c, 0, 0, S, Nc, bi * ch, 1.f, (char *)w.a + (size_t)(i0 * ch) * e, CU_ACT, Nc, w.C, CU_ACT, Nc, 1.f,
                w.db, CU_ACT, Nc, 1, 0, 0, 0, NULL);
    }
    if (mask) {
        cu_row_mask(c, w.da, w.da, mask, SN, d->c);
        cu_row_mask(c, w.db, w.db, mask, SN, d->c);
    }
    cu_linear_bwd_set(c, SN, d->c_m, d->c, &p->a, &g->a, w.ml, w.da, w.dml);
    cu_linear_bwd(c, SN, d->c_m, d->c, &p->b, &g->b, w.ml, w.db, w.dml);
    cu_ln_bwd(c, SN, d->c_m, &p->ln, &g->ln, saved, w.dml, d_m);
}
