// model.h: the whole network: input embedding, recycling, the trunk stacks
// (AF2: extra-MSA stack + Evoformer; AF3: MSA module + Pairformer) and the
// distogram head with its loss. Written once against the backend interface.
#ifndef PF_MODEL_H
#define PF_MODEL_H
#include "config.h"
#include "params.h"
#include "block.h"
#include "../data/batch.h"
#include "inputs.h"
#include "structure.h"

typedef struct {
    // AF2 input embedder (Alg. 3), recycling embedder, extra-MSA embedder
    pf_linear_p tf_z_i, tf_z_j, tf_m, msa_m, relpos, extra_m;
    pf_layernorm_p rec_ln_m, rec_ln_z;
    // AF3 input embedder (Alg. 1 lines 1-5, Alg. 8 line 1-2), recycling (lines 8-11)
    pf_linear_p s_init, msa_s;
    pf_linear_p rec_z, rec_s;
    pf_layernorm_p rec_ln_s;
    // distogram head; AF2 masked-MSA head (23 tokens from the final MSA representation)
    pf_linear_p disto, masked_msa;
    // AF2 evoformer.linear: the single representation for the structure module (structure_module only)
    pf_linear_p single;
} pf_embed_p;

typedef struct {
    int64_t N, S, E;
} pf_dims;

typedef struct pf_model_dap pf_model_dap;  // axial parallelism state (model_dap.c)

typedef struct {
    pf_config cfg;
    pf_backend *be;
    pf_params P;
    pf_embed_p p, g;            // embedding / head parameters and gradients
    pf_block *msa_blocks;       // AF2 extra-MSA stack or AF3 MSA module
    pf_block *trunk;            // Evoformer or Pairformer blocks
    int n_msa_blocks, n_trunk;
    // one arena per category, sized for the largest batch (max_tokens or crop_size / MSA rows)
    void *act, *saved, *ws;
    size_t act_bytes, saved_bytes, ws_bytes;
    pf_dims cap;                // dimensions the arenas were planned for
    void *stage[2];             // host staging slots (page-locked on CUDA), see stage.c
    size_t stage_bytes;
    pf_dims stage_cap;
    const void *staged[2];      // which batch a slot holds, until uploaded
    int last_slot;              // slot of the latest upload
    size_t block_saved_max;     // largest block's saved bytes at the current sizes (recompute)
    size_t keep_bytes;          // the blocks' kept attention outputs at the current sizes (recompute_keep_attn)
    // recompute_offload: the segment starts' inputs in host memory (host_alloc), two device slots
    void *offload;              // host copies of the segment starts' inputs, in block order
    size_t offload_bytes;       // their bytes
    size_t offload_slot;        // one device slot's bytes (the largest segment start's inputs)
    int inference;              // created by pf_model_create_inference: no saved arena, no gradients
    // inference progress (predict sets it): called after each trunk block of each recycling
    // pass is queued (not on a dap-sharded trunk); to report times, synchronise the backend first
    void (*progress)(void *ctx, int done, int total);
    void *progress_ctx;
    int prog_done, prog_total;  // blocks run of this forward's passes, and their number
    // carved from `act` (see model.c: carve()): the inputs (inputs.h: pf_act for
    // real inputs, int32_t for the others), then the streams and scratch
    void *in[PF_NUM_INPUTS];
    pf_act *m, *z, *s, *e;      // streams (S,N,c_m) (N,N,c_z) (N,c_s) (E,N,c_e)
    pf_act *dm, *dz, *ds, *de;  // their gradients
    pf_act *m0_prev, *z_prev, *s_prev;  // recycled (N,c_m) (N,N,c_z) (N,c_s)
    pf_act *tmp_a, *tmp_b;      // scratch, each the size of the largest stream
    pf_act *tmp_n;              // scratch (N, max channels)
    pf_model_dap *dap;          // NULL, or the group the trunk is sharded over (pf_model_attach_dap)
    pf_structure_head sh;       // structure module and confidence heads (cfg.structure_module), model_structure.c
} pf_model;

// Create the model: declare parameters, bind them on the backend, initialise
// with cfg->seed, and plan the arenas for the configured crop / MSA sizes.
pf_model *pf_model_create(const pf_config *cfg, pf_backend *be);
// The same for inference (predict): forward only, so no saved-activation arena
// and no gradient streams (AF3 preset at N = 2048: the saved arena and stream
// snapshots of recompute were most of the 88 GB predict needed). Only
// pf_model_eval may run on it; its results are those of pf_model_create's model.
pf_model *pf_model_create_inference(const pf_config *cfg, pf_backend *be);
// Declare the parameters only (names, shapes; nothing allocated), e.g. to list them.
pf_model *pf_model_declare(const pf_config *cfg);
// The arenas pf_model_create would allocate on be for dims d, without allocating
// them (bench/mem_plan.cu): activations, saved (recompute's plan included), workspace.
void pf_model_plan_arenas(const pf_config *cfg, pf_backend *be, pf_dims d, size_t *act, size_t *saved, size_t *ws);
void pf_model_free(pf_model *M);

typedef struct {
    double loss;          // total: disto_weight * disto + msa_weight * msa (+ the structure module's losses)
    double disto, msa;    // distogram loss; masked-MSA loss (0 when off)
    double fape, lddt_ca; // structure module: clamped backbone FAPE (layer mean), lDDT-Ca of its last layer (0 when
                          // off, nan for an example without resolved backbone frames)
    int cycles;           // passes run (1 + recycles)
    double flops;         // model FLOPs of the forward of the final pass
    double upload_ms;     // host time to pack the batch into the staging buffer and queue its copy
} pf_step_result;

// One training example's forward and backward: parameter gradients accumulate
// (the caller zeroes them). `step` is the example number (the optimizer step when
// grad_accum is 1); it selects dropout masks and the number of recycling passes,
// all from (seed, step).
// Pack a batch into the free host staging slot ahead of its step (host work
// only, safe while the device still runs the current step's backward).
void pf_model_stage(pf_model *M, const pf_batch *b);
pf_step_result pf_model_train_step(pf_model *M, const pf_batch *b, int64_t step);
// Loss without gradients (no dropout, all recycling passes).
pf_step_result pf_model_eval(pf_model *M, const pf_batch *b);
// The same, and with a structure module (cfg.structure_module) its prediction of that
// forward into out (frames, torsions, pLDDT, PAE, pTM: structure.h; arrays the
// caller's, any may be NULL).
pf_step_result pf_model_eval_structure(pf_model *M, const pf_batch *b, pf_structure_pred *out);

// Axial parallelism (dap.h, docs/PARALLEL.md): from now on the Pairformer trunk
// runs on this rank's rows of the pair tensor, with the other ranks of c's group,
// which train on (and evaluate) the same examples: every rank of the world calls
// pf_model_train_step and pf_model_eval together. Parameter gradients are then
// this rank's share: sum them over the world (ranks other than 0 of a group hold
// zeros for the replicated parameters). The arenas are planned again without the
// unsharded trunk (with recompute, the sharded trunk keeps its own shard's
// snapshots: model_dap.c). c->size <= 1: nothing changes. 0, or -1 and a message
// (a block kind without a sharded form, or a backend without the sharded ops).
int pf_model_attach_dap(pf_model *M, const pf_dap_comm *c, char *err, size_t n);

// Extra-MSA rows the model reads: extra_msa_rows for the AF2 trunk with an
// extra-MSA stack, else 0 (the one place this rule is written).
int pf_extra_msa_rows(const pf_config *cfg);

#endif
