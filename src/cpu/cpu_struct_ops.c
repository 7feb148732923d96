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

void cpu_ipa_fwd_rows_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n,
                         const pf_act *s, const pf_act *z_rows, const real *R, const real *t, const pf_act *mask,
                         pf_act *out) {
    (void)be;
    cpu_ipa_fwd_rows(d, p, r0, n, (const real *)s, (const real *)z_rows, R, t, (const real *)mask, (real *)out);
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

// The pLDDT network (cpu_confidence.c): logits from s, and its backward from d logits.
void cpu_plddt_fwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits) {
    (void)be;
    cpu_plddt_fwd(d, p, s, logits, NULL);
}

void cpu_plddt_bwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                      const real *d_logits, real *d_s) {
    (void)be;
    cpu_plddt_logits_bwd(d, p, g, s, d_logits, d_s);
}
