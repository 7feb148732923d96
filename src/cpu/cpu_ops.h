// cpu_ops.h: the CPU backend's module ops, one file per op family:
//   cpu_attention.c   attn (row / column / triangle / single attention)
//   cpu_global_attn.c global_attn
//   cpu_transition.c  transition
//   cpu_opm.c         opm
//   cpu_trimul.c      trimul
//   cpu_pwavg.c       pwavg
//   cpu_heads.c       relpos, disto
//   cpu_backend.c     memory, elementwise, dropout, optimizer, the struct itself
// pf_act pointers are `real *` on this backend.
#ifndef PF_CPU_OPS_H
#define PF_CPU_OPS_H
#include "../backend/backend.h"

#define CPU_R(p) ((real *)(p))
#define CPU_CR(p) ((const real *)(p))

pf_mem cpu_attn_mem(pf_backend *be, const pf_attn_dims *d);
void cpu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p,
                  const pf_act *x, const pf_act *z, const pf_act *key_mask,
                  pf_act *out, void *saved, void *ws);
void cpu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                  const pf_act *key_mask, const void *saved, const pf_act *d_out,
                  pf_act *d_x, pf_act *d_z, void *ws);

pf_mem cpu_global_attn_mem(pf_backend *be, const pf_global_attn_dims *d);
void cpu_global_attn_fwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                         const pf_act *m, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cpu_global_attn_bwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                         pf_global_attn_p *g, const pf_act *mask, const void *saved,
                         const pf_act *d_out, pf_act *d_m, void *ws);

pf_mem cpu_transition_mem(pf_backend *be, const pf_transition_dims *d);
void cpu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cpu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        pf_transition_p *g, const pf_act *mask, const void *saved,
                        const pf_act *d_out, pf_act *d_x, void *ws);

pf_mem cpu_opm_mem(pf_backend *be, const pf_opm_dims *d);
void cpu_opm_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p,
                 const pf_act *m, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cpu_opm_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g,
                 const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_m, void *ws);

pf_mem cpu_trimul_mem(pf_backend *be, const pf_trimul_dims *d);
void cpu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p,
                    const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cpu_trimul_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                    const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws);

pf_mem cpu_pwavg_mem(pf_backend *be, const pf_pwavg_dims *d);
void cpu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p,
                   const pf_act *m, const pf_act *z, const pf_act *mask, pf_act *out,
                   void *saved, void *ws);
void cpu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                   const pf_act *mask, const void *saved, const pf_act *d_out,
                   pf_act *d_m, pf_act *d_z, void *ws);

void cpu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, pf_act *out);
void cpu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, const pf_act *d_out);
double cpu_disto_fwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                     const pf_act *z, const int32_t *target, const pf_act *pair_mask);
void cpu_disto_bwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                   pf_linear_p *g, const pf_act *z, const int32_t *target,
                   const pf_act *pair_mask, double scale, pf_act *dz);

double cpu_xent(pf_backend *be, int64_t M, int C, const pf_act *logits, const int32_t *target,
                const pf_act *weight, double scale, pf_act *dlogits);

#endif
