// grad_pair.c: float64 gradient checks of the transition, outer product mean,
// triangle multiplication and pair-weighted averaging ops of the CPU backend.
// For every configuration, with loss = sum(out * R) for a fixed random R:
//   - central differences against the backward, every input and parameter;
//   - a second backward call exactly doubles every gradient (accumulation);
//   - the forward without `saved` gives a bit-identical output;
//   - perturbing inputs at masked positions leaves the outputs that must not
//     see them bit-identical (masks built as the model builds them).
#include <stdio.h>
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

static real *tl_buf(size_t bytes) { return tl_zeros((int64_t)(bytes / sizeof(real)) + 1); }

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

static void h_init(harness *h, const char *label, void *ctx, real *out, int64_t n_out, pf_mem mem) {
    h->label = label;
    h->ctx = ctx;
    h->out = out;
    h->n_out = n_out;
    h->mem = mem;
    h->R = tl_rand(n_out, 1.0, 0xd07 + (uint64_t)n_out);
    h->ws = tl_buf(mem.ws);
}

// Runs the shared checks; returns the worst gradient error.
static double h_run(harness *h) {
    char name[256];
    real *saved = tl_buf(h->mem.saved);
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
    if (tl_verbose) printf("     %s: worst grad rel err %.3e\n", h->label, worst);
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
    char *label = tl_buf(64);
    snprintf((char *)label, 64, "transition %s n=%d%s", act == PF_ACT_RELU ? "relu" : "swiglu", n,
             masked ? " masked" : "");
    h_init(&h, label, &t, t.out, M * c, cpu_transition_mem(BE, &t.d));
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
    h_init(&h, label, &t, t.out, N * N * cz, cpu_opm_mem(BE, &t.d));
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

void grad_opm(void) {
    BE = pf_backend_cpu();
    opm_case(1, 500);
    opm_case(0, 600);
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
    char *label = tl_buf(64);
    snprintf(label, 64, "trimul %s%s", incoming ? "incoming" : "outgoing", bias ? " bias" : " nobias");
    h_init(&h, label, &t, t.out, NN * cz, cpu_trimul_mem(BE, &t.d));
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
    h_init(&h, label, &t, t.out, SN * cm, cpu_pwavg_mem(BE, &t.d));
    tl_add(&h.ts, "m", t.m, t.dm, SN * cm);
    tl_add(&h.ts, "z", t.z, t.dz, NN * cz);
    tl_add_layernorm(&h.ts, "layer_norm_m", &t.p.ln, &t.g.ln, cm);
    tl_add_layernorm(&h.ts, "layer_norm_z", &t.p.ln_z, &t.g.ln_z, cz);
    tl_add_linear(&h.ts, "linear_v", &t.p.v, &t.g.v, hc, cm);
    tl_add_linear(&h.ts, "linear_b", &t.p.b, &t.g.b, H, cz);
    tl_add_linear(&h.ts, "linear_g", &t.p.g, &t.g.g, hc, cm);
    tl_add_linear(&h.ts, "linear_o", &t.p.o, &t.g.o, cm, hc);
    h_run(&h);

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
