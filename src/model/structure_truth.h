// structure_truth.h: what the structure losses compare against, from the
// backbone atoms the data layer keeps (N, CA, C, O, CB; structure.h).
#ifndef PF_MODEL_STRUCTURE_TRUTH_H
#define PF_MODEL_STRUCTURE_TRUTH_H
#include <stdint.h>
#include "../core/real.h"

// From xyz (N, PF_NUM_BB, 3) in A and atom_mask (N) (bit k: atom PF_AT_k
// present) as the batch holds them (backbone_xyz, backbone_mask), chain (N) or NULL (one chain; the previous residue of residue i is
// residue i - 1 when it is in the same chain):
//   R (N, 3, 3), t (N, 3), frame_mask (N): backbone frames (AF2 Alg. 21 from
//       N, CA, C; t is the CA); mask 0 where an atom is missing or collinear.
//   tors, tors_alt (N, 7, 2), tors_mask (N, 7): unit (sin, cos) of pre-omega,
//       phi and psi as OpenFold's atom37_to_torsion_angles defines them (each
//       from a frame on its first three atoms; psi from the O, mirrored by pi);
//       the chi angles are masked out (side chains are not read), so alt = tors.
void pf_truth_from_backbone(int64_t N, const real *xyz, const int32_t *atom_mask, const int32_t *chain, real *R,
                            real *t, real *frame_mask, real *tors, real *tors_alt, real *tors_mask);

#endif
