// grad_heads.c: float64 checks of the relative position encoding and the
// distogram head (grad_heads), and of the backend's glue primitives, dropout
// and optimizer ops (grad_primitives). All through pf_backend_cpu().
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>
#include "testlib.h"
#include "../src/backend/backend.h"
#include "../src/core/rng.h"

#define TOL 1e-6
#define A(p) ((pf_act *)(p))
#define CA(p) ((const pf_act *)(p))

// ---------------------------------------------------------------------------
// relpos
// ---------------------------------------------------------------------------

// Four chains, N = 7: a same-chain offset beyond 32 (clipped), two tokens of one
// residue (d_tok off the diagonal), a chain of the first chain's entity with
// sym 1 and one with sym 4 (chain offsets clipped to [-2, 2]).
enum { RP_N = 7 };
static const int32_t rp_res[RP_N] = {1, 2, 50, 3, 3, 1, 7};
static const int32_t rp_chain[RP_N] = {0, 0, 0, 1, 1, 2, 3};
static const int32_t rp_entity[RP_N] = {0, 0, 0, 1, 1, 0, 0};
static const int32_t rp_sym[RP_N] = {0, 0, 0, 0, 0, 1, 4};

static int clip(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// Reference: the explicit one-hot features (N, N, F), written straight from the
// algorithm text.
static real *relpos_onehot(int af3, int F) {
    real *f = tl_zeros((int64_t)RP_N * RP_N * F);
    for (int i = 0; i < RP_N; i++)
        for (int j = 0; j < RP_N; j++) {
            real *fij = f + ((int64_t)i * RP_N + j) * F;
            int same_chain = rp_chain[i] == rp_chain[j];
            if (!af3) {
                fij[same_chain ? clip(rp_res[i] - rp_res[j], -32, 32) + 32 : 65] = 1;
                continue;
            }
            int same_res = same_chain && rp_res[i] == rp_res[j];
            int d_res = same_chain ? clip(rp_res[i] - rp_res[j] + 32, 0, 64) : 65;
            int d_tok = same_res ? clip(i - j + 32, 0, 64) : 65;
            int d_chain = !same_chain ? clip(rp_sym[i] - rp_sym[j] + 2, 0, 4) : 5;
            fij[d_res] = 1;
            fij[66 + d_tok] = 1;
            fij[132] = rp_entity[i] == rp_entity[j];
            fij[133 + d_chain] = 1;
        }
    return f;
}

typedef struct {
    pf_backend *be;
    pf_relpos_dims d;
    pf_linear_p p, g;
    real *out0, *out, *R;  // (N, N, c_z): initial content, output, loss weights
} relpos_ctx;

static double relpos_loss(void *vc) {
    relpos_ctx *c = vc;
    int64_t n = c->d.N * c->d.N * c->d.c_z;
    memcpy(c->out, c->out0, sizeof(real) * (size_t)n);
    c->be->relpos_fwd(c->be, &c->d, &c->p, rp_res, rp_chain, rp_entity, rp_sym, A(c->out));
    return tl_dot(c->out, c->R, n);
}

static void test_relpos(int af3) {
    const char *lab = af3 ? "relpos_af3" : "relpos_af2";
    const int cz = 6, F = af3 ? PF_RELPOS_AF3_FEATS : PF_RELPOS_AF2_FEATS;
    const int64_t n = (int64_t)RP_N * RP_N * cz;
    char name[96];
    relpos_ctx c = {.be = pf_backend_cpu(), .d = {RP_N, cz, af3}};
    tl_linear(&c.p, &c.g, cz, F, !af3, 100 + af3);
    c.out0 = tl_rand(n, 1, 110);
    c.out = tl_zeros(n);
    c.R = tl_rand(n, 1, 111);

    // forward == out0 + onehot W^T (+ b), and it accumulates into out
    real *f = relpos_onehot(af3, F), *ref = tl_copy(c.out0, n);
    for (int64_t q = 0; q < (int64_t)RP_N * RP_N; q++)
        for (int o = 0; o < cz; o++) {
            double s = c.p.b ? c.p.b[o] : 0;
            for (int k = 0; k < F; k++) s += f[q * F + k] * c.p.w[(int64_t)o * F + k];
            ref[q * cz + o] += s;
        }
    relpos_loss(&c);
    double e = tl_max_abs_diff(c.out, ref, n);
    snprintf(name, sizeof name, "%s forward vs explicit one-hot", lab);
    tl_check(e < 1e-12, name, "max abs diff %.3e", e);

    // gradients of the Linear against central differences
    tl_tensors ts = {0};
    tl_add_linear(&ts, lab, &c.p, &c.g, cz, F);
    c.be->relpos_bwd(c.be, &c.d, &c.g, rp_res, rp_chain, rp_entity, rp_sym, CA(c.R));
    tl_gradcheck(lab, relpos_loss, &c, &ts, 400, TOL);

    // and against the explicit one-hot: dW = R^T f, db = sum R
    real *gw_ref = tl_zeros((int64_t)cz * F);
    for (int64_t q = 0; q < (int64_t)RP_N * RP_N; q++)
        for (int o = 0; o < cz; o++)
            for (int k = 0; k < F; k++) gw_ref[(int64_t)o * F + k] += c.R[q * cz + o] * f[q * F + k];
    e = tl_rel_err(c.g.w, gw_ref, (int64_t)cz * F);
    snprintf(name, sizeof name, "%s dW vs explicit one-hot", lab);
    tl_check(e < 1e-12, name, "rel err %.3e", e);

    // a second backward doubles the gradients; one thread gives the same bits
    real *gw1 = tl_copy(c.g.w, (int64_t)cz * F), *gb1 = c.g.b ? tl_copy(c.g.b, cz) : NULL;
    c.be->relpos_bwd(c.be, &c.d, &c.g, rp_res, rp_chain, rp_entity, rp_sym, CA(c.R));
    double e2 = 0;
    for (int64_t k = 0; k < (int64_t)cz * F; k++) e2 = fmax(e2, fabs(c.g.w[k] - 2 * gw1[k]));
    for (int k = 0; gb1 && k < cz; k++) e2 = fmax(e2, fabs(c.g.b[k] - 2 * gb1[k]));
    snprintf(name, sizeof name, "%s backward twice doubles", lab);
    tl_check(e2 == 0, name, "max abs diff %.3e", e2);

    int nt = omp_get_max_threads();
    omp_set_num_threads(1);
    memset(c.g.w, 0, sizeof(real) * (size_t)cz * F);
    if (c.g.b) memset(c.g.b, 0, sizeof(real) * cz);
    c.be->relpos_bwd(c.be, &c.d, &c.g, rp_res, rp_chain, rp_entity, rp_sym, CA(c.R));
    omp_set_num_threads(nt);
    int same = !memcmp(c.g.w, gw1, sizeof(real) * (size_t)cz * F) &&
               (!c.g.b || !memcmp(c.g.b, gb1, sizeof(real) * cz));
    snprintf(name, sizeof name, "%s backward independent of thread count", lab);
    tl_check(same, name, "1 thread vs %d threads", nt);
}

// ---------------------------------------------------------------------------
// distogram
// ---------------------------------------------------------------------------

typedef struct {
    pf_backend *be;
    pf_disto_dims d;
    pf_linear_p p, g;
    real *z, *mask;   // (N, N, c_z), (N, N)
    int32_t *target;  // (N, N)
} disto_ctx;

static double disto_loss(void *vc) {
    disto_ctx *c = vc;
    return c->be->disto_fwd(c->be, &c->d, &c->p, CA(c->z), c->target, CA(c->mask));
}

// The loss straight from the formula: symmetrise z, project, -log softmax.
static double disto_ref(const disto_ctx *c) {
    int64_t N = c->d.N;
    int cz = c->d.c_z, nb = c->d.n_bins;
    double num = 0, den = 0;
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            double l[64], mx = -INFINITY, se = 0;
            for (int k = 0; k < nb; k++) {
                l[k] = c->p.b[k];
                for (int q = 0; q < cz; q++)
                    l[k] += c->p.w[k * cz + q] * (c->z[(i * N + j) * cz + q] + c->z[(j * N + i) * cz + q]);
                mx = fmax(mx, l[k]);
            }
            for (int k = 0; k < nb; k++) se += exp(l[k] - mx);
            double m = c->mask[i * N + j];
            num += m * (log(se) + mx - l[c->target[i * N + j]]);
            den += m;
        }
    return num / (1e-6 + den);
}

static void test_disto(void) {
    const int64_t N = 7;
    const int cz = 5, nb = 9;
    disto_ctx c = {.be = pf_backend_cpu(), .d = {N, cz, nb}};
    tl_linear(&c.p, &c.g, nb, cz, 1, 200);
    c.z = tl_rand(N * N * cz, 1, 201);
    c.mask = tl_mask(N * N, N, 0.3, 202);
    c.mask[2 * N + 5] = 1;  // an asymmetric mask: (2, 5) counted, (5, 2) not
    c.mask[5 * N + 2] = 0;
    int32_t target[7 * 7];
    for (int64_t k = 0; k < N * N; k++) target[k] = (int32_t)(pf_hash2(203, (uint64_t)k) % (uint64_t)nb);
    c.target = target;

    double L = disto_loss(&c), Lr = disto_ref(&c);
    tl_check(fabs(L - Lr) < 1e-12 * fabs(Lr), "disto loss vs formula", "%.15g vs %.15g", L, Lr);

    real *dz = tl_zeros(N * N * cz);
    tl_tensors ts = {0};
    tl_add(&ts, "z", c.z, dz, N * N * cz);
    tl_add_linear(&ts, "disto", &c.p, &c.g, nb, cz);
    c.be->disto_bwd(c.be, &c.d, &c.p, &c.g, CA(c.z), c.target, CA(c.mask), 1.0, A(dz));
    tl_gradcheck("disto", disto_loss, &c, &ts, 400, TOL);

    // scale multiplies every gradient; a second backward adds the same again
    real *dz1 = tl_copy(dz, N * N * cz), *gw1 = tl_copy(c.g.w, nb * cz), *gb1 = tl_copy(c.g.b, nb);
    c.be->disto_bwd(c.be, &c.d, &c.p, &c.g, CA(c.z), c.target, CA(c.mask), 0.5, A(dz));
    double e = 0;
    for (int64_t k = 0; k < N * N * cz; k++) e = fmax(e, fabs(dz[k] - 1.5 * dz1[k]));
    for (int k = 0; k < nb * cz; k++) e = fmax(e, fabs(c.g.w[k] - 1.5 * gw1[k]));
    for (int k = 0; k < nb; k++) e = fmax(e, fabs(c.g.b[k] - 1.5 * gb1[k]));
    tl_check(e < 1e-14, "disto backward scale 0.5 adds half", "max abs diff %.3e", e);
    c.be->disto_bwd(c.be, &c.d, &c.p, &c.g, CA(c.z), c.target, CA(c.mask), 0.5, A(dz));
    e = 0;
    for (int64_t k = 0; k < N * N * cz; k++) e = fmax(e, fabs(dz[k] - 2 * dz1[k]));
    for (int k = 0; k < nb * cz; k++) e = fmax(e, fabs(c.g.w[k] - 2 * gw1[k]));
    for (int k = 0; k < nb; k++) e = fmax(e, fabs(c.g.b[k] - 2 * gb1[k]));
    tl_check(e < 1e-14, "disto backward twice doubles", "max abs diff %.3e", e);

    // NULL dz and NULL mask (all pairs) are accepted
    c.be->disto_bwd(c.be, &c.d, &c.p, &c.g, CA(c.z), c.target, CA(c.mask), 1.0, NULL);
    real *ones = tl_zeros(N * N);
    for (int64_t k = 0; k < N * N; k++) ones[k] = 1;
    double Ln = c.be->disto_fwd(c.be, &c.d, &c.p, CA(c.z), c.target, NULL);
    double Lo = c.be->disto_fwd(c.be, &c.d, &c.p, CA(c.z), c.target, CA(ones));
    tl_check(Ln == Lo, "disto NULL mask is all pairs", "%.15g vs %.15g", Ln, Lo);
}

void grad_heads(void) {
    test_relpos(0);
    test_relpos(1);
    test_disto();
}

// ---------------------------------------------------------------------------
// primitives: linear, layer norm, dropout
// ---------------------------------------------------------------------------

typedef struct {
    pf_backend *be;
    int64_t M;
    int in, out, accumulate;
    pf_linear_p p;
    pf_layernorm_p ln;
    real *x, *y0, *y, *R;  // x (M, in), y0 / y / R (M, out)
} prim_ctx;

static double linear_loss(void *vc) {
    prim_ctx *c = vc;
    memcpy(c->y, c->y0, sizeof(real) * (size_t)(c->M * c->out));
    c->be->linear_fwd(c->be, c->M, c->in, c->out, &c->p, CA(c->x), A(c->y), c->accumulate);
    return tl_dot(c->y, c->R, c->M * c->out);
}

static void test_linear(int bias) {
    const char *lab = bias ? "linear_bias" : "linear_nobias";
    char name[96];
    prim_ctx c = {.be = pf_backend_cpu(), .M = 7, .in = 5, .out = 3};
    pf_linear_p g;
    tl_linear(&c.p, &g, c.out, c.in, bias, 300 + bias);
    c.x = tl_rand(c.M * c.in, 1, 302);
    c.y0 = tl_rand(c.M * c.out, 1, 303);
    c.y = tl_zeros(c.M * c.out);
    c.R = tl_rand(c.M * c.out, 1, 304);

    // accumulate = 0 overwrites y; accumulate = 1 adds to it
    c.accumulate = 0;
    linear_loss(&c);
    real *y_over = tl_copy(c.y, c.M * c.out);
    double e = 0;
    for (int64_t m = 0; m < c.M; m++)
        for (int o = 0; o < c.out; o++) {
            double s = bias ? c.p.b[o] : 0;
            for (int k = 0; k < c.in; k++) s += c.x[m * c.in + k] * c.p.w[o * c.in + k];
            e = fmax(e, fabs(y_over[m * c.out + o] - s));
        }
    snprintf(name, sizeof name, "%s forward vs formula", lab);
    tl_check(e < 1e-13, name, "max abs diff %.3e", e);
    c.accumulate = 1;
    linear_loss(&c);
    e = 0;
    for (int64_t k = 0; k < c.M * c.out; k++) e = fmax(e, fabs(c.y[k] - (c.y0[k] + y_over[k])));
    snprintf(name, sizeof name, "%s accumulate adds", lab);
    tl_check(e < 1e-13, name, "max abs diff %.3e", e);

    real *dx = tl_zeros(c.M * c.in);
    tl_tensors ts = {0};
    tl_add(&ts, "x", c.x, dx, c.M * c.in);
    tl_add_linear(&ts, lab, &c.p, &g, c.out, c.in);
    c.be->linear_bwd(c.be, c.M, c.in, c.out, &c.p, &g, CA(c.x), CA(c.R), A(dx));
    tl_gradcheck(lab, linear_loss, &c, &ts, 200, TOL);

    // dx = NULL still accumulates the parameter gradients
    real *gw1 = tl_copy(g.w, c.out * c.in);
    c.be->linear_bwd(c.be, c.M, c.in, c.out, &c.p, &g, CA(c.x), CA(c.R), NULL);
    e = 0;
    for (int k = 0; k < c.out * c.in; k++) e = fmax(e, fabs(g.w[k] - 2 * gw1[k]));
    snprintf(name, sizeof name, "%s backward twice (dx NULL) doubles dW", lab);
    tl_check(e < 1e-13, name, "max abs diff %.3e", e);
}

static double ln_loss(void *vc) {
    prim_ctx *c = vc;
    c->be->layer_norm_fwd(c->be, c->M, c->in, &c->ln, CA(c->x), A(c->y));
    return tl_dot(c->y, c->R, c->M * c->in);
}

static void test_layer_norm(void) {
    prim_ctx c = {.be = pf_backend_cpu(), .M = 7, .in = 6};
    pf_layernorm_p g;
    tl_layernorm(&c.ln, &g, c.in, 310);
    c.x = tl_rand(c.M * c.in, 2, 311);
    for (int64_t k = 0; k < c.M * c.in; k++) c.x[k] += 0.5;  // a nonzero mean
    c.y = tl_zeros(c.M * c.in);
    c.R = tl_rand(c.M * c.in, 1, 312);

    ln_loss(&c);
    double e = 0;
    for (int64_t m = 0; m < c.M; m++) {
        double mu = 0, var = 0;
        for (int k = 0; k < c.in; k++) mu += c.x[m * c.in + k] / c.in;
        for (int k = 0; k < c.in; k++) var += pow(c.x[m * c.in + k] - mu, 2) / c.in;
        for (int k = 0; k < c.in; k++) {
            double r = (c.x[m * c.in + k] - mu) / sqrt(var + 1e-5) * c.ln.w[k] + c.ln.b[k];
            e = fmax(e, fabs(c.y[m * c.in + k] - r));
        }
    }
    tl_check(e < 1e-13, "layer_norm forward vs formula", "max abs diff %.3e", e);

    real *dx = tl_zeros(c.M * c.in);
    tl_tensors ts = {0};
    tl_add(&ts, "x", c.x, dx, c.M * c.in);
    tl_add_layernorm(&ts, "layer_norm", &c.ln, &g, c.in);
    c.be->layer_norm_bwd(c.be, c.M, c.in, &c.ln, &g, CA(c.x), CA(c.R), A(dx));
    tl_gradcheck("layer_norm", ln_loss, &c, &ts, 200, TOL);
}

typedef struct {
    pf_backend *be;
    pf_dropout d;
    real *y0, *y, *delta, *R;  // (A, B, C)
} drop_ctx;

static double dropout_loss(void *vc) {
    drop_ctx *c = vc;
    int64_t n = c->d.A * c->d.B * c->d.C;
    memcpy(c->y, c->y0, sizeof(real) * (size_t)n);
    c->be->dropout_add(c->be, &c->d, A(c->y), CA(c->delta));
    return tl_dot(c->y, c->R, n);
}

// Whether dropout(ones) is the same along axis `axis` (0: over a, 1: over b).
static int mask_shared(const real *y, int64_t Aa, int64_t B, int64_t C, int axis) {
    for (int64_t a = 0; a < Aa; a++)
        for (int64_t b = 0; b < B; b++)
            for (int64_t c = 0; c < C; c++) {
                real v = y[(a * B + b) * C + c];
                real r = axis == 0 ? y[(0 * B + b) * C + c] : y[(a * B + 0) * C + c];
                if (v != r) return 0;
            }
    return 1;
}

static void test_dropout(void) {
    pf_backend *be = pf_backend_cpu();
    char name[96];
    for (int axis = -1; axis <= 1; axis++) {
        drop_ctx c = {.be = be, .d = {5, 7, 3, 0.4f, axis, pf_hash2(320, (uint64_t)(axis + 1))}};
        int64_t n = c.d.A * c.d.B * c.d.C;
        c.y0 = tl_rand(n, 1, 321);
        c.y = tl_zeros(n);
        c.delta = tl_rand(n, 1, 322);
        c.R = tl_rand(n, 1, 323);
        real *dd = tl_zeros(n);
        be->dropout_bwd(be, &c.d, A(dd), CA(c.R));
        tl_tensors ts = {0};
        tl_add(&ts, "delta", c.delta, dd, n);
        snprintf(name, sizeof name, "dropout(shared_axis %d)", axis);
        tl_gradcheck(name, dropout_loss, &c, &ts, 200, TOL);

        // dropout of ones shows the mask: shared over rows (axis 0) or columns (axis 1)
        real *ones = tl_zeros(n), *y = tl_zeros(n);
        for (int64_t k = 0; k < n; k++) ones[k] = 1;
        be->dropout_add(be, &c.d, A(y), CA(ones));
        int kept = 0, bad = 0;
        for (int64_t k = 0; k < n; k++) {
            kept += y[k] != 0;
            bad += y[k] != 0 && fabs(y[k] - 1 / (1 - (double)c.d.rate)) > 1e-7;
        }
        snprintf(name, sizeof name, "dropout(shared_axis %d) mask values", axis);
        tl_check(kept > 0 && kept < n && !bad, name, "kept %d of %lld, %d bad scales", kept, (long long)n, bad);
        int s0 = mask_shared(y, c.d.A, c.d.B, c.d.C, 0), s1 = mask_shared(y, c.d.A, c.d.B, c.d.C, 1);
        snprintf(name, sizeof name, "dropout(shared_axis %d) sharing", axis);
        tl_check(axis == 0 ? s0 && !s1 : axis == 1 ? s1 && !s0 : !s0 && !s1, name,
                 "shared over rows %d, over columns %d", s0, s1);
    }

    // rate 0 is a plain add (and its backward a copy)
    {
        pf_dropout d = {5, 7, 3, 0.0f, 0, 99, 0};
        int64_t n = 5 * 7 * 3;
        real *y = tl_rand(n, 1, 330), *delta = tl_rand(n, 1, 331), *ref = tl_copy(y, n), *dd = tl_rand(n, 1, 332);
        for (int64_t k = 0; k < n; k++) ref[k] += delta[k];
        be->dropout_add(be, &d, A(y), CA(delta));
        be->dropout_bwd(be, &d, A(dd), CA(delta));
        tl_check(!memcmp(y, ref, sizeof(real) * (size_t)n) && !memcmp(dd, delta, sizeof(real) * (size_t)n),
                 "dropout rate 0 is a plain add", NULL);
    }

    // kept fraction on a large tensor: 1e6 independent draws, sd ~ 4.3e-4
    {
        pf_dropout d = {100, 100, 100, 0.25f, -1, pf_hash2(340, 1), 0};
        int64_t n = 100 * 100 * 100;
        real *y = tl_zeros(n), *ones = tl_zeros(n);
        for (int64_t k = 0; k < n; k++) ones[k] = 1;
        be->dropout_add(be, &d, A(y), CA(ones));
        int64_t kept = 0;
        for (int64_t k = 0; k < n; k++) kept += y[k] != 0;
        double frac = (double)kept / (double)n;
        tl_check(fabs(frac - 0.75) < 0.003, "dropout kept fraction", "%.5f (expected 0.75)", frac);
    }
}

// ---------------------------------------------------------------------------
// optimizer ops
// ---------------------------------------------------------------------------

static void test_adamw(void) {
    pf_backend *be = pf_backend_cpu();
    const int64_t n = 1000;
    real *p = tl_rand(n, 1, 350), *m = tl_zeros(n), *v = tl_zeros(n);
    double pr[1000], mr[1000], vr[1000];
    for (int64_t k = 0; k < n; k++) { pr[k] = p[k]; mr[k] = vr[k] = 0; }
    pf_adamw_hp hp = {.lr = 1e-2f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f, .weight_decay = 0.1f};
    // the reference reads the same float hyperparameters, widened to double
    double lr = hp.lr, b1 = hp.beta1, b2 = hp.beta2, eps = hp.eps, wd = hp.weight_decay;
    double ep = 0, em = 0;
    for (int step = 1; step <= 3; step++) {
        real *g = tl_rand(n, step == 2 ? 1e-3 : 1, 360 + step);  // a small-gradient step too
        hp.step = step;
        be->adamw(be, p, g, m, v, n, &hp);
        for (int64_t k = 0; k < n; k++) {
            mr[k] = b1 * mr[k] + (1 - b1) * g[k];
            vr[k] = b2 * vr[k] + (1 - b2) * g[k] * g[k];
            double mh = mr[k] / (1 - pow(b1, step)), vh = vr[k] / (1 - pow(b2, step));
            pr[k] = pr[k] - lr * wd * pr[k] - lr * mh / (sqrt(vh) + eps);
        }
        for (int64_t k = 0; k < n; k++) {
            em = fmax(em, fabs(m[k] - mr[k]) / (fabs(mr[k]) + 1e-30));
            em = fmax(em, fabs(v[k] - vr[k]) / (fabs(vr[k]) + 1e-30));
        }
        for (int64_t k = 0; k < n; k++) ep = fmax(ep, fabs(p[k] - pr[k]) / fmax(fabs(pr[k]), lr));
    }
    // relative to max(|p|, lr): cpu_adamw forms (1 - lr wd), lr / bc1 and
    // 1 / sqrt(bc2) in float, so ~1e-7 is expected even in the float64 build
    tl_check(ep < 1e-6, "adamw 3 steps: parameters vs double formula", "rel err %.3e", ep);
    tl_check(em < 1e-12, "adamw 3 steps: moments vs double formula", "rel err %.3e", em);
}

static void test_ema(void) {
    pf_backend *be = pf_backend_cpu();
    const int64_t n = 1000;
    real *avg = tl_rand(n, 1, 380), *x = tl_rand(n, 1, 381);
    double ref[1000], e = 0;
    for (int64_t k = 0; k < n; k++) ref[k] = 0.99 * avg[k] + 0.01 * x[k];
    be->ema(be, avg, x, n, 0.99);
    for (int64_t k = 0; k < n; k++) e = fmax(e, fabs(avg[k] - ref[k]));
    tl_check(e < 1e-6, "ema: decay avg + (1 - decay) x", "max err %.3e", e);
    real *same = tl_copy(x, n);
    be->ema(be, same, x, n, 0.999);
    tl_check(memcmp(same, x, sizeof(real) * (size_t)n) == 0, "ema of a constant stays exactly constant", "%s", "changed");
}

static void test_sum_sq_scale(void) {
    pf_backend *be = pf_backend_cpu();
    const int64_t n = 3 * 4096 + 123;  // several reduction blocks and a partial one
    real *x = tl_rand(n, 1, 370);
    double s = 0;
    for (int64_t k = 0; k < n; k++) s += (double)x[k] * x[k];
    double r = be->sum_sq(be, x, n);
    tl_check(fabs(r - s) < 1e-12 * s, "sum_sq vs direct sum", "%.17g vs %.17g", r, s);
    tl_check(be->sum_sq(be, x, 0) == 0, "sum_sq of nothing is 0", NULL);
    real *y = tl_copy(x, n);
    be->scale(be, y, n, 0.25);
    double e = 0;
    for (int64_t k = 0; k < n; k++) e = fmax(e, fabs(y[k] - 0.25 * x[k]));
    tl_check(e == 0, "scale by 0.25", "max abs diff %.3e", e);
}

void grad_primitives(void) {
    test_linear(1);
    test_linear(0);
    test_layer_norm();
    test_dropout();
    test_adamw();
    test_ema();
    test_sum_sq_scale();
}
