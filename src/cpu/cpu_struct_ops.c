// cpu_struct_ops.c: the structure module's backend entries (backend.h,
// "structure module") on the CPU: thin wrappers of the host reference code
// (cpu_ipa.c, cpu_structure.c) and the pLDDT head's network split from its
// loss (the caller computes the loss from the logits). The CPU backend's
// pf_act buffers are `real *`.
#include <string.h>
#include "cpu_ops.h"
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

pf_mem cpu_ipa_mem(pf_backend *be, const pf_ipa_dims *d) {
    (void)be;
    pf_mem m = {sizeof(real) * (size_t)cpu_ipa_saved_reals(d), 0, 0};
    return m;
}

void cpu_ipa_fwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, const pf_act *s, const pf_act *z,
                    const real *R, const real *t, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    (void)be; (void)ws;
    cpu_ipa_fwd(d, p, (const real *)s, (const real *)z, R, t, (const real *)mask, (real *)out, (real *)saved);
}

void cpu_ipa_bwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const pf_act *s,
                    const pf_act *z, const real *R, const real *t, const pf_act *mask, const void *saved,
                    const pf_act *d_out, pf_act *d_s, pf_act *d_z, real *d_R, real *d_t, void *ws) {
    (void)be; (void)ws;
    cpu_ipa_bwd(d, p, g, (const real *)s, (const real *)z, R, t, (const real *)mask, (const real *)saved,
                (const real *)d_out, (real *)d_s, (real *)d_z, d_R, d_t);
}

pf_mem cpu_sm_mem(pf_backend *be, const pf_sm_dims *d) {
    (void)be;
    pf_mem m = {sizeof(real) * (size_t)cpu_sm_saved_reals(d), 0, 0};
    return m;
}

void cpu_sm_fwd_op(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, const pf_act *s_init, const pf_act *z,
                   const pf_act *mask, real *R_out, real *t_out, real *s_out, real *angles, void *saved, void *ws) {
    (void)be; (void)ws;
    cpu_sm_fwd(d, p, (const real *)s_init, (const real *)z, (const real *)mask, R_out, t_out, s_out,
               d->c_resnet > 0 ? angles : NULL, (real *)saved, NULL);
}

void cpu_sm_bwd_op(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const pf_act *s_init,
                   const pf_act *z, const pf_act *mask, const void *saved, const real *d_R_out,
                   const real *d_t_out, const real *d_s_out, const real *d_angles, pf_act *d_s_init,
                   pf_act *d_z, void *ws) {
    (void)be; (void)ws;
    cpu_sm_bwd(d, p, g, (const real *)s_init, (const real *)z, (const real *)mask, (const real *)saved, d_R_out,
               d_t_out, d_s_out, d->c_resnet > 0 ? d_angles : NULL, (real *)d_s_init, (real *)d_z);
}

// The pLDDT network: x = LN(s), h1 = x W1^T, h2 = relu(h1) W2^T, logits = relu(h2) W3^T.
typedef struct { real *x, *h1, *h2, *r; } plddt_net;

static plddt_net plddt_net_fwd(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits) {
    const int64_t N = d->N, nh = N * d->c_h;
    plddt_net a;
    a.x = pf_malloc(sizeof(real) * (size_t)(N * d->c_s + 1));
    a.h1 = pf_malloc(sizeof(real) * (size_t)(nh + 1));
    a.h2 = pf_malloc(sizeof(real) * (size_t)(nh + 1));
    a.r = pf_malloc(sizeof(real) * (size_t)(nh + 1));
    cpu_ln_fwd(N, d->c_s, &p->ln, s, a.x, NULL, NULL);
    cpu_linear_fwd(N, d->c_s, d->c_h, &p->lin1, a.x, a.h1, 0);
    for (int64_t k = 0; k < nh; k++) a.r[k] = a.h1[k] > 0 ? a.h1[k] : 0;
    cpu_linear_fwd(N, d->c_h, d->c_h, &p->lin2, a.r, a.h2, 0);
    for (int64_t k = 0; k < nh; k++) a.r[k] = a.h2[k] > 0 ? a.h2[k] : 0;
    cpu_linear_fwd(N, d->c_h, d->n_bins, &p->lin3, a.r, logits, 0);
    return a;
}

static void plddt_net_free(plddt_net *a) { pf_free(a->x); pf_free(a->h1); pf_free(a->h2); pf_free(a->r); }

void cpu_plddt_fwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits) {
    (void)be;
    plddt_net a = plddt_net_fwd(d, p, s, logits);
    plddt_net_free(&a);
}

void cpu_plddt_bwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                      const real *d_logits, real *d_s) {
    (void)be;
    const int64_t N = d->N, nh = N * d->c_h;
    real *logits = pf_malloc(sizeof(real) * (size_t)(N * d->n_bins + 1));
    plddt_net a = plddt_net_fwd(d, p, s, logits);  // a.r holds relu(h2)
    real *dh = pf_calloc((size_t)(nh + 1), sizeof(real)), *dh2 = pf_calloc((size_t)(nh + 1), sizeof(real));
    real *dx = pf_calloc((size_t)(N * d->c_s + 1), sizeof(real));
    cpu_linear_bwd(N, d->c_h, d->n_bins, &p->lin3, &g->lin3, a.r, d_logits, dh);
    for (int64_t k = 0; k < nh; k++) dh[k] = a.h2[k] > 0 ? dh[k] : 0;
    for (int64_t k = 0; k < nh; k++) a.r[k] = a.h1[k] > 0 ? a.h1[k] : 0;
    cpu_linear_bwd(N, d->c_h, d->c_h, &p->lin2, &g->lin2, a.r, dh, dh2);
    for (int64_t k = 0; k < nh; k++) dh2[k] = a.h1[k] > 0 ? dh2[k] : 0;
    cpu_linear_bwd(N, d->c_s, d->c_h, &p->lin1, &g->lin1, a.x, dh2, dx);
    cpu_ln_bwd(N, d->c_s, &p->ln, &g->ln, s, dx, d_s);
    real *bufs[] = {logits, dh, dh2, dx};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
    plddt_net_free(&a);
}
