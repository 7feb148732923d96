// synthetic.h: `--data synthetic`: a fixed set of random proteins whose CA
// trace follows their sequence (helix / strand / loop residues come from
// different alphabets and have different local geometry), so a model can learn
// distances from sequence and the loss can fall. For tests and smoke runs.
#ifndef PF_SYNTHETIC_H
#define PF_SYNTHETIC_H
#include "../data/batch.h"
#include "../model/config.h"

pf_batch_source *pf_synthetic_source_create(const pf_config *cfg);

#endif
