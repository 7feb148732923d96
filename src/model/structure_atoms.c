// structure_atoms.c: a residue's atoms from its frame and torsions, and a
// chain's residue in atom slots (structure_atoms.h).
#include "structure_atoms.h"
#include <string.h>
#include "../cpu/cpu_allatom.h"
#include "../data/batch.h"

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
    const int tok = c->tok[i] < PF_NUM_RESTYPES ? c->tok[i] : PF_NUM_RESTYPES - 1;
    const int met = tok == (int)(strchr(PF_AA_ORDER, 'M') - PF_AA_ORDER);
    int found = 0;
    memset(xyz, 0, sizeof(real) * PF_MAX_RES_ATOMS * 3);
    memset(mask, 0, sizeof(real) * PF_MAX_RES_ATOMS);
    for (int k = c->atom_start ? c->atom_start[i] : 0; c->atom_start && k < c->atom_start[i + 1]; k++) {
        const pf_atom *at = &c->atoms[k];
        int a = pf_rg_atom_index(tok, met && !strcmp(at->name, "SE") ? "SD" : at->name);
        if (a < 0 || mask[a]) continue;  // hydrogens, OXT, unknown names; the first copy of a name
        for (int e = 0; e < 3; e++) xyz[3 * a + e] = at->xyz[e];
        mask[a] = 1;
        found++;
    }
    return found;
}
