// grad_attn.c: float64 checks of the attention family (cpu_attention.c,
// cpu_global_attn.c). For each configuration (MSA row attention with pair bias,
// MSA column attention, triangle attention around the starting / ending node,
// single attention with pair bias, MSA column global attention):
//   grad    central differences of loss = sum(out * R), R fixed random, against
//           the backward: every input and parameter gradient, max rel err < 1e-6
//   accum   a second backward exactly doubles every gradient
//   nosave  the forward with saved == NULL gives the identical output
//   mask    perturbing inputs at masked positions leaves unmasked outputs unchanged
// The gradient checks use partly masked inputs with at least one unmasked key per
// attention row: a fully masked row softmaxes logits near -1e9, whose float64
// resolution (~1e-7) is far too coarse for central differences.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testlib.h"
#include "../src/cpu/cpu_ops.h"

#define GRAD_TOL 1e-6
#define GRAD_SAMPLES 400

// Every registered gradient is exactly doubled by a second backward; `bwd` runs one.
static void check_doubling(const char *label, tl_tensors *ts, void (*bwd)(void *), void *ctx) {
    real *g1[TL_MAX_TENSORS];
    tl_zero_grads(ts);
    bwd(ctx);
    for (int i = 0; i < ts->n; i++) g1[i] = tl_copy(ts->t[i].g, ts->t[i].n);
    bwd(ctx);
    double worst = 0;
    for (int i = 0; i < ts->n; i++)
        for (int64_t j = 0; j < ts->t[i].n; j++) {
            double e = fabs((double)ts->t[i].g[j] - 2 * (double)g1[i][j]);
            if (e > worst || isnan(e)) worst = isnan(e) ? INFINITY : e;
        }
    char name[128];
    snprintf(name, sizeof name, "%s accum", label);
    tl_check(worst == 0, name, "max |g2 - 2 g1| = %.3e", worst);
}

// ---------------------------------------------------------------------------
// attn
// ---------------------------------------------------------------------------
typedef struct {
    const char *label;
    pf_attn_dims d;
    pf_attn_p p, g;
    real *x, *z, *mask, *R, *out, *dx, *dz;
    int64_t nx, nz, npos;
    void *saved, *ws;
} attn_case;

static double attn_loss(void *ctx) {
    attn_case *c = ctx;
    cpu_attn_fwd(NULL, &c->d, &c->p, (pf_act *)c->x, (pf_act *)c->z, (pf_act *)c->mask,
                 (pf_act *)c->out, NULL, c->ws);
    return tl_dot(c->out, c->R, c->nx);
}

static void attn_run_bwd(void *ctx) {
    attn_case *c = ctx;
    cpu_attn_fwd(NULL, &c->d, &c->p, (pf_act *)c->x, (pf_act *)c->z, (pf_act *)c->mask,
                 (pf_act *)c->out, c->saved, c->ws);
    cpu_attn_bwd(NULL, &c->d, &c->p, &c->g, (pf_act *)c->mask, c->saved, (pf_act *)c->R,
                 (pf_act *)c->dx, c->dz ? (pf_act *)c->dz : NULL, c->ws);
}

static int64_t apos(const pf_attn_dims *d, int64_t r, int64_t l) {
    return d->transpose ? l * d->B + r : r * d->L + l;
}

// 0/1 key mask in x's layout, about 30% zeros, one unmasked key in every row.
static real *row_safe_mask(const pf_attn_dims *d, uint64_t seed) {
    real *m = tl_mask(d->B * d->L, 0, 0.3, seed);
    for (int64_t r = 0; r < d->B; r++) m[apos(d, r, (r * 3) % d->L)] = 1;
    return m;
}

// bias flags: q, k, v, g, o
static void attn_setup(attn_case *c, const char *label, int64_t B, int64_t L, int c_in, int H,
                       int c_h, int c_z, int bias, int transpose, const int *has_b, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->label = label;
    c->d = (pf_attn_dims){B, L, c_in, H, c_h, bias == PF_BIAS_SELF ? c_in : c_z, bias, transpose};
    const int HC = H * c_h;
    tl_layernorm(&c->p.ln, &c->g.ln, c_in, seed + 10);
    tl_linear(&c->p.q, &c->g.q, HC, c_in, has_b[0], seed + 20);
    tl_linear(&c->p.k, &c->g.k, HC, c_in, has_b[1], seed + 30);
    tl_linear(&c->p.v, &c->g.v, HC, c_in, has_b[2], seed + 40);
    tl_linear(&c->p.g, &c->g.g, HC, c_in, has_b[3], seed + 50);
    tl_linear(&c->p.o, &c->g.o, c_in, HC, has_b[4], seed + 60);
    if (bias == PF_BIAS_PAIR) tl_layernorm(&c->p.ln_z, &c->g.ln_z, c_z, seed + 70);
    if (bias != PF_BIAS_NONE) tl_linear(&c->p.bias, &c->g.bias, H, c->d.c_z, 0, seed + 80);
    c->npos = B * L;
    c->nx = c->npos * c_in;
    c->nz = bias == PF_BIAS_PAIR ? L * L * c_z : 0;
    c->x = tl_rand(c->nx, 1.0, seed + 1);
    c->z = c->nz ? tl_rand(c->nz, 1.0, seed + 2) : NULL;
    c->R = tl_rand(c->nx, 1.0, seed + 3);
    c->out = tl_zeros(c->nx);
    c->dx = tl_zeros(c->nx);
    c->dz = c->nz ? tl_zeros(c->nz) : NULL;
    c->mask = row_safe_mask(&c->d, seed + 4);
    pf_mem mem = cpu_attn_mem(NULL, &c->d);
    c->saved = tl_zeros((int64_t)(mem.saved / sizeof(real)) + 1);
    c->ws = tl_zeros((int64_t)(mem.ws / sizeof(real)) + 1);
}

static void attn_tensors(attn_case *c, tl_tensors *ts) {
    const pf_attn_dims *d = &c->d;
    const int HC = d->H * d->c_h;
    memset(ts, 0, sizeof *ts);
    tl_add(ts, "x", c->x, c->dx, c->nx);
    if (c->nz) tl_add(ts, "z", c->z, c->dz, c->nz);
    tl_add_layernorm(ts, "layer_norm", &c->p.ln, &c->g.ln, d->c_in);
    tl_add_linear(ts, "linear_q", &c->p.q, &c->g.q, HC, d->c_in);
    tl_add_linear(ts, "linear_k", &c->p.k, &c->g.k, HC, d->c_in);
    tl_add_linear(ts, "linear_v", &c->p.v, &c->g.v, HC, d->c_in);
    tl_add_linear(ts, "linear_g", &c->p.g, &c->g.g, HC, d->c_in);
    tl_add_linear(ts, "linear_o", &c->p.o, &c->g.o, d->c_in, HC);
    // LN_z's bias shifts every logit of a head by the same W_bias[h] . b: softmax
    // invariant, its gradient is exactly zero (checked separately, in attn_config).
    if (d->bias == PF_BIAS_PAIR) tl_add(ts, "layer_norm_z.weight", c->p.ln_z.w, c->g.ln_z.w, d->c_z);
    if (d->bias != PF_BIAS_NONE) tl_add_linear(ts, "linear_z", &c->p.bias, &c->g.bias, d->H, d->c_z);
}

// Key mask as the model builds it: triangle attention t_i t_j (token mask t),
// single attention t, MSA attention an arbitrary (S, N) mask. zmask (L, L) marks
// pair entries whose perturbation must not matter (single attention: t_i t_j).
static void attn_model_mask(const attn_case *c, int kind, real *mask, real *zmask) {
    const pf_attn_dims *d = &c->d;
    const int64_t L = d->L;
    real *t = tl_mask(L, 0, 0.35, 911);
    t[1] = 1;
    t[L - 2] = 0;
    if (kind == 0) {  // MSA: arbitrary
        real *m = tl_mask(c->npos, 0, 0.35, 912);
        memcpy(mask, m, sizeof(real) * (size_t)c->npos);
    } else if (kind == 1) {  // triangle: pair mask t_i t_j (a symmetric outer product)
        for (int64_t i = 0; i < L; i++)
            for (int64_t j = 0; j < L; j++) mask[i * L + j] = t[i] * t[j];
    } else {  // single: token mask
        memcpy(mask, t, sizeof(real) * (size_t)L);
    }
    if (zmask)
        for (int64_t i = 0; i < L; i++)
            for (int64_t j = 0; j < L; j++) zmask[i * L + j] = t[i] * t[j];
}

static void attn_mask_test(attn_case *c, int kind) {
    const pf_attn_dims *d = &c->d;
    const int64_t L = d->L, c_in = d->c_in;
    real *mask = tl_zeros(c->npos), *zmask = kind == 2 ? tl_zeros(L * L) : NULL;
    attn_model_mask(c, kind, mask, zmask);
    real *out0 = tl_zeros(c->nx), *out1 = tl_zeros(c->nx);
    real *x1 = tl_copy(c->x, c->nx), *z1 = c->nz ? tl_copy(c->z, c->nz) : NULL;
    real *noise = tl_rand(c->nx + c->nz, 3.0, 4242);
    int64_t nmasked = 0;
    for (int64_t i = 0; i < c->npos; i++)
        if (mask[i] == 0) {
            nmasked++;
            for (int64_t k = 0; k < c_in; k++) x1[i * c_in + k] += noise[i * c_in + k];
        }
    if (zmask)
        for (int64_t i = 0; i < L * L; i++)
            if (zmask[i] == 0)
                for (int k = 0; k < d->c_z; k++) z1[i * d->c_z + k] += noise[c->nx + i * d->c_z + k];
    cpu_attn_fwd(NULL, d, &c->p, (pf_act *)c->x, (pf_act *)c->z, (pf_act *)mask, (pf_act *)out0, NULL, c->ws);
    cpu_attn_fwd(NULL, d, &c->p, (pf_act *)x1, (pf_act *)z1, (pf_act *)mask, (pf_act *)out1, NULL, c->ws);
    double worst = 0, changed = 0;
    for (int64_t i = 0; i < c->npos; i++) {
        double e = tl_max_abs_diff(out0 + i * c_in, out1 + i * c_in, c_in);
        if (mask[i] != 0) worst = e > worst ? e : worst;
        else changed = e > changed ? e : changed;
    }
    char name[128];
    snprintf(name, sizeof name, "%s mask", c->label);
    // changed > 0: the perturbation did reach the (masked) outputs, so the test has teeth
    tl_check(worst == 0 && nmasked > 0 && changed > 0, name,
             "max change at unmasked outputs %.3e, at masked %.3e (%lld masked)", worst, changed,
             (long long)nmasked);
}

static void attn_config(const char *label, int64_t B, int64_t L, int bias, int transpose,
                        const int *has_b, int mask_kind, uint64_t seed) {
    attn_case c;
    tl_tensors ts;
    attn_setup(&c, label, B, L, 6, 3, 4, 5, bias, transpose, has_b, seed);
    attn_tensors(&c, &ts);
    char name[128];

    tl_zero_grads(&ts);
    attn_run_bwd(&c);
    double err = tl_gradcheck(label, attn_loss, &c, &ts, GRAD_SAMPLES, GRAD_TOL);
    snprintf(name, sizeof name, "%s grad (all tensors)", label);
    tl_check(err < GRAD_TOL, name, "max rel err %.3e", err);
    if (bias == PF_BIAS_PAIR) {
        double gb = tl_max_abs(c.g.ln_z.b, c.d.c_z);
        snprintf(name, sizeof name, "%s grad layer_norm_z.bias == 0", label);
        tl_check(gb < 1e-12, name, "max |g| %.3e", gb);
    }

    // saved == NULL gives the same output
    real *ref = tl_zeros(c.nx);
    cpu_attn_fwd(NULL, &c.d, &c.p, (pf_act *)c.x, (pf_act *)c.z, (pf_act *)c.mask, (pf_act *)ref, c.saved, c.ws);
    attn_loss(&c);
    snprintf(name, sizeof name, "%s nosave", label);
    tl_check(memcmp(ref, c.out, sizeof(real) * (size_t)c.nx) == 0, name, "max diff %.3e",
             tl_max_abs_diff(ref, c.out, c.nx));

    check_doubling(label, &ts, attn_run_bwd, &c);
    attn_mask_test(&c, mask_kind);
}

void grad_attn(void) {
    const int af2[5] = {0, 0, 0, 1, 1};  // q, k, v, g, o biases: AF2 Attention
    const int af3[5] = {1, 0, 0, 0, 0};  // AF3 Alg. 24
    const int S = 5, N = 7;
    attn_config("attn msa_row", S, N, PF_BIAS_PAIR, 0, af2, 0, 100);
    attn_config("attn msa_col", N, S, PF_BIAS_NONE, 1, af2, 0, 200);  // m (S, N): L = S, B = N
    attn_config("attn tri_start", N, N, PF_BIAS_SELF, 0, af2, 1, 300);
    attn_config("attn tri_end", N, N, PF_BIAS_SELF, 1, af2, 1, 400);
    attn_config("attn single", 1, N, PF_BIAS_PAIR, 0, af3, 2, 500);
}

// ---------------------------------------------------------------------------
// global_attn
// ---------------------------------------------------------------------------
typedef struct {
    pf_global_attn_dims d;
    pf_global_attn_p p, g;
    real *m, *mask, *R, *out, *dm;
    int64_t nm;
    void *saved, *ws;
} gattn_case;

static double gattn_loss(void *ctx) {
    gattn_case *c = ctx;
    cpu_global_attn_fwd(NULL, &c->d, &c->p, (pf_act *)c->m, (pf_act *)c->mask, (pf_act *)c->out, NULL, c->ws);
    return tl_dot(c->out, c->R, c->nm);
}

static void gattn_run_bwd(void *ctx) {
    gattn_case *c = ctx;
    cpu_global_attn_fwd(NULL, &c->d, &c->p, (pf_act *)c->m, (pf_act *)c->mask, (pf_act *)c->out, c->saved, c->ws);
    cpu_global_attn_bwd(NULL, &c->d, &c->p, &c->g, (pf_act *)c->mask, c->saved, (pf_act *)c->R,
                        (pf_act *)c->dm, c->ws);
}

void grad_global_attn(void) {
    const char *label = "global_attn";
    const int64_t S = 5, N = 7;
    const int c_in = 6, H = 3, c_h = 4, HC = H * c_h;
    gattn_case c;
    tl_tensors ts;
    memset(&c, 0, sizeof c);
    memset(&ts, 0, sizeof ts);
    c.d = (pf_global_attn_dims){S, N, c_in, H, c_h};
    tl_layernorm(&c.p.ln, &c.g.ln, c_in, 610);
    tl_linear(&c.p.q, &c.g.q, HC, c_in, 0, 620);
    tl_linear(&c.p.k, &c.g.k, c_h, c_in, 0, 630);
    tl_linear(&c.p.v, &c.g.v, c_h, c_in, 0, 640);
    tl_linear(&c.p.g, &c.g.g, HC, c_in, 1, 650);
    tl_linear(&c.p.o, &c.g.o, c_in, HC, 1, 660);
    c.nm = S * N * c_in;
    c.m = tl_rand(c.nm, 1.0, 601);
    c.R = tl_rand(c.nm, 1.0, 603);
    c.out = tl_zeros(c.nm);
    c.dm = tl_zeros(c.nm);
    c.mask = tl_mask(S * N, 0, 0.3, 604);  // (S, N); attention runs over s in each column n
    for (int64_t n = 0; n < N; n++) c.mask[(n % S) * N + n] = 1;
    pf_mem mem = cpu_global_attn_mem(NULL, &c.d);
    c.saved = tl_zeros((int64_t)(mem.saved / sizeof(real)) + 1);
    c.ws = tl_zeros((int64_t)(mem.ws / sizeof(real)) + 1);

    tl_add(&ts, "m", c.m, c.dm, c.nm);
    tl_add_layernorm(&ts, "layer_norm_m", &c.p.ln, &c.g.ln, c_in);
    tl_add_linear(&ts, "linear_q", &c.p.q, &c.g.q, HC, c_in);
    tl_add_linear(&ts, "linear_k", &c.p.k, &c.g.k, c_h, c_in);
    tl_add_linear(&ts, "linear_v", &c.p.v, &c.g.v, c_h, c_in);
    tl_add_linear(&ts, "linear_g", &c.p.g, &c.g.g, HC, c_in);
    tl_add_linear(&ts, "linear_o", &c.p.o, &c.g.o, c_in, HC);

    char name[128];
    tl_zero_grads(&ts);
    gattn_run_bwd(&c);
    double err = tl_gradcheck(label, gattn_loss, &c, &ts, GRAD_SAMPLES, GRAD_TOL);
    snprintf(name, sizeof name, "%s grad (all tensors)", label);
    tl_check(err < GRAD_TOL, name, "max rel err %.3e", err);

    real *ref = tl_zeros(c.nm);
    cpu_global_attn_fwd(NULL, &c.d, &c.p, (pf_act *)c.m, (pf_act *)c.mask, (pf_act *)ref, c.saved, c.ws);
    gattn_loss(&c);
    snprintf(name, sizeof name, "%s nosave", label);
    tl_check(memcmp(ref, c.out, sizeof(real) * (size_t)c.nm) == 0, name, "max diff %.3e",
             tl_max_abs_diff(ref, c.out, c.nm));

    check_doubling(label, &ts, gattn_run_bwd, &c);

    // Perturbing m at masked (s, n) leaves the outputs at unmasked (s, n) unchanged.
    real *mask = tl_mask(S * N, 0, 0.35, 605), *m1 = tl_copy(c.m, c.nm);
    real *noise = tl_rand(c.nm, 3.0, 606), *out0 = tl_zeros(c.nm), *out1 = tl_zeros(c.nm);
    for (int64_t i = 0; i < S * N; i++)
        if (mask[i] == 0)
            for (int k = 0; k < c_in; k++) m1[i * c_in + k] += noise[i * c_in + k];
    cpu_global_attn_fwd(NULL, &c.d, &c.p, (pf_act *)c.m, (pf_act *)mask, (pf_act *)out0, NULL, c.ws);
    cpu_global_attn_fwd(NULL, &c.d, &c.p, (pf_act *)m1, (pf_act *)mask, (pf_act *)out1, NULL, c.ws);
    double worst = 0, changed = 0;
    for (int64_t i = 0; i < S * N; i++) {
        double e = tl_max_abs_diff(out0 + i * c_in, out1 + i * c_in, c_in);
        if (mask[i] != 0) worst = e > worst ? e : worst;
        else changed = e > changed ? e : changed;
    }
    snprintf(name, sizeof name, "%s mask", label);
    tl_check(worst == 0 && changed > 0, name, "max change at unmasked outputs %.3e, at masked %.3e",
             worst, changed);
}
