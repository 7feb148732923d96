// api_module.c: one module alone through the C API (pairfold.h): the triangle
// multiplications (AF2 Alg. 11 / 12, AF3 Alg. 12 / 13), called through the
// backend's module op (backend.h), so a framework can swap the engine's module in
// for its own (python/pairfold/torch_ops.py, in cuEquivariance's argument layout).
#include <string.h>
#include "api_int.h"
#include "../core/util.h"

int pf_api_module_kind(const char *kind) {
    if (!kind) return -1;
    if (!strcmp(kind, "tri_mul_out")) return PF_API_MODULE_TRI_MUL_OUT;
    if (!strcmp(kind, "tri_mul_in")) return PF_API_MODULE_TRI_MUL_IN;
    return -1;
}

// Channels c_z and c_trimul of the configuration; the Linears have biases in the
// Evoformer (AF2) and none in the Pairformer (AF3), as the blocks declare them.
void pf_api_module_declare(pairfold_block *h, int module) {
    pf_block *b = &h->b;
    memset(b, 0, sizeof *b);
    b->n = 1;
    b->c[PF_STREAM_Z] = h->cfg.c_z;
    pf_step *s = &b->step[0];
    snprintf(s->name, sizeof s->name, "%s", module == PF_API_MODULE_TRI_MUL_IN ? "tri_mul_in" : "tri_mul_out");
    s->op = PF_OP_TRIMUL;
    s->input = s->target = PF_STREAM_Z;
    s->second = -1;
    s->mask = PF_MASK_PAIR;
    s->d.trimul = (pf_trimul_dims){.c_z = h->cfg.c_z, .c = h->cfg.c_trimul, .incoming = module == PF_API_MODULE_TRI_MUL_IN};
    pf_declare_trimul(&h->P, "block", h->cfg.c_z, h->cfg.c_trimul, h->cfg.trunk != PF_TRUNK_PAIRFORMER, &s->p.trimul,
                      &s->g.trimul);
}

// A pass's input in a buffer of its own: from host float32, or copied device to
// device from the caller's backend memory (PAIRFOLD_DEVICE_PTR); NULL: `fill`.
static pf_act *mod_in(pairfold_block *h, const void *src, int64_t n, real fill) {
    pf_backend *be = h->be;
    if (!h->device_ptr || !src) return pf_api_act_from_floats(be, src, n, fill);
    pf_act *a = be->alloc(be, pf_act_size(be, n + 1));
    be->copy(be, a, src, pf_act_size(be, n));
    return a;
}

static void mod_out(pairfold_block *h, void *dst, const pf_act *a, int64_t n) {
    if (!h->device_ptr) pf_api_act_to_floats(h->be, dst, a, n);
    else {
        h->be->copy(h->be, dst, a, pf_act_size(h->be, n));
        h->be->sync(h->be);
    }
}

int pairfold_module_forward(pairfold_block *h, int64_t N, const void *x, const void *mask, void *out,
                            unsigned flags) {
    if (!h || h->module < 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: not a module");
    if (N < 1 || N > 100000) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: N %lld outside [1, 100000]", (long long)N);
    if (!x || !out) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: x or out is NULL");
    if (flags & ~(PAIRFOLD_KEEP | PAIRFOLD_DEVICE_PTR))
        return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: flags other than PAIRFOLD_KEEP, PAIRFOLD_DEVICE_PTR");
    pf_backend *be = h->be;
    pf_api_release_pass(h);
    pf_step *s = &h->b.step[0];
    s->d.trimul.N = N;
    pf_mem mem = be->trimul_mem(be, &s->d.trimul);
    const int64_t n = N * N * h->cfg.c_z;
    h->N = N, h->S = 1;
    h->n[PF_STREAM_Z] = n;
    h->device_ptr = (flags & PAIRFOLD_DEVICE_PTR) != 0;
    h->st.x[PF_STREAM_Z] = mod_in(h, x, n, 0);             // (N, N, c_z)
    h->st.mask[PF_MASK_PAIR] = mod_in(h, mask, N * N, 1);  // (N, N)
    h->st.x[PF_STREAM_M] = be->alloc(be, pf_act_size(be, n + 1));           // (N, N, c_z) the update
    if (flags & PAIRFOLD_KEEP) h->saved = be->alloc(be, mem.saved + 1);
    h->ws = be->alloc(be, mem.ws + 1);
    be->trimul_fwd(be, &s->d.trimul, &s->p.trimul, h->st.x[PF_STREAM_Z], h->st.mask[PF_MASK_PAIR],
                   h->st.x[PF_STREAM_M], h->saved, h->ws);
    mod_out(h, out, h->st.x[PF_STREAM_M], n);
    h->kept = (flags & PAIRFOLD_KEEP) != 0;
    return PAIRFOLD_OK;
}

int pairfold_module_backward(pairfold_block *h, const void *d_out, void *d_x) {
    if (!h || h->module < 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_backward: not a module");
    if (!h->kept)
        return pf_api_fail(PAIRFOLD_ERR_STATE, "pairfold_module_backward: no forward kept (run the forward with PAIRFOLD_KEEP)");
    if (!d_out || !d_x) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_backward: d_out or d_x is NULL");
    pf_backend *be = h->be;
    pf_step *s = &h->b.step[0];
    const int64_t n = h->n[PF_STREAM_Z];
    pf_act *dy = mod_in(h, d_out, n, 0), *dx = pf_api_act_from_floats(be, NULL, n, 0);
    // the op accumulates into dx (zeroed here) and into the parameter gradients
    be->trimul_bwd(be, &s->d.trimul, &s->p.trimul, &s->g.trimul, h->st.mask[PF_MASK_PAIR], h->saved, dy, dx, h->ws);
    mod_out(h, d_x, dx, n);
    be->free(be, dy);
    be->free(be, dx);
    return PAIRFOLD_OK;
}
