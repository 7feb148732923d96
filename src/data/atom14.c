// atom14.c: a chain's residue in atom slots (atom14.h).
#include "atom14.h"
#include <string.h>
#include "batch.h"

uint16_t pf_chain_atom14(const pf_chain *c, int i, float *xyz) {
    const int tok = c->tok[i] < PF_NUM_RESTYPES ? c->tok[i] : PF_NUM_RESTYPES - 1;
    const int met = tok == (int)(strchr(PF_AA_ORDER, 'M') - PF_AA_ORDER);
    uint16_t mask = 0;
    memset(xyz, 0, sizeof(float) * PF_MAX_RES_ATOMS * 3);
    for (int k = c->atom_start ? c->atom_start[i] : 0; c->atom_start && k < c->atom_start[i + 1]; k++) {
        const pf_atom *at = &c->atoms[k];
        int a = pf_rg_atom_index(tok, met && !strcmp(at->name, "SE") ? "SD" : at->name);
        if (a < 0 || (mask >> a & 1)) continue;
        memcpy(xyz + 3 * a, at->xyz, sizeof(float) * 3);
        mask |= (uint16_t)(1u << a);
    }
    return mask;
}
