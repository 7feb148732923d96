// structure.h: the AF2 structure module with its losses and confidence heads,
// as one unit the model can call once its trunk has produced s and z:
// parameters declared in the registry under OpenFold's names with AF2's
// initialisers, a training step (forward, losses, backward) and prediction.
//
// NOT WIRED IN YET, and host-only: the math runs on the CPU reference
// (src/cpu/cpu_structure.h), on host arrays of `real`. The parameters live in
// the registry's buffers, so this works as is with the CPU backend (whose
// buffers are host memory); with a device backend the caller would move s, z,
// the parameters and the gradients to and from the host. No backend op exists
// for it (struct_modules.h says why).
#ifndef PF_MODEL_STRUCTURE_H
#define PF_MODEL_STRUCTURE_H
#include "../backend/struct_modules.h"
#include "params.h"

typedef struct {
    pf_sm_dims d;      // N set per call
    pf_plddt_dims pd;
    pf_pae_dims ad;
    pf_sm_p p, g;
    pf_plddt_p pp, pg;
    pf_linear_p pae, pae_g;  // aux_heads.tm.linear
    // Loss weights. AF2 / OpenFold defaults: backbone FAPE (mean over the
    // layers) 0.5, pLDDT 0.01, PAE 0 (0.1 in AF2's fine-tuning).
    double w_fape, w_plddt, w_pae;
} pf_structure_head;

// Sizes of AF2: 8 layers, IPA 12 heads x 16 channels, 4 query / 8 value points,
// pLDDT 128 hidden / 50 bins, PAE 64 bins up to 31 A; stop_rot_grad on.
void pf_structure_head_defaults(pf_structure_head *h, int c_s, int c_z);
// Declare every tensor: structure_module.*, aux_heads.plddt.*, aux_heads.tm.linear.*.
void pf_structure_head_declare(pf_structure_head *h, pf_params *P);

typedef struct {
    double loss;                      // weighted sum
    double fape, plddt_loss, pae_loss;
    double lddt_ca;                   // mean lDDT-Ca of the last layer (frame_mask residues)
} pf_structure_losses;

// One training pass on N residues. s (N, c_s), z (N, N, c_z) from the trunk;
// seq_mask (N): residues present (the IPA mask); R_true (N, 3, 3), t_true
// (N, 3) in A and frame_mask (N): the true backbone frames (Alg. 21) where
// resolved. clamp: FAPE clamp in A (AF2: 10 for 90% of batches, else 0 =
// unclamped). Accumulates scale * d loss into the registry's gradients and into
// d_s, d_z (each may be NULL).
pf_structure_losses pf_structure_head_train(pf_structure_head *h, int64_t N, const real *s, const real *z,
                                            const real *seq_mask, const real *R_true, const real *t_true,
                                            const real *frame_mask, double clamp, double scale, real *d_s,
                                            real *d_z);

// Prediction: the last layer's frames R (N, 3, 3), t (N, 3) (A; t is the Ca),
// pLDDT (N) in [0, 100], PAE (N, N) in A and the pTM (over seq_mask residues).
// Any output may be NULL.
void pf_structure_head_predict(pf_structure_head *h, int64_t N, const real *s, const real *z,
                               const real *seq_mask, real *R, real *t, real *plddt, real *pae, double *ptm);

#endif
