// structure_atoms.h: a residue's backbone atoms from its predicted frame (AF2
// supplement 1.8: atoms sit at fixed positions in their rigid group's frame).
// N, CA, C and CB are in the backbone frame; O is in the psi frame, the backbone
// frame moved to C and turned by psi about the CA-C axis (AF2 Alg. 24 for the
// backbone and psi groups). The ideal positions are alanine's (AF2
// residue_constants); across the 20 amino acids those differ by less than 0.05 A.
// Side-chain atoms (chi groups) are not placed yet.
#ifndef PF_STRUCTURE_ATOMS_H
#define PF_STRUCTURE_ATOMS_H
#include "../core/real.h"
#include "../data/structure.h"

// xyz[PF_AT_*] for N, CA, C, O, CB of residue token tok (0..20, PF_AA_ORDER) with
// frame R (3, 3) row-major, t (3) (x_global = R x_local + t); psi_sincos (sin, cos)
// of psi, or NULL (then O is not placed). Returns the mask of atoms placed (bit
// PF_AT_*): CB for every residue but glycine.
int pf_backbone_atoms(const real *R, const real *t, const real *psi_sincos, int tok, real xyz[PF_NUM_BB][3]);

#endif
