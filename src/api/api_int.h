// api_int.h: what the files of the C API share (not installed).
#ifndef PF_API_INT_H
#define PF_API_INT_H
#include <stddef.h>
#include "pairfold.h"
#include "../backend/backend.h"
#include "../model/block.h"

struct pairfold_backend {
    pf_backend *be;
};

#define NAME_SKIP 6  // parameters are declared under "block."; the API names them without it

// A block, or one module alone (module >= 0: PF_API_MODULE_*; then b holds one
// step with its dims and parameters, and the pass buffers are x in st.x[Z], the
// update in st.x[M], the mask in st.mask[PAIR]).
struct pairfold_block {
    pf_backend *be;
    pf_config cfg;
    pf_params P;
    pf_block b;
    int module;
    float rates[PF_MAX_STEPS];  // each step's training dropout (0 in evaluation)
    // the kept forward (PAIRFOLD_KEEP): its streams, masks, saved activations
    int kept, training;
    int device_ptr;  // the module pass's tensors are backend memory (PAIRFOLD_DEVICE_PTR)
    uint64_t seed;
    int64_t N, S, n[PF_NSTREAMS];
    pf_streams st;
    void *saved, *ws;
    pf_act *delta, *dd;
};

enum { PF_API_MODULE_TRI_MUL_OUT = 0, PF_API_MODULE_TRI_MUL_IN = 1 };
// PF_API_MODULE_* of a kind name, or -1.
int pf_api_module_kind(const char *kind);
// Declare the module's parameters (under "block.") and its one step into h->b.
void pf_api_module_declare(pairfold_block *h, int module);
// Free the buffers of the last pass.
void pf_api_release_pass(pairfold_block *h);
// Activations from caller floats (NULL: `fill`), n elements (+1 allocated); and back.
pf_act *pf_api_act_from_floats(pf_backend *be, const float *src, int64_t n, real fill);
void pf_api_act_to_floats(pf_backend *be, float *dst, const pf_act *a, int64_t n);

// Record the message for pairfold_last_error() and return status (printf-style).
int pf_api_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// The thread's message buffer (for functions that fill it themselves) and its size.
char *pf_api_err_buf(size_t *len);

#endif
