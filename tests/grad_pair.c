// grad_pair.c: float64 gradient checks of the transition, outer product mean,
// triangle multiplication and pair-weighted averaging ops of the CPU backend.
// For every configuration, with loss = sum(out * R) for a fixed random R:
//   - central differences against the backward, every input and parameter;
//   - a second backward call exactly doubles every gradient (accumulation);
//   - the forward without `saved` gives a bit-identical output;
//   - perturbing inputs at masked positions leaves the outputs that must not
//     see them bit-identical (masks built as the model builds them).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "testlib.h"
#include "../src/cpu/cpu_ops.h"

#define TOL 1e-6
#define SAMPLES 400  // coordinates per tensor; every tensor here is smaller or close
#define A(p) ((pf_act *)(p))

// One module instance under test: fwd/bwd closures over a module-specific ctx.
typedef struct {
    const char *label;
    void *ctx;
    void (*fwd)(void *ctx, void *saved, void *ws);
    void (*bwd)(void *ctx, const void *saved, const real *d_out, void *ws);
    real *out;  // written by fwd
    int64_t n_out;
    pf_mem mem;
    tl_tensors ts;
    real *R, *ws;
} harness;

static pf_backend *BE;

static real *gp_buf(size_t bytes) { return tl_zeros((int64_t)(bytes / sizeof(real)) + 1); }

// Scratch and saved buffers are poisoned before each call, so any read of a
// value that the op did not write in the same call turns the results into NaN.
static void poison(real *p, size_t bytes) {
    for (size_t i = 0; i < bytes / sizeof(real); i++) p[i] = NAN;
}

static double h_loss(void *hv) {
    harness *h = hv;
    h->fwd(h->ctx, NULL, h->ws);
    return tl_dot(h->out, h->R, h->n_out);
}

static void h_init(harness *h, const char *label, void *ctx,
                   void (*fwd)(void *, void *, void *), void (*bwd)(void *, const void *, const real *, void *),
                   real *out, int64_t n_out, pf_mem mem) {
    h->label = label;
    h->ctx = ctx;
    h->fwd = fwd;
    h->bwd = bwd;
    h->out = out;
    h->n_out = n_out;
    h->mem = mem;
    h->R = tl_rand(n_out, 1.0, 0xd07 + (uint64_t)n_out);
    h->ws = gp_buf(mem.ws);
}

// Runs the shared checks; returns the worst gradient error.
static double h_run(harness *h) {
    char name[256];
    real *saved = gp_buf(h->mem.saved);
    poison(saved, h->mem.saved);
    poison(h->ws, h->mem.ws);
    h->fwd(h->ctx, saved, h->ws);
    real *out1 = tl_copy(h->out, h->n_out);
    poison(h->ws, h->mem.ws);
    h->fwd(h->ctx, NULL, h->ws);
    snprintf(name, sizeof name, "%s fwd without saved", h->label);
    double dsv = tl_max_abs_diff(out1, h->out, h->n_out);
    tl_check(dsv == 0 && tl_max_abs(out1, h->n_out) > 0, name, "max diff %.3e", dsv);

    tl_zero_grads(&h->ts);
    poison(h->ws, h->mem.ws);
    h->bwd(h->ctx, saved, h->R, h->ws);
    double worst = tl_gradcheck(h->label, h_loss, h, &h->ts, SAMPLES, TOL);

    // Accumulation: a second call adds the same gradient again.
    real *g1[TL_MAX_TENSORS];
    for (int t = 0; t < h->ts.n; t++) g1[t] = tl_copy(h->ts.t[t].g, h->ts.t[t].n);
    poison(h->ws, h->mem.ws);
    h->bwd(h->ctx, saved, h->R, h->ws);
    double dd = 0;
    for (int t = 0; t < h->ts.n; t++)
        for (int64_t i = 0; i < h->ts.t[t].n; i++) {
            double e = fabs((double)h->ts.t[t].g[i] - 2.0 * g1[t][i]);
            if (!(e <= dd)) dd = isnan(e) ? INFINITY : e;
        }
    snprintf(name, sizeof name, "%s bwd twice doubles", h->label);
    tl_check(dd == 0, name, "max |g2 - 2 g1| %.3e", dd);
    if (tl_verbose || getenv("PF_TEST_VERBOSE")) printf("     %s: worst grad rel err %.3e\n", h->label, worst);
    return worst;
}

// Max |out - ref| over the rows r (of row_len values) with keep[r] != 0.
static double diff_rows(const real *out, const real *ref, int64_t rows, int64_t row_len, const int *keep) {
    double m = 0;
    for (int64_t r = 0; r < rows; r++)
        if (keep[r]) {
            double e = tl_max_abs_diff(out + r * row_len, ref + r * row_len, row_len);
            if (e > m) m = e;
        }
    return m;
}

// Token mask (N) with positions 2 and 5 (when present) masked.
static real *token_mask(int64_t N) {
    real *t = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) t[i] = (i == 2 || i == 5) ? 0 : 1;
    return t;
}

// ---------------------------------------------------------------------------
// Transition
// ---------------------------------------------------------------------------
typedef struct {
    pf_transition_dims d;
    pf_transition_p p, g;
    real *x, *dx, *mask, *out;
} tr_ctx;

static void tr_fwd(void *c, void *saved, void *ws) {
    tr_ctx *t = c;
    cpu_transition_fwd(BE, &t->d, &t->p, A(t->x), A(t->mask), A(t->out), saved, ws);
}
static void tr_bwd(void *c, const void *saved, const real *dout, void *ws) {
    tr_ctx *t = c;
    cpu_transition_bwd(BE, &t->d, &t->p, &t->g, A(t->mask), saved, A(dout), A(t->dx), ws);
}

static void tr_case(int act, int n, int masked, uint64_t seed) {
    tr_ctx t = {.d = {.M = 13, .c = 5, .n = n, .act = act}};
    const int64_t M = t.d.M;
    const int c = t.d.c, nc = n * c;
    harness h = {0};
    tl_layernorm(&t.p.ln, &t.g.ln, c, seed);
    tl_linear(&t.p.lin_a, &t.g.lin_a, nc, c, act == PF_ACT_RELU, seed + 10);
    if (act == PF_ACT_SWIGLU) tl_linear(&t.p.lin_b, &t.g.lin_b, nc, c, 0, seed + 20);
    tl_linear(&t.p.lin_out, &t.g.lin_out, c, nc, act == PF_ACT_RELU, seed + 30);
    t.x = tl_rand(M * c, 1.0, seed + 40);
    t.dx = tl_zeros(M * c);
    t.out = tl_zeros(M * c);
    if (masked) {
        t.mask = tl_mask(M, 0, 0.3, seed + 50);
        t.mask[1] = 0;
        t.mask[0] = 1;
    }
    char *label = (char *)gp_buf(64);
    snprintf(label, 64, "transition %s n=%d%s", act == PF_ACT_RELU ? "relu" : "swiglu", n,
             masked ? " masked" : "");
    h_init(&h, label, &t, tr_fwd, tr_bwd, t.out, M * c, cpu_transition_mem(BE, &t.d));
    tl_add(&h.ts, "x", t.x, t.dx, M * c);
    tl_add_layernorm(&h.ts, "ln", &t.p.ln, &t.g.ln, c);
    tl_add_linear(&h.ts, "lin_a", &t.p.lin_a, &t.g.lin_a, nc, c);
    if (act == PF_ACT_SWIGLU) tl_add_linear(&h.ts, "lin_b", &t.p.lin_b, &t.g.lin_b, nc, c);
    tl_add_linear(&h.ts, "lin_out", &t.p.lin_out, &t.g.lin_out, c, nc);
    h_run(&h);

    if (masked) {  // rows are independent; masked rows are exactly zero
        tr_fwd(&t, NULL, h.ws);
        real *ref = tl_copy(t.out, M * c);
        int keep[64];
        for (int64_t m = 0; m < M; m++) {
            keep[m] = t.mask[m] != 0;
            if (!keep[m])
                for (int k = 0; k < c; k++) t.x[m * c + k] += 3.0 + k;
        }
        tr_fwd(&t, NULL, h.ws);
        double e = diff_rows(t.out, ref, M, c, keep), z = 0;
        for (int64_t m = 0; m < M; m++)
            if (!keep[m]) z = fmax(z, tl_max_abs(t.out + m * c, c));
        char name[128];
        snprintf(name, sizeof name, "%s masked rows", label);
        tl_check(e == 0 && z == 0, name, "unmasked change %.3e, masked |out| %.3e", e, z);
    }
}

void grad_transition(void) {
    BE = pf_backend_cpu();
    tr_case(PF_ACT_RELU, 4, 1, 100);
    tr_case(PF_ACT_RELU, 3, 0, 200);
    tr_case(PF_ACT_SWIGLU, 2, 1, 300);
    tr_case(PF_ACT_SWIGLU, 3, 0, 400);
}

// ---------------------------------------------------------------------------
// Outer product mean
// ---------------------------------------------------------------------------
typedef struct {
    pf_opm_dims d;
    pf_opm_p p, g;
    real *m, *dm, *mask, *out;
} opm_ctx;

static void opm_fwd(void *c, void *saved, void *ws) {
    opm_ctx *t = c;
    cpu_opm_fwd(BE, &t->d, &t->p, A(t->m), A(t->mask), A(t->out), saved, ws);
}
static void opm_bwd(void *c, const void *saved, const real *dout, void *ws) {
    opm_ctx *t = c;
    cpu_opm_bwd(BE, &t->d, &t->p, &t->g, A(t->mask), saved, A(dout), A(t->dm), ws);
}

static void opm_case(int masked, uint64_t seed) {
    opm_ctx t = {.d = {.S = 5, .N = 7, .c_m = 6, .c = 3, .c_z = 5}};
    const int64_t S = t.d.S, N = t.d.N, SN = S * N;
    const int cm = t.d.c_m, c = t.d.c, cz = t.d.c_z;
    harness h = {0};
    tl_layernorm(&t.p.ln, &t.g.ln, cm, seed);
    tl_linear(&t.p.a, &t.g.a, c, cm, 1, seed + 10);
    tl_linear(&t.p.b, &t.g.b, c, cm, 1, seed + 20);
    tl_linear(&t.p.o, &t.g.o, cz, c * c, 1, seed + 30);
    t.m = tl_rand(SN * cm, 1.0, seed + 40);
    t.dm = tl_zeros(SN * cm);
    t.out = tl_zeros(N * N * cz);
    if (masked) {
        // Arbitrary MSA mask plus a padded (fully masked) token column 5.
        t.mask = tl_mask(SN, N, 0.3, seed + 50);
        t.mask[1 * N + 3] = 0;
        for (int64_t s = 0; s < S; s++) t.mask[s * N + 5] = 0;
    }
    const char *label = masked ? "opm masked" : "opm";
    h_init(&h, label, &t, opm_fwd, opm_bwd, t.out, N * N * cz, cpu_opm_mem(BE, &t.d));
    tl_add(&h.ts, "m", t.m, t.dm, SN * cm);
    tl_add_layernorm(&h.ts, "ln", &t.p.ln, &t.g.ln, cm);
    tl_add_linear(&h.ts, "linear_1", &t.p.a, &t.g.a, c, cm);
    tl_add_linear(&h.ts, "linear_2", &t.p.b, &t.g.b, c, cm);
    tl_add_linear(&h.ts, "linear_out", &t.p.o, &t.g.o, cz, c * c);
    h_run(&h);

    if (masked) {  // masked (s, n) entries of m do not reach any output
        opm_fwd(&t, NULL, h.ws);
        real *ref = tl_copy(t.out, N * N * cz);
        for (int64_t q = 0; q < SN; q++)
            if (t.mask[q] == 0)
                for (int k = 0; k < cm; k++) t.m[q * cm + k] = 5.0 - 2.0 * k;
        opm_fwd(&t, NULL, h.ws);
        double e = tl_max_abs_diff(t.out, ref, N * N * cz);
        tl_check(e == 0, "opm masked entries", "output change %.3e", e);
    }
}

// Naive out[i, j, :] of the outer product mean, straight from the definition.
static void opm_naive(const opm_ctx *t, int64_t i, int64_t j, double *o) {
    const int64_t S = t->d.S, N = t->d.N;
    const int cm = t->d.c_m, c = t->d.c, cz = t->d.c_z;
    double outer[64] = {0}, norm = 1e-3;
    for (int64_t s = 0; s < S; s++) {
        double va[8], vb[8];
        for (int side = 0; side < 2; side++) {
            int64_t n = side ? j : i;
            const real *x = t->m + (s * N + n) * cm;
            double mu = 0, var = 0, ln[16];
            for (int k = 0; k < cm; k++) mu += x[k] / cm;
            for (int k = 0; k < cm; k++) var += (x[k] - mu) * (x[k] - mu) / cm;
            for (int k = 0; k < cm; k++) ln[k] = (x[k] - mu) / sqrt(var + 1e-5) * t->p.ln.w[k] + t->p.ln.b[k];
            const pf_linear_p *L = side ? &t->p.b : &t->p.a;
            for (int q = 0; q < c; q++) {
                double v = L->b[q];
                for (int k = 0; k < cm; k++) v += L->w[q * cm + k] * ln[k];
                (side ? vb : va)[q] = v * t->mask[s * N + n];
            }
        }
        for (int q1 = 0; q1 < c; q1++)
            for (int q2 = 0; q2 < c; q2++) outer[q1 * c + q2] += va[q1] * vb[q2];
        norm += t->mask[s * N + i] * t->mask[s * N + j];
    }
    for (int z = 0; z < cz; z++) {
        double v = t->p.o.b[z];
        for (int q = 0; q < c * c; q++) v += t->p.o.w[z * c * c + q] * outer[q];
        o[z] = v / norm;
    }
}

// Large N and small channels, so that o is formed in more than one block of
// rows i (cpu_opm.c caps a block at 2^22 elements): the forward against the
// naive formula at sampled pairs, the backward by directional derivatives.
static void opm_blocked(uint64_t seed) {
    opm_ctx t = {.d = {.S = 3, .N = 1100, .c_m = 4, .c = 2, .c_z = 2}};
    const int64_t S = t.d.S, N = t.d.N, SN = S * N, NN = N * N;
    const int cm = t.d.c_m, c = t.d.c, cz = t.d.c_z;
    harness h = {0};
    tl_layernorm(&t.p.ln, &t.g.ln, cm, seed);
    tl_linear(&t.p.a, &t.g.a, c, cm, 1, seed + 10);
    tl_linear(&t.p.b, &t.g.b, c, cm, 1, seed + 20);
    tl_linear(&t.p.o, &t.g.o, cz, c * c, 1, seed + 30);
    t.m = tl_rand(SN * cm, 1.0, seed + 40);
    t.dm = tl_zeros(SN * cm);
    t.out = tl_zeros(NN * cz);
    t.mask = tl_mask(SN, N, 0.2, seed + 50);
    h_init(&h, "opm blocked", &t, opm_fwd, opm_bwd, t.out, NN * cz, cpu_opm_mem(BE, &t.d));
    real *saved = gp_buf(h.mem.saved);
    opm_fwd(&t, saved, h.ws);
    double fe = 0, fm = 0;
    for (int q = 0; q < 64; q++) {
        int64_t i = (q * 7919 + 13) % N, j = (q * 104729 + 1) % N;
        if (q == 0) { i = N - 1; j = 0; }  // a row of the last block
        double o[8];
        opm_naive(&t, i, j, o);
        for (int z = 0; z < cz; z++) {
            fe = fmax(fe, fabs(o[z] - t.out[(i * N + j) * cz + z]));
            fm = fmax(fm, fabs(o[z]));
        }
    }
    tl_check(fe <= 1e-12 * fm, "opm blocked fwd vs naive", "max diff %.3e (max |out| %.3e)", fe, fm);

    opm_bwd(&t, saved, h.R, h.ws);
    real *dirs[2] = {tl_rand(SN * cm, 1.0, seed + 60), tl_rand((int64_t)cz * c * c, 1.0, seed + 70)};
    real *xs[2] = {t.m, t.p.o.w}, *gs[2] = {t.dm, t.g.o.w};
    int64_t ns[2] = {SN * cm, (int64_t)cz * c * c};
    const char *names[2] = {"opm blocked grad m (directional)", "opm blocked grad linear_out.weight (directional)"};
    for (int k = 0; k < 2; k++) {
        const double hh = 1e-5;
        real *x0 = tl_copy(xs[k], ns[k]);
        // Outputs are differenced before the sum with R: the loss itself is a
        // sum of 2.4M terms whose rounding would swamp (L(+h) - L(-h)) / 2h.
        for (int64_t q = 0; q < ns[k]; q++) xs[k][q] = x0[q] + hh * dirs[k][q];
        opm_fwd(&t, NULL, h.ws);
        real *op = tl_copy(t.out, NN * cz);
        for (int64_t q = 0; q < ns[k]; q++) xs[k][q] = x0[q] - hh * dirs[k][q];
        opm_fwd(&t, NULL, h.ws);
        memcpy(xs[k], x0, sizeof(real) * (size_t)ns[k]);
        double num = 0;
        for (int64_t q = 0; q < NN * cz; q++) num += ((double)op[q] - t.out[q]) * h.R[q];
        num /= 2 * hh;
        double ana = tl_dot(gs[k], dirs[k], ns[k]);
        double e = fabs(num - ana) / fmax(fabs(ana), 1e-30);
        tl_check(e < TOL, names[k], "rel err %.3e (analytic %.6e)", e, ana);
    }
}

void grad_opm(void) {
    BE = pf_backend_cpu();
    opm_case(1, 500);
    opm_case(0, 600);
    opm_blocked(650);
}

// ---------------------------------------------------------------------------
// Triangle multiplicative update
// ---------------------------------------------------------------------------
typedef struct {
    pf_trimul_dims d;
    pf_trimul_p p, g;
    real *z, *dz, *mask, *out;
} tm_ctx;

static void tm_fwd(void *c, void *saved, void *ws) {
    tm_ctx *t = c;
    cpu_trimul_fwd(BE, &t->d, &t->p, A(t->z), A(t->mask), A(t->out), saved, ws);
}
static void tm_bwd(void *c, const void *saved, const real *dout, void *ws) {
    tm_ctx *t = c;
    cpu_trimul_bwd(BE, &t->d, &t->p, &t->g, A(t->mask), saved, A(dout), A(t->dz), ws);
}

static void tm_case(int incoming, int bias, uint64_t seed) {
    tm_ctx t = {.d = {.N = 7, .c_z = 5, .c = 3, .incoming = incoming}};
    const int64_t N = t.d.N, NN = N * N;
    const int cz = t.d.c_z, c = t.d.c;
    harness h = {0};
    tl_layernorm(&t.p.ln_in, &t.g.ln_in, cz, seed);
    tl_linear(&t.p.a_p, &t.g.a_p, c, cz, bias, seed + 10);
    tl_linear(&t.p.a_g, &t.g.a_g, c, cz, bias, seed + 20);
    tl_linear(&t.p.b_p, &t.g.b_p, c, cz, bias, seed + 30);
    tl_linear(&t.p.b_g, &t.g.b_g, c, cz, bias, seed + 40);
    tl_linear(&t.p.g, &t.g.g, cz, cz, bias, seed + 50);
    tl_layernorm(&t.p.ln_out, &t.g.ln_out, c, seed + 60);
    tl_linear(&t.p.z, &t.g.z, cz, c, bias, seed + 70);
    t.z = tl_rand(NN * cz, 1.0, seed + 80);
    t.dz = tl_zeros(NN * cz);
    t.out = tl_zeros(NN * cz);
    real *tok = token_mask(N);
    t.mask = tl_zeros(NN);  // pair mask t_i t_j
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) t.mask[i * N + j] = tok[i] * tok[j];
    char *label = (char *)gp_buf(64);
    snprintf(label, 64, "trimul %s%s", incoming ? "incoming" : "outgoing", bias ? " bias" : " nobias");
    h_init(&h, label, &t, tm_fwd, tm_bwd, t.out, NN * cz, cpu_trimul_mem(BE, &t.d));
    tl_add(&h.ts, "z", t.z, t.dz, NN * cz);
    tl_add_layernorm(&h.ts, "layer_norm_in", &t.p.ln_in, &t.g.ln_in, cz);
    tl_add_linear(&h.ts, "linear_a_p", &t.p.a_p, &t.g.a_p, c, cz);
    tl_add_linear(&h.ts, "linear_a_g", &t.p.a_g, &t.g.a_g, c, cz);
    tl_add_linear(&h.ts, "linear_b_p", &t.p.b_p, &t.g.b_p, c, cz);
    tl_add_linear(&h.ts, "linear_b_g", &t.p.b_g, &t.g.b_g, c, cz);
    tl_add_linear(&h.ts, "linear_g", &t.p.g, &t.g.g, cz, cz);
    tl_add_layernorm(&h.ts, "layer_norm_out", &t.p.ln_out, &t.g.ln_out, c);
    tl_add_linear(&h.ts, "linear_z", &t.p.z, &t.g.z, cz, c);
    h_run(&h);

    // z at masked pairs does not reach the outputs at unmasked pairs.
    tm_fwd(&t, NULL, h.ws);
    real *ref = tl_copy(t.out, NN * cz);
    int keep[64];
    for (int64_t q = 0; q < NN; q++) {
        keep[q] = t.mask[q] != 0;
        if (!keep[q])
            for (int k = 0; k < cz; k++) t.z[q * cz + k] = 4.0 - 1.5 * k;
    }
    tm_fwd(&t, NULL, h.ws);
    double e = diff_rows(t.out, ref, NN, cz, keep);
    char name[128];
    snprintf(name, sizeof name, "%s masked pairs", label);
    tl_check(e == 0, name, "unmasked output change %.3e", e);
}

void grad_trimul(void) {
    BE = pf_backend_cpu();
    tm_case(0, 1, 700);
    tm_case(1, 1, 800);
    tm_case(0, 0, 900);
    tm_case(1, 0, 1000);
}

// ---------------------------------------------------------------------------
// MSA pair-weighted averaging
// ---------------------------------------------------------------------------
typedef struct {
    pf_pwavg_dims d;
    pf_pwavg_p p, g;
    real *m, *dm, *z, *dz, *mask, *out;
} pw_ctx;

static void pw_fwd(void *c, void *saved, void *ws) {
    pw_ctx *t = c;
    cpu_pwavg_fwd(BE, &t->d, &t->p, A(t->m), A(t->z), A(t->mask), A(t->out), saved, ws);
}
static void pw_bwd(void *c, const void *saved, const real *dout, void *ws) {
    pw_ctx *t = c;
    cpu_pwavg_bwd(BE, &t->d, &t->p, &t->g, A(t->mask), saved, A(dout), A(t->dm), A(t->dz), ws);
}

static void pw_case(int masked, uint64_t seed) {
    pw_ctx t = {.d = {.S = 5, .N = 7, .c_m = 6, .c_z = 5, .H = 3, .c_h = 4}};
    const int64_t S = t.d.S, N = t.d.N, SN = S * N, NN = N * N;
    const int cm = t.d.c_m, cz = t.d.c_z, H = t.d.H, hc = t.d.H * t.d.c_h;
    harness h = {0};
    tl_layernorm(&t.p.ln, &t.g.ln, cm, seed);
    tl_layernorm(&t.p.ln_z, &t.g.ln_z, cz, seed + 10);
    tl_linear(&t.p.v, &t.g.v, hc, cm, 0, seed + 20);
    tl_linear(&t.p.b, &t.g.b, H, cz, 0, seed + 30);
    tl_linear(&t.p.g, &t.g.g, hc, cm, 0, seed + 40);
    tl_linear(&t.p.o, &t.g.o, cm, hc, 0, seed + 50);
    t.m = tl_rand(SN * cm, 1.0, seed + 60);
    t.dm = tl_zeros(SN * cm);
    t.z = tl_rand(NN * cz, 1.0, seed + 70);
    t.dz = tl_zeros(NN * cz);
    t.out = tl_zeros(SN * cm);
    if (masked) t.mask = token_mask(N);
    const char *label = masked ? "pwavg masked" : "pwavg";
    h_init(&h, label, &t, pw_fwd, pw_bwd, t.out, SN * cm, cpu_pwavg_mem(BE, &t.d));
    tl_add(&h.ts, "m", t.m, t.dm, SN * cm);
    tl_add(&h.ts, "z", t.z, t.dz, NN * cz);
    tl_add_layernorm(&h.ts, "layer_norm_m", &t.p.ln, &t.g.ln, cm);
    // The LN_z bias shifts b_ij by the same amount for every j, which the
    // softmax over j removes: its gradient is zero (checked below, not here).
    tl_add(&h.ts, "layer_norm_z.weight", t.p.ln_z.w, t.g.ln_z.w, cz);
    tl_add_linear(&h.ts, "linear_v", &t.p.v, &t.g.v, hc, cm);
    tl_add_linear(&h.ts, "linear_b", &t.p.b, &t.g.b, H, cz);
    tl_add_linear(&h.ts, "linear_g", &t.p.g, &t.g.g, hc, cm);
    tl_add_linear(&h.ts, "linear_o", &t.p.o, &t.g.o, cm, hc);
    h_run(&h);
    double gb = 0;  // |analytic| and |numeric - analytic| of the LN_z bias gradient
    for (int k = 0; k < cz; k++) {
        real b0 = t.p.ln_z.b[k];
        t.p.ln_z.b[k] = b0 + 1e-5;
        double lp = h_loss(&h);
        t.p.ln_z.b[k] = b0 - 1e-5;
        double lm = h_loss(&h);
        t.p.ln_z.b[k] = b0;
        gb = fmax(gb, fmax(fabs((double)t.g.ln_z.b[k]), fabs((lp - lm) / 2e-5 - t.g.ln_z.b[k])));
    }
    char name[128];
    snprintf(name, sizeof name, "%s layer_norm_z.bias grad is zero", label);
    tl_check(gb < 1e-9, name, "max %.3e", gb);

    if (masked) {
        // m at masked columns j, and z at pairs with a masked end, change only
        // the outputs at masked columns: w_ij = 0 exactly for masked j.
        pw_fwd(&t, NULL, h.ws);
        real *ref = tl_copy(t.out, SN * cm);
        int keep[64];
        for (int64_t s = 0; s < S; s++)
            for (int64_t j = 0; j < N; j++) {
                keep[s * N + j] = t.mask[j] != 0;
                if (!keep[s * N + j])
                    for (int k = 0; k < cm; k++) t.m[(s * N + j) * cm + k] = 3.0 - k;
            }
        for (int64_t i = 0; i < N; i++)
            for (int64_t j = 0; j < N; j++)
                if (t.mask[i] * t.mask[j] == 0)
                    for (int k = 0; k < cz; k++) t.z[(i * N + j) * cz + k] = 2.0 + k;
        pw_fwd(&t, NULL, h.ws);
        double e = diff_rows(t.out, ref, SN, cm, keep);
        tl_check(e == 0, "pwavg masked columns", "unmasked output change %.3e", e);
    }
}

void grad_pwavg(void) {
    BE = pf_backend_cpu();
    pw_case(1, 1100);
    pw_case(0, 1200);
}
