// cpu_ipa.c: invariant point attention, AF2 Alg. 22 (OpenFold
// InvariantPointAttention), forward and hand-written backward. The math and
// the parameter layout are in struct_modules.h.
//
// saved: q (N, H*c) | kv (N, H*2c) | qp (N, H, Pq, 3) | kvp (N, H, Pq+Pv, 3) |
//        a (N, H, N) | cat (N, D)
//   qp, kvp are the points in the global frame (T_i applied); a the attention
//   weights; cat the concatenated outputs (o, o~ x, y, z, |o~|, o^pair) that
//   linear_out reads. O(N^2 H) memory, no N^3 anywhere.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

#define IPA_NORM_EPS 1e-8

typedef struct {
    real *q, *kv, *qp, *kvp, *a, *cat;
} ipa_saved;

static ipa_saved ipa_carve(const pf_ipa_dims *d, const real *saved) {
    const int64_t N = d->N, H = d->H, P = d->Pq + d->Pv;
    real *p = (real *)saved;
    ipa_saved v;
    v.q = p;   p += N * H * d->c;
    v.kv = p;  p += N * H * 2 * d->c;
    v.qp = p;  p += N * H * d->Pq * 3;
    v.kvp = p; p += N * H * P * 3;
    v.a = p;   p += N * H * N;
    v.cat = p;
    return v;
}

int64_t cpu_ipa_saved_reals(const pf_ipa_dims *d) {
    const int64_t N = d->N, H = d->H, P = d->Pq + d->Pv;
    return N * H * (3 * d->c + (d->Pq + P) * 3 + N) + N * pf_ipa_cat_dim(d);
}

static inline real softplus(real x) { return x > 20 ? x : log1p(exp(x)); }
// sqrt(1/3) (sqrt(1/c) q.k + b - gamma w_C / 2 |.|^2): the factors of the three terms
static inline real ipa_wc(const pf_ipa_dims *d) { return sqrt(1.0 / (3.0 * d->c)); }
static inline real ipa_wl(void) { return sqrt(1.0 / 3.0); }
static inline real ipa_wpt(const pf_ipa_dims *d) { return sqrt(1.0 / (3.0 * d->Pq * 4.5)); }

// Points from a Linear's output in OpenFold's layout ([x | y | z], each (H, P)),
// into the global frame: y (N, H, P, 3) = T_i x_loc.
static void points_to_global(const pf_ipa_dims *d, int P, const real *loc, const real *R, const real *t,
                             real *glob) {
    const int64_t N = d->N, HP = (int64_t)d->H * P;
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++)
        for (int64_t k = 0; k < HP; k++) {
            const real *l = loc + i * 3 * HP;
            real x[3] = {l[k], l[HP + k], l[2 * HP + k]};
            pf_frame_apply(R + i * 9, t + i * 3, x, glob + (i * HP + k) * 3);
        }
}

// Attention weights of row i, head h: a[j] = softmax_j(logit_ij) (N). b_i: row i
// of the pair bias (N, H), so the full op and a row range (z's rows only) share it.
static void ipa_row_weights(const pf_ipa_dims *d, const ipa_saved *v, const real *b_i, const real *mask,
                            real gamma, int64_t i, int h, real *a) {
    const int64_t N = d->N;
    const int H = d->H, c = d->c, Pq = d->Pq, P = d->Pq + d->Pv;
    const real wc = ipa_wc(d), wl = ipa_wl();
    const real *qi = v->q + (i * H + h) * c, *qpi = v->qp + (i * H + h) * Pq * 3;
    real mx = -INFINITY;
    for (int64_t j = 0; j < N; j++) {
        if (mask && mask[i] * mask[j] == 0) { a[j] = -PF_MASK_INF; mx = fmax(mx, a[j]); continue; }
        const real *kj = v->kv + (j * H + h) * 2 * c, *kpj = v->kvp + (j * H + h) * P * 3;
        real qk = 0, dist = 0;
        for (int k = 0; k < c; k++) qk += qi[k] * kj[k];
        for (int e = 0; e < Pq * 3; e++) dist += (qpi[e] - kpj[e]) * (qpi[e] - kpj[e]);
        a[j] = wc * qk + wl * b_i[j * H + h] - (real)0.5 * gamma * dist;
        mx = fmax(mx, a[j]);
    }
    real sum = 0;
    for (int64_t j = 0; j < N; j++) { a[j] = exp(a[j] - mx); sum += a[j]; }
    for (int64_t j = 0; j < N; j++) a[j] /= sum;
}

// Outputs of row i, head h into cat (row i's D values): o, the value points back
// in frame i, their norms, and the pair average over z_i (row i of z, (N, c_z))
// with the weights a (N).
static void ipa_row_outputs(const pf_ipa_dims *d, const ipa_saved *v, const real *z_i, const real *R,
                            const real *t, int64_t i, int h, const real *a, real *cat) {
    const int64_t N = d->N, HPv = (int64_t)d->H * d->Pv;
    const int H = d->H, c = d->c, Pq = d->Pq, Pv = d->Pv, P = Pq + Pv, cz = d->c_z;
    real *o = cat + h * c, *opair = cat + (int64_t)H * c + 4 * HPv + (int64_t)h * cz;
    for (int k = 0; k < c; k++) o[k] = 0;
    for (int k = 0; k < cz; k++) opair[k] = 0;
    for (int p = 0; p < Pv; p++) {
        real g[3] = {0, 0, 0}, l[3];
        for (int64_t j = 0; j < N; j++) {
            const real *vp = v->kvp + ((j * H + h) * P + Pq + p) * 3;
            for (int e = 0; e < 3; e++) g[e] += a[j] * vp[e];
        }
        pf_frame_invert_apply(R + i * 9, t + i * 3, g, l);
        real *ox = cat + (int64_t)H * c + (int64_t)h * Pv + p;
        for (int e = 0; e < 3; e++) ox[e * HPv] = l[e];
        ox[3 * HPv] = sqrt(IPA_NORM_EPS + l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    }
    for (int64_t j = 0; j < N; j++) {
        const real *vj = v->kv + (j * H + h) * 2 * c + c, *zij = z_i + j * cz;
        for (int k = 0; k < c; k++) o[k] += a[j] * vj[k];
        for (int k = 0; k < cz; k++) opair[k] += a[j] * zij[k];
    }
}

// q, k / v and the points of all N residues from s (into v's q, kv, qp, kvp).
static void ipa_project(const pf_ipa_dims *d, const pf_ipa_p *p, const real *s, const real *R, const real *t,
                        const ipa_saved *v) {
    const int64_t N = d->N;
    const int H = d->H, c = d->c, Pq = d->Pq, P = d->Pq + d->Pv, cs = d->c_s;
    real *qpl = pf_malloc(sizeof(real) * (size_t)(N * 3 * H * Pq));  // (N, 3 H Pq) local
    real *kvpl = pf_malloc(sizeof(real) * (size_t)(N * 3 * H * P));  // (N, 3 H P) local
    cpu_linear_fwd(N, cs, H * c, &p->q, s, v->q, 0);
    cpu_linear_fwd(N, cs, 2 * H * c, &p->kv, s, v->kv, 0);
    cpu_linear_fwd(N, cs, 3 * H * Pq, &p->q_points, s, qpl, 0);
    cpu_linear_fwd(N, cs, 3 * H * P, &p->kv_points, s, kvpl, 0);
    points_to_global(d, Pq, qpl, R, t, v->qp);
    points_to_global(d, P, kvpl, R, t, v->kvp);
    pf_free(qpl);
    pf_free(kvpl);
}

// y (out) = x (in) W^T + b for one row, the sum in k order. The Linears whose
// rows are query rows (linear_b on z's rows, linear_out on cat's) use it instead
// of cpu_linear_fwd: a BLAS product's edge kernels round a row differently by
// where it falls in the block, so a row range would not give the full op's bits.
static void row_linear(int in, int out, const pf_linear_p *p, const real *x, real *y) {
    for (int o = 0; o < out; o++) {
        const real *w = p->w + (int64_t)o * in;
        real acc = 0;
        for (int k = 0; k < in; k++) acc += x[k] * w[k];
        y[o] = p->b ? p->b[o] + acc : acc;
    }
}

// Query rows r0 .. r0 + n - 1: z holds those rows (n, N, c_z); b (n, N, H)
// receives their pair bias, a (n, H, N) the weights, cat (n, D) the outputs and
// out (n, c_s) linear_out's. One thread per row: the same bits for a row
// whichever range it is computed in.
static void ipa_rows(const pf_ipa_dims *d, const pf_ipa_p *p, const ipa_saved *v, const real *z, const real *R,
                     const real *t, const real *mask, int64_t r0, int64_t n, real *b, real *a, real *cat,
                     real *out) {
    const int64_t N = d->N, D = pf_ipa_cat_dim(d);
    const int H = d->H, cz = d->c_z;
#pragma omp parallel for schedule(static) if (n >= PF_SM_PAR_MIN)
    for (int64_t il = 0; il < n; il++) {
        real *bi = b + il * N * H;
        for (int64_t j = 0; j < N; j++) row_linear(cz, H, &p->b, z + (il * N + j) * cz, bi + j * H);
        for (int h = 0; h < H; h++) {
            real gamma = softplus(p->head_weights[h]) * ipa_wpt(d), *ai = a + (il * H + h) * N;
            ipa_row_weights(d, v, bi, mask, gamma, r0 + il, h, ai);
            ipa_row_outputs(d, v, z + il * N * cz, R, t, r0 + il, h, ai, cat + il * D);
        }
        row_linear((int)D, d->c_s, &p->out, cat + il * D, out + il * d->c_s);
    }
}

void cpu_ipa_fwd(const pf_ipa_dims *d, const pf_ipa_p *p, const real *s, const real *z, const real *R,
                 const real *t, const real *mask, real *out, real *saved) {
    const int64_t N = d->N;
    ipa_saved v = ipa_carve(d, saved);
    real *b = pf_malloc(sizeof(real) * (size_t)(N * N * d->H));  // (N, N, H)
    ipa_project(d, p, s, R, t, &v);
    ipa_rows(d, p, &v, z, R, t, mask, 0, N, b, v.a, v.cat, out);
    pf_free(b);
}

void cpu_ipa_fwd_rows(const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n, const real *s,
                      const real *z_rows, const real *R, const real *t, const real *mask, real *out) {
    const int64_t N = d->N, H = d->H, P = d->Pq + d->Pv, D = pf_ipa_cat_dim(d);
    // q, k / v and the points of every residue (the keys), then the rows' own
    // attention; no (N, N) array (the rows' a, b and cat are n rows)
    real *qkv = pf_malloc(sizeof(real) * (size_t)(N * H * (3 * d->c + (d->Pq + P) * 3)));
    ipa_saved v = {qkv, NULL, NULL, NULL, NULL, NULL};
    v.kv = v.q + N * H * d->c;
    v.qp = v.kv + N * H * 2 * d->c;
    v.kvp = v.qp + N * H * d->Pq * 3;
    real *b = pf_malloc(sizeof(real) * (size_t)(n * N * H + 1)), *a = pf_malloc(sizeof(real) * (size_t)(n * H * N + 1));
    real *cat = pf_malloc(sizeof(real) * (size_t)(n * D + 1));
    ipa_project(d, p, s, R, t, &v);
    ipa_rows(d, p, &v, z_rows, R, t, mask, r0, n, b, a, cat, out);
    real *bufs[] = {qkv, b, a, cat};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

// ---------------------------------------------------------------------------
// Backward
// ---------------------------------------------------------------------------
typedef struct {
    real *dcat;    // (N, D)
    real *dopg;    // (N, H, Pv, 3): d of the value-point average in the global frame
    real *dl;      // (N, H, N): d logits
    real *db;      // (N, N, H)
    real *dgam;    // (N, H): d gamma per row (summed in row order afterwards)
    real *dq, *dkv;    // (N, H*c), (N, 2 H c)
    real *dqp, *dkvp;  // (N, H, Pq, 3), (N, H, P, 3) global
} ipa_grads;

// Row i, head h: from dcat to d of the global value-point average (and the
// gradient of frame i through T_i^-1), then d logits.
static void ipa_bwd_row(const pf_ipa_dims *d, const ipa_saved *v, const real *z, const real *R,
                        const real *mask, real gamma, const ipa_grads *G, int64_t i, int h,
                        real *d_R, real *d_t) {
    const int64_t N = d->N, D = pf_ipa_cat_dim(d), HPv = (int64_t)d->H * d->Pv;
    const int H = d->H, c = d->c, Pq = d->Pq, Pv = d->Pv, P = Pq + Pv, cz = d->c_z;
    const real *cat = v->cat + i * D, *dcat = G->dcat + i * D, *Ri = R + i * 9;
    const real *a = v->a + (i * H + h) * N;
    const real *d_o = dcat + h * c, *d_opair = dcat + (int64_t)H * c + 4 * HPv + (int64_t)h * cz;
    real *dopg = G->dopg + (i * H + h) * Pv * 3, *dl = G->dl + (i * H + h) * N;
    for (int p = 0; p < Pv; p++) {
        const int64_t k = (int64_t)H * c + (int64_t)h * Pv + p;
        real l[3] = {cat[k], cat[k + HPv], cat[k + 2 * HPv]}, dloc[3], y[3];
        for (int e = 0; e < 3; e++) dloc[e] = dcat[k + e * HPv] + dcat[k + 3 * HPv] * l[e] / cat[k + 3 * HPv];
        for (int e = 0; e < 3; e++) {
            dopg[p * 3 + e] = Ri[e * 3] * dloc[0] + Ri[e * 3 + 1] * dloc[1] + Ri[e * 3 + 2] * dloc[2];
            y[e] = Ri[e * 3] * l[0] + Ri[e * 3 + 1] * l[1] + Ri[e * 3 + 2] * l[2];
        }
        for (int e = 0; e < 3; e++) {  // l = R^T y: dR[e][f] += y[e] dloc[f]; y = g - t
            if (d_R)
                for (int f = 0; f < 3; f++) d_R[i * 9 + e * 3 + f] += y[e] * dloc[f];
            if (d_t) d_t[i * 3 + e] -= dopg[p * 3 + e];
        }
    }
    real sum = 0;
    for (int64_t j = 0; j < N; j++) {
        const real *vj = v->kv + (j * H + h) * 2 * c + c, *vpj = v->kvp + ((j * H + h) * P + Pq) * 3;
        const real *zij = z + (i * N + j) * cz;
        real da = 0;
        for (int k = 0; k < c; k++) da += d_o[k] * vj[k];
        for (int e = 0; e < Pv * 3; e++) da += dopg[e] * vpj[e];
        for (int k = 0; k < cz; k++) da += d_opair[k] * zij[k];
        dl[j] = da;
        sum += a[j] * da;
    }
    // softmax; masked logits were replaced by a constant, so they get nothing
    for (int64_t j = 0; j < N; j++) dl[j] = (mask && mask[i] * mask[j] == 0) ? 0 : a[j] * (dl[j] - sum);
}

// Row i, head h, after ipa_bwd_row: d q_i, d qp_i (global), d gamma, d b.
static void ipa_bwd_query(const pf_ipa_dims *d, const ipa_saved *v, real gamma, const ipa_grads *G,
                          int64_t i, int h) {
    const int64_t N = d->N;
    const int H = d->H, c = d->c, Pq = d->Pq, P = Pq + d->Pv;
    const real wc = ipa_wc(d), wl = ipa_wl();
    const real *dl = G->dl + (i * H + h) * N, *qpi = v->qp + (i * H + h) * Pq * 3;
    real *dq = G->dq + (i * H + h) * c, *dqp = G->dqp + (i * H + h) * Pq * 3, dg = 0;
    for (int64_t j = 0; j < N; j++) {
        const real *kj = v->kv + (j * H + h) * 2 * c, *kpj = v->kvp + (j * H + h) * P * 3;
        real dist = 0;
        for (int k = 0; k < c; k++) dq[k] += wc * dl[j] * kj[k];
        for (int e = 0; e < Pq * 3; e++) {
            real df = qpi[e] - kpj[e];
            dist += df * df;
            dqp[e] -= gamma * dl[j] * df;
        }
        dg -= (real)0.5 * dl[j] * dist;
        G->db[(i * N + j) * H + h] = wl * dl[j];
    }
    G->dgam[i * H + h] = dg;
}

// Key / value j, head h: sums over the rows i (one thread owns j: fixed order).
static void ipa_bwd_key(const pf_ipa_dims *d, const ipa_saved *v, real gamma, const ipa_grads *G,
                        int64_t j, int h) {
    const int64_t N = d->N, D = pf_ipa_cat_dim(d);
    const int H = d->H, c = d->c, Pq = d->Pq, Pv = d->Pv, P = Pq + Pv;
    const real wc = ipa_wc(d);
    real *dk = G->dkv + (j * H + h) * 2 * c, *dv = dk + c, *dkp = G->dkvp + (j * H + h) * P * 3;
    real *dvp = dkp + Pq * 3;
    const real *kpj = v->kvp + (j * H + h) * P * 3;
    for (int64_t i = 0; i < N; i++) {
        const real dl = G->dl[(i * H + h) * N + j], a = v->a[(i * H + h) * N + j];
        const real *qi = v->q + (i * H + h) * c, *qpi = v->qp + (i * H + h) * Pq * 3;
        const real *d_o = G->dcat + i * D + h * c, *dopg = G->dopg + (i * H + h) * Pv * 3;
        for (int k = 0; k < c; k++) {
            dk[k] += wc * dl * qi[k];
            dv[k] += a * d_o[k];
        }
        for (int e = 0; e < Pq * 3; e++) dkp[e] += gamma * dl * (qpi[e] - kpj[e]);
        for (int e = 0; e < Pv * 3; e++) dvp[e] += a * dopg[e];
    }
}

// Global points y = T_i x back to the Linear's local layout: dx = R^T dy,
// dR += dy x^T, dt += dy. x is recovered from y as R^T (y - t).
static void points_bwd(const pf_ipa_dims *d, int P, const real *glob, const real *dglob, const real *R,
                       const real *t, real *dloc, real *d_R, real *d_t) {
    const int64_t N = d->N, HP = (int64_t)d->H * P;
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++)
        for (int64_t k = 0; k < HP; k++) {
            const real *Ri = R + i * 9, *dy = dglob + (i * HP + k) * 3;
            real x[3];
            pf_frame_invert_apply(Ri, t + i * 3, glob + (i * HP + k) * 3, x);
            for (int e = 0; e < 3; e++) {
                dloc[i * 3 * HP + e * HP + k] = Ri[e] * dy[0] + Ri[3 + e] * dy[1] + Ri[6 + e] * dy[2];
                if (d_t) d_t[i * 3 + e] += dy[e];
                if (d_R)
                    for (int f = 0; f < 3; f++) d_R[i * 9 + e * 3 + f] += dy[e] * x[f];
            }
        }
}

// d_z (N, N, c_z) += sum_h a_hij d o^pair_hi (row i owned by one thread).
static void ipa_bwd_pair(const pf_ipa_dims *d, const ipa_saved *v, const real *dcat, real *d_z) {
    const int64_t N = d->N, D = pf_ipa_cat_dim(d);
    const int H = d->H, cz = d->c_z;
    const int64_t off = (int64_t)H * d->c + 4 * (int64_t)H * d->Pv;
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++)
            for (int h = 0; h < H; h++) {
                const real a = v->a[(i * H + h) * N + j], *dop = dcat + i * D + off + (int64_t)h * cz;
                for (int k = 0; k < cz; k++) d_z[(i * N + j) * cz + k] += a * dop[k];
            }
}

static void ipa_attn_bwd(const pf_ipa_dims *d, const pf_ipa_p *p, const ipa_saved *v, const real *z,
                         const real *R, const real *mask, const ipa_grads *G, real *d_R, real *d_t) {
    const int64_t N = d->N;
    const int H = d->H;
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++)
        for (int h = 0; h < H; h++) {
            real gamma = softplus(p->head_weights[h]) * ipa_wpt(d);
            ipa_bwd_row(d, v, z, R, mask, gamma, G, i, h, d_R, d_t);
            ipa_bwd_query(d, v, gamma, G, i, h);
        }
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t j = 0; j < N; j++)
        for (int h = 0; h < H; h++) ipa_bwd_key(d, v, softplus(p->head_weights[h]) * ipa_wpt(d), G, j, h);
}

void cpu_ipa_bwd(const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const real *s, const real *z,
                 const real *R, const real *t, const real *mask, const real *saved, const real *d_out,
                 real *d_s, real *d_z, real *d_R, real *d_t) {
    const int64_t N = d->N, D = pf_ipa_cat_dim(d);
    const int H = d->H, c = d->c, Pq = d->Pq, Pv = d->Pv, P = Pq + Pv, cs = d->c_s, cz = d->c_z;
    ipa_saved v = ipa_carve(d, saved);
    ipa_grads G;
    G.dcat = pf_calloc((size_t)(N * D), sizeof(real));
    G.dopg = pf_calloc((size_t)(N * H * Pv * 3), sizeof(real));
    G.dl = pf_calloc((size_t)(N * H * N), sizeof(real));
    G.db = pf_calloc((size_t)(N * N * H), sizeof(real));
    G.dgam = pf_calloc((size_t)(N * H), sizeof(real));
    G.dq = pf_calloc((size_t)(N * H * c), sizeof(real));
    G.dkv = pf_calloc((size_t)(N * H * 2 * c), sizeof(real));
    G.dqp = pf_calloc((size_t)(N * H * Pq * 3), sizeof(real));
    G.dkvp = pf_calloc((size_t)(N * H * P * 3), sizeof(real));
    cpu_linear_bwd(N, (int)D, cs, &p->out, &g->out, v.cat, d_out, G.dcat);
    ipa_attn_bwd(d, p, &v, z, R, mask, &G, d_R, d_t);
    for (int h = 0; h < H; h++) {  // gamma = softplus(w) w_pt: d w = d gamma w_pt sigmoid(w)
        real dg = 0;
        for (int64_t i = 0; i < N; i++) dg += G.dgam[i * H + h];
        g->head_weights[h] += dg * ipa_wpt(d) * cpu_sigmoid(p->head_weights[h]);
    }
    if (d_z) ipa_bwd_pair(d, &v, G.dcat, d_z);
    cpu_linear_bwd(N * N, cz, H, &p->b, &g->b, z, G.db, d_z);
    real *dqpl = pf_malloc(sizeof(real) * (size_t)(N * 3 * H * Pq));
    real *dkvpl = pf_malloc(sizeof(real) * (size_t)(N * 3 * H * P));
    points_bwd(d, Pq, v.qp, G.dqp, R, t, dqpl, d_R, d_t);
    points_bwd(d, P, v.kvp, G.dkvp, R, t, dkvpl, d_R, d_t);
    cpu_linear_bwd(N, cs, H * c, &p->q, &g->q, s, G.dq, d_s);
    cpu_linear_bwd(N, cs, 2 * H * c, &p->kv, &g->kv, s, G.dkv, d_s);
    cpu_linear_bwd(N, cs, 3 * H * Pq, &p->q_points, &g->q_points, s, dqpl, d_s);
    cpu_linear_bwd(N, cs, 3 * H * P, &p->kv_points, &g->kv_points, s, dkvpl, d_s);
    real *bufs[] = {G.dcat, G.dopg, G.dl, G.db, G.dgam, G.dq, G.dkv, G.dqp, G.dkvp, dqpl, dkvpl};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}
