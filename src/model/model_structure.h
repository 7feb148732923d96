// model_structure.h: the structure module (structure.h) after the trunk of the
// model (model.h): the single representation it reads, the truth from the
// batch. With the CPU backend: host copies in and gradients out through the
// CPU reference (structure.h); with a device backend (be->device_memory): the
// backend's structure entries on s and z where they are (structure_dev.h).
#ifndef PF_MODEL_STRUCTURE_STEP_H
#define PF_MODEL_STRUCTURE_STEP_H
#include "model.h"

// Declare its parameters (cfg.structure_module == 1): the Evoformer's
// evoformer.linear (s = m_0 W^T + b, AF2 Alg. 6 line 12), the structure module
// and the pLDDT / PAE heads (structure.h).
void pf_model_structure_declare(pf_model *M);
// After the trunk's final pass: its losses into r (loss += weighted sum; fape,
// lddt_ca) and, when training, their gradients into M->dz and M->dm (Evoformer,
// through evoformer.linear) or M->ds (Pairformer); call after those are zeroed.
// out (evaluation only; may be NULL): the module's prediction of that same forward.
void pf_model_structure_step(pf_model *M, const pf_batch *b, int64_t step, int training, pf_step_result *r,
                             pf_structure_pred *out);

#endif
