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
    real *grad_sum;  // host: the step's gradient sum over its examples (CPU backend, grad_accum > 1)
} pf_optim;

void pf_optim_init(pf_optim *o, pf_params *P);
// Keep an exponential moving average of the weights (started from the current
// weights), updated after every step.
void pf_optim_enable_ema(pf_optim *o, double decay);
// Swap the weights and their EMA (device copies through a temporary of at most
// 2^24 elements): call twice to get back. For validation with the averaged weights.
void pf_optim_swap_ema(pf_optim *o);
// The same through a temporary of `piece` elements (tests: pieces that do not divide the total).
void pf_optim_swap_ema_pieces(pf_optim *o, int64_t piece);
void pf_optim_free(pf_optim *o);
double pf_lr_at(const pf_config *c, int64_t step);  // lr of update number step (1-based)
// Clip the gradients to cfg->grad_clip by global norm and apply one AdamW
// update. Returns the gradient norm before clipping.
// Gradient accumulation in example order. A backward adds into the gradients in
// blocks (GEMMs with beta = 1), so example 2's backward on top of example 1's
// gradients rounds differently from two ranks that each start from zero and are
// summed. With these around each example of a step (k = 0..A-1), every example's
// gradient is computed from zero and added to the sum in example order, so
// grad_accum = A on one process equals A ranks bit for bit. CPU backend only;
// other backends keep accumulating in place (no-ops).
void pf_optim_example_begin(pf_optim *o, int k);
void pf_optim_example_end(pf_optim *o, int k, int A);
double pf_optim_step(pf_optim *o, const pf_config *c, double *lr_out);

#endif
