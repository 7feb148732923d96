// cpu_structure.h: the AF2 structure module on the CPU (host reference code):
//   cpu_rigid.c       rigid transforms, quaternion backbone update (Alg. 21, 23)
//   cpu_ipa.c         invariant point attention (Alg. 22)
//   cpu_structure.c   the module loop (Alg. 20; no all-atom coordinates)
//   cpu_angle.c       angle resnet, torsion-angle loss (Alg. 20 l. 11-13, Alg. 27)
//   cpu_fape.c        backbone FAPE (Alg. 28), lDDT-Ca
//   cpu_confidence.c  pLDDT head and loss (Alg. 29), PAE head, loss and pTM
// Not backend ops (see struct_modules.h for why): plain host arrays of `real`.
// Backward functions ACCUMULATE (+=) into every gradient they are given, as the
// backend's ops do; a NULL gradient pointer means not wanted. Shapes and the
// math are in src/backend/struct_modules.h.
#ifndef PF_CPU_STRUCTURE_H
#define PF_CPU_STRUCTURE_H
#include <stddef.h>
#include "../backend/struct_modules.h"

// Loops over residues run in parallel from this many residues on; below it the
// start of a parallel region costs more than the work. Either way each output
// element is computed by one thread in a fixed order (same bits).
#define PF_SM_PAR_MIN 32

// ---- rigid transforms: R (3, 3) row-major, t (3); T x = R x + t -------------
void pf_frame_identity(int64_t N, real *R, real *t);
void pf_frame_apply(const real *R, const real *t, const real *x, real *y);      // y = R x + t
void pf_frame_invert_apply(const real *R, const real *t, const real *x, real *y);  // y = R^T (x - t)
// T = T1 o T2 (apply T2 first): R = R1 R2, t = R1 t2 + t1. Outputs may not alias inputs.
void pf_frame_compose(const real *R1, const real *t1, const real *R2, const real *t2, real *R, real *t);
void pf_frame_invert(const real *R, const real *t, real *Ri, real *ti);
// Alg. 21 rigidFrom3Points: x1 = N, x2 = CA, x3 = C; frame at CA with e1 along C - CA.
// Returns 0, or -1 when the points are (nearly) collinear (frame left as identity).
int pf_frame_from_3_points(const real *x1, const real *x2, const real *x3, real *R, real *t);
// Rotation from the non-unit quaternion (1, b, c, d) normalised; and its backward:
// d_bcd (3) += d R / d (b, c, d) contracted with dR (3, 3).
void pf_quat_to_rot(const real *bcd, real *R);
void pf_quat_to_rot_bwd(const real *bcd, const real *dR, real *d_bcd);

// BackboneUpdate (Alg. 23) applied to frames: u = s W^T + b (N, 6) = (b, c, d, t_u);
// (R_new, t_new) = (R, t) o (R_u, t_u). s (N, c_s); R_new / t_new may not alias R / t.
// u (N, 6) receives the update vector when non-NULL (what the backward needs).
void cpu_bb_update_fwd(int64_t N, int c_s, const pf_linear_p *p, const real *s, const real *R,
                       const real *t, real *R_new, real *t_new, real *u);
// From d_R_new (N, 3, 3), d_t_new (N, 3): gradients of the Linear, s, R and t.
void cpu_bb_update_bwd(int64_t N, int c_s, const pf_linear_p *p, pf_linear_p *g, const real *s,
                       const real *R, const real *t, const real *u, const real *d_R_new,
                       const real *d_t_new, real *d_s, real *d_R, real *d_t);

// ---- invariant point attention -------------------------------------------
// saved: what the backward reads (reals), filled by the forward.
int64_t cpu_ipa_saved_reals(const pf_ipa_dims *d);
void cpu_ipa_fwd(const pf_ipa_dims *d, const pf_ipa_p *p, const real *s, const real *z, const real *R,
                 const real *t, const real *mask, real *out, real *saved);
// Inference on query rows r0 .. r0 + n - 1 only (the structure module on a dap
// rank's rows of z): z_rows (n, N, c_z) are those rows of z, s (N, c_s), the
// frames and mask of all N residues; out (n, c_s) = those rows of cpu_ipa_fwd's
// out, the same bits (the full op runs the same per-row code). Saves nothing.
void cpu_ipa_fwd_rows(const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n, const real *s,
                      const real *z_rows, const real *R, const real *t, const real *mask, real *out);
// The same inputs as the forward again, its saved buffer and d_out (N, c_s).
void cpu_ipa_bwd(const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const real *s, const real *z,
                 const real *R, const real *t, const real *mask, const real *saved, const real *d_out,
                 real *d_s, real *d_z, real *d_R, real *d_t);

// ---- angle resnet and torsion loss (cpu_angle.c) -------------------------
// angles (N, 7, 2) unnormalised from s and s_initial (N, c_s); sizes from d
// (N = d->ipa.N). The backward recomputes the forward.
void cpu_angle_resnet_fwd(const pf_sm_dims *d, const pf_angle_resnet_p *p, const real *s, const real *s_initial,
                          real *angles);
void cpu_angle_resnet_bwd(const pf_sm_dims *d, const pf_angle_resnet_p *p, pf_angle_resnet_p *g, const real *s,
                          const real *s_initial, const real *d_angles, real *d_s, real *d_s_initial);
// Alg. 27 on one set of unnormalised angles (N, 7, 2) against a_true, a_alt
// (N, 7, 2) unit vectors, tmask (N, 7), seq_mask (N) or NULL. d_angles (may be
// NULL) += scale * d loss.
double cpu_torsion_loss(int64_t N, const real *angles, const real *a_true, const real *a_alt, const real *tmask,
                        const real *seq_mask, double scale, real *d_angles);

// ---- structure module ----------------------------------------------------
// Outputs: frames of every layer R_out (L, N, 3, 3), t_out (L, N, 3) in A, and
// the final single representation s_out (N, c_s) (the pLDDT head's input), and
// with the angle resnet (c_resnet > 0) every layer's unnormalised torsion angles
// angles (L, N, 7, 2) (NULL when c_resnet == 0).
int64_t cpu_sm_saved_reals(const pf_sm_dims *d);
// frozen_R (L, N, 3, 3) or NULL: a test hook. When set, layer l + 1 takes
// frozen_R[l] as its input rotation instead of the rotation layer l computed
// (the caller passes the values the plain forward gives, so the result is the
// same); central differences through this forward then measure the gradient
// that stop_rot_grad defines.
void cpu_sm_fwd(const pf_sm_dims *d, const pf_sm_p *p, const real *s_init, const real *z,
                const real *mask, real *R_out, real *t_out, real *s_out, real *angles, real *saved,
                const real *frozen_R);
// Inference with IPA supplied by the caller: fn(ctx, s_in, R_in, t_in, out) writes
// IPA's output (N, c_s) for a layer's input s_in (N, c_s) and frames (10 A units).
// The rest of the module is cpu_sm_fwd's code (the same bits for the same IPA
// output); no saved buffer (per-residue scratch only), no z: the structure
// module on a dap rank's rows of z (structure_rows.c) runs IPA by rows in fn.
typedef void (*cpu_sm_ipa_fn)(void *ctx, const real *s_in, const real *R_in, const real *t_in, real *out);
void cpu_sm_fwd_ipa(const pf_sm_dims *d, const pf_sm_p *p, const real *s_init, cpu_sm_ipa_fn fn, void *ctx,
                    real *R_out, real *t_out, real *s_out, real *angles);
// d_R_out (L, N, 3, 3), d_t_out (L, N, 3), d_s_out (N, c_s), d_angles (L, N, 7, 2);
// each may be NULL (zero).
void cpu_sm_bwd(const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const real *s_init, const real *z,
                const real *mask, const real *saved, const real *d_R_out, const real *d_t_out,
                const real *d_s_out, const real *d_angles, real *d_s_init, real *d_z);

// ---- losses -------------------------------------------------------------
// Backbone FAPE over Ca; frames in A. clamp <= 0: unclamped. Returns the loss;
// the backward accumulates scale * d loss / d (R, t) of the prediction.
double cpu_fape_fwd(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                    const real *mask, double clamp);
void cpu_fape_bwd(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                  const real *mask, double clamp, double scale, real *d_R, real *d_t);
// AF2's backbone loss of the structure module: the mean over the L layers'
// frames R_out (L, N, 3, 3), t_out (L, N, 3) of backbone FAPE. When d_R_out or
// d_t_out is non-NULL it also accumulates scale * d loss into it (the shapes of
// R_out, t_out: what cpu_sm_bwd takes).
double cpu_fape_layers(int L, int64_t N, const real *R_out, const real *t_out, const real *R_true,
                       const real *t_true, const real *mask, double clamp, double scale, real *d_R_out,
                       real *d_t_out);
// Per-residue lDDT-Ca of x (N, 3) against x_true (N, 3), pairs with both masked
// in and true distance < cutoff (OpenFold lddt, eps 1e-10). lddt (N).
void pf_lddt_ca_per_residue(int64_t N, const real *x, const real *x_true, const real *mask, double cutoff, real *lddt);
// Aligned Ca errors e_ij = |T_i^-1 t_j - T_i^true-1 t^true_j| (N, N) (the PAE target).
void pf_aligned_error(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                      real *err);

// ---- confidence heads ----------------------------------------------------
// pLDDT: logits (N, n_bins) from s (N, c_s); plddt (N) in [0, 100] when non-NULL.
void cpu_plddt_fwd(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits, real *plddt);
// Loss: masked mean cross-entropy against the bins of lddt (N) (no gradient into lddt).
// Backward: scale * d loss into the head's parameters and d_s.
double cpu_plddt_loss(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, const real *lddt,
                      const real *mask);
void cpu_plddt_bwd(const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                   const real *lddt, const real *mask, double scale, real *d_s);
// The network alone: from d logits (N, n_bins) into the head's parameters and d_s (the
// backend entry plddt_bwd, whose caller owns the loss).
void cpu_plddt_logits_bwd(const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                          const real *d_logits, real *d_s);
// PAE: logits (N, N, n_bins) = z W^T + b. Loss against the bins of the aligned
// error err (N, N) over pairs with mask_i mask_j; backward into W, b and d_z.
void cpu_pae_logits(const pf_pae_dims *d, const pf_linear_p *p, const real *z, real *logits);
double cpu_pae_loss(const pf_pae_dims *d, const pf_linear_p *p, const real *z, const real *err,
                    const real *mask);
void cpu_pae_bwd(const pf_pae_dims *d, const pf_linear_p *p, pf_linear_p *g, const real *z,
                 const real *err, const real *mask, double scale, real *d_z);
// From logits (N, N, n_bins): the expected error pae (N, N) (may be NULL) and
// the predicted TM-score (AF2 compute_predicted_tm_score; residues with mask 0 left out).
double pf_pae_ptm(const pf_pae_dims *d, const real *logits, const real *mask, real *pae);
// The same by rows (the PAE head on a dap rank's rows): setup gives the bin
// centres ctr (n_bins), the residue count and d0; row gives row i's expected
// error pae_i (N) (may be NULL) from its logits (N, n_bins) and its pTM term;
// best picks the pTM from the N terms (row order: pf_pae_ptm's result).
void pf_pae_ptm_setup(const pf_pae_dims *d, const real *mask, real *ctr, double *nres, double *d0);
double pf_pae_ptm_row(const pf_pae_dims *d, const real *ctr, double nres, double d0, const real *logits_i,
                      const real *mask, real *pae_i);
double pf_pae_ptm_best(int64_t N, const double *per, const real *mask);
// Bin centres of the PAE head (n_bins): 0.25, 0.75, ..., 31.75 A for AF2's sizes.
void pf_pae_bin_centers(const pf_pae_dims *d, real *centers);

#endif
