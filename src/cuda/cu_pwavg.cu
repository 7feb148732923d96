// cu_pwavg.cu: MSA pair-weighted averaging (AF3 Alg. 10), the CPU reference's
// plan on the GPU: v permuted to (H, N, S, c_h) so the average is one GEMM
// batched over heads, u_h (N, S*c_h) = w_h (N, N) v_h (N, S*c_h); the softmax
// over j runs one warp per (h, i) row, in fp32.
// saved: m (S, N, c_m) | z (N, N, c_z).
// ws: ml | t[0..3] (S, N, H*c_h) | zl (N, N, c_z) | bb (N, N, H) | w (H, N, N) | then the
// backward's dml | dzl | dw (the forward's workspace, ws_fwd, ends before dml).
#include "cu_ops.h"
#include "cu_pwavg.cuh"

typedef struct { void *ml, *dml, *t[4], *zl, *dzl, *bb, *w, *dw; } pw_ws;

static size_t pw_layout(cu_impl *c, const pf_pwavg_dims *d, void *ws, pw_ws *w, size_t *fwd_bytes) {
    size_t e = cu_esz(c);
    int64_t SN = d->S * d->N, NN = d->N * d->N, hc = (int64_t)d->H * d->c_h;
    cu_carver cv = {(char *)ws, 0};
    w->ml = cu_carve(&cv, (size_t)(SN * d->c_m) * e);
    for (int k = 0; k < 4; k++) w->t[k] = cu_carve(&cv, (size_t)(SN * hc) * e);
    w->zl = cu_carve(&cv, (size_t)(NN * d->c_z) * e);
    w->bb = cu_carve(&cv, (size_t)(NN * d->H) * e);
    w->w = cu_carve(&cv, (size_t)(NN * d->H) * e);
    if (fwd_bytes) *fwd_bytes = cv.off;  // the forward uses nothing below
    w->dml = cu_carve(&cv, (size_t)(SN * d->c_m) * e);
    w->dzl = cu_carve(&cv, (size_t)(NN * d->c_z) * e);
    w->dw = cu_carve(&cv, (size_t)(NN * d->H) * e);
    return cv.off;
}

pf_mem cu_pwavg_mem(pf_backend *be, const pf_pwavg_dims *d) {
    pw_ws w;
    pf_mem m;
    m.ws = pw_layout(CU(be), d, NULL, &w, &m.ws_fwd);
    m.saved = (size_t)(d->S * d->N * d->c_m + d->N * d->N * d->c_z) * cu_esz(CU(be));
    return m;
}

// (S, N, H, c_h) <-> (H, N, S, c_h)
template <typename T>
__global__ void k_pw_perm(const T *src, T *dst, int64_t S, int64_t N, int H, int ch, int to_t) {
    int64_t n = S * N * H * ch;
    GRID_STRIDE(q, n) {
        int64_t e = q % ch, r = q / ch, h = r % H, sn = r / H, nn = sn % N, s = sn / N;
        int64_t t = ((h * N + nn) * S + s) * ch + e;
        if (to_t) dst[t] = src[q];
        else dst[q] = src[t];
    }
}

// One warp per row (h, i) of R rows: w[h, i, :] = softmax_j(bb[i, j, h] - 1e9 (1 - mask_j)).
template <typename T>
__global__ void k_pw_softmax(const T *bb, const T *mask, T *w, int64_t R, int64_t N, int H) {
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= R * H) return;
    int64_t h = row / R, i = row % R;
    float mx = -INFINITY;
    for (int64_t j = lane; j < N; j += 32) {
        float v = ld(bb, (i * N + j) * H + h) + (mask ? mask_term(ld(mask, j)) : 0.f);
        mx = fmaxf(mx, v);
    }
    for (int o = 16; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float sum = 0;
    for (int64_t j = lane; j < N; j += 32) {
        float v = ld(bb, (i * N + j) * H + h) + (mask ? mask_term(ld(mask, j)) : 0.f);
        sum += expf(v - mx);
    }
    for (int o = 16; o; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    float inv = 1.f / sum;
    for (int64_t j = lane; j < N; j += 32) {
        float v = ld(bb, (i * N + j) * H + h) + (mask ? mask_term(ld(mask, j)) : 0.f);
        st(w, row * N + j, expf(v - mx) * inv);
    }
}

// bb[i, j, h] = w (dw - sum_j w dw) per row (h, i)
template <typename T>
__global__ void k_pw_softmax_bwd(const T *w, const T *dw, const T *mask, T *bb, int64_t R, int64_t N, int H) {
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= R * H) return;
    int64_t h = row / R, i = row % R;
    float dot = 0;
    for (int64_t j = lane; j < N; j += 32) dot += ld(w, row * N + j) * ld(dw, row * N + j);
    for (int o = 16; o; o >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, o);
    for (int64_t j = lane; j < N; j += 32)
        // masked j: the logit was replaced by a constant, no gradient (modules.h)
        st(bb, (i * N + j) * H + h, (mask && ld(mask, j) == 0.f) ? 0.f : ld(w, row * N + j) * (ld(dw, row * N + j) - dot));
}

// mode 0: o = sigmoid(g) * u; mode 1: g <- d g_pre, u <- d u from dO (o layout)
template <typename T>
__global__ void k_pw_gate(T *g, T *ut, T *o, const T *dO, int64_t S, int64_t N, int H, int ch, int mode) {
    int64_t n = S * N * H * ch;
    GRID_STRIDE(q, n) {
        int64_t e = q % ch, r = q / ch, h = r % H, sn = r / H, nn = sn % N, s = sn / N;
        int64_t t = ((h * N + nn) * S + s) * ch + e;
        float sg = sigmoidf_(ld(g, q));
        if (mode == 0) {
            st(o, q, sg * ld(ut, t));
        } else {
            float d = ld(dO, q);
            st(g, q, d * ld(ut, t) * sg * (1.f - sg));
            st(ut, t, d * sg);
        }
    }
}

#define PW_L(n) cu_blocks(n, 256), 256, 0, c->stream

void cu_pw_perm(cu_impl *c, const void *src, void *dst, int64_t S, int64_t N, int H, int ch, int to_t) {
    CU_DISPATCH(c, T, k_pw_perm<T><<<PW_L(S * N * H * ch)>>>((const T *)src, (T *)dst, S, N, H, ch, to_t));
    CU_LAUNCHED();
}
void cu_pw_softmax(cu_impl *c, const void *bb, const void *mask, void *w, int64_t R, int64_t N, int H) {
    CU_DISPATCH(c, T, k_pw_softmax<T><<<(unsigned)((R * H + 7) / 8), 256, 0, c->stream>>>(
                          (const T *)bb, (const T *)mask, (T *)w, R, N, H));
    CU_LAUNCHED();
}
void cu_pw_softmax_bwd(cu_impl *c, const void *w, const void *dw, const void *mask, void *bb, int64_t R, int64_t N,
                       int H) {
    CU_DISPATCH(c, T, k_pw_softmax_bwd<T><<<(unsigned)((R * H + 7) / 8), 256, 0, c->stream>>>(
                          (const T *)w, (const T *)dw, (const T *)mask, (T *)bb, R, N, H));
    CU_LAUNCHED();
}
void cu_pw_gate(cu_impl *c, void *g, void *ut, void *o, const void *dO, int64_t S, int64_t N, int H, int ch, int mode) {
    CU_DISPATCH(c, T, k_pw_gate<T><<<PW_L(S * N * H * ch)>>>((T *)g, (T *)ut, (T *)o, (const T *)dO, S, N, H, ch, mode));
    CU_LAUNCHED();
}

static void pw_core(cu_impl *c, const pf_pwavg_dims *d, const pf_pwavg_p *p, const void *m, const void *z,
                    const void *mask, const pw_ws *w) {
    int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, Sch = S * d->c_h;
    int hc = d->H * d->c_h;
    cu_ln_fwd(c, SN, d->c_m, &p->ln, m, w->ml);
    cu_linear_fwd(c, SN, d->c_m, hc, &p->v, w->ml, w->t[0], 0);
    cu_pw_perm(c, w->t[0], w->t[1], S, N, d->H, d->c_h, 1);
    cu_linear_fwd(c, SN, d->c_m, hc, &p->g, w->ml, w->t[0], 0);
    cu_ln_fwd(c, NN, d->c_z, &p->ln_z, z, w->zl);
    cu_linear_fwd(c, NN, d->c_z, d->H, &p->b, w->zl, w->bb, 0);
    cu_pw_softmax(c, w->bb, mask, w->w, N, N, d->H);
    cu_gemm(c, 0, 0, N, Sch, N, 1.f, w->w, CU_ACT, N, w->t[1], CU_ACT, Sch, 0.f, w->t[2], CU_ACT, Sch,
            d->H, NN, N * Sch, N * Sch, NULL);
}

void cu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m, const pf_act *z,
                  const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    pw_ws w;
    pw_layout(c, d, ws, &w, NULL);
    int64_t S = d->S, N = d->N, SN = S * N;
    int hc = d->H * d->c_h;
    pw_core(c, d, p, m, z, mask, &w);
    cu_pw_gate(c, w.t[0], w.t[2], w.t[3], NULL, S, N, d->H, d->c_h, 0);
    cu_linear_fwd(c, SN, hc, d->c_m, &p->o, w.t[3], out, 0);
    if (saved) {
        cu_copy_act(c, saved, m, SN * d->c_m);
        cu_copy_act(c, (char *)saved + (size_t)(SN * d->c_m) * cu_esz(c), z, N * N * d->c_z);
    }
}

void cu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g, const pf_act *mask,
                  const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    pw_ws w;
    pw_layout(c, d, ws, &w, NULL);
    int64_t S = d->S, N = d->N, SN = S * N, NN = N * N, Sch = S * d->c_h;
    int hc = d->H * d->c_h;
    const void *m = saved;
    const void *z = (const char *)saved + (size_t)(SN * d->c_m) * cu_esz(c);
    pw_core(c, d, p, m, z, mask, &w);
    void *gq = w.t[0], *vt = w.t[1], *ut = w.t[2], *o = w.t[3];
    cu_pw_gate(c, gq, ut, o, NULL, S, N, d->H, d->c_h, 0);
    cu_linear_bwd_set(c, SN, hc, d->c_m, &p->o, &g->o, o, d_out, o);  // W_o's gradient, then d o over o
    cu_pw_gate(c, gq, ut, NULL, o, S, N, d->H, d->c_h, 1);
    // dw_h = du_h v_h^T; dv_h = w_h^T du_h (into vt)
    cu_gemm(c, 0, 1, N, N, Sch, 1.f, ut, CU_ACT, Sch, vt, CU_ACT, Sch, 0.f, w.dw, CU_ACT, N, d->H, N * Sch, N * Sch, NN, NULL);
    cu_gemm(c, 1, 0, N, Sch, N, 1.f, w.w, CU_ACT, N, ut, CU_ACT, Sch, 0.f, vt, CU_ACT, Sch, d->H, NN, N * Sch, N * Sch, NULL);
    cu_pw_softmax_bwd(c, w.w, w.dw, mask, w.bb, N, N, d->H);
    cu_linear_bwd_set(c, NN, d->c_z, d->H, &p->b, &g->b, w.zl, w.bb, w.dzl);
    cu_ln_bwd(c, NN, d->c_z, &p->ln_z, &g->ln_z, z, w.dzl, d_z);
    cu_pw_perm(c, vt, o, S, N, d->H, d->c_h, 0);
    cu_linear_bwd_set(c, SN, d->c_m, hc, &p->v, &g->v, w.ml, o, w.dml);
    cu_linear_bwd(c, SN, d->c_m, hc, &p->g, &g->g, w.ml, gq, w.dml);
    cu_ln_bwd(c, SN, d->c_m, &p->ln, &g->ln, m, w.dml, d_m);
}
