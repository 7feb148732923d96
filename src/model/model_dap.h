// model_dap.h: the model's sharded trunk (model-internal; see model_dap.c).
#ifndef PF_MODEL_DAP_H
#define PF_MODEL_DAP_H
#include "model.h"
#include "dap.h"

void pf_model_dap_free(pf_model *M);
// Re-plan the arenas (model.c), e.g. without the trunk once it is sharded.
void pf_model_replan(pf_model *M);
// The index (in the model's forward order: MSA stack, then trunk) of the first
// block that runs sharded: 0 when the AF3 MSA module does, else the trunk's first.
int pf_model_dap_first(const pf_model *M);
// The sharded blocks (keys: each block's dropout key, from pf_model_dap_first on)
// on this rank's shard: M->z, M->s (Pairformer) and M->m (Evoformer, sharded MSA
// module; S rows) in, the same out (gathered).
// save: keep what the backward needs.
void pf_model_dap_trunk_fwd(pf_model *M, int64_t N, int64_t S, const uint64_t *keys, int save, int training);
// M->dz, M->ds, M->dm of the sharded blocks' outputs in, of their inputs out.
void pf_model_dap_trunk_bwd(pf_model *M, const uint64_t *keys);
// Bytes of the sharded trunk's saved arena (every block's saved regions, or with
// recompute one block's and the snapshots): for tests and reports.
size_t pf_model_dap_saved_bytes(const pf_model *M);
// After a training step on ranks != 0 of the group: drop the replicated gradients.
void pf_model_dap_drop(pf_model *M);

#endif
