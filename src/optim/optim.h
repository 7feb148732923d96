// optim.h: AdamW state over the flat parameter buffer, the learning-rate
// schedule (linear warmup, cosine decay) and gradient-norm clipping.
#ifndef PF_OPTIM_H
#define PF_OPTIM_H
#include "../model/params.h"
#include "../model/config.h"

typedef struct {
    pf_params *P;
    real *m, *v;     // backend memory, P->total elements each
    real *ema;       // weight EMA (P->total), NULL when off
    double ema_decay;
    int64_t step;    // updates done so far
} pf_optim;

void pf_optim_init(pf_optim *o, pf_params *P);
// Keep an exponential moving average of the weights (started from the current
// weights), updated after every step.
void pf_optim_enable_ema(pf_optim *o, double decay);
// Swap the weights and their EMA (device copies through one temporary): call
// twice to get back. For validation with the averaged weights.
void pf_optim_swap_ema(pf_optim *o);
void pf_optim_free(pf_optim *o);
double pf_lr_at(const pf_config *c, int64_t step);  // lr of update number step (1-based)
// Clip the gradients to cfg->grad_clip by global norm and apply one AdamW
// update. Returns the gradient norm before clipping.
double pf_optim_step(pf_optim *o, const pf_config *c, double *lr_out);

#endif
