// cpu_allatom.h: all-atom coordinates from frames and torsions (AF2 Alg. 24,
// computeAllAtomCoordinates) and FAPE over any frames and points (the
// side-chain / all-atom FAPE of AF2 1.9.2, Alg. 28), CPU reference with
// hand-written backward functions. Geometry: backend/residue_geometry.h.
// Shapes: per residue PF_NUM_RIGID_GROUPS (8) group frames and
// PF_MAX_RES_ATOMS (14) atom slots in the order of residue_geometry.h.
// Backward functions accumulate (+=); a NULL gradient pointer means not wanted.
#ifndef PF_CPU_ALLATOM_H
#define PF_CPU_ALLATOM_H
#include <stdint.h>
#include "../backend/struct_modules.h"
#include "../backend/residue_geometry.h"

// Alg. 24: from backbone frames R (N, 3, 3), t (N, 3) (A), unnormalised torsion
// angles (N, 7, 2) (sin, cos) as the angle resnet gives them (normalised here,
// |a| clamped at 1e-6 as cpu_angle.c) and aatype (N) tokens 0..20 (others as 20):
// group frames group_R (N, 8, 3, 3), group_t (N, 8, 3) (either may be NULL) and
// atom positions xyz (N, 14, 3), 0 in the slots a residue type does not have.
void cpu_allatom_fwd(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                     real *group_R, real *group_t, real *xyz);
// From d_group_R, d_group_t, d_xyz (each may be NULL): d_R, d_t, d_angles.
void cpu_allatom_bwd(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                     const real *d_group_R, const real *d_group_t, const real *d_xyz, real *d_R, real *d_t,
                     real *d_angles);
// atom_mask (N, 14): 1 for the atom slots residue type aatype[i] has.
void pf_allatom_mask(int64_t N, const int32_t *aatype, real *atom_mask);
// group_mask (N, 8): 1 for the groups AF2's side-chain FAPE uses: backbone, psi
// and the chi groups the residue type has (pre-omega and phi move no heavy atom).
void pf_allatom_group_mask(int64_t N, const int32_t *aatype, real *group_mask);

// FAPE over nF frames (R (nF, 3, 3), t (nF, 3)) and nX points x (nX, 3) against
// the true ones, masks fmask (nF), xmask (nX):
//   loss = sum_fj fm_f xm_j min(clamp, sqrt(|T_f^-1 x_j - T*_f^-1 x*_j|^2 + eps))
//          / Z / ((eps + sum fm)(eps + sum xm)),  eps 1e-4, Z 10 A (clamp <= 0: none).
// With N frames and N points t this is cpu_fape_fwd. The backward accumulates
// scale * d loss into d_R, d_t, d_x (each may be NULL).
double cpu_fape_points_fwd(int64_t nF, const real *R, const real *t, const real *R_true, const real *t_true,
                           const real *fmask, int64_t nX, const real *x, const real *x_true, const real *xmask,
                           double clamp);
void cpu_fape_points_bwd(int64_t nF, const real *R, const real *t, const real *R_true, const real *t_true,
                         const real *fmask, int64_t nX, const real *x, const real *x_true, const real *xmask,
                         double clamp, double scale, real *d_R, real *d_t, real *d_x);

#endif
