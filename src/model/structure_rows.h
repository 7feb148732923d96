// structure_rows.h: the structure module's prediction on a dap rank's rows of z
// (docs/PARALLEL.md "The structure module on z's rows"), so that z is never
// gathered whole: IPA's pair terms (the bias b_ij from z_ij, the pair average
// over z_i.) read row i of z only, and the PAE head is one Linear per pair.
// Inference only, host path (backends whose activations are host memory and
// that have the ipa_fwd_rows entry: pf_structure_rows_possible).
#ifndef PF_MODEL_STRUCTURE_ROWS_H
#define PF_MODEL_STRUCTURE_ROWS_H
#include "structure.h"
#include "../backend/backend.h"

// Whether be can run it: the ipa_fwd_rows entry, activations in host memory.
int pf_structure_rows_possible(const pf_backend *be);

// This rank's rows of z: rows i0 .. i0 + n - 1 of the padded (Np, Np, c_z) pair
// tensor in the executor's layout (n, Np, c_z), pad entries zero; i0 = rank n.
typedef struct {
    const pf_dap_comm *c;
    int64_t i0, n, Np;
} pf_sm_rows;

// pf_structure_head_predict with z as rows; s (N, c_s) whole on every rank. Each
// layer: IPA and its linear_out of the rank's rows, one all-gather of the (n, c_s)
// update, the rest per residue replicated; pLDDT replicated; the PAE logits of
// the rank's rows gathered a row block at a time (every rank gets the (N, N)
// expected error and the pTM; no rank holds the (N, N, n_bins) logits). Every
// rank of the group calls it with the same s, mask and N: the same outputs.
void pf_structure_head_predict_rows(pf_structure_head *h, pf_backend *be, const pf_sm_rows *rows, int64_t N,
                                    const pf_act *s, const pf_act *z_rows, const real *seq_mask,
                                    pf_structure_pred *out);

#endif
