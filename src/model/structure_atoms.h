// structure_atoms.h: every heavy atom of a residue from its frame and torsions
// (AF2 supplement 1.8, Alg. 24: rigid groups with ideal geometry,
// backend/residue_geometry.h; the math in cpu/cpu_allatom.h), the all-atom
// truth of a structure (group frames, chi angles, Alg. 25-ish) and the
// side-chain FAPE of AF2 1.9.2 built from them.
//
// Atom slots: PF_MAX_RES_ATOMS (14) per residue, residue_geometry.h's order
// (N, CA, C, O, side chain in PDB order); torsions (7, 2) unit or unnormalised
// (sin, cos) in AF2's order pre-omega, phi, psi, chi1..4.
#ifndef PF_STRUCTURE_ATOMS_H
#define PF_STRUCTURE_ATOMS_H
#include <stdint.h>
#include "../core/real.h"
#include "../data/structure.h"
#include "../backend/residue_geometry.h"
#include "../backend/struct_modules.h"

// The atoms of residue token tok (0..20, PF_AA_ORDER; 20 and others: alanine's)
// with frame R (3, 3) row-major, t (3) (x_global = R x_local + t) and torsions
// tors (7, 2), or NULL: then only the backbone group (N, CA, C, CB) is placed.
// Writes xyz[a] for a < the type's atom count and returns the mask of slots
// placed (bit a).
int pf_residue_atoms(const real *R, const real *t, const real *tors, int tok, real xyz[PF_MAX_RES_ATOMS][3]);

// Residue i of chain c in atom slots: xyz (14, 3) and mask (14) (1 where the
// file has the atom under its PDB name; MSE's SE is read as MET's SD).
// Returns the number of atoms found.
int pf_chain_residue_atoms(const pf_chain *c, int i, real *xyz, real *mask);

// The all-atom truth of N residues from xyz (N, 14, 3), atom_mask (N, 14),
// aatype (N), chain (N) or NULL (one chain): group frames group_R (N, 8, 3, 3),
// group_t (N, 8, 3) and group_mask (N, 8) (backbone from N, CA, C; psi from
// CA, C, O; chi k from its four atoms; pre-omega and phi never: no heavy atom
// moves with them); when tors is not NULL the torsions tors, tors_alt (N, 7,
// 2) unit (sin, cos) and tors_mask (N, 7): pre-omega, phi and psi as
// structure_truth.h, chi k = dihedral of its four atoms, tors_alt = tors + pi
// on the pi-periodic chi (ASP chi2, GLU chi3, PHE chi2, TYR chi2).
void pf_truth_from_atoms(int64_t N, const int32_t *aatype, const real *xyz, const real *atom_mask,
                         const int32_t *chain, real *group_R, real *group_t, real *group_mask, real *tors,
                         real *tors_alt, real *tors_mask);

// The side-chain truth of a batch (atom14_xyz (N, 14, 3), atom14_mask (N) bits,
// data/atom14.h): atom_mask (N, 14) = the bits within the residue type's slots,
// and the chi targets (pf_truth_from_atoms) written into tors, tors_alt,
// tors_mask (N, 7, 2 / 7) at chi1..4, leaving pre-omega, phi and psi as they are.
// Returns 1 when any side-chain atom (beyond CB) is present, else 0 (nothing written
// but atom_mask).
int pf_truth_side_chains(int64_t N, const int32_t *aatype, const real *atom14_xyz, const int32_t *atom14_mask,
                         const int32_t *chain, real *atom_mask, real *tors, real *tors_alt, real *tors_mask);

// AF2 Alg. 26 simplified: for each residue with symmetric atoms (ASP, GLU,
// PHE, TYR), the naming of true_xyz (N, 14, 3) (as is, or with the pairs of
// residue_geometry.h's swaps exchanged) whose distances to every present atom
// of the other residues best match pred_xyz's (sum of |d_pred - d_true|),
// written back into true_xyz (and atom_mask). AF2 compares only to
// non-ambiguous atoms and uses lDDT-like weights; this uses every other
// residue's atoms. Returns the number of residues renamed.
int pf_rename_symmetric(int64_t N, const int32_t *aatype, const real *pred_xyz, real *true_xyz, real *atom_mask);

// Side-chain FAPE (AF2 1.9.2 / Alg. 28 with all frames and atoms): from the
// predicted backbone frames R (N, 3, 3), t (N, 3) and unnormalised torsions
// angles (N, 7, 2) (Alg. 24), against the truth xyz (N, 14, 3), atom_mask
// (N, 14) renamed as pf_rename_symmetric does; FAPE (clamp in A, <= 0: none)
// over every group of group_mask present in the truth and every atom present
// in both, seq_mask (N) or NULL. Accumulates scale * d loss into d_R, d_t,
// d_angles (each may be NULL). Returns the loss (0 with nothing to compare).
double pf_sidechain_fape(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                         const real *true_xyz, const real *true_mask, const real *seq_mask, double clamp,
                         double scale, real *d_R, real *d_t, real *d_angles);

#endif
