// cu_global_attn.cu: MSA column-wise global attention (AF2 Alg. 19), the CPU
// reference's plan on the GPU. The per-column softmax over S runs one block per
// (column, head) with fixed-tree block reductions (deterministic).
// saved: m (S*N, c_in) | q (N, HC) scaled | k, v (S*N, c_h) | g (S*N, HC) sigmoid |
//        o (N, HC) | P (N, H, S) fp32
// ws:    mln | qm (N, c_in) | og (S*N, HC) | dq, dk, dv, dg, do | dS (N, H, S) fp32 |
//        d_qm | d_mln   (forward without saved: q .. P in the dq .. dS slots)
#include "cu_ops.h"

#define GA_EPS 1e-10
#define GA_T 128

typedef struct { void *q, *k, *v, *g, *o; float *P; } ga_acts;
typedef struct { void *mln, *qm, *og, *d_qm, *d_mln; ga_acts a; } ga_ws;

static void ga_acts_carve(cu_carver *cv, cu_impl *c, const pf_global_attn_dims *d, ga_acts *a) {
    size_t e = cu_esz(c);
    int64_t M = d->S * d->N, HC = (int64_t)d->H * d->c_h;
    a->q = cu_carve(cv, (size_t)(d->N * HC) * e);
    a->k = cu_carve(cv, (size_t)(M * d->c_h) * e);
    a->v = cu_carve(cv, (size_t)(M * d->c_h) * e);
    a->g = cu_carve(cv, (size_t)(M * HC) * e);
    a->o = cu_carve(cv, (size_t)(d->N * HC) * e);
    a->P = (float *)cu_carve(cv, sizeof(float) * (size_t)(d->N * d->H * d->S));
}

static void ga_layout(cu_impl *c, const pf_global_attn_dims *d, void *saved, void *ws, ga_acts *sv, ga_ws *w,
                      size_t *ns, size_t *nw) {
    size_t e = cu_esz(c);
    int64_t M = d->S * d->N, HC = (int64_t)d->H * d->c_h;
    cu_carver cs = {(char *)saved, 0};
    cu_carve(&cs, (size_t)(M * d->c_in) * e);
    ga_acts_carve(&cs, c, d, sv);
    cu_carver cw = {(char *)ws, 0};
    w->mln = cu_carve(&cw, (size_t)(M * d->c_in) * e);
    w->qm = cu_carve(&cw, (size_t)(d->N * d->c_in) * e);
    w->og = cu_carve(&cw, (size_t)(M * HC) * e);
    ga_acts_carve(&cw, c, d, &w->a);
    w->d_qm = cu_carve(&cw, (size_t)(d->N * d->c_in) * e);
    w->d_mln = cu_carve(&cw, (size_t)(M * d->c_in) * e);
    *ns = cs.off;
    *nw = cw.off;
}

pf_mem cu_global_attn_mem(pf_backend *be, const pf_global_attn_dims *d) {
    ga_acts a;
    ga_ws w;
    pf_mem m;
    ga_layout(CU(be), d, NULL, NULL, &a, &w, &m.saved, &m.ws);
    m.ws_fwd = m.ws;  // the forward without saved uses the same workspace
    return m;
}

__device__ float block_sum(float v, float *sh) {
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int o = GA_T / 2; o; o >>= 1) {
        if (threadIdx.x < o) sh[threadIdx.x] += sh[threadIdx.x + o];
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();
    return r;
}
__device__ float block_max(float v, float *sh) {
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int o = GA_T / 2; o; o >>= 1) {
        if (threadIdx.x < o) sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + o]);
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();
    return r;
}

// qm[n, i] = sum_s mask mln / (sum_s mask + eps)
template <typename T>
__global__ void k_ga_mean(const T *mln, const T *mask, T *qm, int64_t S, int64_t N, int C) {
    GRID_STRIDE(q, N * C) {
        int64_t n = q / C, i = q % C;
        float s = 0, den = 0;
        for (int64_t t = 0; t < S; t++) {
            float mk = mask ? ld(mask, t * N + n) : 1.f;
            s += ld(mln, (t * N + n) * C + i) * mk;
            den += mk;
        }
        st(qm, q, s * (float)(1.0 / ((double)den + GA_EPS)));
    }
}
// d mln[s, n, i] = d qm[n, i] * mask / (sum mask + eps)
template <typename T>
__global__ void k_ga_mean_bwd(const T *dqm, const T *mask, T *dmln, int64_t S, int64_t N, int C) {
    GRID_STRIDE(q, S * N * C) {
        int64_t i = q % C, sn = q / C, n = sn % N;
        float den = 0;
        for (int64_t t = 0; t < S; t++) den += mask ? ld(mask, t * N + n) : 1.f;
        float f = (mask ? ld(mask, sn) : 1.f) * (float)(1.0 / ((double)den + GA_EPS));
        st(dmln, q, f * ld(dqm, n * C + i));
    }
}

// block per (n, h): P[n, h, :] = softmax_s(q . k_s + mask), o[n, h, :] = sum_s P v_s
template <typename T>
__global__ void k_ga_fwd(const T *q, const T *k, const T *v, const T *mask, float *P, T *o, int64_t S, int64_t N,
                         int H, int ch) {
    __shared__ float sh[GA_T];
    int64_t n = blockIdx.x / H;
    int h = blockIdx.x % H;
    int64_t HC = (int64_t)H * ch;
    float *Ph = P + (n * H + h) * S;
    const T *qh = q + n * HC + (int64_t)h * ch;
    float mx = -INFINITY;
    for (int64_t t = threadIdx.x; t < S; t += GA_T) {
        const T *kt = k + (t * N + n) * ch;
        float acc = 0;
        for (int c = 0; c < ch; c++) acc += ld(qh, c) * ld(kt, c);
        if (mask) acc += mask_term(ld(mask, t * N + n));
        Ph[t] = acc;
        mx = fmaxf(mx, acc);
    }
    mx = block_max(mx, sh);
    float sum = 0;
    for (int64_t t = threadIdx.x; t < S; t += GA_T) {
        float e = expf(Ph[t] - mx);
        Ph[t] = e;
        sum += e;
    }
    float inv = 1.f / block_sum(sum, sh);
    for (int64_t t = threadIdx.x; t < S; t += GA_T) Ph[t] *= inv;
    __syncthreads();
    for (int c = 0; c < ch; c++) {
        float acc = 0;
        for (int64_t t = threadIdx.x; t < S; t += GA_T) acc += Ph[t] * ld(v, (t * N + n) * ch + c);
        acc = block_sum(acc, sh);
        if (!threadIdx.x) st(o, n * HC + (int64_t)h * ch + c, acc);
    }
}

// og[s, n, j] = g[s, n, j] * o[n, j]
template <typename T>
__global__ void k_ga_og(const T *g, const T *o, T *og, int64_t M, int64_t N, int64_t HC) {
    GRID_STRIDE(i, M * HC) {
        int64_t j = i % HC, n = (i / HC) % N;
        st(og, i, ld(g, i) * ld(o, n * HC + j));
    }
}
// thread per (n, j): do[n, j] = sum_s dog g; dog <- d g_pre (in place)
template <typename T>
__global__ void k_ga_gate_bwd(T *dg, const T *g, const T *o, T *dout, int64_t S, int64_t N, int64_t HC) {
    GRID_STRIDE(q, N * HC) {
        int64_t n = q / HC, j = q % HC;
        float on = ld(o, q), acc = 0;
        for (int64_t t = 0; t < S; t++) {
            int64_t i = (t * N + n) * HC + j;
            float gi = ld(g, i), dog = ld(dg, i);
            acc += dog * gi;
            st(dg, i, dog * on * gi * (1.f - gi));
        }
        st(dout, q, acc);
    }
}
// block per (n, h): dS = P (dP - sum P dP), dP_s = do . v_s; dq = scale * sum_s dS k_s
template <typename T>
__global__ void k_ga_bwd_col(const T *k, const T *v, const float *P, const T *dO, const T *mask, float *dS, T *dq,
                             int64_t S, int64_t N, int H, int ch, float scale) {
    __shared__ float sh[GA_T];
    int64_t n = blockIdx.x / H;
    int h = blockIdx.x % H;
    int64_t HC = (int64_t)H * ch;
    const float *Ph = P + (n * H + h) * S;
    float *dSh = dS + (n * H + h) * S;
    const T *doh = dO + n * HC + (int64_t)h * ch;
    float dot = 0;
    for (int64_t t = threadIdx.x; t < S; t += GA_T) {
        const T *vt = v + (t * N + n) * ch;
        float acc = 0;
        for (int c = 0; c < ch; c++) acc += ld(doh, c) * ld(vt, c);
        dSh[t] = acc;
        dot += Ph[t] * acc;
    }
    dot = block_sum(dot, sh);
    // masked keys: the logit was replaced by a constant, no gradient (modules.h)
    for (int64_t t = threadIdx.x; t < S; t += GA_T)
        dSh[t] = (mask && ld(mask, t * N + n) == 0.f) ? 0.f : Ph[t] * (dSh[t] - dot);
    __syncthreads();
    for (int c = 0; c < ch; c++) {
        float acc = 0;
        for (int64_t t = threadIdx.x; t < S; t += GA_T) acc += dSh[t] * ld(k, (t * N + n) * ch + c);
        acc = block_sum(acc, sh);
        if (!threadIdx.x) st(dq, n * HC + (int64_t)h * ch + c, acc * scale);
    }
}
// dk[s, n, c] = sum_h dS[n, h, s] q[n, h, c]; dv = sum_h P[n, h, s] do[n, h, c]
template <typename T>
__global__ void k_ga_dkdv(const T *q, const T *dO, const float *P, const float *dS, T *dk, T *dv, int64_t S,
                          int64_t N, int H, int ch) {
    GRID_STRIDE(i, S * N * ch) {
        int64_t c = i % ch, sn = i / ch, n = sn % N, t = sn / N;
        int64_t HC = (int64_t)H * ch;
        float a = 0, b = 0;
        for (int h = 0; h < H; h++) {
            int64_t pi = (n * H + h) * S + t, qi = n * HC + (int64_t)h * ch + c;
            a += dS[pi] * ld(q, qi);
            b += P[pi] * ld(dO, qi);
        }
        st(dk, i, a);
        st(dv, i, b);
    }
}

#define GA_L(n) cu_blocks(n, 256), 256, 0, c->stream

void cu_global_attn_fwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p, const pf_act *m,
                        const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    ga_acts sv;
    ga_ws w;
    size_t ns, nw;
    ga_layout(c, d, saved, ws, &sv, &w, &ns, &nw);
    ga_acts a = saved ? sv : w.a;
    int64_t S = d->S, N = d->N, M = S * N;
    int HC = d->H * d->c_h;
    if (saved) cu_copy_act(c, saved, m, M * d->c_in);
    cu_ln_fwd(c, M, d->c_in, &p->ln, m, w.mln);
    CU_DISPATCH(c, T, k_ga_mean<T><<<GA_L(N * d->c_in)>>>((const T *)w.mln, (const T *)mask, (T *)w.qm, S, N, d->c_in));
    CU_LAUNCHED();
    cu_linear_fwd(c, N, d->c_in, HC, &p->q, w.qm, a.q, 0);
    cu_scale_act(c, a.q, (float)(1.0 / sqrt((double)d->c_h)), N * HC);
    cu_linear_fwd(c, M, d->c_in, d->c_h, &p->k, w.mln, a.k, 0);
    cu_linear_fwd(c, M, d->c_in, d->c_h, &p->v, w.mln, a.v, 0);
    cu_linear_fwd(c, M, d->c_in, HC, &p->g, w.mln, a.g, 0);
    cu_sigmoid(c, a.g, M * HC);
    CU_DISPATCH(c, T, k_ga_fwd<T><<<(unsigned)(N * d->H), GA_T, 0, c->stream>>>(
                          (const T *)a.q, (const T *)a.k, (const T *)a.v, (const T *)mask, a.P, (T *)a.o, S, N, d->H, d->c_h));
    CU_LAUNCHED();
    CU_DISPATCH(c, T, k_ga_og<T><<<GA_L(M * HC)>>>((const T *)a.g, (const T *)a.o, (T *)w.og, M, N, HC));
    CU_LAUNCHED();
    cu_linear_fwd(c, M, HC, d->c_in, &p->o, w.og, out, 0);
}

void cu_global_attn_bwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                        pf_global_attn_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                        pf_act *d_m, void *ws) {
    cu_impl *c = CU(be);
    ga_acts a;
    ga_ws w;
    size_t ns, nw;
    ga_layout(c, d, (void *)saved, ws, &a, &w, &ns, &nw);
    ga_acts da = w.a;
    int64_t S = d->S, N = d->N, M = S * N;
    int HC = d->H * d->c_h;
    cu_ln_fwd(c, M, d->c_in, &p->ln, saved, w.mln);
    CU_DISPATCH(c, T, k_ga_mean<T><<<GA_L(N * d->c_in)>>>((const T *)w.mln, (const T *)mask, (T *)w.qm, S, N, d->c_in));
    CU_LAUNCHED();
    CU_DISPATCH(c, T, k_ga_og<T><<<GA_L(M * HC)>>>((const T *)a.g, (const T *)a.o, (T *)w.og, M, N, HC));
    CU_LAUNCHED();
    cu_linear_bwd_set(c, M, HC, d->c_in, &p->o, &g->o, w.og, d_out, da.g);
    CU_DISPATCH(c, T, k_ga_gate_bwd<T><<<GA_L(N * HC)>>>((T *)da.g, (const T *)a.g, (const T *)a.o, (T *)da.o, S, N, HC));
    CU_LAUNCHED();
    float scale = (float)(1.0 / sqrt((double)d->c_h));
    CU_DISPATCH(c, T, k_ga_bwd_col<T><<<(unsigned)(N * d->H), GA_T, 0, c->stream>>>(
                          (const T *)a.k, (const T *)a.v, a.P, (const T *)da.o, (const T *)mask, da.P, (T *)da.q, S, N, d->H, d->c_h, scale));
    CU_LAUNCHED();
    CU_DISPATCH(c, T, k_ga_dkdv<T><<<GA_L(M * d->c_h)>>>((const T *)a.q, (const T *)da.o, a.P, da.P, (T *)da.k,
                                                          (T *)da.v, S, N, d->H, d->c_h));
    CU_LAUNCHED();
    cu_linear_bwd_set(c, N, d->c_in, HC, &p->q, &g->q, w.qm, da.q, w.d_qm);
    CU_DISPATCH(c, T, k_ga_mean_bwd<T><<<GA_L(M * d->c_in)>>>((const T *)w.d_qm, (const T *)mask, (T *)w.d_mln, S, N, d->c_in));
    CU_LAUNCHED();
    cu_linear_bwd(c, M, d->c_in, d->c_h, &p->k, &g->k, w.mln, da.k, w.d_mln);
    cu_linear_bwd(c, M, d->c_in, d->c_h, &p->v, &g->v, w.mln, da.v, w.d_mln);
    cu_linear_bwd(c, M, d->c_in, HC, &p->g, &g->g, w.mln, da.g, w.d_mln);
    cu_ln_bwd(c, M, d->c_in, &p->ln, &g->ln, saved, w.d_mln, d_m);
}
