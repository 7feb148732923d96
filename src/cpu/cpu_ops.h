// cpu_ops.h: the CPU backend's ops, one file per op family:
//   cpu_attention.c   attn (row / column / triangle / single attention)
//   cpu_global_attn.c global_attn
//   cpu_transition.c  transition
//   cpu_opm.c         opm
//   cpu_trimul.c      trimul
//   cpu_trimul_dap.c  trimul_dap (row-sharded outgoing update, axial parallelism), dap_transpose
//   cpu_opm_dap.c     opm_dap (column-sharded MSA), dap_reshard
//   cpu_pwavg_dap.c   pwavg_dap (pair-weighted averaging on the column-sharded MSA)
//   cpu_pwavg.c       pwavg
//   cpu_core_attn.c   core_attn (the attention core alone: the C API's triangle attention)
//   cpu_heads.c       relpos, disto
//   cpu_backend.c     memory, elementwise, dropout, optimizer, the struct itself
// pf_act pointers are `real *` on this backend.
#ifndef PF_CPU_OPS_H
#define PF_CPU_OPS_H
#include "../backend/backend.h"

#define CPU_R(p) ((real *)(p))
#define CPU_CR(p) ((const real *)(p))

// The module ops, one triple per line of ops.def: cpu_NAME_mem / _fwd / _bwd
// with the signatures of the backend's slots (backend.h).
#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_MODULE_OP_DECLARE(cpu_, name, D, P, n_in)
#include "../backend/ops.def"

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

// The attention core alone (backend.h core_attn_*): cpu_core_attn.c.
size_t cpu_core_attn_ws(pf_backend *be, const pf_core_attn_dims *d);
void cpu_core_attn_fwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                       const pf_act *v, const real *bias, const pf_act *mask, pf_act *o, float *lse, void *ws);
void cpu_core_attn_bwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                       const pf_act *v, const real *bias, const pf_act *mask, const pf_act *o, const float *lse,
                       const pf_act *d_o, pf_act *dq, pf_act *dk, pf_act *dv, real *d_bias, void *ws);

// Selective recompute (backend.h attn_keep_bytes, pf_attn_dims.keep): cpu_attention.c.
size_t cpu_attn_keep_bytes(pf_backend *be, const pf_attn_dims *d);
// Axial parallelism (backend.h, attn_dap / trimul_dap): cpu_attention.c, cpu_trimul_dap.c.
pf_mem cpu_attn_dap_mem(pf_backend *be, const pf_attn_dims *d, int P);
void cpu_attn_dap_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x,
                      const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws,
                      const pf_dap_comm *c);
void cpu_attn_dap_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                      const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_x,
                      pf_act *d_z, void *ws, const pf_dap_comm *c, int x_sharded);
pf_mem cpu_trimul_dap_mem(pf_backend *be, const pf_trimul_dims *d, int P);
void cpu_trimul_dap_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                        const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cpu_trimul_dap_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                        const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z,
                        void *ws, const pf_dap_comm *c);

pf_mem cpu_opm_dap_mem(pf_backend *be, const pf_opm_dims *d, int P);
void cpu_opm_dap_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m,
                     const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cpu_opm_dap_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask,
                     const void *saved, const pf_act *d_out, pf_act *d_m, void *ws, const pf_dap_comm *c);
pf_mem cpu_pwavg_dap_mem(pf_backend *be, const pf_pwavg_dims *d, int P);
void cpu_pwavg_dap_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m,
                       const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
void cpu_pwavg_dap_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                       const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z,
                       void *ws, const pf_dap_comm *c);
void cpu_dap_reshard(pf_backend *be, const pf_dap_comm *c, int64_t S, int64_t N, int C, const pf_act *x,
                     pf_act *out, void *ws, int to_rows);
void cpu_dap_transpose(pf_backend *be, const pf_dap_comm *c, int64_t N, int C, const pf_act *x, pf_act *out,
                       void *ws);

double cpu_xent(pf_backend *be, int64_t M, int C, const pf_act *logits, const int32_t *target,
                const pf_act *weight, double scale, pf_act *dlogits);


// The structure module's entries (cpu_struct_ops.c; backend.h "structure module").
pf_mem cpu_ipa_mem(pf_backend *be, const pf_ipa_dims *d);
void cpu_ipa_fwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, const pf_act *s, const pf_act *z,
                    const real *R, const real *t, const pf_act *mask, pf_act *out, void *saved, void *ws);
void cpu_ipa_bwd_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const pf_act *s,
                    const pf_act *z, const real *R, const real *t, const pf_act *mask, const void *saved,
                    const pf_act *d_out, pf_act *d_s, pf_act *d_z, real *d_R, real *d_t, void *ws);
void cpu_ipa_fwd_rows_op(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n,
                         const pf_act *s, const pf_act *z_rows, const real *R, const real *t, const pf_act *mask,
                         pf_act *out);
pf_mem cpu_sm_mem(pf_backend *be, const pf_sm_dims *d);
void cpu_sm_fwd_op(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, const pf_act *s_init, const pf_act *z,
                   const pf_act *mask, real *R_out, real *t_out, real *s_out, real *angles, void *saved, void *ws);
void cpu_sm_bwd_op(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const pf_act *s_init,
                   const pf_act *z, const pf_act *mask, const void *saved, const real *d_R_out,
                   const real *d_t_out, const real *d_s_out, const real *d_angles, pf_act *d_s_init,
                   pf_act *d_z, void *ws);
void cpu_plddt_fwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits);
void cpu_plddt_bwd_op(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                      const real *d_logits, real *d_s);

#endif
