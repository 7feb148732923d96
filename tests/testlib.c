#include "testlib.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "../src/core/rng.h"
#include "../src/core/util.h"

int tl_passed = 0, tl_failed = 0;
int tl_verbose = 0;

void tl_check(int ok, const char *name, const char *fmt, ...) {
    char detail[512] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(detail, sizeof detail, fmt, ap);
        va_end(ap);
    }
    if (ok) {
        tl_passed++;
        if (tl_verbose || getenv("PF_TEST_VERBOSE")) printf("ok   %s %s\n", name, detail);
    } else {
        tl_failed++;
        printf("FAIL %s: %s\n", name, detail);
    }
    fflush(stdout);
}

int tl_finish(void) {
    printf("%d passed, %d failed\n", tl_passed, tl_failed);
    return tl_failed ? 1 : 0;
}

#define POOL_MAX 65536
static void *pool[POOL_MAX];
static int pool_n = 0;
static void *pool_add(void *p) {
    if (pool_n >= POOL_MAX) { fprintf(stderr, "test pool full\n"); exit(2); }
    pool[pool_n++] = p;
    return p;
}
void tl_pool_reset(void) {
    for (int i = 0; i < pool_n; i++) free(pool[i]);
    pool_n = 0;
}

real *tl_rand(int64_t n, double scale, uint64_t seed) {
    real *x = pool_add(pf_malloc(sizeof(real) * (size_t)(n > 0 ? n : 1)));
    uint64_t key = pf_hash2(seed, 0x7e57);
    for (int64_t i = 0; i < n; i++) x[i] = (real)(scale * pf_normal(key, (uint64_t)i));
    return x;
}
real *tl_zeros(int64_t n) { return pool_add(pf_calloc((size_t)(n > 0 ? n : 1), sizeof(real))); }
real *tl_copy(const real *x, int64_t n) {
    real *y = pool_add(pf_malloc(sizeof(real) * (size_t)(n > 0 ? n : 1)));
    memcpy(y, x, sizeof(real) * (size_t)n);
    return y;
}
real *tl_mask(int64_t n, int64_t row, double frac, uint64_t seed) {
    real *m = tl_zeros(n);
    uint64_t key = pf_hash2(seed, 0x3a5c);
    for (int64_t i = 0; i < n; i++) m[i] = pf_uniform(key, (uint64_t)i) < frac ? 0 : 1;
    if (row > 0)
        for (int64_t r = 0; r + row <= n; r += row) m[r] = 1;  // keep one key per row
    return m;
}

void tl_linear(pf_linear_p *p, pf_linear_p *g, int out, int in, int bias, uint64_t seed) {
    p->w = tl_rand((int64_t)out * in, 1.0 / sqrt((double)in), seed);
    g->w = tl_zeros((int64_t)out * in);
    p->b = bias ? tl_rand(out, 0.5, seed + 1) : NULL;
    g->b = bias ? tl_zeros(out) : NULL;
}
void tl_layernorm(pf_layernorm_p *p, pf_layernorm_p *g, int c, uint64_t seed) {
    p->w = tl_rand(c, 0.3, seed);
    for (int i = 0; i < c; i++) p->w[i] += 1;
    p->b = tl_rand(c, 0.3, seed + 1);
    g->w = tl_zeros(c);
    g->b = tl_zeros(c);
}

void tl_add(tl_tensors *ts, const char *name, real *x, real *g, int64_t n) {
    if (ts->n >= TL_MAX_TENSORS) { fprintf(stderr, "too many tensors\n"); exit(2); }
    ts->t[ts->n++] = (tl_tensor){name, x, g, n};
}
void tl_add_linear(tl_tensors *ts, const char *name, pf_linear_p *p, pf_linear_p *g, int out, int in) {
    char *wn = pool_add(malloc(strlen(name) + 8)), *bn = pool_add(malloc(strlen(name) + 8));
    sprintf(wn, "%s.weight", name);
    sprintf(bn, "%s.bias", name);
    tl_add(ts, wn, p->w, g->w, (int64_t)out * in);
    if (p->b) tl_add(ts, bn, p->b, g->b, out);
}
void tl_add_layernorm(tl_tensors *ts, const char *name, pf_layernorm_p *p, pf_layernorm_p *g, int c) {
    char *wn = pool_add(malloc(strlen(name) + 8)), *bn = pool_add(malloc(strlen(name) + 8));
    sprintf(wn, "%s.weight", name);
    sprintf(bn, "%s.bias", name);
    tl_add(ts, wn, p->w, g->w, c);
    tl_add(ts, bn, p->b, g->b, c);
}
void tl_zero_grads(tl_tensors *ts) {
    for (int i = 0; i < ts->n; i++) memset(ts->t[i].g, 0, sizeof(real) * (size_t)ts->t[i].n);
}

double tl_gradcheck(const char *label, double (*loss)(void *ctx), void *ctx,
                    tl_tensors *ts, int max_samples, double tol) {
    double worst = 0;
    const double h = 1e-5;
    for (int t = 0; t < ts->n; t++) {
        tl_tensor *T = &ts->t[t];
        double amax = tl_max_abs(T->g, T->n), err = 0, nmax = 0;
        int64_t ns = T->n <= max_samples ? T->n : max_samples;
        uint64_t key = pf_hash2(pf_hash_str(T->name), 0x5a);
        for (int64_t s = 0; s < ns; s++) {
            int64_t i = T->n <= max_samples ? s : (int64_t)(pf_hash2(key, (uint64_t)s) % (uint64_t)T->n);
            real x0 = T->x[i];
            T->x[i] = x0 + h;
            double lp = loss(ctx);
            T->x[i] = x0 - h;
            double lm = loss(ctx);
            T->x[i] = x0;
            double num = (lp - lm) / (2 * h);
            if (fabs(num) > nmax) nmax = fabs(num);
            double e = fabs(num - T->g[i]) / (amax > 1e-30 ? amax : 1e-30);
            if (e > err) err = e;
        }
        char name[256];
        snprintf(name, sizeof name, "%s grad %s", label, T->name);
        if (amax < 1e-12) {
            // A gradient that is zero by design (e.g. a LayerNorm bias feeding only
            // a softmax, which ignores constant shifts): the numeric one must be too.
            tl_check(nmax < 1e-8, name, "zero gradient: max |numeric| %.3e", nmax);
            continue;
        }
        tl_check(err < tol, name, "rel err %.3e (tol %.1e, max|g| %.3e)", err, tol, amax);
        if (err > worst) worst = err;
    }
    return worst;
}

double tl_max_abs_diff(const real *a, const real *b, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (d > m || isnan(d)) m = isnan(d) ? INFINITY : d;
    }
    return m;
}
double tl_max_abs(const real *a, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; i++) if (fabs((double)a[i]) > m) m = fabs((double)a[i]);
    return m;
}
double tl_rel_err(const real *a, const real *ref, int64_t n) {
    double r = tl_max_abs(ref, n);
    return tl_max_abs_diff(a, ref, n) / (r > 1e-30 ? r : 1e-30);
}
double tl_dot(const real *a, const real *b, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += (double)a[i] * (double)b[i];
    return s;
}

void tl_disto_probs(const real *z, const real *w, const real *b, int64_t N, int64_t nb, int64_t cz, double *ref) {
    double l[256];
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            double mx = -INFINITY, se = 0;
            for (int64_t k = 0; k < nb; k++) {
                double a = b[k];
                for (int64_t c = 0; c < cz; c++) a += ((double)z[(i * N + j) * cz + c] + z[(j * N + i) * cz + c]) * w[k * cz + c];
                l[k] = a, mx = fmax(mx, a);
            }
            for (int64_t k = 0; k < nb; k++) se += exp(l[k] - mx);
            for (int64_t k = 0; k < nb; k++) ref[(i * N + j) * nb + k] = exp(l[k] - mx) / se;
        }
}
