#include "optim.h"
#include <math.h>
#include <string.h>
#include "../core/util.h"

void pf_optim_init(pf_optim *o, pf_params *P) {
    pf_backend *be = P->be;
    size_t bytes = sizeof(real) * (size_t)(P->total ? P->total : 1);
    o->P = P;
    o->m = be->alloc(be, bytes);
    o->v = be->alloc(be, bytes);
    be->zero(be, o->m, bytes);
    be->zero(be, o->v, bytes);
    o->step = 0;
    o->ema = NULL;
    o->ema_decay = 0;
    o->grad_sum = NULL;
}

void pf_optim_enable_ema(pf_optim *o, double decay) {
    pf_backend *be = o->P->be;
    size_t bytes = sizeof(real) * (size_t)(o->P->total ? o->P->total : 1);
    if (!o->ema) o->ema = be->alloc(be, bytes);
    be->copy(be, o->ema, o->P->data, bytes);
    o->ema_decay = decay;
}

// In pieces through a buffer of at most PF_EMA_SWAP_PIECE elements: a whole-size one was a
// parameter-sized transient (0.56 GiB for the af3 preset's 150.6 M) on top of the arenas at every
// validation (session 45).
#define PF_EMA_SWAP_PIECE ((int64_t)1 << 24)
void pf_optim_swap_ema(pf_optim *o) { pf_optim_swap_ema_pieces(o, PF_EMA_SWAP_PIECE); }
void pf_optim_swap_ema_pieces(pf_optim *o, int64_t piece) {
    if (!o->ema) return;
    pf_backend *be = o->P->be;
    const int64_t n = o->P->total ? o->P->total : 1;
    if (piece < 1 || piece > n) piece = n;
    real *tmp = be->alloc(be, sizeof(real) * (size_t)piece);
    for (int64_t i = 0; i < n; i += piece) {
        const size_t b = sizeof(real) * (size_t)(n - i < piece ? n - i : piece);
        be->copy(be, tmp, o->P->data + i, b);
        be->copy(be, o->P->data + i, o->ema + i, b);
        be->copy(be, o->ema + i, tmp, b);
    }
    be->free(be, tmp);
}

void pf_optim_free(pf_optim *o) {
    pf_backend *be = o->P->be;
    be->free(be, o->m);
    be->free(be, o->v);
    if (o->ema) be->free(be, o->ema);
    pf_free(o->grad_sum);
}

static int host_grads(const pf_optim *o) { return strcmp(o->P->be->name, "cpu") == 0; }

void pf_optim_example_begin(pf_optim *o, int k) {
    if (k > 0 && host_grads(o)) pf_params_zero_grad(o->P);
}

void pf_optim_example_end(pf_optim *o, int k, int A) {
    if (A <= 1 || !host_grads(o)) return;
    int64_t n = o->P->total;
    real *g = o->P->grad;
    if (!o->grad_sum) o->grad_sum = pf_malloc(sizeof(real) * (size_t)(n ? n : 1));
    real *s = o->grad_sum;
    if (k == 0) {
        memcpy(s, g, sizeof(real) * (size_t)n);
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++) s[i] += g[i];
    }
    if (k == A - 1) memcpy(g, s, sizeof(real) * (size_t)n);
}

double pf_lr_at(const pf_config *c, int64_t step) {
    if (c->warmup_steps > 0 && step <= c->warmup_steps) return c->lr * (double)step / c->warmup_steps;
    // lr_decay_steps 0: over the run's steps (pf_train_run fixes the number at the start)
    int64_t span = (int64_t)(c->lr_decay_steps > 0 ? c->lr_decay_steps : c->steps) - c->warmup_steps;
    if (span <= 0) return c->lr;
    double t = (double)(step - c->warmup_steps) / (double)span;
    if (t > 1) t = 1;
    return c->lr_min + 0.5 * (c->lr - c->lr_min) * (1 + cos(M_PI * t));
}

double pf_optim_step(pf_optim *o, const pf_config *c, double *lr_out) {
    pf_params *P = o->P;
    pf_backend *be = P->be;
    double norm = sqrt(be->sum_sq(be, P->grad, P->total));
    if (c->grad_clip > 0 && norm > c->grad_clip) be->scale(be, P->grad, P->total, c->grad_clip / norm);
    o->step++;
    double lr = pf_lr_at(c, o->step);
    pf_adamw_hp hp = {(float)lr, c->beta1, c->beta2, c->adam_eps, c->weight_decay, o->step};
    be->adamw(be, P->data, P->grad, o->m, o->v, P->total, &hp);
    if (o->ema) be->ema(be, o->ema, P->data, P->total, o->ema_decay);
    if (lr_out) *lr_out = lr;
    return norm;
}
