// model.c: the whole network, forward and backward, against the backend.
#include "model.h"
#include <string.h>
#include <math.h>
#include "../core/util.h"
#include "../core/rng.h"
#include "stage.h"
#include "model_dap.h"
#include "model_structure.h"

// ---------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------
static void declare(pf_model *M) {
    const pf_config *c = &M->cfg;
    pf_params *P = &M->P;
    pf_embed_p *p = &M->p, *g = &M->g;
    const int cz = c->c_z, cm = c->c_m;
    if (c->trunk == PF_TRUNK_EVOFORMER) {
        const char *ie = "input_embedder";
        pf_params_linear(P, ie, "linear_tf_z_i", cz, PF_TARGET_FEAT, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->tf_z_i, &g->tf_z_i);
        pf_params_linear(P, ie, "linear_tf_z_j", cz, PF_TARGET_FEAT, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->tf_z_j, &g->tf_z_j);
        pf_params_linear(P, ie, "linear_tf_m", cm, PF_TARGET_FEAT, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->tf_m, &g->tf_m);
        pf_params_linear(P, ie, "linear_msa_m", cm, PF_MSA_FEAT, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->msa_m, &g->msa_m);
        pf_params_linear(P, ie, "linear_relpos", cz, PF_RELPOS_AF2_FEATS, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->relpos, &g->relpos);
        pf_params_layernorm(P, "recycling_embedder", "layer_norm_m", cm, &p->rec_ln_m, &g->rec_ln_m);
        pf_params_layernorm(P, "recycling_embedder", "layer_norm_z", cz, &p->rec_ln_z, &g->rec_ln_z);
        pf_params_linear(P, "aux_heads.masked_msa", "linear", PF_NUM_TOK, cm, 1, PF_INIT_ZEROS, PF_INIT_ZEROS,
                         &p->masked_msa, &g->masked_msa);
        if (c->n_extra_blocks > 0)
            pf_params_linear(P, "extra_msa_embedder", "linear", c->c_e, PF_EXTRA_MSA_FEAT, 1, PF_INIT_LECUN,
                             PF_INIT_ZEROS, &p->extra_m, &g->extra_m);
        M->n_msa_blocks = c->n_extra_blocks;
    } else {
        const char *ie = "input_embedder";
        pf_params_linear(P, ie, "linear_s", c->c_s, PF_TARGET_FEAT, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->s_init, &g->s_init);
        pf_params_linear(P, ie, "linear_z_i", cz, PF_TARGET_FEAT, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->tf_z_i, &g->tf_z_i);
        pf_params_linear(P, ie, "linear_z_j", cz, PF_TARGET_FEAT, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->tf_z_j, &g->tf_z_j);
        pf_params_linear(P, "input_embedder.relpos", "linear_relpos", cz, PF_RELPOS_AF3_FEATS, 0, PF_INIT_LECUN,
                         PF_INIT_ZEROS, &p->relpos, &g->relpos);
        pf_params_layernorm(P, "recycle", "layer_norm_z", cz, &p->rec_ln_z, &g->rec_ln_z);
        pf_params_linear(P, "recycle", "linear_z", cz, cz, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->rec_z, &g->rec_z);
        pf_params_layernorm(P, "recycle", "layer_norm_s", c->c_s, &p->rec_ln_s, &g->rec_ln_s);
        pf_params_linear(P, "recycle", "linear_s", c->c_s, c->c_s, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->rec_s, &g->rec_s);
        pf_params_linear(P, "msa_module", "linear_m", cm, PF_MSA_FEAT, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->msa_m, &g->msa_m);
        pf_params_linear(P, "msa_module", "linear_s_inputs", cm, PF_TARGET_FEAT, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->msa_s, &g->msa_s);
        M->n_msa_blocks = c->n_msa_blocks;
    }
    M->n_trunk = c->n_blocks;
    M->msa_blocks = pf_calloc((size_t)M->n_msa_blocks + 1, sizeof(pf_block));
    M->trunk = pf_calloc((size_t)M->n_trunk + 1, sizeof(pf_block));
    char pre[128];
    int af2 = c->trunk == PF_TRUNK_EVOFORMER;
    for (int i = 0; i < M->n_msa_blocks; i++) {
        snprintf(pre, sizeof pre, af2 ? "extra_msa_stack.blocks.%d" : "msa_module.blocks.%d", i);
        pf_block_declare(&M->msa_blocks[i], af2 ? PF_BLOCK_EXTRA_MSA : PF_BLOCK_MSA_MODULE, c, P, pre);
    }
    for (int i = 0; i < M->n_trunk; i++) {
        snprintf(pre, sizeof pre, af2 ? "evoformer.blocks.%d" : "pairformer_stack.blocks.%d", i);
        pf_block_declare(&M->trunk[i], af2 ? PF_BLOCK_EVOFORMER : PF_BLOCK_PAIRFORMER, c, P, pre);
    }
    // the distogram head starts at zero ("final" init), so the first loss is log(n_bins)
    pf_params_linear(P, "aux_heads.distogram", "linear", c->n_bins, cz, 1, PF_INIT_ZEROS, PF_INIT_ZEROS,
                     &p->disto, &g->disto);
    if (c->structure_module) pf_model_structure_declare(M);
}

int pf_extra_msa_rows(const pf_config *c) {
    return c->trunk == PF_TRUNK_EVOFORMER && c->n_extra_blocks > 0 ? c->extra_msa_rows : 0;
}

// ---------------------------------------------------------------------------
// Arenas
// ---------------------------------------------------------------------------
static int max_channels(const pf_config *c) {
    int m = PF_MAX(c->c_m, PF_MAX(c->c_z, c->c_s));
    m = PF_MAX(m, PF_MAX(c->c_e, PF_MSA_FEAT));
    return m;
}

// Positions of the model's z-sized tensors for N tokens: N^2, or with dap's
// rows layout (model_dap.h) the rank's n Np.
static int64_t zpos(const pf_model *M, int64_t N) {
    if (!pf_model_dap_zrows(M)) return N * N;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    return n * Np;
}
// Tokens of the (N, C) vectors the pair embedding broadcasts: N, or Np (padded) with rows.
static int64_t tokens(const pf_model *M, int64_t N) {
    if (!pf_model_dap_zrows(M)) return N;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    return Np;
}

// Carve the activation arena for dims d; with base == NULL only counts bytes.
static size_t carve(pf_model *M, char *base, pf_dims d) {
    const pf_config *c = &M->cfg;
    size_t off = 0;
    int64_t N = d.N, S = d.S, E = d.E, NN = zpos(M, N);  // NN: positions of z
    int64_t big = PF_MAX(S * N * PF_MAX(c->c_m, PF_MSA_FEAT), NN * PF_MAX(c->c_z, pf_model_dap_zrows(M) ? c->n_bins : 0));
    big = PF_MAX(big, E * N * PF_MAX(c->c_e, PF_EXTRA_MSA_FEAT));
    big = PF_MAX(big, N * c->c_s);
#define TAKE(ptr, count, elem)                                      \
    do {                                                            \
        if (base) ptr = (void *)(base + off);                       \
        off += ((size_t)(count) * (size_t)(elem) + 255) & ~(size_t)255; \
    } while (0)
    size_t ab = (size_t)M->be->act_bytes;
    for (int k = 0; k < PF_NUM_INPUTS; k++)
        TAKE(M->in[k], pf_input_elems(k, N, S, E), pf_model_inputs[k].is_int ? sizeof(int32_t) : ab);
    TAKE(M->m, S * N * c->c_m, ab);
    TAKE(M->z, NN * c->c_z, ab);
    TAKE(M->s, N * c->c_s, ab);
    TAKE(M->e, E * N * c->c_e, ab);
    if (M->inference) {  // no backward: no gradient streams
        M->dm = M->dz = M->ds = M->de = NULL;
    } else {
        TAKE(M->dm, S * N * c->c_m, ab);
        TAKE(M->dz, NN * c->c_z, ab);
        TAKE(M->ds, N * c->c_s, ab);
        TAKE(M->de, E * N * c->c_e, ab);
    }
    TAKE(M->m0_prev, N * c->c_m, ab);
    TAKE(M->z_prev, NN * c->c_z, ab);
    TAKE(M->s_prev, N * c->c_s, ab);
    TAKE(M->tmp_a, big, ab);
    TAKE(M->tmp_b, big, ab);
    TAKE(M->tmp_n, tokens(M, N) * max_channels(c), ab);
#undef TAKE
    return off;
}

// The blocks of a pass in forward order: the MSA stack (AF2 extra-MSA stack or
// AF3 MSA module, stack 0), then the trunk (stack 1).
static int n_blocks(const pf_model *M) { return M->n_msa_blocks + M->n_trunk; }
// The blocks this executor runs: with dap > 1 the trunk (and the AF3 MSA module,
// where the backend can) runs sharded (model_dap.c), from pf_model_dap_first on.
static int host_blocks(const pf_model *M) { return M->dap ? pf_model_dap_first(M) : n_blocks(M); }
static pf_block *block_at(pf_model *M, int k, int *stack, int *idx) {
    *stack = k < M->n_msa_blocks ? 0 : 1;
    *idx = *stack ? k - M->n_msa_blocks : k;
    return *stack ? &M->trunk[*idx] : &M->msa_blocks[*idx];
}

// Elements of stream `which` as the blocks of `stack` see it.
static int64_t stream_elems(const pf_model *M, pf_dims d, int stack, int which) {
    const pf_config *c = &M->cfg;
    if (which == PF_STREAM_Z) return d.N * d.N * c->c_z;
    if (which == PF_STREAM_S) return d.N * c->c_s;
    if (stack == 0 && c->trunk == PF_TRUNK_EVOFORMER) return d.E * d.N * c->c_e;
    return d.S * d.N * c->c_m;
}

// Streams a block reads or writes (the ones a recomputed forward must restore).
static void block_streams(const pf_block *b, int used[PF_NSTREAMS]) {
    for (int k = 0; k < PF_NSTREAMS; k++) used[k] = 0;
    for (int i = 0; i < b->n; i++) {
        used[b->step[i].input] = used[b->step[i].target] = 1;
        if (b->step[i].second >= 0) used[b->step[i].second] = 1;
    }
}

static size_t snapshot_bytes(const pf_model *M, pf_dims d, const pf_block *b, int stack) {
    int used[PF_NSTREAMS];
    block_streams(b, used);
    size_t n = 0;
    for (int k = 0; k < PF_NSTREAMS; k++)
        if (used[k]) n += (pf_act_size(M->be, stream_elems(M, d, stack, k)) + 255) & ~(size_t)255;
    return n;
}

// Recompute in segments of K = recompute blocks: the forward keeps only the
// input streams of blocks 0, K, 2K, ... (segment starts); the backward re-runs a
// segment's forwards from its start, keeping the inputs of the segment's other
// blocks in the inner area, then runs each block's forward with saved and its
// backward, last block first. K = 1: each block's input kept, one forward re-run;
// K > 1: one more forward per block for about K times fewer kept inputs.
// Segments stay within a stack: its blocks use the same streams, so the snapshot
// of a segment's first block holds every stream the segment reads.
static int segment_len(const pf_model *M) { return M->cfg.recompute > 0 ? M->cfg.recompute : 1; }
static int segment_start(const pf_model *M, int k) {  // the first block of block k's segment
    int in_stack = k < M->n_msa_blocks ? k : k - M->n_msa_blocks;
    return k - in_stack % segment_len(M);
}

static size_t snapshot_bytes_k(pf_model *M, pf_dims d, int k) {
    int stack, i;
    pf_block *b = block_at(M, k, &stack, &i);
    return snapshot_bytes(M, d, b, stack);
}
static size_t block_saved_k(pf_model *M, int k) {
    int stack, i;
    return block_at(M, k, &stack, &i)->saved_bytes;
}

// Selective recompute (recompute_keep_attn): the attention cores' outputs of every
// block, kept from the first forward to the backward (pf_block_keep), so the re-run
// forwards skip the cores (the same bits: the same inputs).
static int keeps_attn(const pf_model *M) { return M->cfg.recompute > 0 && M->cfg.recompute_keep_attn; }
// recompute_offload: the segment starts' inputs live in host memory (M->offload); the saved arena
// holds two device slots of them instead (the segment being run and the next one, fetched beside)
static int offloads(const pf_model *M) { return M->cfg.recompute > 0 && M->cfg.recompute_offload && !M->inference; }

// Plan every block for dims d. The saved arena holds every block's saved
// regions, or with recompute one block's (the largest), the kept attention
// outputs (keeps_attn), the segment starts' snapshots and the inner area. The
// workspace of an inference model is what the forwards without saved need (a
// backend may chunk those: ws_fwd).
static void plan_blocks(pf_model *M, pf_dims d, size_t *saved, size_t *ws) {
    size_t sum = 0, mx = 0, starts = 0, inner = 0, cur = 0, keep = 0, smax = 0;
    *ws = 0;
    int64_t S_msa = M->cfg.trunk == PF_TRUNK_EVOFORMER ? d.E : d.S;
    for (int k = 0; k < n_blocks(M); k++) {
        int stack, i;
        pf_block *b = block_at(M, k, &stack, &i);
        if (k >= host_blocks(M)) break;  // the sharded blocks have their own arenas (model_dap.c)
        pf_block_plan(b, M->be, d.N, stack ? d.S : S_msa);
        sum += b->saved_bytes;
        mx = PF_MAX(mx, b->saved_bytes);
        keep += b->keep_bytes;
        size_t sb = snapshot_bytes(M, d, b, stack);
        if (segment_start(M, k) == k) starts += sb, cur = 0, smax = PF_MAX(smax, sb);
        else cur += sb, inner = PF_MAX(inner, cur);
        *ws = PF_MAX(*ws, M->inference ? b->ws_fwd_bytes : b->ws_bytes);
    }
    M->block_saved_max = (mx + 255) & ~(size_t)255;
    M->keep_bytes = keeps_attn(M) ? keep : 0;
    M->offload_bytes = offloads(M) ? starts : 0;
    M->offload_slot = offloads(M) ? smax : 0;
    size_t start_area = offloads(M) ? 2 * smax : starts;
    *saved = M->cfg.recompute ? M->block_saved_max + M->keep_bytes + start_area + inner : sum;
}
// Where the segment starts' inputs begin in the saved arena (device slots with offload) and
// where the inner area (the re-run segment's later inputs) begins.
static char *starts_area(const pf_model *M) { return (char *)M->saved + M->block_saved_max + M->keep_bytes; }
static char *inner_area(const pf_model *M, size_t starts) {
    return starts_area(M) + (offloads(M) ? 2 * M->offload_slot : starts);
}

// Host memory for the offloaded inputs: page-locked where the backend has it (copies that
// overlap kernels), else plain.
static void offload_free(pf_model *M) {
    if (!M->offload) return;
    if (M->be->host_free) M->be->host_free(M->be, M->offload);
    else pf_free(M->offload);
    M->offload = NULL;
}
static void offload_alloc(pf_model *M) {
    offload_free(M);
    if (!M->offload_bytes) return;
    M->offload = M->be->host_alloc ? M->be->host_alloc(M->be, M->offload_bytes) : pf_malloc(M->offload_bytes);
}
// Copies of the offloaded inputs beside the compute where the backend can, else in order.
static void offload_down(pf_model *M, void *host, const void *dev, size_t n) {
    if (M->be->download_async) M->be->download_async(M->be, host, dev, n);
    else M->be->download(M->be, host, dev, n);
}
static void offload_up(pf_model *M, void *dev, const void *host, size_t n) {
    if (M->be->upload_async) M->be->upload_async(M->be, dev, host, n);
    else M->be->upload(M->be, dev, host, n);
}
static void offload_wait(pf_model *M) {
    if (M->be->copies_wait) M->be->copies_wait(M->be);
}
// The inputs of the segment starting at block s0, whose host copy ends at byte `end` of
// M->offload, into device slot `slot` (beside the compute where the backend can).
static void offload_fetch(pf_model *M, pf_dims d, int s0, size_t end, int slot) {
    size_t n = snapshot_bytes_k(M, d, s0);
    offload_up(M, starts_area(M) + (size_t)slot * M->offload_slot, (char *)M->offload + end - n, n);
}

// Point block k's attention steps at their kept outputs (kept: valid already), or at
// none (keep_attn off, or a forward outside recompute).
static void block_keep(pf_model *M, int k, int on, int kept) {
    int stack, i;
    pf_block *b = block_at(M, k, &stack, &i);
    size_t off = M->block_saved_max;  // the kept outputs follow the one-block saved region, in block order
    for (int j = 0; j < k; j++) off += block_at(M, j, &stack, &i)->keep_bytes;
    pf_block_keep(b, on && M->keep_bytes ? (char *)M->saved + off : NULL, kept);
}

// Copy a block's input streams to (dir 0) or from (dir 1) a snapshot.
static size_t snapshot(pf_model *M, pf_dims d, const pf_block *b, int stack, const pf_streams *st, char *snap, int dir) {
    int used[PF_NSTREAMS];
    block_streams(b, used);
    size_t off = 0;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        if (!used[k]) continue;
        size_t n = pf_act_size(M->be, stream_elems(M, d, stack, k));
        if (dir == 0) M->be->copy(M->be, snap + off, st->x[k], n);
        else M->be->copy(M->be, st->x[k], snap + off, n);
        off += (n + 255) & ~(size_t)255;
    }
    return off;
}

// Size the arenas for dims d (grow only).
static void ensure_capacity(pf_model *M, pf_dims d) {
    if (d.N <= M->cap.N && d.S <= M->cap.S && d.E <= M->cap.E && M->act) return;
    pf_dims n = {PF_MAX(d.N, M->cap.N), PF_MAX(d.S, M->cap.S), PF_MAX(d.E, M->cap.E)};
    pf_backend *be = M->be;
    if (M->act) be->free(be, M->act);
    if (M->saved) be->free(be, M->saved);
    if (M->ws) be->free(be, M->ws);
    M->act_bytes = carve(M, NULL, n);
    plan_blocks(M, n, &M->saved_bytes, &M->ws_bytes);
    if (M->inference) M->saved_bytes = 0;  // forward only: nothing is kept for a backward
    M->act = be->alloc(be, M->act_bytes);
    M->saved = be->alloc(be, M->saved_bytes ? M->saved_bytes : 1);
    M->ws = be->alloc(be, M->ws_bytes ? M->ws_bytes : 1);
    offload_alloc(M);
    M->cap = n;
    pf_stage_alloc(M, n);
}

pf_model *pf_model_declare(const pf_config *cfg) {
    pf_model *M = pf_calloc(1, sizeof *M);
    M->cfg = *cfg;
    pf_params_init_registry(&M->P);
    declare(M);
    return M;
}

void pf_model_plan_arenas(const pf_config *cfg, pf_backend *be, pf_dims d, size_t *act, size_t *saved, size_t *ws) {
    pf_model *M = pf_model_declare(cfg);
    M->be = be;
    *act = carve(M, NULL, d);
    plan_blocks(M, d, saved, ws);
    M->be = NULL;  // nothing of be's to free
    pf_model_free(M);
}

static pf_model *create(const pf_config *cfg, pf_backend *be, int inference) {
    pf_model *M = pf_model_declare(cfg);
    M->be = be;
    M->inference = inference;
    pf_params_bind(&M->P, be);
    pf_params_initialise(&M->P, cfg->seed);
    pf_dims d = {cfg->max_tokens > 0 ? cfg->max_tokens : cfg->crop_size, cfg->msa_rows, pf_extra_msa_rows(cfg)};
    ensure_capacity(M, d);
    return M;
}
pf_model *pf_model_create(const pf_config *cfg, pf_backend *be) { return create(cfg, be, 0); }
pf_model *pf_model_create_inference(const pf_config *cfg, pf_backend *be) { return create(cfg, be, 1); }

void pf_model_free(pf_model *M) {
    if (!M) return;
    pf_backend *be = M->be;
    if (be && M->act) be->free(be, M->act);
    if (be && M->saved) be->free(be, M->saved);
    if (be && M->ws) be->free(be, M->ws);
    if (be) offload_free(M);
    if (be) pf_stage_free(M);
    pf_model_dap_free(M);
    pf_params_free(&M->P);
    pf_free(M->msa_blocks);
    pf_free(M->trunk);
    pf_free(M);
}

// ---------------------------------------------------------------------------
// Forward and backward
// ---------------------------------------------------------------------------
static int32_t *ints(pf_model *M, pf_input_id k) { return (int32_t *)M->in[k]; }

static void relpos(pf_model *M, int64_t N, int bwd) {
    pf_relpos_dims rd = {N, M->cfg.c_z, M->cfg.trunk == PF_TRUNK_PAIRFORMER, 0, 0, 0};
    if (pf_model_dap_zrows(M)) pf_model_dap_rows_of(M, N, &rd.i0, &rd.rows, &rd.ld);
    int32_t *r = ints(M, PF_IN_RESIDUE_INDEX), *ch = ints(M, PF_IN_CHAIN), *en = ints(M, PF_IN_ENTITY), *sy = ints(M, PF_IN_SYM);
    if (bwd) M->be->relpos_bwd(M->be, &rd, &M->g.relpos, r, ch, en, sy, M->dz);
    else M->be->relpos_fwd(M->be, &rd, &M->p.relpos, r, ch, en, sy, M->z);
}

// The pair tensor's rows as the embedding sees them: rows i0 .. i0 + A - 1 of
// B columns (N, 0, N; with dap's rows layout n, i0, Np).
static void pair_rows(const pf_model *M, int64_t N, int64_t *A, int64_t *i0, int64_t *B) {
    *A = *B = N, *i0 = 0;
    if (pf_model_dap_zrows(M)) pf_model_dap_rows_of(M, N, i0, A, B);
}

// z (N, N, c_z) = relpos + Linear_i(tf)_i + Linear_j(tf)_j  (AF2 Alg. 3, AF3 Alg. 1).
// Rows layout: the rank's rows (A, B, c_z); the broadcast vectors padded to B
// tokens with zeros; the pad columns are zeroed after recycling (pass_fwd).
static void embed_pair(pf_model *M, pf_dims d) {
    pf_backend *be = M->be;
    int64_t N = d.N, A, i0, B;
    int cz = M->cfg.c_z;
    pair_rows(M, N, &A, &i0, &B);
    be->zero(be, M->z, pf_act_size(be, A * B * cz));
    relpos(M, N, 0);
    be->linear_fwd(be, N, PF_TARGET_FEAT, cz, &M->p.tf_z_i, M->in[PF_IN_TARGET_FEAT], M->tmp_n, 0);
    if (B > N) be->zero(be, pf_act_at(be, M->tmp_n, N * cz), pf_act_size(be, (B - N) * cz));
    be->bcast_add(be, A, B, cz, pf_act_at(be, M->tmp_n, i0 * cz), 1, M->z);
    be->linear_fwd(be, N, PF_TARGET_FEAT, cz, &M->p.tf_z_j, M->in[PF_IN_TARGET_FEAT], M->tmp_n, 0);
    if (B > N) be->zero(be, pf_act_at(be, M->tmp_n, N * cz), pf_act_size(be, (B - N) * cz));
    be->bcast_add(be, A, B, cz, M->tmp_n, 0, M->z);
}

// Rows layout: d z's pads are zero (pass_bwd), so the sums over the rank's rows
// and columns hold its share of the gradients.
static void embed_pair_bwd(pf_model *M, pf_dims d) {
    pf_backend *be = M->be;
    int64_t N = d.N, A, i0, B;
    int cz = M->cfg.c_z;
    pair_rows(M, N, &A, &i0, &B);
    relpos(M, N, 1);
    be->zero(be, M->tmp_n, pf_act_size(be, B * cz));
    be->bcast_reduce(be, A, B, cz, M->dz, 1, pf_act_at(be, M->tmp_n, i0 * cz));
    be->linear_bwd(be, N, PF_TARGET_FEAT, cz, &M->p.tf_z_i, &M->g.tf_z_i, M->in[PF_IN_TARGET_FEAT], M->tmp_n, NULL);
    be->zero(be, M->tmp_n, pf_act_size(be, B * cz));
    be->bcast_reduce(be, A, B, cz, M->dz, 0, M->tmp_n);
    be->linear_bwd(be, N, PF_TARGET_FEAT, cz, &M->p.tf_z_j, &M->g.tf_z_j, M->in[PF_IN_TARGET_FEAT], M->tmp_n, NULL);
}

// m (S, N, c_m) = Linear(msa_feat) + Linear(tf) broadcast over rows
static void embed_msa(pf_model *M, pf_dims d, const pf_linear_p *w_msa, const pf_linear_p *w_tf) {
    pf_backend *be = M->be;
    int cm = M->cfg.c_m;
    be->linear_fwd(be, d.S * d.N, PF_MSA_FEAT, cm, w_msa, M->in[PF_IN_MSA_FEAT], M->m, 0);
    be->linear_fwd(be, d.N, PF_TARGET_FEAT, cm, w_tf, M->in[PF_IN_TARGET_FEAT], M->tmp_n, 0);
    be->bcast_add(be, d.S, d.N, cm, M->tmp_n, 0, M->m);
}

static void embed_msa_bwd(pf_model *M, pf_dims d, const pf_linear_p *w_msa, pf_linear_p *g_msa,
                          const pf_linear_p *w_tf, pf_linear_p *g_tf) {
    pf_backend *be = M->be;
    int cm = M->cfg.c_m;
    be->linear_bwd(be, d.S * d.N, PF_MSA_FEAT, cm, w_msa, g_msa, M->in[PF_IN_MSA_FEAT], M->dm, NULL);
    be->zero(be, M->tmp_n, pf_act_size(be, d.N * cm));
    be->bcast_reduce(be, d.S, d.N, cm, M->dm, 0, M->tmp_n);
    be->linear_bwd(be, d.N, PF_TARGET_FEAT, cm, w_tf, g_tf, M->in[PF_IN_TARGET_FEAT], M->tmp_n, NULL);
}

static uint64_t block_key(const pf_model *M, int64_t step, int stack, int i) {
    return pf_hash3(M->cfg.seed ^ 0xd20f0a7ull, (uint64_t)step, (uint64_t)(stack * 100000 + i));
}

static pf_streams streams_for(pf_model *M, pf_dims d, int msa_stack, int grads) {
    pf_streams st;
    memset(&st, 0, sizeof st);
    int af2 = M->cfg.trunk == PF_TRUNK_EVOFORMER;
    int extra = af2 && msa_stack;
    st.x[PF_STREAM_M] = grads ? (extra ? M->de : M->dm) : (extra ? M->e : M->m);
    st.x[PF_STREAM_Z] = grads ? M->dz : M->z;
    st.x[PF_STREAM_S] = grads ? M->ds : M->s;
    st.mask[PF_MASK_MSA] = extra ? M->in[PF_IN_EXTRA_MASK] : M->in[PF_IN_MSA_MASK];
    st.mask[PF_MASK_PAIR] = M->in[PF_IN_PAIR_MASK];
    st.mask[PF_MASK_SEQ] = M->in[PF_IN_SEQ_MASK];
    st.N = d.N;
    st.S = extra ? d.E : d.S;
    return st;
}

// The dropout keys of the sharded blocks, in forward order (pf_free them).
static uint64_t *dap_keys(pf_model *M, int64_t step) {
    const int first = host_blocks(M);
    uint64_t *keys = pf_malloc(sizeof(uint64_t) * (size_t)(n_blocks(M) - first + 1));
    for (int k = first; k < n_blocks(M); k++) {
        int stack, i;
        block_at(M, k, &stack, &i);
        keys[k - first] = block_key(M, step, stack, i);
    }
    return keys;
}

// One trunk block queued (inference with a progress callback). The host runs ahead of the
// device: a callback that reports times synchronises the backend first, and only when it
// reports, so the blocks' launches stay back to back otherwise.
static void block_done(pf_model *M) {
    if (!M->progress || !M->inference || M->dap) return;
    M->progress(M->progress_ctx, ++M->prog_done, M->prog_total);
}

// One pass through embedding, recycling and the stacks. save: keep what the
// backward needs (the final pass of a training step).
static void pass_fwd(pf_model *M, pf_dims d, int64_t step, int save, int training) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    int64_t N = d.N, NN = zpos(M, N);  // NN: positions of z
    char *saved = save ? M->saved : NULL;
    embed_pair(M, d);
    if (c->trunk == PF_TRUNK_EVOFORMER) {
        embed_msa(M, d, &M->p.msa_m, &M->p.tf_m);
        // recycling (AF2 Alg. 2 lines 6-9 without the distance features)
        be->layer_norm_fwd(be, N, c->c_m, &M->p.rec_ln_m, M->m0_prev, M->tmp_a);
        be->add(be, M->m, M->tmp_a, N * c->c_m);
        be->layer_norm_fwd(be, NN, c->c_z, &M->p.rec_ln_z, M->z_prev, M->tmp_a);
        be->add(be, M->z, M->tmp_a, NN * c->c_z);
        if (M->n_msa_blocks > 0)
            be->linear_fwd(be, d.E * N, PF_EXTRA_MSA_FEAT, c->c_e, &M->p.extra_m, M->in[PF_IN_EXTRA_FEAT], M->e, 0);
    } else {
        be->linear_fwd(be, N, PF_TARGET_FEAT, c->c_s, &M->p.s_init, M->in[PF_IN_TARGET_FEAT], M->s, 0);
        // recycling (AF3 Alg. 1 lines 9-10)
        be->layer_norm_fwd(be, NN, c->c_z, &M->p.rec_ln_z, M->z_prev, M->tmp_a);
        be->linear_fwd(be, NN, c->c_z, c->c_z, &M->p.rec_z, M->tmp_a, M->z, 1);
        if (pf_model_dap_zrows(M)) pf_model_dap_zero_pads(M, N, M->z, c->c_z);  // LN(0) = beta: re-zeroed
        be->layer_norm_fwd(be, N, c->c_s, &M->p.rec_ln_s, M->s_prev, M->tmp_a);
        be->linear_fwd(be, N, c->c_s, c->c_s, &M->p.rec_s, M->tmp_a, M->s, 1);
        embed_msa(M, d, &M->p.msa_m, &M->p.msa_s);
    }
    // Without recompute each block keeps its saved regions; with it, only a copy
    // of its input streams (the backward re-runs its forward, bit for bit).
    int rec = saved && c->recompute, off = rec && offloads(M);
    char *snap = rec ? starts_area(M) : NULL, *host = off ? (char *)M->offload : NULL;
    for (int k = 0; k < n_blocks(M); k++) {
        int stack, i;
        pf_block *b = block_at(M, k, &stack, &i);
        if (k >= host_blocks(M)) break;  // sharded, below
        pf_streams st = streams_for(M, d, stack == 0, 0);
        block_keep(M, k, rec, 0);  // keep_attn: this forward fills the kept outputs
        if (rec) {
            if (segment_start(M, k) == k && !off) snap += snapshot(M, d, b, stack, &st, snap, 0);
            if (segment_start(M, k) == k && off) {  // through device slot 0 to host memory, beside the next blocks
                offload_wait(M);  // the previous start's copy out of the slot is done
                size_t n = snapshot(M, d, b, stack, &st, snap, 0);
                offload_down(M, host, snap, n);
                host += n;
            }
            pf_block_fwd(b, be, &st, NULL, M->ws, M->tmp_a, block_key(M, step, stack, i), training);
        } else {
            pf_block_fwd(b, be, &st, saved, M->ws, M->tmp_a, block_key(M, step, stack, i), training);
            if (saved) saved += b->saved_bytes;
        }
        block_done(M);
    }
    if (M->dap) {
        uint64_t *keys = dap_keys(M, step);
        pf_model_dap_trunk_fwd(M, N, d.S, keys, save, training);
        pf_free(keys);
    }
}

static void keep_for_recycling(pf_model *M, pf_dims d) {
    pf_backend *be = M->be;
    be->copy(be, M->m0_prev, M->m, pf_act_size(be, d.N * M->cfg.c_m));
    be->copy(be, M->z_prev, M->z, pf_act_size(be, zpos(M, d.N) * M->cfg.c_z));
    be->copy(be, M->s_prev, M->s, pf_act_size(be, d.N * M->cfg.c_s));
}

// Block k's forward (with saved: keeping what its backward needs) or backward.
static void run_block(pf_model *M, pf_dims d, int64_t step, int k, int bwd, void *saved) {
    int stack, i;
    pf_block *b = block_at(M, k, &stack, &i);
    pf_streams st = streams_for(M, d, stack == 0, 0), ds = streams_for(M, d, stack == 0, 1);
    uint64_t key = block_key(M, step, stack, i);
    if (bwd) pf_block_bwd(b, M->be, &st, &ds, saved, M->ws, M->tmp_b, key);
    else pf_block_fwd(b, M->be, &st, saved, M->ws, M->tmp_a, key, 1);
}

// Copy block k's input streams to (dir 0) or from (dir 1) snap.
static size_t snapshot_k(pf_model *M, pf_dims d, int k, char *snap, int dir) {
    int stack, i;
    pf_block *b = block_at(M, k, &stack, &i);
    pf_streams st = streams_for(M, d, stack == 0, 0);
    return snapshot(M, d, b, stack, &st, snap, dir);
}

// The backward of the blocks with recompute (segment_len above), last segment first.
static void blocks_bwd_recompute(pf_model *M, pf_dims d, int64_t step) {
    int K = segment_len(M), nb = host_blocks(M), host = offloads(M), slot = 0;  // host: inputs offloaded
    size_t snap_off = 0;  // the end of the segment starts' inputs (in the start area or, offloaded, in host memory)
    for (int k = 0; k < nb; k++) block_keep(M, k, 1, 1);  // keep_attn: every re-run forward skips the cores
    for (int k = 0; k < nb; k++)
        if (segment_start(M, k) == k) snap_off += snapshot_bytes_k(M, d, k);
    char *inner = inner_area(M, snap_off);
    size_t *at = pf_malloc(sizeof(size_t) * (size_t)K);  // offsets of the segment's inputs in the inner area
    if (host && nb > 0) {  // the last segment's inputs into slot 0 (after the forward's copy out of it)
        offload_wait(M);
        offload_fetch(M, d, segment_start(M, nb - 1), snap_off, 0);
    }
    for (int s1 = nb, s0; s1 > 0; s1 = s0) {  // blocks s0 .. s1 - 1
        s0 = segment_start(M, s1 - 1);
        snap_off -= snapshot_bytes_k(M, d, s0);
        char *start = host ? starts_area(M) + (size_t)slot * M->offload_slot : starts_area(M) + snap_off;
        if (host) {
            offload_wait(M);  // this segment's inputs are in the slot
            // the previous segment's into the other slot, beside this segment's work
            if (s0 > 0) offload_fetch(M, d, segment_start(M, s0 - 1), snap_off, slot ^ 1);
            slot ^= 1;
        }
        snapshot_k(M, d, s0, start, 1);
        size_t off = 0;
        for (int k = s0; k < s1 - 1; k++) {  // re-run the segment, keeping each later block's input
            run_block(M, d, step, k, 0, NULL);
            at[k + 1 - s0] = off;
            off += snapshot_k(M, d, k + 1, inner + off, 0);
        }
        for (int k = s1 - 1; k >= s0; k--) {
            if (k < s1 - 1) snapshot_k(M, d, k, k == s0 ? start : inner + at[k - s0], 1);
            run_block(M, d, step, k, 0, M->saved);
            run_block(M, d, step, k, 1, M->saved);
        }
    }
    pf_free(at);
}

static void pass_bwd(pf_model *M, pf_dims d, int64_t step) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    int64_t N = d.N, NN = zpos(M, N);  // NN: positions of z
    if (M->dap) {  // the sharded blocks first; their saved activations are their own
        uint64_t *keys = dap_keys(M, step);
        pf_model_dap_trunk_bwd(M, keys);
        pf_free(keys);
    }
    if (c->recompute) {
        blocks_bwd_recompute(M, d, step);
    } else {  // saved regions were laid out in forward order; walk back
        size_t off = 0;
        for (int k = 0; k < host_blocks(M); k++) off += block_saved_k(M, k);
        for (int k = host_blocks(M) - 1; k >= 0; k--) {
            off -= block_saved_k(M, k);
            run_block(M, d, step, k, 1, (char *)M->saved + off);
        }
    }
    if (c->trunk == PF_TRUNK_EVOFORMER) {
        if (M->n_msa_blocks > 0)
            be->linear_bwd(be, d.E * N, PF_EXTRA_MSA_FEAT, c->c_e, &M->p.extra_m, &M->g.extra_m, M->in[PF_IN_EXTRA_FEAT], M->de, NULL);
        // the recycled inputs are detached: only the LayerNorm parameters learn
        be->layer_norm_bwd(be, N, c->c_m, &M->p.rec_ln_m, &M->g.rec_ln_m, M->m0_prev, M->dm, NULL);
        be->layer_norm_bwd(be, NN, c->c_z, &M->p.rec_ln_z, &M->g.rec_ln_z, M->z_prev, M->dz, NULL);
        embed_msa_bwd(M, d, &M->p.msa_m, &M->g.msa_m, &M->p.tf_m, &M->g.tf_m);
    } else {
        // rows layout: the pads' gradients are those of re-zeroed entries (pass_fwd)
        if (pf_model_dap_zrows(M)) pf_model_dap_zero_pads(M, N, M->dz, c->c_z);
        embed_msa_bwd(M, d, &M->p.msa_m, &M->g.msa_m, &M->p.msa_s, &M->g.msa_s);
        // recycling: recompute LN(prev), then Linear and LayerNorm parameter gradients
        be->layer_norm_fwd(be, NN, c->c_z, &M->p.rec_ln_z, M->z_prev, M->tmp_a);
        be->zero(be, M->tmp_b, pf_act_size(be, NN * c->c_z));
        be->linear_bwd(be, NN, c->c_z, c->c_z, &M->p.rec_z, &M->g.rec_z, M->tmp_a, M->dz, M->tmp_b);
        be->layer_norm_bwd(be, NN, c->c_z, &M->p.rec_ln_z, &M->g.rec_ln_z, M->z_prev, M->tmp_b, NULL);
        be->layer_norm_fwd(be, N, c->c_s, &M->p.rec_ln_s, M->s_prev, M->tmp_a);
        be->zero(be, M->tmp_b, pf_act_size(be, N * c->c_s));
        be->linear_bwd(be, N, c->c_s, c->c_s, &M->p.rec_s, &M->g.rec_s, M->tmp_a, M->ds, M->tmp_b);
        be->layer_norm_bwd(be, N, c->c_s, &M->p.rec_ln_s, &M->g.rec_ln_s, M->s_prev, M->tmp_b, NULL);
        be->linear_bwd(be, N, PF_TARGET_FEAT, c->c_s, &M->p.s_init, &M->g.s_init, M->in[PF_IN_TARGET_FEAT], M->ds, NULL);
    }
    embed_pair_bwd(M, d);
}

// Drop the arenas: the next step plans them again (pf_model_attach_dap).
void pf_model_replan(pf_model *M) {
    pf_backend *be = M->be;
    if (M->act) be->free(be, M->act);
    if (M->saved) be->free(be, M->saved);
    if (M->ws) be->free(be, M->ws);
    M->act = M->saved = M->ws = NULL;
    ensure_capacity(M, M->cap);
}

static double final_flops(const pf_model *M) {
    double f = 0;
    for (int i = 0; i < M->n_msa_blocks; i++) f += pf_block_flops(&M->msa_blocks[i]);
    for (int i = 0; i < M->n_trunk; i++) f += pf_block_flops(&M->trunk[i]);
    return f;
}

static pf_step_result run(pf_model *M, const pf_batch *b, int64_t step, int training, pf_structure_pred *out) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    pf_dims d = pf_batch_dims(M, b);
    ensure_capacity(M, d);
    size_t saved_need, ws_need;
    plan_blocks(M, d, &saved_need, &ws_need);
    if (training && M->inference) pf_die("internal: a training step on a model created for inference");
    if ((!M->inference && saved_need > M->saved_bytes) || ws_need > M->ws_bytes)
        pf_die("internal: arena plan exceeds capacity");
    carve(M, M->act, M->cap);  // pointers for the capacity; tensors use their prefixes
    double upload_ms = pf_stage_upload(M, b, d);
    int64_t N = d.N;
    // AF2 1.10: the number of recycling passes is sampled per step during training
    int cycles = 1 + (training ? (int)(pf_hash2(c->seed ^ 0x5ec7c1e5ull, (uint64_t)step) % (uint64_t)(c->recycles + 1))
                               : c->recycles);
    M->prog_done = 0;
    M->prog_total = M->dap ? 0 : cycles * n_blocks(M);
    be->zero(be, M->m0_prev, pf_act_size(be, N * c->c_m));
    be->zero(be, M->z_prev, pf_act_size(be, zpos(M, N) * c->c_z));
    be->zero(be, M->s_prev, pf_act_size(be, N * c->c_s));
    for (int k = 0; k < cycles - 1; k++) {
        pass_fwd(M, d, step, 0, 0);
        keep_for_recycling(M, d);
    }
    pass_fwd(M, d, step, training, training);
    pf_disto_dims dd = {N, c->c_z, c->n_bins};
    int32_t *target = ints(M, PF_IN_DISTO_TARGET);
    pf_step_result r = {0};
    r.upload_ms = upload_ms;
    const int zrows = pf_model_dap_zrows(M);
    if (zrows) {  // the loss and its d z (training) of the rank's rows (model_dap_heads.c)
        if (training) be->zero(be, M->dz, pf_act_size(be, zpos(M, N) * c->c_z));
        r.disto = pf_model_dap_disto(M, N, b->pseudo_beta_mask, c->disto_weight, training);
    } else {
        r.disto = be->disto_fwd(be, &dd, &M->p.disto, M->z, target, M->in[PF_IN_DISTO_MASK]);
    }
    // AF2 masked-MSA loss (1.9.9): predict the corrupted tokens from the final m;
    // the logits and then their gradient live in tmp_b
    int use_msa = c->trunk == PF_TRUNK_EVOFORMER && c->msa_weight > 0;
    int64_t SN = d.S * N;
    if (use_msa) {
        be->linear_fwd(be, SN, c->c_m, PF_NUM_TOK, &M->p.masked_msa, M->m, M->tmp_b, 0);
        r.msa = be->xent(be, SN, PF_NUM_TOK, M->tmp_b, ints(M, PF_IN_BERT_TARGET), M->in[PF_IN_BERT_MASK], c->msa_weight,
                         training ? M->tmp_b : NULL);
    }
    r.loss = c->disto_weight * r.disto + (use_msa ? c->msa_weight * r.msa : 0);
    if (c->structure_module && !training) pf_model_structure_step(M, b, step, 0, &r, out);
    r.cycles = cycles;
    r.flops = final_flops(M);
    if (training) {
        if (!zrows) be->zero(be, M->dz, pf_act_size(be, N * N * c->c_z));
        be->zero(be, M->dm, pf_act_size(be, SN * c->c_m));
        be->zero(be, M->ds, pf_act_size(be, N * c->c_s));
        if (d.E) be->zero(be, M->de, pf_act_size(be, d.E * N * c->c_e));
        if (!zrows)
            be->disto_bwd(be, &dd, &M->p.disto, &M->g.disto, M->z, target, M->in[PF_IN_DISTO_MASK], c->disto_weight,
                          M->dz);
        if (use_msa) be->linear_bwd(be, SN, c->c_m, PF_NUM_TOK, &M->p.masked_msa, &M->g.masked_msa, M->m, M->tmp_b, M->dm);
        if (c->structure_module) pf_model_structure_step(M, b, step, 1, &r, NULL);
        pass_bwd(M, d, step);
        pf_model_dap_drop(M);
    }
    return r;
}

pf_step_result pf_model_train_step(pf_model *M, const pf_batch *b, int64_t step) { return run(M, b, step, 1, NULL); }
pf_step_result pf_model_eval(pf_model *M, const pf_batch *b) { return run(M, b, 0, 0, NULL); }
pf_step_result pf_model_eval_structure(pf_model *M, const pf_batch *b, pf_structure_pred *out) {
    return run(M, b, 0, 0, out);
}
