// structure_atoms.c: see structure_atoms.h.
#include "structure_atoms.h"
#include <string.h>
#include "../data/batch.h"

// Alanine's atoms in the backbone frame (origin CA, x along CA->C, N in the xy
// plane with y > 0) and O in the psi frame, Angstrom (AF2 residue_constants).
static const double BB_N[3] = {-0.525, 1.363, 0.0};
static const double BB_C[3] = {1.526, 0.0, 0.0};
static const double BB_CB[3] = {-0.529, -0.774, -1.205};
static const double PSI_O[3] = {0.627, 1.062, 0.0};

static void place(const real *R, const real *t, const double *x, real *y) {
    for (int r = 0; r < 3; r++) y[r] = (real)(R[3 * r] * x[0] + R[3 * r + 1] * x[1] + R[3 * r + 2] * x[2] + t[r]);
}

int pf_backbone_atoms(const real *R, const real *t, const real *psi_sincos, int tok, real xyz[PF_NUM_BB][3]) {
    const double zero[3] = {0, 0, 0};
    int mask = (1 << PF_AT_N) | (1 << PF_AT_CA) | (1 << PF_AT_C);
    place(R, t, BB_N, xyz[PF_AT_N]);
    place(R, t, zero, xyz[PF_AT_CA]);
    place(R, t, BB_C, xyz[PF_AT_C]);
    for (int k = 0; k < 3; k++) xyz[PF_AT_O][k] = xyz[PF_AT_CB][k] = 0;
    if (psi_sincos) {
        // psi frame in the backbone frame: axes (1,0,0), (0,-1,0), (0,0,-1) (from C - CA
        // and CA - N), origin C, then the rotation by psi about its x axis
        double s = psi_sincos[0], c = psi_sincos[1];
        double o[3] = {BB_C[0] + PSI_O[0], -(c * PSI_O[1] - s * PSI_O[2]), -(s * PSI_O[1] + c * PSI_O[2])};
        place(R, t, o, xyz[PF_AT_O]);
        mask |= 1 << PF_AT_O;
    }
    if (tok != (int)(strchr(PF_AA_ORDER, 'G') - PF_AA_ORDER)) {
        place(R, t, BB_CB, xyz[PF_AT_CB]);
        mask |= 1 << PF_AT_CB;
    }
    return mask;
}
