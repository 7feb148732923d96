// dap.h: axial parallelism of the pair tensor (FastFold's Dynamic Axial
// Parallelism, 1D) for the AF3 Pairformer and MSA-module blocks and the AF2
// Evoformer block.
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
// Evoformer: the MSA m (S, N, c_m), its rows padded to Sp = P s, is held by
// columns, m (Sp, n, c_m), the tokens of the rank's rows of z. MSA column
// attention and the MSA transition are local; MSA row attention runs on the row
// shard (s, Np, c_m) (an all-to-all re-shard each way) with its pair bias
// gathered from z's rows; the outer product mean gathers its other operand.
// AF3 MSA module: m held by columns as in the Evoformer; the outer product mean
// as there, pair-weighted averaging with the weights of the rank's rows of z and
// v of every column gathered, the MSA transition local.
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
    int64_t S, s, Sp;         // MSA rows, rows per rank in the row shard, padded P s (Evoformer)
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
    pf_act *m;             // Evoformer: (Sp, n, c_m) this rank's columns of the MSA
    const pf_act *msa;     // (Sp, n) the MSA mask's columns
    const pf_act *msa_rows;  // (s, Np) rows [r s, (r + 1) s) of the MSA mask
} pf_dap_streams;

// Rows per rank for N tokens over P ranks: ceil(N / P).
static inline int64_t pf_dap_rows(int64_t N, int P) { return (N + P - 1) / P; }

// 0, or -1 and a message when `be` lacks the sharded ops or the block is not a
// Pairformer, Evoformer or AF3 MSA-module block.
int pf_dap_check(const pf_block *b, pf_backend *be, char *err, size_t n);
// Sizes for N tokens and S MSA rows over the group c (dies with pf_dap_check's message).
void pf_dap_block_plan(pf_dap_block *db, const pf_block *b, pf_backend *be, const pf_dap_comm *c, int64_t N,
                       int64_t S);
void pf_dap_block_free(pf_dap_block *db, pf_backend *be);
// As pf_block_fwd / pf_block_bwd (block.h), on the shard. delta: the largest of
// n Np c_z, Np c_s and Sp n c_m activations. Every rank of the group calls these together.
void pf_dap_block_fwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st, void *saved,
                      void *ws, pf_act *delta, uint64_t key, int training);
// d: gradients of the outputs on entry, of the inputs on return (d->pair etc. unused).
void pf_dap_block_bwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st,
                      pf_dap_streams *d, const void *saved, void *ws, pf_act *d_delta, uint64_t key);

#endif
