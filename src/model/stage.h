// stage.h: host staging of batches for upload (model-internal; see stage.c).
#ifndef PF_STAGE_H
#define PF_STAGE_H
#include "model.h"

void pf_stage_alloc(pf_model *M, pf_dims cap);  // two slots sized for cap
void pf_stage_free(pf_model *M);
pf_dims pf_batch_dims(const pf_model *M, const pf_batch *b);
// Queue the batch's copies into the activation arena (carved for M->cap) from
// its staged slot, packing it first if it was not staged; returns host ms spent.
double pf_stage_upload(pf_model *M, const pf_batch *b, pf_dims d);

#endif
