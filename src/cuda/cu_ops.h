// cu_ops.h: the CUDA backend's ops, one file per op family:
//   cu_attention.cu + cu_flash.cu  attn (fused online-softmax kernels)
//   cu_global_attn.cu              global_attn
//   cu_transition.cu               transition
//   cu_opm.cu                      opm
//   cu_trimul.cu                   trimul
//   cu_pwavg.cu                    pwavg
//   cu_core_attn.cu                core_attn (the attention core alone, over cu_flash.cu)
//   cu_heads.cu                    relpos, disto
//   cu_ipa.cu, cu_structure.cu     structure module (IPA, loop, pLDDT network; cu_struct.cuh)
//   cu_backend.cu                  memory, elementwise, dropout, optimizer, the struct
#ifndef PF_CU_OPS_H
#define PF_CU_OPS_H
#include "cu_common.cuh"

// The module ops, one triple per line of ops.def: cu_NAME_mem / _fwd / _bwd
// with the signatures of the backend's slots (backend.h).
#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_MODULE_OP_DECLARE(cu_, name, D, P, n_in)
#include "../backend/ops.def"
// Selective recompute (backend.h attn_keep_bytes, pf_attn_dims.keep): cu_attention.cu.
size_t cu_attn_keep_bytes(pf_backend *be, const pf_attn_dims *d);

void cu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, pf_act *out);
void cu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, const pf_act *d_out);
// The distogram loss's largest stream-ordered temporaries (bytes) at once (bench/mem_plan.cu).
size_t cu_disto_tmp_bytes(const cu_impl *c, const pf_disto_dims *d);
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

// The structure module's entries (backend.h "structure module"): cu_ipa.cu, cu_structure.cu.
pf_mem cu_ipa_mem(pf_backend *be, const pf_ipa_dims *d);
void cu_ipa_fwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, const pf_act *s, const pf_act *z,
                   const real *R, const real *t, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cu_ipa_fwd_rows_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n,
                        const pf_act *s, const pf_act *z_rows, const real *R, const real *t, const pf_act *mask,
                        pf_act *out);
void cu_ipa_bwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const pf_act *s,
                   const pf_act *z, const real *R, const real *t, const pf_act *mask, const void *saved,
                   const pf_act *d_out, pf_act *d_s, pf_act *d_z, real *d_R, real *d_t, void *ws);
pf_mem cu_sm_mem(pf_backend *be, const pf_sm_dims *d);
void cu_sm_fwd(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, const pf_act *s_init, const pf_act *z,
               const pf_act *mask, real *R_out, real *t_out, real *s_out, real *angles, void *saved, void *ws);
void cu_sm_bwd(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const pf_act *s_init,
               const pf_act *z, const pf_act *mask, const void *saved, const real *d_R_out, const real *d_t_out,
               const real *d_s_out, const real *d_angles, pf_act *d_s_init, pf_act *d_z, void *ws);
void cu_plddt_fwd(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits);
void cu_plddt_bwd(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                  const real *d_logits, real *d_s);

#endif
