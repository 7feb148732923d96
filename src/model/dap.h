// dap.h: axial parallelism of the pair tensor (FastFold's Dynamic Axial
// Parallelism, 1D) for the AF3 Pairformer block.
//
// The P ranks of a dap group (pf_dap_comm, backend.h) work on one structure.
// The pair tensor is padded to Np = P n tokens (n = ceil(N / P); pad tokens are
// masked) and rank r holds its rows [r n, (r + 1) n): z (n, Np, c_z). Row-wise
// steps run on those rows (triangle multiplication outgoing with b gathered,
// triangle attention around the starting node with the bias gathered, the pair
// transition); column-wise steps (incoming, ending node) run the same way on the
// all-to-all transpose of z and transpose their update back. The single
// representation s (Np, c_s) stays replicated: single attention gathers its pair
// bias from the ranks' rows, and every rank computes the same s update.
//
// Gradients: the backward mirrors the forward (gathers become reduce-scatters,
// transposes transpose back). A parameter's gradient on a rank is that rank's
// share: sum them over the dap group (then, as always, over the data-parallel
// group). Parameters used only on the replicated single representation (single
// attention's q, k, v, g, o and LayerNorm; the single transition) would count P
// times; ranks other than 0 of the group therefore send those gradients to a
// scratch buffer, so the group sum counts them once.
#ifndef PF_DAP_H
#define PF_DAP_H
#include "block.h"

// A Pairformer block's steps at the shard's sizes.
typedef struct {
    const pf_block *b;        // the declared block: parameters and step list (not modified)
    int P, rank;              // group size, this rank's index
    int64_t N, n, Np;         // tokens, rows per rank, padded width P n
    pf_step_dims d[PF_MAX_STEPS];
    pf_mem mem[PF_MAX_STEPS];
    size_t saved_off[PF_MAX_STEPS];
    size_t saved_bytes, ws_bytes;  // for pf_dap_block_fwd / _bwd (ws includes the transposes)
    real *discard;            // backend memory: replicated gradients of ranks != 0 (see above)
} pf_dap_block;

// The sharded streams and masks of one pass.
typedef struct {
    pf_act *z;             // (n, Np, c_z) this rank's rows
    pf_act *s;             // (Np, c_s) replicated
    const pf_act *pair;    // (n, Np) this rank's rows of the pair mask
    const pf_act *pair_t;  // (n, Np) this rank's rows of the transposed pair mask
    const pf_act *seq;     // (Np) token mask, 0 on pad tokens
} pf_dap_streams;

// Rows per rank for N tokens over P ranks: ceil(N / P).
static inline int64_t pf_dap_rows(int64_t N, int P) { return (N + P - 1) / P; }

// 0, or -1 and a message when `be` lacks the sharded ops or the block is not a
// Pairformer block.
int pf_dap_check(const pf_block *b, pf_backend *be, char *err, size_t n);
// Sizes for N tokens over the group c (dies with pf_dap_check's message).
void pf_dap_block_plan(pf_dap_block *db, const pf_block *b, pf_backend *be, const pf_dap_comm *c, int64_t N);
void pf_dap_block_free(pf_dap_block *db, pf_backend *be);
// As pf_block_fwd / pf_block_bwd (block.h), on the shard. delta: n Np c_z
// activations (at least Np c_s). Every rank of the group calls these together.
void pf_dap_block_fwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st, void *saved,
                      void *ws, pf_act *delta, uint64_t key, int training);
// d: gradients of the outputs on entry, of the inputs on return (d->pair etc. unused).
void pf_dap_block_bwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st,
                      pf_dap_streams *d, const void *saved, void *ws, pf_act *d_delta, uint64_t key);

#endif
