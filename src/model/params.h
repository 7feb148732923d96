// params.h: the parameter registry. Modules declare each tensor once (name,
// shape, initialiser, and where its pointer lives in the params / grads
// structs); the registry lays them out in one buffer per category (values,
// gradients, AdamW moments), binds the pointers, initialises, and is the single
// source of names and shapes for checkpoints. No hand-kept index tables.
#ifndef PF_PARAMS_H
#define PF_PARAMS_H
#include <stdint.h>
#include "../core/real.h"
#include "../backend/backend.h"

// Initialisers of AF2 supplement 1.11.4 (and AF3, which keeps them).
typedef enum {
    PF_INIT_LECUN,   // truncated normal, std 1/sqrt(fan_in) ("default")
    PF_INIT_HE,      // truncated normal, std sqrt(2/fan_in) ("relu")
    PF_INIT_ZEROS,   // "final" output projections, biases
    PF_INIT_ONES,    // LayerNorm scale, gating biases
    PF_INIT_SOFTPLUS_INV1,  // log(e - 1): softplus of it is 1 (IPA head_weights, OpenFold)
} pf_init;

typedef struct {
    char name[192];
    int ndim;
    int64_t shape[2];
    int64_t offset, numel;  // in elements of the flat buffers
    pf_init init;
    real **slot_p, **slot_g;  // the struct fields that point into the buffers
} pf_param;

typedef struct {
    pf_param *t;
    int n, cap;
    int64_t total;          // elements
    pf_backend *be;
    real *data, *grad;      // backend memory, `total` elements each
} pf_params;

void pf_params_init_registry(pf_params *P);
void pf_params_free(pf_params *P);
void pf_params_add(pf_params *P, const char *name, int ndim, int64_t d0, int64_t d1, pf_init init,
                   real **slot_p, real **slot_g);
// Linear named prefix.name: weight (out, in), bias (out) when bias != 0.
void pf_params_linear(pf_params *P, const char *prefix, const char *name, int out, int in, int bias,
                      pf_init w_init, pf_init b_init, pf_linear_p *p, pf_linear_p *g);
void pf_params_layernorm(pf_params *P, const char *prefix, const char *name, int c,
                         pf_layernorm_p *p, pf_layernorm_p *g);
// Allocate the value and gradient buffers on the backend and bind every slot.
void pf_params_bind(pf_params *P, pf_backend *be);
// Initialise values on the host from (seed, name) and upload; zero gradients.
void pf_params_initialise(pf_params *P, uint64_t seed);
void pf_params_zero_grad(pf_params *P);
void pf_params_scale_grad(pf_params *P, double s);  // grad *= s (e.g. 1 / examples accumulated)
const pf_param *pf_params_find(const pf_params *P, const char *name);

#endif
