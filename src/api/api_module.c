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

int pairfold_module_forward(pairfold_block *h, int64_t N, const float *x, const float *mask, float *out,
                            unsigned flags) {
    if (!h || h->module < 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: not a module");
    if (N < 1 || N > 100000) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: N %lld outside [1, 100000]", (long long)N);
    if (!x || !out) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: x or out is NULL");
    if (flags & ~PAIRFOLD_KEEP) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_forward: flags other than PAIRFOLD_KEEP");
    pf_backend *be = h->be;
    pf_api_release_pass(h);
    pf_step *s = &h->b.step[0];
    s->d.trimul.N = N;
    pf_mem mem = be->trimul_mem(be, &s->d.trimul);
    const int64_t n = N * N * h->cfg.c_z;
    h->N = N, h->S = 1;
    h->n[PF_STREAM_Z] = n;
    h->st.x[PF_STREAM_Z] = pf_api_act_from_floats(be, x, n, 0);             // (N, N, c_z)
    h->st.mask[PF_MASK_PAIR] = pf_api_act_from_floats(be, mask, N * N, 1);  // (N, N)
    h->st.x[PF_STREAM_M] = be->alloc(be, pf_act_size(be, n + 1));           // (N, N, c_z) the update
    if (flags & PAIRFOLD_KEEP) h->saved = be->alloc(be, mem.saved + 1);
    h->ws = be->alloc(be, mem.ws + 1);
    be->trimul_fwd(be, &s->d.trimul, &s->p.trimul, h->st.x[PF_STREAM_Z], h->st.mask[PF_MASK_PAIR],
                   h->st.x[PF_STREAM_M], h->saved, h->ws);
    pf_api_act_to_floats(be, out, h->st.x[PF_STREAM_M], n);
    h->kept = (flags & PAIRFOLD_KEEP) != 0;
    return PAIRFOLD_OK;
}

int pairfold_module_backward(pairfold_block *h, const float *d_out, float *d_x) {
    if (!h || h->module < 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_backward: not a module");
    if (!h->kept)
        return pf_api_fail(PAIRFOLD_ERR_STATE, "pairfold_module_backward: no forward kept (run the forward with PAIRFOLD_KEEP)");
    if (!d_out || !d_x) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_module_backward: d_out or d_x is NULL");
    pf_backend *be = h->be;
    pf_step *s = &h->b.step[0];
    const int64_t n = h->n[PF_STREAM_Z];
    pf_act *dy = pf_api_act_from_floats(be, d_out, n, 0), *dx = pf_api_act_from_floats(be, NULL, n, 0);
    // the op accumulates into dx (zeroed here) and into the parameter gradients
    be->trimul_bwd(be, &s->d.trimul, &s->p.trimul, &s->g.trimul, h->st.mask[PF_MASK_PAIR], h->saved, dy, dx, h->ws);
    pf_api_act_to_floats(be, d_x, dx, n);
    be->free(be, dy);
    be->free(be, dx);
    return PAIRFOLD_OK;
}
