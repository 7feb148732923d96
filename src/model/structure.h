// structure.h: the AF2 structure module with its losses and confidence heads,
// as one unit the model can call once its trunk has produced s and z:
// parameters declared in the registry under OpenFold's names with AF2's
// initialisers, a training step (forward, losses, backward) and prediction.
//
// This is the host path: the math runs on the CPU reference
// (src/cpu/cpu_structure.h), on host arrays of `real`, with the parameters in
// the registry's buffers (host memory with the CPU backend). Device backends
// take structure_dev.h, which runs the module through the backend's structure
// entries and shares the losses below (FAPE, side-chain FAPE) with this path.
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
    // Loss weights, AF2's (supplement 1.9.x, Eq. 7): backbone FAPE and the
    // torsion loss, each the mean over the layers (AF2's L_aux), 0.5; pLDDT
    // 0.01; PAE 0 (0.1 in AF2's fine-tuning).
    double w_fape, w_torsion, w_plddt, w_pae;
    // AF2 trains 10% of a batch's examples on unclamped FAPE (supplement
    // 1.9.2). With one example per step, a random 10% of steps unclamped gives
    // gradient spikes that Adam's second moment remembers for ~1000 steps and
    // that stall learning across proteins (docs/STRUCTURE.md, "Learning");
    // instead every step uses the expectation over AF2's choice:
    // (1 - f) FAPE_clamped + f FAPE_unclamped with f = fape_unclamped (0.1).
    double fape_unclamped;
    // Side-chain (all-atom) FAPE of the last layer (AF2 1.9.2: 0.5), used when the
    // truth has atoms (structure_atoms.h: pf_sidechain_fape).
    double w_sidechain;
} pf_structure_head;

// Sizes of AF2: 8 layers, IPA 12 heads x 16 channels, 4 query / 8 value points,
// angle resnet 128 channels x 2 blocks, pLDDT 128 hidden / 50 bins, PAE 64 bins
// up to 31 A; stop_rot_grad on.
void pf_structure_head_defaults(pf_structure_head *h, int c_s, int c_z);
// Declare every tensor: structure_module.* (angle_resnet.* when c_resnet > 0),
// aux_heads.plddt.*, aux_heads.tm.linear.*.
void pf_structure_head_declare(pf_structure_head *h, pf_params *P);

// The truth for one example: backbone frames R (N, 3, 3), t (N, 3) in A
// (Alg. 21) and frame_mask (N) where resolved; torsions (N, 7, 2) unit (sin,
// cos), their pi-shifted alternative and tors_mask (N, 7), or all NULL (no
// torsion loss: the side-chain atoms they come from are not read yet).
// Optionally every heavy atom: aatype (N), atom_xyz (N, 14, 3) and atom_mask
// (N, 14) in residue_geometry.h's slots (NULL: no side-chain FAPE); the chi
// targets then come in tors (pf_truth_from_atoms).
typedef struct {
    const real *R, *t, *frame_mask;
    const real *tors, *tors_alt, *tors_mask;
    const int32_t *aatype;
    const real *atom_xyz, *atom_mask;
} pf_structure_truth;

typedef struct {
    double loss;                      // weighted sum
    double fape, torsion, plddt_loss, pae_loss, sidechain_fape;  // fape: the loss term (fape_unclamped mixed in)
    double fape_clamped;              // the clamped FAPE alone (AF2's reported FAPE; = fape when clamp is 0)
    double lddt_ca;                   // mean lDDT-Ca of the last layer (frame_mask residues)
} pf_structure_losses;

// One training pass on N residues. s (N, c_s), z (N, N, c_z) from the trunk;
// seq_mask (N): residues present (the IPA mask). clamp: FAPE clamp in A (10);
// the loss mixes in h->fape_unclamped of the unclamped FAPE; clamp 0 gives the
// unclamped FAPE alone. Accumulates scale * d loss into
// the registry's gradients and into d_s, d_z (each may be NULL).
pf_structure_losses pf_structure_head_train(pf_structure_head *h, int64_t N, const real *s, const real *z,
                                            const real *seq_mask, const pf_structure_truth *truth, double clamp,
                                            double scale, real *d_s, real *d_z);
// The backbone FAPE term of the loss for L layers' frames R (L, N, 3, 3), t (L, N, 3):
// (1 - f) clamped + f unclamped, f = h->fape_unclamped (1 when clamp is 0); adds
// scale * d term into dR, dt (NULL: the value alone); *clamped: the clamped FAPE.
// Shared by the host path and the device path (structure_dev.c).
double pf_structure_fape_mix(const pf_structure_head *h, int L, int64_t N, const real *R, const real *t,
                             const pf_structure_truth *tr, double clamp, double scale, real *dR, real *dt,
                             double *clamped);

// The torsion-angle loss (Alg. 27) of every layer's angles ang (L, N, 7, 2),
// averaged over the layers (AF2's L_aux); 0 without torsion truth or angle
// resnet. Adds scale * d loss into d_ang (NULL: the value alone). Shared by the
// host path and the device path.
double pf_structure_torsion_layers(const pf_structure_head *h, int64_t N, const real *ang,
                                   const pf_structure_truth *tr, const real *seq_mask, double scale, real *d_ang);

// The side-chain FAPE term for L layers' frames R (L, N, 3, 3), t (L, N, 3) and
// torsions ang (L, N, 7, 2): the all-atom FAPE of the last layer (AF2 1.9.2),
// clamped at clamp; 0 when the truth has no atoms or the module no angle resnet.
// Adds scale * w_sidechain * d term into the last layer's slots of dR, dt, dang
// (NULL: the value alone). Shared by the host path and the device path.
double pf_structure_sidechain_fape(const pf_structure_head *h, int64_t N, const real *R, const real *t,
                                   const real *ang, const pf_structure_truth *tr, const real *seq_mask, double clamp,
                                   double scale, real *dR, real *dt, real *dang);

// Prediction: the last layer's frames R (N, 3, 3), t (N, 3) (A; t is the Ca),
// its torsions (N, 7, 2) as unit (sin, cos) (needs c_resnet > 0), pLDDT (N) in
// [0, 100], PAE (N, N) in A and the pTM (over seq_mask residues). Any output may be NULL.
typedef struct { real *R, *t, *tors, *plddt, *pae; double ptm; } pf_structure_pred;
void pf_structure_head_predict(pf_structure_head *h, int64_t N, const real *s, const real *z,
                               const real *seq_mask, pf_structure_pred *out);

// The per-residue part of a prediction: the last of L layers' frames R (L, N, 3, 3),
// t (L, N, 3), unit torsions from ang (L, N, 7, 2) and pLDDT from s_final (N, c_s)
// into out (PAE and pTM not touched). Shared with structure_rows.c.
void pf_structure_fill_frames(const pf_structure_head *h, int64_t N, const real *R, const real *t, const real *ang,
                              const real *s_final, pf_structure_pred *out);

// The training losses without gradients (validation, eval) and, when out is not
// NULL, the prediction of the same forward (as pf_structure_head_predict).
pf_structure_losses pf_structure_head_eval(pf_structure_head *h, int64_t N, const real *s, const real *z,
                                           const real *seq_mask, const pf_structure_truth *truth, double clamp,
                                           pf_structure_pred *out);

#endif
