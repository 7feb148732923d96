// ops.h: the module ops of ops.def as values: ids (PF_OP_*), names, and
// whether a backend implements one. A backend implements a module op when its
// three slots are set, so `supports` is derived from the slots, never from a
// second list that could disagree with them.
#ifndef PF_OPS_H
#define PF_OPS_H
#include <string.h>
#include "backend.h"

enum {
#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_OP_##NAME,
#include "ops.def"
    PF_N_OPS
};

// "attn", "trimul", ... (the ops.def name); "?" for an unknown id.
static inline const char *pf_op_name(int op) {
    static const char *const names[PF_N_OPS] = {
#define PF_MODULE_OP(name, NAME, D, P, n_in) #name,
#include "ops.def"
    };
    return op >= 0 && op < PF_N_OPS ? names[op] : "?";
}

// PF_OP_* of a name, or -1.
static inline int pf_op_from_name(const char *name) {
    for (int i = 0; i < PF_N_OPS; i++)
        if (!strcmp(name, pf_op_name(i))) return i;
    return -1;
}

static inline int pf_backend_has_op(const pf_backend *be, int op) {
    switch (op) {
#define PF_MODULE_OP(name, NAME, D, P, n_in) \
    case PF_OP_##NAME: return be->name##_mem && be->name##_fwd && be->name##_bwd;
#include "ops.def"
    }
    return 0;
}

// The `supports` entry of every backend: a module op (by its ops.def name) when
// its slots are set; a glue primitive (the names of backend.h's sections) when
// its entries are set.
static inline int pf_backend_supports_by_slots(pf_backend *be, const char *op) {
    int m = pf_op_from_name(op);
    if (m >= 0) return pf_backend_has_op(be, m);
    if (!strcmp(op, "add")) return be->add != NULL;
    if (!strcmp(op, "dropout")) return be->dropout_add && be->dropout_bwd;
    if (!strcmp(op, "bcast")) return be->bcast_add && be->bcast_reduce;
    if (!strcmp(op, "linear")) return be->linear_fwd && be->linear_bwd;
    if (!strcmp(op, "layer_norm")) return be->layer_norm_fwd && be->layer_norm_bwd;
    if (!strcmp(op, "relpos")) return be->relpos_fwd && be->relpos_bwd;
    if (!strcmp(op, "disto")) return be->disto_fwd && be->disto_bwd;
    if (!strcmp(op, "xent")) return be->xent != NULL;
    if (!strcmp(op, "adamw")) return be->adamw && be->sum_sq && be->scale;
    if (!strcmp(op, "ema")) return be->ema != NULL;
    return 0;
}

#endif
