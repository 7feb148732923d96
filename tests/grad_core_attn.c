// grad_core_attn.c: float64 checks of the attention core alone (cpu_core_attn.c,
// the C API's triangle attention in cuEquivariance's layout):
//   ref     the forward equals a direct evaluation of modules.h's formula
//   grad    central differences of loss = sum(o * R) against the backward, for
//           q, k, v and the bias, max rel err < 1e-6 (with a mask, including a
//           fully masked row, and without)
//   mask    keys and values at masked keys do not change rows that have an
//           unmasked key; a fully masked row is the mean of its v
//   threads output and gradients bit-identical with 1 and 3 OpenMP threads
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>
#include "testlib.h"
#include "../src/cpu/cpu_ops.h"

typedef struct {
    pf_core_attn_dims d;
    real *q, *k, *v, *bias, *mask, *R, *o, *dq, *dk, *dv, *db, *ws;
    float *lse;
    int64_t nq, nb;
} ca_case;

static double ca_loss(void *ctx) {
    ca_case *c = ctx;
    cpu_core_attn_fwd(NULL, &c->d, (pf_act *)c->q, (pf_act *)c->k, (pf_act *)c->v, c->bias, (pf_act *)c->mask,
                      (pf_act *)c->o, c->lse, c->ws);
    return tl_dot(c->o, c->R, c->nq);
}

static void ca_bwd(ca_case *c) {
    ca_loss(c);
    cpu_core_attn_bwd(NULL, &c->d, (pf_act *)c->q, (pf_act *)c->k, (pf_act *)c->v, c->bias, (pf_act *)c->mask,
                      (pf_act *)c->o, c->lse, (pf_act *)c->R, (pf_act *)c->dq, (pf_act *)c->dk, (pf_act *)c->dv,
                      c->bias ? c->db : NULL, c->ws);
}

static void ca_setup(ca_case *c, int64_t B, int64_t N, int H, int64_t L, int D, int bias, int masked) {
    memset(c, 0, sizeof *c);
    c->d = (pf_core_attn_dims){B, N, L, H, D, (float)(1.0 / sqrt((double)D))};
    c->nq = B * N * H * L * D;
    c->nb = B * H * L * L;
    c->q = tl_rand(c->nq, 1.0, 11);
    c->k = tl_rand(c->nq, 1.0, 12);
    c->v = tl_rand(c->nq, 1.0, 13);
    c->R = tl_rand(c->nq, 1.0, 14);
    c->bias = bias ? tl_rand(c->nb, 1.0, 15) : NULL;
    c->mask = masked ? tl_mask(B * N * L, L, 0.3, 16) : NULL;
    if (masked)
        for (int64_t l = 0; l < L; l++) c->mask[1 * L + l] = 0;  // row (b 0, n 1) fully masked
    c->o = tl_zeros(c->nq);
    c->dq = tl_zeros(c->nq);
    c->dk = tl_zeros(c->nq);
    c->dv = tl_zeros(c->nq);
    c->db = tl_zeros(c->nb);
    c->ws = tl_zeros((int64_t)(cpu_core_attn_ws(NULL, &c->d) / sizeof(real)) + 1);
    c->lse = (float *)tl_zeros(B * N * H * L);
}

// o from the formula, one (b, n, h, i) at a time; returns max |o - ref|
static double ca_ref_err(const ca_case *c) {
    const pf_core_attn_dims *d = &c->d;
    const int64_t L = d->L, D = d->D;
    double worst = 0, lg[64];
    for (int64_t b = 0; b < d->B; b++)
        for (int64_t n = 0; n < d->N; n++)
            for (int64_t h = 0; h < d->H; h++)
                for (int64_t i = 0; i < L; i++) {
                    const int64_t blk = ((b * d->N + n) * d->H + h) * L * D;
                    double mx = -INFINITY, sum = 0;
                    for (int64_t j = 0; j < L; j++) {
                        double a = 0;
                        for (int64_t e = 0; e < D; e++) a += c->q[blk + i * D + e] * c->k[blk + j * D + e];
                        a = d->scale * a + (c->bias ? c->bias[((b * d->H + h) * L + i) * L + j] : 0);
                        if (c->mask && c->mask[(b * d->N + n) * L + j] == 0) a = -1e9;
                        lg[j] = a;
                        mx = a > mx ? a : mx;
                    }
                    for (int64_t j = 0; j < L; j++) sum += exp(lg[j] - mx);
                    for (int64_t e = 0; e < D; e++) {
                        double o = 0;
                        for (int64_t j = 0; j < L; j++) o += exp(lg[j] - mx) / sum * c->v[blk + j * D + e];
                        double err = fabs(o - c->o[blk + i * D + e]);
                        worst = err > worst ? err : worst;
                    }
                }
    return worst;
}

static void ca_run(const char *label, int bias, int masked) {
    ca_case c;
    ca_setup(&c, 2, 3, 2, 6, 4, bias, masked);
    char name[160];
    ca_loss(&c);
    double ref = ca_ref_err(&c);
    snprintf(name, sizeof name, "core_attn %s ref", label);
    tl_check(ref < 1e-12, name, "max |o - formula| %.3e", ref);

    tl_tensors ts;
    memset(&ts, 0, sizeof ts);
    tl_add(&ts, "q", c.q, c.dq, c.nq);
    tl_add(&ts, "k", c.k, c.dk, c.nq);
    tl_add(&ts, "v", c.v, c.dv, c.nq);
    if (bias) tl_add(&ts, "bias", c.bias, c.db, c.nb);
    ca_bwd(&c);
    snprintf(name, sizeof name, "core_attn %s", label);
    tl_gradcheck(name, ca_loss, &c, &ts, 400, 1e-6);

    if (masked) {  // perturb k and v at masked keys of the rows with an unmasked key
        const int64_t L = c.d.L, D = c.d.D, H = c.d.H;
        ca_loss(&c);  // o of the unperturbed inputs (the gradient check left its last probe in c.o)
        real *o0 = tl_copy(c.o, c.nq);
        real *k0 = tl_copy(c.k, c.nq), *v0 = tl_copy(c.v, c.nq);
        for (int64_t r = 0; r < c.d.B * c.d.N; r++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t j = 0; j < L; j++)
                    if (c.mask[r * L + j] == 0 && r != 1)
                        for (int64_t e = 0; e < D; e++) {
                            c.k[((r * H + h) * L + j) * D + e] += 3;
                            c.v[((r * H + h) * L + j) * D + e] -= 2;
                        }
        ca_loss(&c);
        double diff = tl_max_abs_diff(c.o, o0, c.nq), mean_err = 0;
        for (int64_t h = 0; h < H; h++)  // row 1 (fully masked): every query gets the mean of v
            for (int64_t e = 0; e < D; e++) {
                double m = 0;
                for (int64_t j = 0; j < L; j++) m += c.v[((1 * H + h) * L + j) * D + e] / (double)L;
                for (int64_t i = 0; i < L; i++) mean_err = fmax(mean_err, fabs(c.o[((1 * H + h) * L + i) * D + e] - m));
            }
        snprintf(name, sizeof name, "core_attn %s mask", label);
        tl_check(diff == 0 && mean_err < 1e-12, name, "masked keys change o by %.3e; fully masked row vs mean %.3e",
                 diff, mean_err);
        memcpy(c.k, k0, sizeof(real) * (size_t)c.nq);
        memcpy(c.v, v0, sizeof(real) * (size_t)c.nq);
    }

    int nt = omp_get_max_threads(), same = 1;
    real *g1[5] = {0};
    omp_set_num_threads(1);
    ca_bwd(&c);
    real *o1 = tl_copy(c.o, c.nq);
    for (int i = 0; i < ts.n; i++) g1[i] = tl_copy(ts.t[i].g, ts.t[i].n);
    omp_set_num_threads(3);
    ca_bwd(&c);
    omp_set_num_threads(nt);
    same &= memcmp(o1, c.o, sizeof(real) * (size_t)c.nq) == 0;
    for (int i = 0; i < ts.n; i++) same &= memcmp(g1[i], ts.t[i].g, sizeof(real) * (size_t)ts.t[i].n) == 0;
    snprintf(name, sizeof name, "core_attn %s threads", label);
    tl_check(same, name, "1 vs 3 threads: %s", same ? "bit-identical" : "differ");
}

void grad_core_attn(void) {
    ca_run("bias+mask", 1, 1);
    ca_run("bias", 1, 0);
    ca_run("mask", 0, 1);
}
