// grad_attn.c: float64 checks of the attention family (cpu_attention.c,
// cpu_global_attn.c). For each configuration (MSA row attention with pair bias,
// MSA column attention, triangle attention around the starting / ending node,
// single attention with pair bias, MSA column global attention):
//   grad    central differences of loss = sum(out * R), R fixed random, against
//           the backward: every input and parameter gradient, max rel err < 1e-6
//   accum   a second backward exactly doubles every gradient
//   nosave  the forward with saved == NULL gives the identical output
//   mask    perturbing inputs at masked positions leaves unmasked outputs unchanged
//   ref     the forward matches a straightforward reference written from the papers
//   threads output and gradients are bit-identical with 1 and 3 OpenMP threads
// Every check uses masks as the model builds them (triangle attention: t_i t_j
// from a token mask t; single attention: t; MSA: an arbitrary (S, N) mask), with
// fully masked attention rows, which under the masking rule of modules.h average
// v uniformly and send no gradient to q, k or the bias.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>
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

// Output and every gradient of one forward + backward are bit-identical with 1
// and with 3 OpenMP threads (static schedules, one owner per output element).
static void check_threads(const char *label, tl_tensors *ts, void (*bwd)(void *), void *ctx,
                          const real *out, int64_t nout) {
    real *g1[TL_MAX_TENSORS], *o1;
    int same = 1, nt = omp_get_max_threads();
    omp_set_num_threads(1);
    tl_zero_grads(ts);
    bwd(ctx);
    o1 = tl_copy(out, nout);
    for (int i = 0; i < ts->n; i++) g1[i] = tl_copy(ts->t[i].g, ts->t[i].n);
    omp_set_num_threads(3);
    tl_zero_grads(ts);
    bwd(ctx);
    omp_set_num_threads(nt);
    same &= memcmp(o1, out, sizeof(real) * (size_t)nout) == 0;
    for (int i = 0; i < ts->n; i++) same &= memcmp(g1[i], ts->t[i].g, sizeof(real) * (size_t)ts->t[i].n) == 0;
    char name[128];
    snprintf(name, sizeof name, "%s threads", label);
    tl_check(same, name, "1 vs 3 threads: %s", same ? "bit-identical" : "differ");
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

// bias flags: q, k, v, g, o
static void attn_setup(attn_case *c, const char *label, int64_t B, int64_t L, int c_in, int H,
                       int c_h, int c_z, int bias, int transpose, const int *has_b, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->label = label;
    c->d = (pf_attn_dims){B, L, c_in, H, c_h, bias == PF_BIAS_SELF ? c_in : c_z, bias, transpose, NULL, 0};
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
    c->mask = tl_zeros(c->npos);  // set by attn_model_mask
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
    if (kind == 0) {  // MSA: arbitrary, with attention row 1 fully masked
        real *m = tl_mask(c->npos, 0, 0.35, 912);
        memcpy(mask, m, sizeof(real) * (size_t)c->npos);
        for (int64_t l = 0; l < L; l++) mask[apos(d, 1, l)] = 0;
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

// Straightforward reference of the module's forward, written from the papers'
// definitions: transposed modules transpose x (and the mask) first, run the
// untransposed module (for the ending node with its bias from the transposed
// LN(x), as OpenFold's TriangleAttentionEndingNode does) and transpose back.
static void ref_ln(int c, const pf_layernorm_p *p, const real *x, real *y) {
    double mu = 0, var = 0;
    for (int i = 0; i < c; i++) mu += x[i];
    mu /= c;
    for (int i = 0; i < c; i++) var += (x[i] - mu) * (x[i] - mu);
    var /= c;
    for (int i = 0; i < c; i++) y[i] = (real)((x[i] - mu) / sqrt(var + 1e-5) * p->w[i] + p->b[i]);
}
static void ref_lin(int in, int out, const pf_linear_p *p, const real *x, real *y) {
    for (int o = 0; o < out; o++) {
        double a = p->b ? p->b[o] : 0;
        for (int i = 0; i < in; i++) a += p->w[(int64_t)o * in + i] * x[i];
        y[o] = (real)a;
    }
}

static void attn_reference(const attn_case *c, real *out) {
    const pf_attn_dims *d = &c->d;
    const int64_t B = d->B, L = d->L, P = B * L;
    const int ci = d->c_in, H = d->H, ch = d->c_h, HC = H * ch, cz = d->c_z;
    real *x = tl_zeros(P * ci), *mask = tl_zeros(P), *xln = tl_zeros(P * ci);
    for (int64_t r = 0; r < B; r++)  // x[r, l] in the untransposed (B, L) layout
        for (int64_t l = 0; l < L; l++) {
            int64_t src = d->transpose ? l * B + r : r * L + l;
            memcpy(x + (r * L + l) * ci, c->x + src * ci, sizeof(real) * ci);
            mask[r * L + l] = c->mask[src];
        }
    for (int64_t i = 0; i < P; i++) ref_ln(ci, &c->p.ln, x + i * ci, xln + i * ci);
    real *q = tl_zeros(P * HC), *k = tl_zeros(P * HC), *v = tl_zeros(P * HC), *g = tl_zeros(P * HC);
    for (int64_t i = 0; i < P; i++) {
        ref_lin(ci, HC, &c->p.q, xln + i * ci, q + i * HC);
        ref_lin(ci, HC, &c->p.k, xln + i * ci, k + i * HC);
        ref_lin(ci, HC, &c->p.v, xln + i * ci, v + i * HC);
        ref_lin(ci, HC, &c->p.g, xln + i * ci, g + i * HC);
    }
    real *bias = tl_zeros(L * L * H), *tmp = tl_zeros(cz);
    for (int64_t i = 0; i < L * L && d->bias != PF_BIAS_NONE; i++) {
        if (d->bias == PF_BIAS_PAIR) ref_ln(cz, &c->p.ln_z, c->z + i * cz, tmp);
        ref_lin(cz, H, &c->p.bias, d->bias == PF_BIAS_PAIR ? tmp : xln + i * ci, bias + i * H);
    }
    real *og = tl_zeros(HC), *o = tl_zeros(P * ci), *a = tl_zeros(L);
    for (int64_t r = 0; r < B; r++)
        for (int64_t i = 0; i < L; i++) {
            for (int h = 0; h < H; h++) {
                double mx = -INFINITY, sum = 0;
                for (int64_t j = 0; j < L; j++) {
                    double s = 0;
                    for (int e = 0; e < ch; e++)
                        s += q[(r * L + i) * HC + h * ch + e] * k[(r * L + j) * HC + h * ch + e];
                    s = mask[r * L + j] != 0 ? s / sqrt((double)ch) + bias[(i * L + j) * H + h] : -1e9;
                    a[j] = (real)s;
                    mx = s > mx ? s : mx;
                }
                for (int64_t j = 0; j < L; j++) { a[j] = (real)exp(a[j] - mx); sum += a[j]; }
                for (int e = 0; e < ch; e++) {
                    double acc = 0;
                    for (int64_t j = 0; j < L; j++) acc += a[j] / sum * v[(r * L + j) * HC + h * ch + e];
                    int64_t gi = (r * L + i) * HC + h * ch + e;
                    og[h * ch + e] = (real)(acc / (1 + exp(-g[gi])));
                }
            }
            int64_t dst = d->transpose ? i * B + r : r * L + i;
            ref_lin(HC, ci, &c->p.o, og, o + dst * ci);
        }
    memcpy(out, o, sizeof(real) * (size_t)(P * ci));
}

static void attn_config(const char *label, int64_t B, int64_t L, int bias, int transpose,
                        const int *has_b, int mask_kind, uint64_t seed) {
    attn_case c;
    tl_tensors ts;
    attn_setup(&c, label, B, L, 6, 3, 4, 5, bias, transpose, has_b, seed);
    attn_model_mask(&c, mask_kind, c.mask, NULL);
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

    real *want = tl_zeros(c.nx);
    attn_reference(&c, want);
    snprintf(name, sizeof name, "%s reference", label);
    double rerr = tl_rel_err(ref, want, c.nx);
    tl_check(rerr < 1e-12, name, "rel err vs reference %.3e", rerr);

    check_doubling(label, &ts, attn_run_bwd, &c);
    check_threads(label, &ts, attn_run_bwd, &c, c.out, c.nx);
    if (c.dz) {  // d_z == NULL: the same gradients for everything else
        real *g1[TL_MAX_TENSORS], *dz = c.dz;
        tl_zero_grads(&ts);
        attn_run_bwd(&c);
        for (int i = 0; i < ts.n; i++) g1[i] = tl_copy(ts.t[i].g, ts.t[i].n);
        tl_zero_grads(&ts);
        c.dz = NULL;
        attn_run_bwd(&c);
        c.dz = dz;
        int same = 1;
        for (int i = 0; i < ts.n; i++)
            if (ts.t[i].g != dz) same &= memcmp(g1[i], ts.t[i].g, sizeof(real) * (size_t)ts.t[i].n) == 0;
        snprintf(name, sizeof name, "%s d_z NULL", label);
        tl_check(same && tl_max_abs(dz, c.nz) == 0, name, NULL);
    }
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

// Straightforward reference of OpenFold's MSAColumnGlobalAttention forward.
static void gattn_reference(const gattn_case *c, real *out) {
    const int64_t S = c->d.S, N = c->d.N;
    const int ci = c->d.c_in, H = c->d.H, ch = c->d.c_h, HC = H * ch;
    real *mln = tl_zeros(S * N * ci), *qm = tl_zeros(ci), *q = tl_zeros(HC), *k = tl_zeros(S * ch);
    real *v = tl_zeros(S * ch), *gt = tl_zeros(HC), *o = tl_zeros(HC), *og = tl_zeros(HC), *a = tl_zeros(S);
    for (int64_t i = 0; i < S * N; i++) ref_ln(ci, &c->p.ln, c->m + i * ci, mln + i * ci);
    for (int64_t n = 0; n < N; n++) {
        double den = 0;
        for (int e = 0; e < ci; e++) qm[e] = 0;
        for (int64_t t = 0; t < S; t++) {
            den += c->mask[t * N + n];
            for (int e = 0; e < ci; e++) qm[e] += mln[(t * N + n) * ci + e] * c->mask[t * N + n];
        }
        for (int e = 0; e < ci; e++) qm[e] = (real)(qm[e] / (den + 1e-10));
        ref_lin(ci, HC, &c->p.q, qm, q);
        for (int64_t t = 0; t < S; t++) {
            ref_lin(ci, ch, &c->p.k, mln + (t * N + n) * ci, k + t * ch);
            ref_lin(ci, ch, &c->p.v, mln + (t * N + n) * ci, v + t * ch);
        }
        for (int h = 0; h < H; h++) {
            double mx = -INFINITY, sum = 0;
            for (int64_t t = 0; t < S; t++) {
                double sc = 0;
                for (int e = 0; e < ch; e++) sc += q[h * ch + e] * k[t * ch + e];
                a[t] = (real)(c->mask[t * N + n] != 0 ? sc / sqrt((double)ch) : -1e9);
                mx = a[t] > mx ? a[t] : mx;
            }
            for (int64_t t = 0; t < S; t++) { a[t] = (real)exp(a[t] - mx); sum += a[t]; }
            for (int e = 0; e < ch; e++) {
                double acc = 0;
                for (int64_t t = 0; t < S; t++) acc += a[t] / sum * v[t * ch + e];
                o[h * ch + e] = (real)acc;
            }
        }
        for (int64_t t = 0; t < S; t++) {
            ref_lin(ci, HC, &c->p.g, mln + (t * N + n) * ci, gt);
            for (int j = 0; j < HC; j++) og[j] = (real)(o[j] / (1 + exp(-gt[j])));
            ref_lin(HC, ci, &c->p.o, og, out + (t * N + n) * ci);
        }
    }
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
    for (int64_t t = 0; t < S; t++) c.mask[t * N + 2] = 0;  // column 2 fully masked
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

    real *want = tl_zeros(c.nm);
    gattn_reference(&c, want);
    snprintf(name, sizeof name, "%s reference", label);
    double rerr = tl_rel_err(ref, want, c.nm);
    tl_check(rerr < 1e-12, name, "rel err vs reference %.3e", rerr);

    check_doubling(label, &ts, gattn_run_bwd, &c);
    check_threads(label, &ts, gattn_run_bwd, &c, c.out, c.nm);

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
