// cu_ops.h: the CUDA backend's module ops, one file per op family:
//   cu_attention.cu + cu_flash.cu  attn (fused online-softmax kernels)
//   cu_global_attn.cu              global_attn
//   cu_transition.cu               transition
//   cu_opm.cu                      opm
//   cu_trimul.cu                   trimul
//   cu_pwavg.cu                    pwavg
//   cu_heads.cu                    relpos, disto
//   cu_backend.cu                  memory, elementwise, dropout, optimizer, the struct
#ifndef PF_CU_OPS_H
#define PF_CU_OPS_H
#include "cu_common.cuh"

pf_mem cu_attn_mem(pf_backend *be, const pf_attn_dims *d);
void cu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x, const pf_act *z,
                 const pf_act *key_mask, pf_act *out, void *saved, void *ws);
void cu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                 const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws);

pf_mem cu_global_attn_mem(pf_backend *be, const pf_global_attn_dims *d);
void cu_global_attn_fwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                        const pf_act *m, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_global_attn_bwd(pf_backend *be, const pf_global_attn_dims *d, const pf_global_attn_p *p,
                        pf_global_attn_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                        pf_act *d_m, void *ws);

pf_mem cu_transition_mem(pf_backend *be, const pf_transition_dims *d);
void cu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                       pf_transition_p *g, const pf_act *mask, const void *saved, const pf_act *d_out,
                       pf_act *d_x, void *ws);

pf_mem cu_opm_mem(pf_backend *be, const pf_opm_dims *d);
void cu_opm_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m,
                const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_opm_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask,
                const void *saved, const pf_act *d_out, pf_act *d_m, void *ws);

pf_mem cu_trimul_mem(pf_backend *be, const pf_trimul_dims *d);
void cu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                   const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_trimul_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                   const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws);

pf_mem cu_pwavg_mem(pf_backend *be, const pf_pwavg_dims *d);
void cu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m,
                  const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                  const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z,
                  void *ws);

void cu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, pf_act *out);
void cu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, const pf_act *d_out);
double cu_disto_fwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p, const pf_act *z,
                    const int32_t *target, const pf_act *pair_mask);
void cu_disto_bwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p, pf_linear_p *g,
                  const pf_act *z, const int32_t *target, const pf_act *pair_mask, double scale, pf_act *dz);
double cu_xent(pf_backend *be, int64_t M, int C, const pf_act *logits, const int32_t *target, const pf_act *weight,
               double scale, pf_act *dlogits);

#endif
