// query_batch.h: the batch of one query for inference: an alignment (row 0 the
// query) and, for AlphaFold 3 input, the chain / entity / copy / residue index of
// every residue, turned into the model's features (AF2 supplement 1.2.7 - 1.2.9)
// the way training batches are (pf_batch_fill_features).
#ifndef PF_QUERY_BATCH_H
#define PF_QUERY_BATCH_H
#include "batch.h"
#include "af3_input.h"

// Allocate and fill b (N = a->L tokens): alignment rows 0..S-1 are the cluster
// rows, rows S..S+E-1 the extra-MSA rows; rows the alignment lacks are masked
// padding (gap tokens, mask 0). ids may be NULL: one chain, residue index = column.
// No structure: pseudo_beta_mask is 0 everywhere.
void pf_batch_from_query(const pf_msa *a, const pf_af3_query *ids, int S, int E, pf_batch *b);

#endif
