// residue_geometry.h: ideal rigid-group geometry of the 20 amino acids (AF2
// supplement 1.8): every heavy atom's rigid group and its position in that
// group's frame, and each group's default frame (torsion 0) in its parent's
// frame. The numbers are measured on the bundled high-resolution structures by
// tools/gen_residue_geometry.py, which writes residue_geometry.c (generated, do
// not edit) and documents the frame conventions.
//
// Groups: 0 backbone (N, CA, C, CB), 1 pre-omega, 2 phi (no heavy atom moves
// with either), 3 psi (O), 4..7 chi1..chi4. Group g's frame in the residue is
//   F_0 = the backbone frame (Alg. 21: origin CA, x along C - CA, N in the xy plane)
//   F_g = F_parent(g) o D_g o R_x(torsion g - 1), parent 0 for g <= 4, else g - 1,
// R_x(a) the rotation by a about x; torsions in AF2's order pre-omega, phi,
// psi, chi1..4 (psi = dihedral(N, CA, C, O) + pi, as structure_truth.c).
// Atoms per residue in PDB order: N, CA, C, O, then the side chain (CB first),
// so the first five are PF_AT_N .. PF_AT_CB for every type but glycine.
// Token 20 (unknown) has alanine's atoms.
#ifndef PF_RESIDUE_GEOMETRY_H
#define PF_RESIDUE_GEOMETRY_H
#include <stdint.h>

#define PF_NUM_RESTYPES 21
#define PF_MAX_RES_ATOMS 14  // tryptophan
#define PF_NUM_RIGID_GROUPS 8
#define PF_MAX_CHI 4
enum { PF_RG_BACKBONE = 0, PF_RG_PRE_OMEGA, PF_RG_PHI, PF_RG_PSI, PF_RG_CHI1 };

typedef struct {
    char name[4];     // PDB atom name ("CD1")
    char element[3];  // "C", "N", "O", "S"
    int8_t group;     // rigid group 0..7
    double pos[3];    // position in the group's frame, A
} pf_rg_atom;

typedef struct {
    char resname[4];                    // "ARG"
    int n_atoms;                        // heavy atoms (OXT not included)
    int n_chi;                          // chi angles 0..4
    int pi_periodic_chi;                // k (1-based) when chi k is pi-periodic (symmetric atoms), else 0
    char chi_atoms[PF_MAX_CHI][4][4];   // the four atoms of each chi (IUPAC)
    pf_rg_atom atoms[PF_MAX_RES_ATOMS];
    double default_frame[PF_NUM_RIGID_GROUPS][4][3];  // D_g: rows of R, then t
    char swaps[2][2][4];                // atom pairs renamed by the symmetry ("OD1", "OD2"), "" when none
} pf_residue_geometry;

extern const pf_residue_geometry pf_residue_geometry_table[PF_NUM_RESTYPES];

static inline int pf_rg_parent(int g) { return g <= PF_RG_CHI1 ? PF_RG_BACKBONE : g - 1; }

// The atom index of name in residue type tok (0..20), or -1.
int pf_rg_atom_index(int tok, const char *name);

#endif
