// block.h: trunk blocks as ordered lists of residual updates.
//
// Every block of AF2 and AF3 is a sequence of steps "stream += dropout(module(
// inputs))". A step names its module, the stream it reads, an optional second
// stream (the pair tensor that biases MSA attention), the stream it updates,
// its mask and its dropout. The four block types below differ only in their
// step lists, so the forward and backward are written once (block.c), and a
// backend sees whole modules.
#ifndef PF_BLOCK_H
#define PF_BLOCK_H
#include "../backend/backend.h"
#include "../backend/ops.h"
#include "params.h"
#include "config.h"

enum { PF_STREAM_M = 0, PF_STREAM_Z = 1, PF_STREAM_S = 2, PF_NSTREAMS = 3 };
enum { PF_MASK_MSA = 0, PF_MASK_PAIR = 1, PF_MASK_SEQ = 2, PF_NMASKS = 3 };
enum { PF_BLOCK_EVOFORMER, PF_BLOCK_EXTRA_MSA, PF_BLOCK_PAIRFORMER, PF_BLOCK_MSA_MODULE };

// A step's parameters and dims: one member per module op, named as in ops.def.
typedef union {
#define PF_MODULE_OP(name, NAME, D, P, n_in) P name;
#include "../backend/ops.def"
} pf_step_params;

typedef union {
#define PF_MODULE_OP(name, NAME, D, P, n_in) D name;
#include "../backend/ops.def"
} pf_step_dims;

typedef struct {
    char name[64];       // OpenFold module name within the block, e.g. "pair_stack.tri_mul_out"
    int op;              // PF_OP_*
    int input, second;   // streams read (second = -1: none)
    int target;          // stream updated
    int mask;            // PF_MASK_*
    float dropout;       // rate during training
    int dropout_axis;    // shared axis of the dropout mask (0 row-wise, 1 column-wise)
    pf_step_dims d;      // shapes: channels fixed at declaration, sizes set per batch
    pf_step_params p, g; // parameters and their gradients
    pf_mem mem;          // for the current sizes
    size_t saved_off;    // offset of this step's saved region within the block's
    size_t keep_bytes;   // attention: its core's outputs (be->attn_keep_bytes; 0: not kept), pf_block_keep
} pf_step;

#define PF_MAX_STEPS 12
typedef struct {
    int kind;            // PF_BLOCK_*
    int c[PF_NSTREAMS];  // channels of each stream
    pf_step step[PF_MAX_STEPS];
    int n;
    size_t saved_bytes, ws_bytes;  // for the current sizes
    size_t ws_fwd_bytes;           // workspace of a forward without saved (<= ws_bytes)
    size_t keep_bytes;             // its attention steps' kept core outputs (pf_block_keep)
    // per-module timing (`pairfold bench --per-module`): where set, pf_block_fwd [0] and
    // pf_block_bwd [1] sync the backend around each step and add its milliseconds (the step's
    // op with its dropout and residual) to [pass][step]; NULL (the default): no syncs
    double *step_ms[2];
} pf_block;

// Stream and mask buffers of one pass. Stream shapes: M (S, N, c_m), Z (N, N,
// c_z), S (N, c_s); masks: MSA (S, N), PAIR (N, N), SEQ (N).
typedef struct {
    pf_act *x[PF_NSTREAMS];
    const pf_act *mask[PF_NMASKS];
    int64_t N, S;
} pf_streams;

// Declare the block's parameters under `prefix` (e.g. "evoformer.blocks.3").
void pf_block_declare(pf_block *b, int kind, const pf_config *cfg, pf_params *P, const char *prefix);
// 0 if `be` implements every module op of the block; otherwise -1 and a
// message in err naming the backend, the op and the step.
int pf_block_check_backend(const pf_block *b, pf_backend *be, char *err, size_t n);
// Set sizes (N tokens, S MSA rows) and compute saved / workspace bytes. Dies
// with pf_block_check_backend's message if the backend lacks one of the ops.
void pf_block_plan(pf_block *b, pf_backend *be, int64_t N, int64_t S);
// Selective recompute (pf_attn_dims.keep): the attention steps' core outputs live in
// area (b->keep_bytes, planned by pf_block_plan; NULL: none kept) until the next call.
// kept 0: the forwards compute them into area; 1: area holds them for the block's
// current inputs, so forwards skip the cores; the backward reads them there.
void pf_block_keep(pf_block *b, void *area, int kept);
// Forward. saved == NULL: nothing kept for a backward. training: dropout on.
// delta: scratch the size of the largest stream. key: dropout key of this
// block and step (the same key gives the same masks, so a recomputed forward
// reproduces the first one exactly).
void pf_block_fwd(pf_block *b, pf_backend *be, pf_streams *st, void *saved, void *ws,
                  pf_act *delta, uint64_t key, int training);
// Backward: d holds the gradients of the block's output streams on entry and of
// its input streams on return; parameter gradients accumulate.
void pf_block_bwd(pf_block *b, pf_backend *be, pf_streams *st, pf_streams *d, const void *saved,
                  void *ws, pf_act *d_delta, uint64_t key);
// PF_TR_BWD_ALIAS (block.c): 1 a transition step without dropout reads d x[target] in place
// as its output gradient, 0 the copy (the default), else PF_TR_BWD_ALIAS again; _runs counts
// the steps that read it in place (tests).
void pf_block_set_tr_bwd_alias(int on);
int64_t pf_block_tr_bwd_alias_runs(void);
// Forward multiply-adds x 2 of the block at its planned sizes (the FLOP model).
double pf_block_flops(const pf_block *b);
const char *pf_block_kind_name(int kind);
// The parameters of one triangle multiplication under `pre` (OpenFold names;
// bias: AF2's Linears with biases, AF3's without); also for running the module
// alone (the C API, src/api).
void pf_declare_trimul(pf_params *P, const char *pre, int c_z, int c, int bias, pf_trimul_p *p, pf_trimul_p *g);

#endif
