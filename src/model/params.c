#include "params.h"
#include <string.h>
#include <math.h>
#include "../core/util.h"
#include "../core/rng.h"

void pf_params_init_registry(pf_params *P) { memset(P, 0, sizeof *P); }

void pf_params_free(pf_params *P) {
    if (P->be) {
        if (P->data) P->be->free(P->be, P->data);
        if (P->grad) P->be->free(P->be, P->grad);
    }
    free(P->t);
    memset(P, 0, sizeof *P);
}

void pf_params_add(pf_params *P, const char *name, int ndim, int64_t d0, int64_t d1, pf_init init,
                   real **slot_p, real **slot_g) {
    if (P->data) pf_die("internal: parameter '%s' declared after binding", name);
    if (pf_params_find(P, name)) pf_die("internal: parameter '%s' declared twice", name);
    if (P->n == P->cap) {
        P->cap = P->cap ? 2 * P->cap : 256;
        P->t = realloc(P->t, sizeof(pf_param) * (size_t)P->cap);
        if (!P->t) pf_die("out of memory");
    }
    pf_param *t = &P->t[P->n++];
    memset(t, 0, sizeof *t);
    if (strlen(name) >= sizeof t->name) pf_die("internal: parameter name too long: %s", name);
    strcpy(t->name, name);
    t->ndim = ndim;
    t->shape[0] = d0;
    t->shape[1] = ndim == 2 ? d1 : 1;
    t->numel = d0 * (ndim == 2 ? d1 : 1);
    // keep every tensor 16-element aligned for vector loads on any backend
    t->offset = P->total;
    P->total += (t->numel + 15) & ~(int64_t)15;
    t->init = init;
    t->slot_p = slot_p;
    t->slot_g = slot_g;
}

void pf_params_linear(pf_params *P, const char *prefix, const char *name, int out, int in, int bias,
                      pf_init w_init, pf_init b_init, pf_linear_p *p, pf_linear_p *g) {
    char n[512];
    snprintf(n, sizeof n, "%s.%s.weight", prefix, name);
    pf_params_add(P, n, 2, out, in, w_init, &p->w, &g->w);
    if (bias) {
        snprintf(n, sizeof n, "%s.%s.bias", prefix, name);
        pf_params_add(P, n, 1, out, 0, b_init, &p->b, &g->b);
    } else {
        p->b = g->b = NULL;
    }
}

void pf_params_layernorm(pf_params *P, const char *prefix, const char *name, int c,
                         pf_layernorm_p *p, pf_layernorm_p *g) {
    char n[512];
    snprintf(n, sizeof n, "%s.%s.weight", prefix, name);
    pf_params_add(P, n, 1, c, 0, PF_INIT_ONES, &p->w, &g->w);
    snprintf(n, sizeof n, "%s.%s.bias", prefix, name);
    pf_params_add(P, n, 1, c, 0, PF_INIT_ZEROS, &p->b, &g->b);
}

void pf_params_bind(pf_params *P, pf_backend *be) {
    P->be = be;
    size_t bytes = sizeof(real) * (size_t)(P->total ? P->total : 1);
    P->data = be->alloc(be, bytes);
    P->grad = be->alloc(be, bytes);
    be->zero(be, P->data, bytes);
    be->zero(be, P->grad, bytes);
    for (int i = 0; i < P->n; i++) {
        pf_param *t = &P->t[i];
        if (t->slot_p) *t->slot_p = P->data + t->offset;
        if (t->slot_g) *t->slot_g = P->grad + t->offset;
    }
}

// Truncated normal on [-2, 2] standard deviations, rescaled so the result has
// the requested standard deviation (as in AF2's trunc_normal_init).
static double trunc_normal(uint64_t key, uint64_t i) {
    for (uint64_t k = 0;; k++) {
        double v = pf_normal(key, i * 64 + k);
        if (fabs(v) <= 2.0) return v / 0.87962566103423978;
    }
}

void pf_params_initialise(pf_params *P, uint64_t seed) {
    real *host = pf_calloc((size_t)(P->total ? P->total : 1), sizeof(real));
    for (int i = 0; i < P->n; i++) {
        pf_param *t = &P->t[i];
        real *x = host + t->offset;
        uint64_t key = pf_hash2(seed, pf_hash_str(t->name));  // independent of declaration order
        double fan_in = t->ndim == 2 ? (double)t->shape[1] : 1.0;
        switch (t->init) {
        case PF_INIT_LECUN:
        case PF_INIT_HE: {
            double std = sqrt((t->init == PF_INIT_HE ? 2.0 : 1.0) / fan_in);
            for (int64_t j = 0; j < t->numel; j++) x[j] = (real)(std * trunc_normal(key, (uint64_t)j));
            break;
        }
        case PF_INIT_ZEROS: break;
        case PF_INIT_ONES:
            for (int64_t j = 0; j < t->numel; j++) x[j] = 1;
            break;
        case PF_INIT_SOFTPLUS_INV1:
            for (int64_t j = 0; j < t->numel; j++) x[j] = (real)log(expm1(1.0));
            break;
        }
    }
    P->be->upload(P->be, P->data, host, sizeof(real) * (size_t)P->total);
    pf_free(host);
    pf_params_zero_grad(P);
}

void pf_params_zero_grad(pf_params *P) { P->be->zero(P->be, P->grad, sizeof(real) * (size_t)(P->total ? P->total : 1)); }
void pf_params_scale_grad(pf_params *P, double s) { P->be->scale(P->be, P->grad, P->total, s); }

const pf_param *pf_params_find(const pf_params *P, const char *name) {
    for (int i = 0; i < P->n; i++)
        if (!strcmp(P->t[i].name, name)) return &P->t[i];
    return NULL;
}
