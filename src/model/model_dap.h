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

// The model's z-sized tensors as this rank's rows (model_dap_heads.c): z, z_prev,
// d z and the z-sized part of tmp_a, tmp_b are (n, Np, c_z), rows i0 .. i0 + n - 1
// of the padded pair tensor (dap.h), pad entries zero, when every block that
// touches z runs sharded (pf_model_dap_zrows_possible; decided at attach).
int pf_model_dap_zrows_possible(const pf_model *M);
int pf_model_dap_zrows(const pf_model *M);
// The group's communicator (M->dap set).
const pf_dap_comm *pf_model_dap_comm(const pf_model *M);
// How many times a whole z-sized tensor was gathered onto every rank (0 without dap).
int64_t pf_model_dap_z_gathers(const pf_model *M);
void pf_model_dap_rows_of(const pf_model *M, int64_t N, int64_t *i0, int64_t *n, int64_t *Np);
// Zero the pad entries of x (n, Np, C) (the pad columns of the rows that hold tokens, the pad rows).
void pf_model_dap_zero_pads(pf_model *M, int64_t N, pf_act *x, int C);
// The distogram loss of M->z's rows (the group's, on every rank); pb_mask (N):
// the batch's pseudo-beta mask (the pair mask is its outer product). training:
// scale * d loss added into M->dz, this rank's share into the head's gradients.
// Uses tmp_a, tmp_b; every rank of the group calls it.
double pf_model_dap_disto(pf_model *M, int64_t N, const real *pb_mask, double scale, int training);
// The distogram logits of every rank's rows (A^T + z W^T + b, pf_model_dap_disto's), gathered a
// few rows at a time: each gather brings k <= rows_max (0: no bound) consecutive rows of every rank
// (rows q n + r0 .. q n + r0 + k - 1 of rank q, side by side), then row(ctx, i, l) on every rank for
// each token row i < N of it, rank by rank, l (N, n_bins) on the host; row NULL: the collectives
// alone (a rank that keeps no output). rows_max must be the same on every rank (one collective per
// gather). Uses tmp_a, tmp_b; every rank of the group calls it.
void pf_model_dap_disto_rows(pf_model *M, int64_t N, int64_t rows_max, void (*row)(void *ctx, int64_t i, const real *l),
                             void *ctx);

#endif
