// structure_dev.h: the structure module with its losses and confidence heads
// through the backend's structure entries (backend.h "structure module"), for
// backends whose buffers are device memory (CUDA). The module, the pLDDT
// network and the PAE logits run on the backend; FAPE, the side-chain FAPE,
// the torsion loss, lDDT-Ca, the aligned errors and the pLDDT cross-entropy run
// on the host on the downloaded frames, angles and logits (O(L N^2) scalars at
// most). Same math as structure.c's host path (pf_structure_head_train / _eval):
// both call the same loss functions (pf_structure_fape_mix,
// pf_structure_torsion_layers, pf_structure_sidechain_fape).
#ifndef PF_MODEL_STRUCTURE_DEV_H
#define PF_MODEL_STRUCTURE_DEV_H
#include "structure.h"
#include "../backend/backend.h"

// s (N, c_s), z (N, N, c_z) are the trunk's outputs in backend memory;
// seq_mask (N) on the host. training != 0: accumulates the gradients into the
// registry's buffers and into d_s, d_z (backend memory, each may be NULL);
// otherwise out (may be NULL) receives the prediction (host arrays).
pf_structure_losses pf_structure_head_run_dev(pf_structure_head *h, pf_backend *be, int64_t N, const pf_act *s,
                                              const pf_act *z, const real *seq_mask, const pf_structure_truth *tr,
                                              double clamp, int training, pf_act *d_s, pf_act *d_z,
                                              pf_structure_pred *out);

#endif
