// structure_atoms.c: a residue's atoms from its frame and torsions, and a
// chain's residue in atom slots (structure_atoms.h).
#include "structure_atoms.h"
#include <string.h>
#include "../cpu/cpu_allatom.h"
#include "../data/atom14.h"

int pf_residue_atoms(const real *R, const real *t, const real *tors, int tok, real xyz[PF_MAX_RES_ATOMS][3]) {
    const int32_t aa = tok >= 0 && tok < PF_NUM_RESTYPES ? tok : PF_NUM_RESTYPES - 1;
    const pf_residue_geometry *G = &pf_residue_geometry_table[aa];
    real ang[2 * PF_NUM_TORSIONS] = {0};
    for (int k = 0; k < PF_NUM_TORSIONS; k++) ang[2 * k + 1] = 1;  // torsion 0 when none given
    if (tors) memcpy(ang, tors, sizeof ang);
    cpu_allatom_fwd(1, &aa, R, t, ang, NULL, NULL, &xyz[0][0]);
    int mask = 0;
    for (int a = 0; a < G->n_atoms; a++)
        if (tors || G->atoms[a].group == PF_RG_BACKBONE) mask |= 1 << a;
    return mask;
}

int pf_chain_residue_atoms(const pf_chain *c, int i, real *xyz, real *mask) {
    float x[PF_MAX_RES_ATOMS * 3];
    const unsigned m = pf_chain_atom14(c, i, x);
    int found = 0;
    for (int a = 0; a < PF_MAX_RES_ATOMS; a++) {
        mask[a] = (real)(m >> a & 1);
        found += m >> a & 1;
        for (int e = 0; e < 3; e++) xyz[3 * a + e] = x[3 * a + e];
    }
    return found;
}
