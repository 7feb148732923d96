// atom14.h: a residue's heavy atoms in fixed slots (backend/residue_geometry.h:
// N, CA, C, O, then the side chain in PDB order; PF_MAX_RES_ATOMS slots), what
// the feature cache keeps for the structure module's side-chain losses.
#ifndef PF_ATOM14_H
#define PF_ATOM14_H
#include <stdint.h>
#include "structure.h"
#include "../backend/residue_geometry.h"

// Residue i of chain c: xyz (14, 3) in A (0 where absent); returns the mask
// (bit a: slot a present under its PDB name; the first copy of a name; MSE's SE
// as MET's SD; hydrogens, OXT and unknown names ignored).
uint16_t pf_chain_atom14(const pf_chain *c, int i, float *xyz);

#endif
