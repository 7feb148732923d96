// backend.h: the interface between the model and the hardware.
//
// The model is written once against this struct of function pointers. Entry
// points are whole modules (an attention module, a triangle multiplication, an
// outer product mean, ...), so that a backend may fuse freely inside one: fold
// LayerNorm into projections, keep attention logits on chip, run a whole
// triangle multiplication in a few kernels. The CPU backend (src/cpu) is the
// readable reference; a GPU backend differs only in its kernels.
//
// Conventions, for every module op:
//  * pf_act buffers live in backend memory and hold activations in the
//    backend's activation type (act_bytes per element: 4 or 8 on the CPU,
//    2 for bf16 on a GPU). Parameters and their gradients are `real` (fp32
//    master weights on a GPU) in backend memory.
//  * M_mem(dims) tells how many bytes the op saves for its backward (`saved`)
//    and how much scratch it needs (`ws`, shared by fwd and bwd), so the
//    caller can plan one arena up front.
//  * M_fwd writes (overwrites) `out`, which has the layout of the module's
//    residual stream, and stores what the backward needs in `saved` (saved may
//    be NULL for inference: then nothing is stored).
//  * M_bwd reads `saved` and the same masks as the forward, ACCUMULATES (+=)
//    into parameter gradients and into input gradients (d_x, d_z, ...; NULL
//    means not wanted). Input gradients never alias d_out. Calling a backward
//    twice therefore doubles every gradient (tested).
#ifndef PF_BACKEND_H
#define PF_BACKEND_H
#include <stddef.h>
#include <stdint.h>
#include "../core/real.h"
#include "modules.h"
#include "struct_modules.h"
#include "device.h"

typedef struct pf_act pf_act;  // opaque: activations in backend memory
// Bytes an op needs: saved (kept from its forward for the backward), ws (workspace
// of a forward that saves, and of the backward) and ws_fwd (workspace of a forward
// with saved == NULL, inference: a backend may run that forward in chunks and
// needs no room for the backward; ws_fwd <= ws). A backend may keep less in saved
// and recompute the rest in the backward, and run the backward in pieces, to keep
// saved + ws small (CUDA trimul: saved is z alone, the backward recomputes the
// products in pieces of channels; docs/TRIMUL.md).
typedef struct { size_t saved, ws, ws_fwd; } pf_mem;

// Dropout on a (A, B, C) delta before it is added to the residual stream.
// shared_axis 0: one mask for every a ("row-wise" in the papers: the mask
// depends on (b, c)); 1: one mask for every b ("column-wise": depends on (a, c));
// -1: independent. The keep decision for element (u, v) of the mask is
// pf_uniform_f(key, (u0 + u) * C + v) >= rate, scaled by 1 / (1 - rate).
typedef struct {
    int64_t A, B;
    int C;
    float rate;       // 0: no dropout (evaluation)
    int shared_axis;  // 0, 1 or -1
    uint64_t key;     // from (seed, step, block, site)
    int64_t u0;       // shared masks: the index of this tensor's first mask row in the whole
                      // tensor's mask (a shard's offset under dap: its first column); 0 otherwise
} pf_dropout;

typedef struct {
    float lr, beta1, beta2, eps, weight_decay;
    int64_t step;  // 1-based step of this update (bias correction)
} pf_adamw_hp;

// The argument list of a module op with one input (a) or two (a, b): see ops.def.
#define PF_OP_ARGS_1(a, b) a
#define PF_OP_ARGS_2(a, b) a, b
// A module op's signatures, as slots (PF_MODULE_OP_SLOTS) or as the declarations
// of a backend's implementations prefix##name##_mem / _fwd / _bwd (PF_MODULE_OP_DECLARE).
#define PF_MODULE_OP_SIGS(mem, fwd, bwd, D, P, n_in)                                                   \
    pf_mem mem(pf_backend *be, const D *d);                                                           \
    void fwd(pf_backend *be, const D *d, const P *p, PF_OP_ARGS_##n_in(const pf_act *x, const pf_act *x2), \
             const pf_act *mask, pf_act *out, void *saved, void *ws);                                 \
    void bwd(pf_backend *be, const D *d, const P *p, P *g, const pf_act *mask, const void *saved,       \
             const pf_act *d_out, PF_OP_ARGS_##n_in(pf_act *d_x, pf_act *d_x2), void *ws);
#define PF_MODULE_OP_SLOTS(name, D, P, n_in) PF_MODULE_OP_SIGS((*name##_mem), (*name##_fwd), (*name##_bwd), D, P, n_in)
#define PF_MODULE_OP_DECLARE(prefix, name, D, P, n_in) \
    PF_MODULE_OP_SIGS(prefix##name##_mem, prefix##name##_fwd, prefix##name##_bwd, D, P, n_in)

typedef struct pf_backend pf_backend;

// Axial parallelism (FastFold's DAP, src/model/dap.h): the P ranks of a dap
// group each hold rows [rank * n, (rank + 1) * n) of a padded (P n, P n, c) pair
// tensor. A module op that needs more than its own rows gets them through these
// collectives, called in the same order on every rank of the group. Buffers are
// in the backend's memory. Gathers and all-to-alls count bytes (they move
// activations of any type unchanged: bf16 stays bf16); sum counts reals.
typedef struct pf_dap_comm pf_dap_comm;
struct pf_dap_comm {
    int rank, size;  // this rank's index in its dap group, P
    // out (P blocks of `bytes`) = the group's x, in rank order. x may be out's own
    // block (out + rank * bytes: in place).
    void (*all_gather)(const pf_dap_comm *c, const void *x, void *out, size_t bytes);
    // x, out: P blocks of `bytes`; block q of x goes to rank q, block q of out came from rank q
    void (*all_to_all)(const pf_dap_comm *c, const void *x, void *out, size_t bytes);
    // x (n reals) = sum over the group of x, the same order on every call
    void (*sum)(const pf_dap_comm *c, real *x, int64_t n);
    // Optional (NULL: not available): group_start / group_end bracket several
    // gathers or all-to-alls that the backend may then issue as one (NCCL groups);
    // their results are complete after group_end.
    void (*group_start)(const pf_dap_comm *c);
    void (*group_end)(const pf_dap_comm *c);
    // Optional: milliseconds the group's collectives took on the device since the
    // last reset (waiting for the other ranks included); reset != 0 starts again.
    double (*comm_ms)(const pf_dap_comm *c, int reset);
    void *ctx;
};

// How the ranks of a data-parallel run reach each other on the host (MPI or a
// TCP group, src/train/dist.c): what a backend needs to set up its own
// collectives. bcast copies rank 0's n bytes at buf to every rank's buf.
typedef struct {
    int rank, world;
    void (*bcast)(void *ctx, void *buf, size_t n);
    void *ctx;
} pf_coll_host;

struct pf_backend {
    const char *name;
    int act_bytes;  // bytes per pf_act element
    void *impl;     // backend private state

    // Whether this backend implements an op (by the field name without _fwd /
    // _bwd / _mem, e.g. "attn", "trimul"). The model asks before it runs.
    int (*supports)(pf_backend *be, const char *op);
    void (*destroy)(pf_backend *be);

    // ---- memory ----------------------------------------------------------
    void *(*alloc)(pf_backend *be, size_t bytes);  // never NULL; dies on failure
    void (*free)(pf_backend *be, void *p);
    void (*zero)(pf_backend *be, void *p, size_t bytes);
    void (*copy)(pf_backend *be, void *dst, const void *src, size_t bytes);  // device to device
    void (*upload)(pf_backend *be, void *dst, const void *host, size_t bytes);
    void (*download)(pf_backend *be, void *host, const void *src, size_t bytes);
    // host `real` values <-> activations (converting to the activation type)
    void (*act_from_real)(pf_backend *be, pf_act *dst, const real *host, int64_t n);
    void (*act_to_real)(pf_backend *be, real *host, const pf_act *src, int64_t n);
    void (*sync)(pf_backend *be);
    // Optional (may be NULL): host memory that upload / act_from_real copy from
    // asynchronously (CUDA: page-locked). NULL: the caller uses plain malloc.
    void *(*host_alloc)(pf_backend *be, size_t bytes);
    void (*host_free)(pf_backend *be, void *p);
    // Optional (may be NULL): copies between device buffers and host_alloc memory that run
    // beside the compute: each starts once the work issued before it is done and returns at
    // once; copies_wait makes the work issued after it wait for every such copy issued before
    // it. NULL: the caller uses download / upload (in order with the compute).
    void (*download_async)(pf_backend *be, void *host, const void *src, size_t bytes);
    void (*upload_async)(pf_backend *be, void *dst, const void *host, size_t bytes);
    void (*copies_wait)(pf_backend *be);
    // Optional (may be NULL): the most bytes this backend had allocated at
    // once since the last reset; reset != 0 restarts the count at the bytes in use.
    size_t (*peak_bytes)(pf_backend *be, int reset);
    // Optional (may be NULL): record the work issued between capture_begin and capture_end
    // (CUDA: stream capture into a graph) instead of running it; capture_end returns the
    // recording, or NULL when the work could not be recorded (then none of it ran and
    // nothing is pending). graph_run replays a recording (same buffers, same arguments).
    int (*capture_begin)(pf_backend *be);  // 0: cannot record now
    void *(*capture_end)(pf_backend *be, char *err, size_t n);
    void (*graph_run)(pf_backend *be, void *graph);
    void (*graph_free)(pf_backend *be, void *graph);

    // ---- elementwise -----------------------------------------------------
    void (*add)(pf_backend *be, pf_act *y, const pf_act *x, int64_t n);  // y += x
    // y += dropout(delta); d.rate == 0 is a plain add
    void (*dropout_add)(pf_backend *be, const pf_dropout *d, pf_act *y, const pf_act *delta);
    // d_delta = dropout(dy) with the same mask (overwrites d_delta)
    void (*dropout_bwd)(pf_backend *be, const pf_dropout *d, pf_act *d_delta, const pf_act *dy);

    // ---- primitives for the model's glue (embedding, recycling, heads) ----
    // y (A, B, C) += x broadcast along `axis`: axis 0: x is (B, C), y[a,b,:] += x[b,:];
    // axis 1: x is (A, C), y[a,b,:] += x[a,:]. (Embedding outer sums, MSA broadcasts.)
    void (*bcast_add)(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *x, int axis, pf_act *y);
    // The backward of bcast_add: dx += sum of dy over `axis` (dx as x above).
    void (*bcast_reduce)(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *dy, int axis, pf_act *dx);
    // y (M, out) = x (M, in) W^T + b; accumulate != 0 adds into y.
    void (*linear_fwd)(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p,
                       const pf_act *x, pf_act *y, int accumulate);
    // dW += dy^T x, db += sum dy, dx += dy W (dx may be NULL)
    void (*linear_bwd)(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p,
                       pf_linear_p *g, const pf_act *x, const pf_act *dy, pf_act *dx);
    // y (M, c) = LayerNorm(x) (eps 1e-5); the backward recomputes statistics from x.
    void (*layer_norm_fwd)(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p,
                           const pf_act *x, pf_act *y);
    void (*layer_norm_bwd)(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p,
                           pf_layernorm_p *g, const pf_act *x, const pf_act *dy, pf_act *dx);
    // out (N, N, c_z) += relpos features of (residue index, chain, entity, sym) projected.
    void (*relpos_fwd)(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p,
                       const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                       const int32_t *sym, pf_act *out);
    void (*relpos_bwd)(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g,
                       const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                       const int32_t *sym, const pf_act *d_out);
    // Distogram loss (see modules.h); target (N, N) int32 bins, pair_mask (N, N).
    // Returns the loss; the backward accumulates scale * d loss into dz, g.
    double (*disto_fwd)(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                        const pf_act *z, const int32_t *target, const pf_act *pair_mask);
    void (*disto_bwd)(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                      pf_linear_p *g, const pf_act *z, const int32_t *target,
                      const pf_act *pair_mask, double scale, pf_act *dz);

    // Weighted softmax cross-entropy over the rows of logits (M, C) with int32
    // targets (M) in [0, C) and weights (M) (NULL: all 1):
    //   loss = sum_m w_m (logsumexp(l_m) - l_m[t_m]) / (1e-8 + sum_m w_m).
    // When dlogits != NULL it receives (overwrites) scale * d loss / d logits;
    // dlogits may alias logits. (The AF2 masked-MSA loss.)
    double (*xent)(pf_backend *be, int64_t M, int C, const pf_act *logits, const int32_t *target,
                   const pf_act *weight, double scale, pf_act *dlogits);

    // ---- modules (see modules.h for the math of each) ---------------------
    // Three slots per line of ops.def (NULL: the backend lacks the op; the
    // model checks with supports() before it runs a block):
    //   pf_mem name_mem(be, dims)
    //   void   name_fwd(be, dims, params, x [, x2], mask, out, saved, ws)
    //   void   name_bwd(be, dims, params, grads, mask, saved, d_out, d_x [, d_x2], ws)
    // x2 / d_x2 only for two-input ops (n_in 2): e.g. attention's pair tensor z
    // (NULL when the bias comes from x itself) and pair-weighted averaging's z.
#define PF_MODULE_OP(name, NAME, D, P, n_in) PF_MODULE_OP_SLOTS(name, D, P, n_in)
#include "ops.def"
    // Bytes of the attention core's outputs that pf_attn_dims.keep holds (selective
    // recompute); 0 (or a NULL slot): this backend cannot keep them for these dims.
    size_t (*attn_keep_bytes)(pf_backend *be, const pf_attn_dims *d);

    // ---- the attention core alone (optional; NULL: not available) -----------
    // pf_core_attn_dims in modules.h (cuEquivariance's layout). core_attn_ws: bytes of
    // scratch for fwd and bwd. fwd writes o (B, N, H, L, D) and lse (B, N, H, L) fp32,
    // backend-specific state that the backward takes back (the CPU reference writes
    // the log-sum-exp of each row's logits; CUDA writes +inf for a fully masked row).
    // bwd WRITES (does not accumulate, unlike module ops) dq, dk, dv and d_bias
    // (B, H, L, L), the sum over the N rows in row order; any of them may be NULL
    // (d_bias must be NULL without a bias).
    size_t (*core_attn_ws)(pf_backend *be, const pf_core_attn_dims *d);
    void (*core_attn_fwd)(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                          const pf_act *v, const real *bias, const pf_act *mask, pf_act *o, float *lse, void *ws);
    void (*core_attn_bwd)(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                          const pf_act *v, const real *bias, const pf_act *mask, const pf_act *o, const float *lse,
                          const pf_act *d_o, pf_act *dq, pf_act *dk, pf_act *dv, real *d_bias, void *ws);

    // ---- axial parallelism (optional; NULL: not available) ------------------
    // Row-sharded variants of two module ops for a dap group (c->size ranks), the
    // dims giving the full padded sizes (attention L = P n; trimul N = P n):
    //  attn_dap: the bias source holds only this rank's n rows of the (L, L) bias
    //    (PF_BIAS_SELF: x is the rank's rows, B = n; PF_BIAS_PAIR: z is (n, L, c_z)
    //    and x any B rows); the (L, L, H) bias is all-gathered. x_sharded says
    //    whether the ranks hold different x (then the bias gradient is summed over
    //    the group) or the same x (each rank's bias gradient is already the total).
    //  trimul_dap: outgoing edges on the rank's rows (n, N, c_z); the other operand
    //    b (N, N, c) is all-gathered, its gradient summed back to its rows. The
    //    incoming update is this op on the transposed tensor with a and b swapped.
    // Parameter gradients are this rank's share: the caller sums them over the group.
    pf_mem (*attn_dap_mem)(pf_backend *be, const pf_attn_dims *d, int P);
    void (*attn_dap_fwd)(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x,
                         const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws,
                         const pf_dap_comm *c);
    void (*attn_dap_bwd)(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                         const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_x,
                         pf_act *d_z, void *ws, const pf_dap_comm *c, int x_sharded);
    pf_mem (*trimul_dap_mem)(pf_backend *be, const pf_trimul_dims *d, int P);
    void (*trimul_dap_fwd)(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                           const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
    void (*trimul_dap_bwd)(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                           const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z,
                           void *ws, const pf_dap_comm *c);

    //  opm_dap: the outer product mean on the rank's columns of the MSA, m (S, n,
    //    c_m) and mask (S, n), writing the rank's rows of the update (n, N, c_z);
    //    the other operand b (S, N, c) and the mask are all-gathered, b's gradient
    //    summed back to its columns. dims: S rows, N = P n columns.
    pf_mem (*opm_dap_mem)(pf_backend *be, const pf_opm_dims *d, int P);
    void (*opm_dap_fwd)(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m,
                        const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c);
    void (*opm_dap_bwd)(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g,
                        const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_m, void *ws,
                        const pf_dap_comm *c);
    //  pwavg_dap: MSA pair-weighted averaging (AF3 Alg. 10) on the rank's columns
    //    of the MSA, m (S, n, c_m), with its rows of the pair tensor z (n, N, c_z)
    //    and the token mask (N) of every column: the output column i averages v of
    //    every column j with weights from z's row i, so v (S, N, H c_h) is
    //    all-gathered and its gradient summed back to its columns (all-to-all, then
    //    a sum in rank order). dims: S rows, N = P n columns. d_m, d_z: this rank's
    //    columns and rows, added to.
    pf_mem (*pwavg_dap_mem)(pf_backend *be, const pf_pwavg_dims *d, int P);
    void (*pwavg_dap_fwd)(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m,
                          const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws,
                          const pf_dap_comm *c);
    void (*pwavg_dap_bwd)(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                          const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z,
                          void *ws, const pf_dap_comm *c);
    // An (S, N, C) tensor (the MSA) between its column shard (S, N / P, C) and its
    // row shard (S / P, N, C): to_rows 1 columns -> rows, 0 rows -> columns.
    // ws: 2 (S / P) N C reals.
    void (*dap_reshard)(pf_backend *be, const pf_dap_comm *c, int64_t S, int64_t N, int C, const pf_act *x,
                        pf_act *out, void *ws, int to_rows);
    // The all-to-all transpose of a row-sharded tensor: x holds this rank's n = N / P
    // rows of a (N, N, C) tensor, out (n, N, C) receives its rows of the transpose
    // (out[j, i] = x_full[i, j] for the rank's j). ws: 2 n N C reals. out may be x
    // (in place: x is read whole into ws before out is written).
    void (*dap_transpose)(pf_backend *be, const pf_dap_comm *c, int64_t N, int C, const pf_act *x,
                          pf_act *out, void *ws);

    // A dap group's collectives on this backend's device (optional; NULL: the
    // caller builds host ones, src/train/dap_group.c). Collective over the world
    // (every rank calls it, after coll_open): ranks g P .. g P + P - 1 form group g,
    // each group with its own communicator. NULL and a message on failure.
    pf_dap_comm *(*dap_comm_open)(pf_backend *be, const pf_coll_host *host, int P, char *err, size_t errlen);
    void (*dap_comm_close)(pf_backend *be, pf_dap_comm *c);

    // ---- structure module (struct_modules.h; optional, NULL: not available) ----
    // Not lines of ops.def: besides the single and pair streams these take rigid
    // frames. The module's per-residue tensors (frames R (N, 3, 3) and t (N, 3),
    // s_out, angles, pLDDT logits, and their gradients) are `real` arrays in
    // backend memory (fp32 on a GPU); s, s_init, z, out, mask and their gradients
    // are pf_act as for the module ops. Backwards accumulate (+=), NULL gradients
    // are not wanted; saved must be non-NULL (no inference variant yet).
    //  ipa: invariant point attention; s (N, c_s), z (N, N, c_z), frames in the
    //  module's units -> out (N, c_s) (overwritten). The backward takes the
    //  forward's inputs again (z is not copied into saved).
    pf_mem (*ipa_mem)(pf_backend *be, const pf_ipa_dims *d);
    void (*ipa_fwd)(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, const pf_act *s, const pf_act *z,
                    const real *R, const real *t, const pf_act *mask, pf_act *out, void *saved, void *ws);
    void (*ipa_bwd)(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, pf_ipa_p *g, const pf_act *s,
                    const pf_act *z, const real *R, const real *t, const pf_act *mask, const void *saved,
                    const pf_act *d_out, pf_act *d_s, pf_act *d_z, real *d_R, real *d_t, void *ws);
    //  Optional (NULL: absent; the CPU backend has it): IPA's forward for query
    //  rows r0 .. r0 + n - 1 only, inference (no saved): z_rows (n, N, c_z) those
    //  rows of z, s, frames and mask of all N residues -> out (n, c_s), those rows
    //  of ipa_fwd's out with the same arithmetic. The structure module runs on a
    //  dap rank's rows of z with it (structure_rows.c) instead of gathering z.
    void (*ipa_fwd_rows)(pf_backend *be, const pf_ipa_dims *d, const pf_ipa_p *p, int64_t r0, int64_t n,
                         const pf_act *s, const pf_act *z_rows, const real *R, const real *t, const pf_act *mask,
                         pf_act *out);
    //  sm: the whole module loop (Alg. 20, shared weights, angle resnet), as
    //  cpu_sm_fwd / cpu_sm_bwd: s_init (N, c_s), z (N, N, c_z) -> R_out (L, N, 3, 3),
    //  t_out (L, N, 3) in A, s_out (N, c_s), angles (L, N, 7, 2) (NULL when c_resnet == 0).
    pf_mem (*sm_mem)(pf_backend *be, const pf_sm_dims *d);
    void (*sm_fwd)(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, const pf_act *s_init, const pf_act *z,
                   const pf_act *mask, real *R_out, real *t_out, real *s_out, real *angles, void *saved, void *ws);
    void (*sm_bwd)(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const pf_act *s_init,
                   const pf_act *z, const pf_act *mask, const void *saved, const real *d_R_out,
                   const real *d_t_out, const real *d_s_out, const real *d_angles, pf_act *d_s_init,
                   pf_act *d_z, void *ws);
    //  pLDDT head's network: logits (N, n_bins) from s (N, c_s) (the loss over
    //  N x n_bins numbers is the caller's); the backward from d_logits.
    void (*plddt_fwd)(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits);
    void (*plddt_bwd)(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                      const real *d_logits, real *d_s);

    // ---- optimizer (flat parameter buffers) -------------------------------
    double (*sum_sq)(pf_backend *be, const real *x, int64_t n);
    void (*scale)(pf_backend *be, real *x, int64_t n, double s);
    void (*adamw)(pf_backend *be, real *p, const real *g, real *m, real *v, int64_t n,
                  const pf_adamw_hp *hp);
    // Exponential moving average of the weights: avg = decay avg + (1 - decay) x.
    void (*ema)(pf_backend *be, real *avg, const real *x, int64_t n, double decay);

    // ---- device and capabilities ------------------------------------------
    // Set by the backend's constructor (and by the registry for `device`); a
    // zeroed field means what the CPU backend is: host memory, no collectives.
    pf_device device;   // the descriptor this backend was made for (device.h)
    int device_memory;  // 1: buffers are not host memory (move them with upload / download)

    // ---- collectives across data-parallel ranks (optional) -----------------
    // A backend that moves data between the ranks' devices itself (CUDA: NCCL)
    // sets these; NULL means the capability is absent and the caller (src/train/
    // dist.c) sums through host memory. coll_open joins `world` ranks: rank 0's
    // bootstrap bytes reach every rank through host->bcast. Every entry is
    // collective (all ranks call it, in the same order) and in place on the
    // backend's stream; it returns once the result is in `x` / `out`.
    int (*coll_open)(pf_backend *be, const pf_coll_host *host, char *err, size_t errlen);
    void (*coll_close)(pf_backend *be);
    // x (n reals) = sum over ranks of x; the same order on every call, so runs repeat.
    void (*all_reduce_sum)(pf_backend *be, real *x, int64_t n);
    // out (world * n reals) = the ranks' x (n reals each), in rank order.
    void (*all_gather)(pf_backend *be, const real *x, real *out, int64_t n);
    // x and out hold world blocks of n reals: block r of x goes to rank r, block r
    // of out comes from rank r (the exchange a sharded pair tensor transposes with).
    void (*all_to_all)(pf_backend *be, const real *x, real *out, int64_t n);
    void *coll;  // the backend's communicator, NULL until coll_open
};

pf_backend *pf_backend_cpu(void);  // src/cpu/cpu_backend.c; by device: src/registry/registry.h

// Bytes of n activations.
static inline size_t pf_act_size(const pf_backend *be, int64_t n) { return (size_t)n * (size_t)be->act_bytes; }
// The activation at element index i of buffer p (for slicing, e.g. MSA row 0).
static inline pf_act *pf_act_at(const pf_backend *be, const pf_act *p, int64_t i) {
    return (pf_act *)((char *)p + (size_t)i * (size_t)be->act_bytes);
}

#endif
