// cu_ipa.cu: invariant point attention (AF2 Alg. 22; math and layout in
// struct_modules.h), forward and backward, against cpu_ipa.c.
//
// O(N^2 H) memory, never N^3: the logits (point distances, pair bias, q.k) are
// formed in-kernel, one block per (row i, head h); the saved attention weights
// a (N, H, N) and the pair bias b (N, N, H, activation type) are the only
// pair-sized buffers besides z. Masking follows the CPU reference (a masked
// logit is replaced by -1e9, so a fully masked row is uniform). Every sum has
// one owner thread (serial over j or i) or a fixed warp / block tree.
//
// saved: q (N, H c) | kv (N, 2 H c) | qp (N, H, Pq, 3) | kvp (N, H, P, 3) global
//        | a (N, H, N) | cat (N, D)                                  all fp32
#include "cu_struct.cuh"
#include "cu_ops.h"

#define IPA_THREADS 256
#define IPA_NORM_EPS 1e-8f
#define IPA_MASKED -1e9f

typedef struct { int64_t N; int H, c, Pq, Pv, P, cz, D; float wc, wl, wpt; } ipa_k;

static ipa_k ipa_consts(const pf_ipa_dims *d) {
    ipa_k k;
    k.N = d->N; k.H = d->H; k.c = d->c; k.Pq = d->Pq; k.Pv = d->Pv; k.P = d->Pq + d->Pv; k.cz = d->c_z;
    k.D = pf_ipa_cat_dim(d);
    k.wc = (float)sqrt(1.0 / (3.0 * d->c));
    k.wl = (float)sqrt(1.0 / 3.0);
    k.wpt = (float)sqrt(1.0 / (3.0 * d->Pq * 4.5));
    return k;
}

typedef struct { float *q, *kv, *qp, *kvp, *a, *cat; } ipa_sv;
typedef struct { float *qpl, *kvpl; void *b; } ipa_fw;
typedef struct {
    float *dcat, *dopg, *dl, *dgam, *dq, *dkv, *dqp, *dkvp, *dRp, *dtp, *dqpl, *dkvpl;
    void *db;    // (N, N, H) d pair bias in the activation type: the weight gradient's GEMM
    float *dbf;  // the same in fp32: d z from both paths is summed in fp32 and rounded once
} ipa_bw;

static ipa_sv carve_saved(const ipa_k &k, void *base, size_t *bytes) {
    cu_carver cv = {(char *)base, 0};
    const int64_t N = k.N, H = k.H;
    ipa_sv v;
    v.q = (float *)cu_carve(&cv, sizeof(float) * N * H * k.c);
    v.kv = (float *)cu_carve(&cv, sizeof(float) * N * H * 2 * k.c);
    v.qp = (float *)cu_carve(&cv, sizeof(float) * N * H * k.Pq * 3);
    v.kvp = (float *)cu_carve(&cv, sizeof(float) * N * H * k.P * 3);
    v.a = (float *)cu_carve(&cv, sizeof(float) * N * H * N);
    v.cat = (float *)cu_carve(&cv, sizeof(float) * N * k.D);
    if (bytes) *bytes = cv.off;
    return v;
}

static ipa_fw carve_fwd_ws(const cu_impl *c, const ipa_k &k, void *base, size_t *bytes) {
    cu_carver cv = {(char *)base, 0};
    const int64_t N = k.N, H = k.H;
    ipa_fw w;
    w.qpl = (float *)cu_carve(&cv, sizeof(float) * N * 3 * H * k.Pq);
    w.kvpl = (float *)cu_carve(&cv, sizeof(float) * N * 3 * H * k.P);
    w.b = cu_carve(&cv, cu_esz(c) * N * N * H);
    if (bytes) *bytes = cv.off;
    return w;
}

static ipa_bw carve_bwd_ws(const cu_impl *c, const ipa_k &k, void *base, size_t *bytes) {
    cu_carver cv = {(char *)base, 0};
    const int64_t N = k.N, H = k.H;
    ipa_bw w;
    w.dcat = (float *)cu_carve(&cv, sizeof(float) * N * k.D);
    w.dopg = (float *)cu_carve(&cv, sizeof(float) * N * H * k.Pv * 3);
    w.dl = (float *)cu_carve(&cv, sizeof(float) * N * H * N);
    w.db = cu_carve(&cv, cu_esz(c) * N * N * H);
    w.dbf = (float *)cu_carve(&cv, sizeof(float) * N * N * H);  // the same in fp32, for d z
    w.dgam = (float *)cu_carve(&cv, sizeof(float) * N * H);
    w.dq = (float *)cu_carve(&cv, sizeof(float) * N * H * k.c);
    w.dkv = (float *)cu_carve(&cv, sizeof(float) * N * H * 2 * k.c);
    w.dqp = (float *)cu_carve(&cv, sizeof(float) * N * H * k.Pq * 3);
    w.dkvp = (float *)cu_carve(&cv, sizeof(float) * N * H * k.P * 3);
    w.dRp = (float *)cu_carve(&cv, sizeof(float) * N * H * 9);
    w.dtp = (float *)cu_carve(&cv, sizeof(float) * N * H * 3);
    w.dqpl = (float *)cu_carve(&cv, sizeof(float) * N * 3 * H * k.Pq);
    w.dkvpl = (float *)cu_carve(&cv, sizeof(float) * N * 3 * H * k.P);
    if (bytes) *bytes = cv.off;
    return w;
}

void cu_ipa_sizes(const cu_impl *c, const pf_ipa_dims *d, size_t *saved, size_t *ws) {
    ipa_k k = ipa_consts(d);
    size_t f = 0, b = 0;
    carve_saved(k, NULL, saved);
    carve_fwd_ws(c, k, NULL, &f);
    carve_bwd_ws(c, k, NULL, &b);
    *ws = f > b ? f : b;  // the forward's and the backward's scratch never live at once
}

// ---- forward -------------------------------------------------------------------
// Points of a Linear's output, OpenFold layout ([x | y | z], each (H, P)), into
// the global frame: glob (N, H, P, 3) = R_i x + t_i.
__global__ void k_points_global(int64_t N, int HP, const float *loc, const float *R, const float *t, float *glob) {
    GRID_STRIDE(idx, N * HP) {
        const int64_t i = idx / HP, k = idx % HP;
        const float *l = loc + i * 3 * HP, *Ri = R + i * 9, *ti = t + i * 3;
        const float x[3] = {l[k], l[HP + k], l[2 * HP + k]};
        for (int e = 0; e < 3; e++)
            glob[idx * 3 + e] = Ri[e * 3] * x[0] + Ri[e * 3 + 1] * x[1] + Ri[e * 3 + 2] * x[2] + ti[e];
    }
}

// One block per (i, h): logits, softmax into a (row of N), then the outputs
// o (c), the value points back in frame i with their norms, o^pair (c_z) into cat.
// Shared: c + 3 Pv + 32 floats. Rows r0 + il for il < gridDim.x / H: b, z, a and cat hold
// those rows only (ipa_fwd_rows; r0 = 0 and every row for the whole op).
template <typename T>
__global__ void k_ipa_fwd(ipa_k k, const float *hw, const T *b, const T *z, const T *mask, const float *R,
                          const float *t, ipa_sv v, int64_t r0) {
    extern __shared__ float sh[];
    float *sg = sh, *red = sh + 3 * k.Pv;
    const int64_t N = k.N, il = blockIdx.x / k.H, i = r0 + il;
    const int h = blockIdx.x % k.H, c = k.c, Pq = k.Pq, Pv = k.Pv, P = k.P, cz = k.cz, H = k.H;
    const float gamma = softplusf_(hw[h]) * k.wpt;
    const float mi = mask ? ld(mask, i) : 1.f;
    const float *qi = v.q + (i * H + h) * c, *qpi = v.qp + (i * H + h) * Pq * 3;
    float *arow = v.a + (il * H + h) * N;
    float mx = -INFINITY;
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
        float l;
        if (mask && mi * ld(mask, j) == 0.f) {
            l = IPA_MASKED;
        } else {
            const float *kj = v.kv + (j * H + h) * 2 * c, *kpj = v.kvp + (j * H + h) * P * 3;
            float qk = 0.f, dist = 0.f;
            for (int e = 0; e < c; e++) qk += qi[e] * kj[e];
            for (int e = 0; e < Pq * 3; e++) { float df = qpi[e] - kpj[e]; dist += df * df; }
            l = k.wc * qk + k.wl * ld(b, (il * N + j) * H + h) - 0.5f * gamma * dist;
        }
        arow[j] = l;
        mx = fmaxf(mx, l);
    }
    mx = block_max(mx, red);
    float se = 0.f;
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
        float e = expf(arow[j] - mx);
        arow[j] = e;
        se += e;
    }
    se = block_sum(se, red);  // its __syncthreads also orders the writes of arow above
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) arow[j] = arow[j] / se;
    __syncthreads();
    const int64_t HPv = (int64_t)H * Pv;
    float *cat = v.cat + il * k.D;
    for (int o = threadIdx.x; o < c + 3 * Pv + cz; o += blockDim.x) {
        float acc = 0.f;
        if (o < c) {
            for (int64_t j = 0; j < N; j++) acc += arow[j] * v.kv[(j * H + h) * 2 * c + c + o];
            cat[h * c + o] = acc;
        } else if (o < c + 3 * Pv) {
            const int pe = o - c;  // point pe / 3, coordinate pe % 3
            for (int64_t j = 0; j < N; j++) acc += arow[j] * v.kvp[((j * H + h) * P + Pq) * 3 + pe];
            sg[pe] = acc;
        } else {
            const int kz = o - c - 3 * Pv;
            for (int64_t j = 0; j < N; j++) acc += arow[j] * ld(z, (il * N + j) * cz + kz);
            cat[(int64_t)H * c + 4 * HPv + (int64_t)h * cz + kz] = acc;
        }
    }
    __syncthreads();
    for (int p = threadIdx.x; p < Pv; p += blockDim.x) {
        const float *Ri = R + i * 9, *ti = t + i * 3;
        const float g[3] = {sg[p * 3] - ti[0], sg[p * 3 + 1] - ti[1], sg[p * 3 + 2] - ti[2]};
        float l[3];
        for (int e = 0; e < 3; e++) l[e] = Ri[e] * g[0] + Ri[3 + e] * g[1] + Ri[6 + e] * g[2];
        float *ox = cat + (int64_t)H * c + (int64_t)h * Pv + p;
        for (int e = 0; e < 3; e++) ox[e * HPv] = l[e];
        ox[3 * HPv] = sqrtf(IPA_NORM_EPS + l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    }
}

// q, k / v and the points of every residue from s (N, c_s): the queries' and keys' side of the
// logits, the whole forward's and the row op's alike (qpl, kvpl: the points in local frames).
static void ipa_project(cu_impl *c, const ipa_k &k, const pf_ipa_p *p, int cs, const float *s, const float *R,
                        const float *t, float *qpl, float *kvpl, ipa_sv v) {
    const int64_t N = k.N;
    const int H = k.H;
    cu_lin32_fwd(c, N, cs, H * k.c, &p->q, s, v.q, 0);
    cu_lin32_fwd(c, N, cs, 2 * H * k.c, &p->kv, s, v.kv, 0);
    cu_lin32_fwd(c, N, cs, 3 * H * k.Pq, &p->q_points, s, qpl, 0);
    cu_lin32_fwd(c, N, cs, 3 * H * k.P, &p->kv_points, s, kvpl, 0);
    k_points_global<<<cu_blocks(N * H * k.Pq, 256), 256, 0, c->stream>>>(N, H * k.Pq, qpl, R, t, v.qp);
    CU_LAUNCHED();
    k_points_global<<<cu_blocks(N * H * k.P, 256), 256, 0, c->stream>>>(N, H * k.P, kvpl, R, t, v.kvp);
    CU_LAUNCHED();
}

static size_t fwd_shared(const ipa_k &k) { return sizeof(float) * (size_t)(3 * k.Pv + 32); }

void cu_ipa_core_fwd(cu_impl *c, const pf_ipa_dims *d, const pf_ipa_p *p, const float *s, const void *z,
                     const float *R, const float *t, const void *mask, float *out, void *saved, void *ws) {
    const ipa_k k = ipa_consts(d);
    const int64_t N = k.N;
    const int H = k.H, cs = d->c_s;
    if (N <= 0) return;
    ipa_sv v = carve_saved(k, saved, NULL);
    ipa_fw w = carve_fwd_ws(c, k, ws, NULL);
    ipa_project(c, k, p, cs, s, R, t, w.qpl, w.kvpl, v);
    cu_linear_fwd(c, N * N, k.cz, H, &p->b, z, w.b, 0);  // (N, N, H) pair bias, activation type
    CU_DISPATCH(c, T, k_ipa_fwd<T><<<(unsigned)(N * H), IPA_THREADS, fwd_shared(k), c->stream>>>(
                          k, p->head_weights, (const T *)w.b, (const T *)z, (const T *)mask, R, t, v, 0));
    CU_LAUNCHED();
    cu_lin32_fwd(c, N, k.D, cs, &p->out, v.cat, out, 0);
}

// backend.h's ipa_fwd_rows: rows r0 .. r0 + n of ipa_fwd's out from those rows of z (n, N, c_z)
// (inference: nothing saved; the structure module on a dap rank's rows of z). The projections
// of every residue (the keys), the pair bias of the rows, then k_ipa_fwd on the row range: the
// (n, H, N) weights and the n rows' cat in pool scratch, never (N, N).
void cu_ipa_fwd_rows_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n,
                        const pf_act *s, const pf_act *z_rows, const real *R, const real *t, const pf_act *mask,
                        pf_act *out) {
    cu_impl *c = CU(be);
    const ipa_k k = ipa_consts(d);
    const int64_t N = k.N;
    const int H = k.H, cs = d->c_s;
    if (r0 < 0 || n < 0 || r0 + n > N) pf_die("ipa_fwd_rows: rows %lld .. %lld outside 0 .. %lld", (long long)r0,
                                              (long long)(r0 + n), (long long)N);
    if (n == 0) return;
    const size_t mark = cu_pool_mark(c), f = sizeof(float);
    float *sf = (float *)cu_pool_get(c, f * N * cs), *qpl = (float *)cu_pool_get(c, f * N * 3 * H * k.Pq);
    float *kvpl = (float *)cu_pool_get(c, f * N * 3 * H * k.P), *of = (float *)cu_pool_get(c, f * n * cs);
    void *b = cu_pool_get(c, cu_esz(c) * n * N * H);
    ipa_sv v;
    v.q = (float *)cu_pool_get(c, f * N * H * k.c);
    v.kv = (float *)cu_pool_get(c, f * N * H * 2 * k.c);
    v.qp = (float *)cu_pool_get(c, f * N * H * k.Pq * 3);
    v.kvp = (float *)cu_pool_get(c, f * N * H * k.P * 3);
    v.a = (float *)cu_pool_get(c, f * n * H * N);
    v.cat = (float *)cu_pool_get(c, f * n * k.D);
    cu_act_to_f32(c, s, sf, N * cs);
    ipa_project(c, k, p, cs, sf, R, t, qpl, kvpl, v);
    cu_linear_fwd(c, n * N, k.cz, H, &p->b, z_rows, b, 0);  // (n, N, H) pair bias of the rows
    CU_DISPATCH(c, T, k_ipa_fwd<T><<<(unsigned)(n * H), IPA_THREADS, fwd_shared(k), c->stream>>>(
                          k, p->head_weights, (const T *)b, (const T *)z_rows, (const T *)mask, R, t, v, r0));
    CU_LAUNCHED();
    cu_lin32_fwd(c, n, k.D, cs, &p->out, v.cat, of, 0);
    cu_f32_to_act(c, of, out, n * cs, 0);
    cu_pool_release(c, mark);
}

// ---- backward ------------------------------------------------------------------
// One block per (i, h). Thread 0: d of the value-point average in the global
// frame (dopg) and this head's share of d R_i, d t_i (dRp, dtp: summed over h
// later in a fixed order). Then one warp per key j: the raw d a_ij; the softmax
// backward; d b; then one thread per query output (serial over j): d q_i, d qp_i,
// d gamma. Shared: c + 3 Pv + c_z + 32 floats.
template <typename T>
__global__ void k_ipa_row_bwd(ipa_k k, const float *hw, const T *z, const T *mask, const float *R, ipa_sv v,
                              ipa_bw G) {
    extern __shared__ float sh[];
    const int64_t N = k.N, i = blockIdx.x / k.H, HPv = (int64_t)k.H * k.Pv;
    const int h = blockIdx.x % k.H, c = k.c, Pq = k.Pq, Pv = k.Pv, P = k.P, cz = k.cz, H = k.H;
    float *s_do = sh, *s_dop = s_do + c, *s_dpair = s_dop + 3 * Pv, *red = s_dpair + cz;
    const float gamma = softplusf_(hw[h]) * k.wpt;
    const float *cat = v.cat + i * k.D, *dcat = G.dcat + i * k.D, *Ri = R + i * 9;
    for (int o = threadIdx.x; o < c; o += blockDim.x) s_do[o] = dcat[h * c + o];
    for (int o = threadIdx.x; o < cz; o += blockDim.x) s_dpair[o] = dcat[(int64_t)H * c + 4 * HPv + (int64_t)h * cz + o];
    if (threadIdx.x == 0) {
        float dR[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, dt[3] = {0, 0, 0};
        for (int p = 0; p < Pv; p++) {
            const int64_t x = (int64_t)H * c + (int64_t)h * Pv + p;
            const float l[3] = {cat[x], cat[x + HPv], cat[x + 2 * HPv]}, nrm = cat[x + 3 * HPv];
            float dloc[3], y[3];
            for (int e = 0; e < 3; e++) dloc[e] = dcat[x + e * HPv] + dcat[x + 3 * HPv] * l[e] / nrm;
            for (int e = 0; e < 3; e++) {
                const float dg = Ri[e * 3] * dloc[0] + Ri[e * 3 + 1] * dloc[1] + Ri[e * 3 + 2] * dloc[2];
                s_dop[p * 3 + e] = dg;
                G.dopg[((i * H + h) * Pv + p) * 3 + e] = dg;
                y[e] = Ri[e * 3] * l[0] + Ri[e * 3 + 1] * l[1] + Ri[e * 3 + 2] * l[2];
                dt[e] -= dg;
            }
            for (int e = 0; e < 3; e++)
                for (int f = 0; f < 3; f++) dR[e * 3 + f] += y[e] * dloc[f];
        }
        for (int e = 0; e < 9; e++) G.dRp[(i * H + h) * 9 + e] = dR[e];
        for (int e = 0; e < 3; e++) G.dtp[(i * H + h) * 3 + e] = dt[e];
    }
    __syncthreads();
    const float *arow = v.a + (i * H + h) * N;
    float *dl = G.dl + (i * H + h) * N;
    const int lane = threadIdx.x & 31, nw = blockDim.x >> 5;
    for (int64_t j = threadIdx.x >> 5; j < N; j += nw) {  // one warp per key
        const float *vj = v.kv + (j * H + h) * 2 * c + c, *vpj = v.kvp + ((j * H + h) * P + Pq) * 3;
        float da = 0.f;
        for (int e = lane; e < c; e += 32) da += s_do[e] * vj[e];
        for (int e = lane; e < 3 * Pv; e += 32) da += s_dop[e] * vpj[e];
        for (int e = lane; e < cz; e += 32) da += s_dpair[e] * ld(z, (i * N + j) * cz + e);
        da = warp_sum(da);
        if (lane == 0) dl[j] = da;
    }
    __syncthreads();
    float sum = 0.f;
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) sum += arow[j] * dl[j];
    sum = block_sum(sum, red);
    const float mi = mask ? ld(mask, i) : 1.f;
    T *db = (T *)G.db;
    for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
        const float g = (mask && mi * ld(mask, j) == 0.f) ? 0.f : arow[j] * (dl[j] - sum);
        dl[j] = g;
        st(db, (i * N + j) * H + h, k.wl * g);
        G.dbf[(i * N + j) * H + h] = k.wl * g;
    }
    __syncthreads();
    const float *qpi = v.qp + (i * H + h) * Pq * 3;
    for (int o = threadIdx.x; o <= c + 3 * Pq; o += blockDim.x) {
        float acc = 0.f;
        if (o < c) {
            for (int64_t j = 0; j < N; j++) acc += dl[j] * v.kv[(j * H + h) * 2 * c + o];
            G.dq[(i * H + h) * c + o] = k.wc * acc;
        } else if (o < c + 3 * Pq) {
            const int e = o - c;
            for (int64_t j = 0; j < N; j++) acc += dl[j] * (qpi[e] - v.kvp[(j * H + h) * P * 3 + e]);
            G.dqp[(i * H + h) * Pq * 3 + e] = -gamma * acc;
        } else {
            for (int64_t j = 0; j < N; j++) {
                const float *kpj = v.kvp + (j * H + h) * P * 3;
                float dist = 0.f;
                for (int e = 0; e < Pq * 3; e++) { float df = qpi[e] - kpj[e]; dist += df * df; }
                acc += dl[j] * dist;
            }
            G.dgam[i * H + h] = -0.5f * acc;
        }
    }
}

// One block per (j, h), one thread per output, serial over the rows i:
// d k_j, d v_j, d kp_j, d vp_j (global frame).
__global__ void k_ipa_key_bwd(ipa_k k, const float *hw, ipa_sv v, ipa_bw G) {
    const int64_t N = k.N, j = blockIdx.x / k.H;
    const int h = blockIdx.x % k.H, c = k.c, Pq = k.Pq, Pv = k.Pv, P = k.P, H = k.H;
    const float gamma = softplusf_(hw[h]) * k.wpt;
    const float *kpj = v.kvp + (j * H + h) * P * 3;
    for (int o = threadIdx.x; o < 2 * c + 3 * P; o += blockDim.x) {
        float acc = 0.f;
        if (o < c) {  // d k
            for (int64_t i = 0; i < N; i++) acc += G.dl[(i * H + h) * N + j] * v.q[(i * H + h) * c + o];
            G.dkv[(j * H + h) * 2 * c + o] = k.wc * acc;
        } else if (o < 2 * c) {  // d v
            const int e = o - c;
            for (int64_t i = 0; i < N; i++) acc += v.a[(i * H + h) * N + j] * G.dcat[i * k.D + h * c + e];
            G.dkv[(j * H + h) * 2 * c + o] = acc;
        } else if (o < 2 * c + 3 * Pq) {  // d key points
            const int e = o - 2 * c;
            for (int64_t i = 0; i < N; i++)
                acc += G.dl[(i * H + h) * N + j] * (v.qp[(i * H + h) * Pq * 3 + e] - kpj[e]);
            G.dkvp[(j * H + h) * P * 3 + e] = gamma * acc;
        } else {  // d value points
            const int e = o - 2 * c - 3 * Pq;
            for (int64_t i = 0; i < N; i++) acc += v.a[(i * H + h) * N + j] * G.dopg[(i * H + h) * Pv * 3 + e];
            G.dkvp[(j * H + h) * P * 3 + 3 * Pq + e] = acc;
        }
    }
}

// d z (N, N, c_z) += sum_h (a_hij d o^pair_hi + d b_hij W_b[h, :]) (one thread per element,
// h in order): both paths in fp32, one rounding into the activation type. In bf16
// that rounding of d z's old contents plus the increment is the whole error at large
// N (the increment shrinks like 1/N, the old contents do not): one rounding is what
// an exact kernel has, two (one per path) add a second, independent one
// (bench/ipa_bf16_floor.c).
template <typename T>
__global__ void k_ipa_dz(ipa_k k, ipa_sv v, const float *dcat, const float *dbf, const float *Wb, T *dz) {
    const int64_t N = k.N, off = (int64_t)k.H * k.c + 4 * (int64_t)k.H * k.Pv;
    GRID_STRIDE(idx, N * N * k.cz) {
        const int64_t kz = idx % k.cz, ij = idx / k.cz, i = ij / N, j = ij % N;
        float acc = 0.f;
        for (int h = 0; h < k.H; h++) acc += v.a[(i * k.H + h) * N + j] * dcat[i * k.D + off + (int64_t)h * k.cz + kz];
        for (int h = 0; h < k.H; h++) acc += dbf[ij * k.H + h] * Wb[(int64_t)h * k.cz + kz];
        st(dz, idx, ld(dz, idx) + acc);
    }
}

// One thread per residue i: d of the points back to the Linears' local layout
// (dx = R^T dy) and d R_i, d t_i from the heads' shares and every point, in a
// fixed order; accumulated into d_R, d_t.
__device__ void points_back(int HP, int64_t i, const float *glob, const float *dglob, const float *Ri,
                            const float *ti, float *dloc, float *dR, float *dt) {
    for (int64_t kk = 0; kk < HP; kk++) {
        const float *y = glob + (i * HP + kk) * 3, *dy = dglob + (i * HP + kk) * 3;
        const float g[3] = {y[0] - ti[0], y[1] - ti[1], y[2] - ti[2]};
        float x[3];
        for (int e = 0; e < 3; e++) x[e] = Ri[e] * g[0] + Ri[3 + e] * g[1] + Ri[6 + e] * g[2];
        for (int e = 0; e < 3; e++) {
            dloc[i * 3 * HP + e * HP + kk] = Ri[e] * dy[0] + Ri[3 + e] * dy[1] + Ri[6 + e] * dy[2];
            dt[e] += dy[e];
            for (int f = 0; f < 3; f++) dR[e * 3 + f] += dy[e] * x[f];
        }
    }
}

__global__ void k_ipa_frames_bwd(ipa_k k, const float *R, const float *t, ipa_sv v, ipa_bw G, float *d_R,
                                 float *d_t) {
    GRID_STRIDE(i, k.N) {
        float dR[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, dt[3] = {0, 0, 0};
        for (int h = 0; h < k.H; h++) {
            for (int e = 0; e < 9; e++) dR[e] += G.dRp[(i * k.H + h) * 9 + e];
            for (int e = 0; e < 3; e++) dt[e] += G.dtp[(i * k.H + h) * 3 + e];
        }
        points_back(k.H * k.Pq, i, v.qp, G.dqp, R + i * 9, t + i * 3, G.dqpl, dR, dt);
        points_back(k.H * k.P, i, v.kvp, G.dkvp, R + i * 9, t + i * 3, G.dkvpl, dR, dt);
        if (d_R)
            for (int e = 0; e < 9; e++) d_R[i * 9 + e] += dR[e];
        if (d_t)
            for (int e = 0; e < 3; e++) d_t[i * 3 + e] += dt[e];
    }
}

// gamma_h = softplus(w_h) w_pt: d w_h += (sum_i d gamma_ih) w_pt sigmoid(w_h), i in order.
__global__ void k_ipa_gamma_bwd(ipa_k k, const float *hw, const float *dgam, float *ghw) {
    for (int h = threadIdx.x; h < k.H; h += blockDim.x) {
        float acc = 0.f;
        for (int64_t i = 0; i < k.N; i++) acc += dgam[i * k.H + h];
        ghw[h] += acc * k.wpt * sigmoidf_(hw[h]);
    }
}

static size_t row_shared(const ipa_k &k) { return sizeof(float) * (size_t)(k.c + 3 * k.Pv + k.cz + 32); }

void cu_ipa_core_bwd(cu_impl *c, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const float *s,
                     const void *z, const float *R, const float *t, const void *mask, const void *saved,
                     const float *d_out, float *d_s, void *d_z, float *d_R, float *d_t, void *ws) {
    const ipa_k k = ipa_consts(d);
    const int64_t N = k.N;
    const int H = k.H, cs = d->c_s;
    if (N <= 0) return;
    ipa_sv v = carve_saved(k, (void *)saved, NULL);
    ipa_bw G = carve_bwd_ws(c, k, ws, NULL);
    CU_CHECK(cudaMemsetAsync(G.dcat, 0, sizeof(float) * (size_t)(N * k.D), c->stream));
    cu_lin32_bwd(c, N, k.D, cs, &p->out, &g->out, v.cat, d_out, G.dcat);
    CU_DISPATCH(c, T, k_ipa_row_bwd<T><<<(unsigned)(N * H), IPA_THREADS, row_shared(k), c->stream>>>(
                          k, p->head_weights, (const T *)z, (const T *)mask, R, v, G));
    CU_LAUNCHED();
    k_ipa_key_bwd<<<(unsigned)(N * H), 128, 0, c->stream>>>(k, p->head_weights, v, G);
    CU_LAUNCHED();
    k_ipa_gamma_bwd<<<1, 32, 0, c->stream>>>(k, p->head_weights, G.dgam, g->head_weights);
    CU_LAUNCHED();
    if (d_z) {
        CU_DISPATCH(c, T, k_ipa_dz<T><<<cu_blocks(N * N * k.cz, 256), 256, 0, c->stream>>>(k, v, G.dcat, G.dbf,
                                                                                           p->b.w, (T *)d_z));
        CU_LAUNCHED();
    }
    cu_linear_bwd(c, N * N, k.cz, H, &p->b, &g->b, z, G.db, NULL);  // the weight gradient; d z above
    k_ipa_frames_bwd<<<cu_blocks(N, 128), 128, 0, c->stream>>>(k, R, t, v, G, d_R, d_t);
    CU_LAUNCHED();
    cu_lin32_bwd(c, N, cs, H * k.c, &p->q, &g->q, s, G.dq, d_s);
    cu_lin32_bwd(c, N, cs, 2 * H * k.c, &p->kv, &g->kv, s, G.dkv, d_s);
    cu_lin32_bwd(c, N, cs, 3 * H * k.Pq, &p->q_points, &g->q_points, s, G.dqpl, d_s);
    cu_lin32_bwd(c, N, cs, 3 * H * k.P, &p->kv_points, &g->kv_points, s, G.dkvpl, d_s);
}

// ---- the backend entries: activations <-> fp32 around the core -----------------
typedef struct { float *s, *io, *ds; } ipa_io;
static ipa_io carve_io(const pf_ipa_dims *d, void *base, size_t *bytes) {
    cu_carver cv = {(char *)base, 0};
    ipa_io w;
    w.s = (float *)cu_carve(&cv, sizeof(float) * (size_t)(d->N * d->c_s));
    w.io = (float *)cu_carve(&cv, sizeof(float) * (size_t)(d->N * d->c_s));
    w.ds = (float *)cu_carve(&cv, sizeof(float) * (size_t)(d->N * d->c_s));
    if (bytes) *bytes = cv.off;
    return w;
}

pf_mem cu_ipa_mem(pf_backend *be, const pf_ipa_dims *d) {
    size_t saved, ws, io;
    cu_ipa_sizes(CU(be), d, &saved, &ws);
    carve_io(d, NULL, &io);
    pf_mem m = {saved, ws + io, ws + io};
    return m;
}

static size_t core_ws(pf_backend *be, const pf_ipa_dims *d) {
    size_t saved, ws;
    cu_ipa_sizes(CU(be), d, &saved, &ws);
    return (ws + 255) & ~(size_t)255;
}

void cu_ipa_fwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, const pf_act *s, const pf_act *z,
                   const real *R, const real *t, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    if (!saved) pf_die("ipa: the CUDA forward needs saved (no inference variant)");
    ipa_io w = carve_io(d, (char *)ws + core_ws(be, d), NULL);
    cu_act_to_f32(c, s, w.s, d->N * d->c_s);
    cu_ipa_core_fwd(c, d, p, w.s, z, R, t, mask, w.io, saved, ws);
    cu_f32_to_act(c, w.io, out, d->N * d->c_s, 0);
}

void cu_ipa_bwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const pf_act *s,
                   const pf_act *z, const real *R, const real *t, const pf_act *mask, const void *saved,
                   const pf_act *d_out, pf_act *d_s, pf_act *d_z, real *d_R, real *d_t, void *ws) {
    cu_impl *c = CU(be);
    const int64_t n = d->N * d->c_s;
    ipa_io w = carve_io(d, (char *)ws + core_ws(be, d), NULL);
    cu_act_to_f32(c, s, w.s, n);
    cu_act_to_f32(c, d_out, w.io, n);
    if (d_s) CU_CHECK(cudaMemsetAsync(w.ds, 0, sizeof(float) * (size_t)n, c->stream));
    cu_ipa_core_bwd(c, d, p, g, w.s, z, R, t, mask, saved, w.io, d_s ? w.ds : NULL, d_z, d_R, d_t, ws);
    if (d_s) cu_f32_to_act(c, w.ds, d_s, n, 1);
}
