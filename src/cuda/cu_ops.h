// cu_ops.h: the CUDA backend's ops, one file per op family:
//   cu_attention.cu + cu_flash.cu  attn (fused online-softmax kernels)
//   cu_global_attn.cu              global_attn
//   cu_transition.cu               transition
//   cu_opm.cu                      opm
//   cu_trimul.cu                   trimul
//   cu_pwavg.cu                    pwavg
//   cu_core_attn.cu                core_attn (the attention core alone, over cu_flash.cu)
//   cu_heads.cu                    relpos, disto
//   cu_backend.cu                  memory, elementwise, dropout, optimizer, the struct
#ifndef PF_CU_OPS_H
#define PF_CU_OPS_H
#include "cu_common.cuh"

// The module ops, one triple per line of ops.def: cu_NAME_mem / _fwd / _bwd
// with the signatures of the backend's slots (backend.h).
#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_MODULE_OP_DECLARE(cu_, name, D, P, n_in)
#include "../backend/ops.def"

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

size_t cu_core_attn_ws(pf_backend *be, const pf_core_attn_dims *d);
void cu_core_attn_fwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k, const pf_act *v,
                      const real *bias, const pf_act *mask, pf_act *o, float *lse, void *ws);
void cu_core_attn_bwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k, const pf_act *v,
                      const real *bias, const pf_act *mask, const pf_act *o, const float *lse, const pf_act *d_o,
                      pf_act *dq, pf_act *dk, pf_act *dv, real *d_bias, void *ws);

#endif
