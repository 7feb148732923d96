// model_dap.c: the trunk (Pairformer or Evoformer) sharded over a dap group
// (dap.h), and before it the AF3 MSA module when the backend has its sharded ops
// (opm_dap, pwavg_dap; otherwise it runs replicated, as the AF2 extra-MSA stack
// always does). When every block that touches z runs sharded (the AF3 trunk with
// its MSA module sharded), the model's z-sized tensors are this rank's rows
// (model_dap_heads.c) and the executor's z and d z are the model's. Otherwise the
// embeddings and the heads stay replicated: every rank computes the full z (and
// m), takes its rows of z before the first sharded block, and they are
// all-gathered after the last (the backward mirrors this). m is taken by columns
// and gathered back in both cases. Every rank of the group computes the same
// replicated gradients; ranks other than 0 drop theirs (model_dap_drop), so the
// world-wide gradient sum counts each structure once.
//
// Recompute (cfg.recompute = K >= 1) works on the shard as model.c does on the
// whole tensors: the forward keeps only this rank's sharded input streams of
// blocks 0, K, 2K, ... (z's rows and s, or z's rows and m's columns); the
// backward re-runs each segment's forwards from its snapshot, last segment
// first. Every forward of a training pass, kept or not, saves into the same
// one-block region (the largest block's saved bytes): it is the code path of the
// forward that keeps, so the re-run reproduces it bit for bit on every backend
// (CUDA's attn_dap would otherwise take a temporary saved region per call).
#include "model_dap_int.h"
#include <string.h>
#include "../core/util.h"


// The AF3 MSA module runs sharded when every block of it can (the backend has
// opm_dap and pwavg_dap); otherwise replicated, said once per group.
static int msa_module_sharded(const pf_model *M, const pf_dap_comm *c) {
    if (M->cfg.trunk != PF_TRUNK_PAIRFORMER || M->n_msa_blocks == 0) return 0;
    char err[512];
    for (int i = 0; i < M->n_msa_blocks; i++)
        if (pf_dap_check(&M->msa_blocks[i], M->be, err, sizeof err)) {
            if (c->rank == 0)
                pf_warn("%s; it runs replicated on every rank of the group (and the model's z-sized tensors stay "
                        "whole on every rank)", err);
            return 0;
        }
    return 1;
}

int pf_model_attach_dap(pf_model *M, const pf_dap_comm *c, char *err, size_t n) {
    if (c->size <= 1) return 0;
    for (int i = 0; i < M->n_trunk; i++)
        if (pf_dap_check(&M->trunk[i], M->be, err, n)) return -1;
    M->dap = pf_calloc(1, sizeof *M->dap);
    M->dap->c = *c;
    M->dap->n_msa = msa_module_sharded(M, c) ? M->n_msa_blocks : 0;
    M->dap->nb = M->dap->n_msa + M->n_trunk;
    M->dap->blk = pf_calloc((size_t)M->dap->nb + 1, sizeof(pf_dap_block));
    M->dap->zrows = pf_model_dap_zrows_possible(M);
    pf_model_replan(M);  // the unsharded trunk's saved activations and workspace are not needed
    return 0;
}

static void free_bufs(pf_model_dap *D, pf_backend *be) {
    if (D->zrows) D->z = D->dz = NULL;  // the model's own (pf_model_dap_zrows)
    pf_act **b[] = {&D->z, &D->dz, &D->s, &D->ds, &D->pair, &D->pair_t, &D->seq, &D->delta, &D->dd, &D->full,
                    &D->m, &D->dm, &D->msa, &D->msa_rows, &D->dmask};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (*b[i]) be->free(be, *b[i]);
        *b[i] = NULL;
    }
    if (D->dtgt) be->free(be, D->dtgt);
    D->dtgt = NULL;
}

void pf_model_dap_free(pf_model *M) {
    pf_model_dap *D = M->dap;
    if (!D) return;
    pf_backend *be = M->be;
    for (int i = 0; i < D->nb; i++) pf_dap_block_free(&D->blk[i], be);
    free_bufs(D, be);
    if (D->dw_scratch) be->free(be, D->dw_scratch);
    if (D->lsum) be->free(be, D->lsum);
    if (D->saved) be->free(be, D->saved);
    if (D->ws) be->free(be, D->ws);
    pf_free(D->blk);
    pf_free(D);
    M->dap = NULL;
}

// The stream buffers for the current sizes (all of them again when one must grow).
static void alloc_bufs(pf_model *M) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s, cm = M->cfg.c_m;
    const int64_t rows = D->n * D->Np * cz, mm = D->Sp * D->n * cm;
    int64_t big = PF_MAX(PF_MAX(rows, D->Np * cs), PF_MAX(mm, 2 * D->n * D->Np));
    big = PF_MAX(big, 2 * D->srow * D->Np);
    big = PF_MAX(big, D->c.size * D->Np * cz);  // gather_rows: one row of z from every rank (n < P)
    if (D->zrows) big = PF_MAX(big, D->c.size * D->Np * M->cfg.n_bins);  // pf_model_dap_disto_rows: one row of logits per rank
    if (D->s && rows <= D->zcap && mm <= D->mcap && big <= D->bcap) return;
    free_bufs(D, be);
    if (!D->zrows) {  // else z's and d z's rows are the model's (set each pass: bind_z)
        D->z = be->alloc(be, pf_act_size(be, rows));
        D->dz = be->alloc(be, pf_act_size(be, rows));
    }
    D->s = be->alloc(be, pf_act_size(be, D->Np * cs));
    D->ds = be->alloc(be, pf_act_size(be, D->Np * cs));
    D->pair = be->alloc(be, pf_act_size(be, D->n * D->Np));
    D->pair_t = be->alloc(be, pf_act_size(be, D->n * D->Np));
    D->seq = be->alloc(be, pf_act_size(be, D->Np));
    D->delta = be->alloc(be, pf_act_size(be, big));
    D->dd = be->alloc(be, pf_act_size(be, big));
    D->full = be->alloc(be, pf_act_size(be, D->c.size * mm));  // a gathered m (z is gathered in pieces)
    D->m = be->alloc(be, pf_act_size(be, mm));
    D->dm = be->alloc(be, pf_act_size(be, mm));
    D->msa = be->alloc(be, pf_act_size(be, D->Sp * D->n));
    D->msa_rows = be->alloc(be, pf_act_size(be, D->srow * D->Np));
    if (D->zrows) {  // the distogram's target and mask rows
        D->dtgt = be->alloc(be, sizeof(int32_t) * (size_t)(D->n * D->Np));
        D->dmask = be->alloc(be, pf_act_size(be, D->n * D->Np));
    }
    D->zcap = rows;
    D->bcap = big;
    D->mcap = mm;
}

static int evoformer(const pf_model *M) { return M->cfg.trunk == PF_TRUNK_EVOFORMER; }
// Whether a sharded block reads the MSA: the Evoformer's, or the sharded MSA module's.
static int uses_m(const pf_model *M) { return evoformer(M) || M->dap->n_msa > 0; }
// Sharded block k: the MSA module's blocks first, then the trunk's.
static pf_block *dblock(const pf_model *M, int k) {
    return k < M->dap->n_msa ? &M->msa_blocks[k] : &M->trunk[k - M->dap->n_msa];
}

int pf_model_dap_first(const pf_model *M) { return M->dap->n_msa ? 0 : M->n_msa_blocks; }

// The sharded streams a block reads and writes (a recompute snapshot): z's
// rows, m's columns (Evoformer, sharded MSA module) and s (Pairformer,
// replicated). One layout for every block (the MSA module's snapshots carry s
// and the Pairformer's m too: Np c_s and Sp n c_m elements, small beside z's).
static int snap_parts(const pf_model *M, pf_act *x[3], size_t bytes[3]) {
    const pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    int k = 0;
    x[k] = D->z, bytes[k++] = pf_act_size(be, D->n * D->Np * M->cfg.c_z);
    if (uses_m(M)) x[k] = D->m, bytes[k++] = pf_act_size(be, D->Sp * D->n * M->cfg.c_m);
    if (!evoformer(M)) x[k] = D->s, bytes[k++] = pf_act_size(be, D->Np * M->cfg.c_s);
    return k;
}
static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

// Copy the sharded streams to (dir 0) or from (dir 1) a snapshot at `at`.
static void snapshot(pf_model *M, char *at, int dir) {
    pf_act *x[3];
    size_t bytes[3], off = 0;
    const int np = snap_parts(M, x, bytes);
    for (int k = 0; k < np; k++) {
        if (dir == 0) M->be->copy(M->be, at + off, x[k], bytes[k]);
        else M->be->copy(M->be, x[k], at + off, bytes[k]);
        off += align256(bytes[k]);
    }
}

// Recompute in segments of K blocks: snapshots of the segment starts, then the
// inputs of a segment's inner blocks s0 + 1 .. s0 + K - 2 (the last block's input
// is what re-running the others leaves in the streams).
static int seg_starts(const pf_model *M) { return (M->dap->nb + M->cfg.recompute - 1) / M->cfg.recompute; }
static int seg_inner(const pf_model *M) { return PF_MAX(0, PF_MIN(M->cfg.recompute, M->dap->nb) - 2); }

// Plan the blocks for N tokens and S MSA rows and size the buffers (grow only).
// The saved arena holds every block's saved regions, or with recompute the
// one-block region and the snapshots.
static void plan(pf_model *M, int64_t N, int64_t S) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    size_t saved = 0, ws = 0, mx = 0;
    for (int i = 0; i < D->nb; i++) {
        pf_dap_block_plan(&D->blk[i], dblock(M, i), be, &D->c, N, S);
        saved += D->blk[i].saved_bytes;
        mx = PF_MAX(mx, align256(D->blk[i].saved_bytes));
        ws = PF_MAX(ws, D->blk[i].ws_bytes);
    }
    if (D->zrows) {  // the distogram head's transposes (model_dap_heads.c): 2 n Np n_bins
        const int64_t nr = pf_dap_rows(N, D->c.size);
        ws = PF_MAX(ws, pf_act_size(be, 2 * nr * nr * D->c.size * M->cfg.n_bins));
    }
    D->N = N;
    D->n = pf_dap_rows(N, D->c.size);
    D->Np = D->n * D->c.size;
    D->S = S;
    D->srow = pf_dap_rows(S, D->c.size);
    D->Sp = D->srow * D->c.size;
    alloc_bufs(M);
    if (M->cfg.recompute) {
        pf_act *x[3];
        size_t bytes[3];
        const int np = snap_parts(M, x, bytes);
        D->blk_max = mx;
        D->snap = 0;
        for (int k = 0; k < np; k++) D->snap += align256(bytes[k]);
        saved = mx + (size_t)(seg_starts(M) + seg_inner(M)) * D->snap;
    }
    if (saved > D->saved_cap) {
        if (D->saved) be->free(be, D->saved);
        D->saved = be->alloc(be, saved);
        D->saved_cap = saved;
    }
    if (ws > D->ws_cap) {
        if (D->ws) be->free(be, D->ws);
        D->ws = be->alloc(be, ws);
        D->ws_cap = ws;
    }
}

// This rank's rows of x (N, N, C) into out (n, Np, C), zero-padded.
static void take_rows(pf_model *M, const pf_act *x, int C, pf_act *out) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    be->zero(be, out, pf_act_size(be, D->n * D->Np * C));
    for (int64_t il = 0; il < D->n; il++) {
        int64_t i = D->c.rank * D->n + il;
        if (i < D->N) be->copy(be, pf_act_at(be, out, il * D->Np * C), pf_act_at(be, x, i * D->N * C),
                               pf_act_size(be, D->N * C));
    }
}

// A (N, C) vector padded to (Np, C), or back.
static void pad(pf_model *M, const pf_act *x, int C, pf_act *out) {
    pf_backend *be = M->be;
    be->zero(be, out, pf_act_size(be, M->dap->Np * C));
    be->copy(be, out, x, pf_act_size(be, M->dap->N * C));
}

// Every rank's rows (n, Np, C) gathered into x (N, N, C), kr local rows at a time
// through the scratch delta (free between passes; at least one shard and P rows, so
// kr >= max(1, n / P)):
// the gathered tensor never exists whole beside x.
static void gather_rows(pf_model *M, const pf_act *rows, int C, pf_act *x) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    D->z_gathers++;
    const int64_t row = D->Np * C, kr = PF_MAX(1, PF_MIN(D->n, D->bcap / (D->c.size * row)));
    for (int64_t r0 = 0; r0 < D->n; r0 += kr) {
        const int64_t k = PF_MIN(kr, D->n - r0);  // the same on every rank: one collective each
        D->c.all_gather(&D->c, pf_act_at(be, rows, r0 * row), D->delta, pf_act_size(be, k * row));
        for (int q = 0; q < D->c.size; q++)
            for (int64_t t = 0; t < k; t++) {
                const int64_t i = q * D->n + r0 + t;  // block q holds rows r0 .. r0 + k - 1 of rank q
                if (i < D->N)
                    be->copy(be, pf_act_at(be, x, i * D->N * C), pf_act_at(be, D->delta, (q * k + t) * row),
                             pf_act_size(be, D->N * C));
            }
    }
}

// This rank's columns of x (S, N, C) into out (Sp, n, C), zero-padded.
static void take_cols(pf_model *M, const pf_act *x, int C, pf_act *out) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int64_t j0 = D->c.rank * D->n, cnt = PF_MIN(D->n, D->N - j0);
    be->zero(be, out, pf_act_size(be, D->Sp * D->n * C));
    for (int64_t r = 0; r < D->S && cnt > 0; r++)
        be->copy(be, pf_act_at(be, out, r * D->n * C), pf_act_at(be, x, (r * D->N + j0) * C), pf_act_size(be, cnt * C));
}

// Every rank's columns (Sp, n, C) gathered into x (S, N, C).
static void gather_cols(pf_model *M, const pf_act *cols, int C, pf_act *x) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int64_t blk = D->Sp * D->n * C;
    D->c.all_gather(&D->c, cols, D->full, pf_act_size(be, blk));
    for (int q = 0; q < D->c.size; q++) {
        const int64_t j0 = q * D->n, cnt = PF_MIN(D->n, D->N - j0);
        for (int64_t r = 0; r < D->S && cnt > 0; r++)
            be->copy(be, pf_act_at(be, x, (r * D->N + j0) * C), pf_act_at(be, D->full, q * blk + r * D->n * C),
                     pf_act_size(be, cnt * C));
    }
}

// With the model's z as rows, the executor's z and d z are the model's tensors
// (no copies in or out); their pointers are the current carve's.
static void bind_z(pf_model *M) {
    if (M->dap->zrows) M->dap->z = M->z, M->dap->dz = M->dz;
}

static pf_dap_streams streams(pf_model_dap *D, int grads) {
    pf_dap_streams st = {.z = grads ? D->dz : D->z, .s = grads ? D->ds : D->s, .pair = D->pair,
                         .pair_t = D->pair_t, .seq = D->seq, .m = grads ? D->dm : D->m, .msa = D->msa,
                         .msa_rows = D->msa_rows};
    return st;
}

void pf_model_dap_trunk_fwd(pf_model *M, int64_t N, int64_t S, const uint64_t *keys, int save, int training) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s, cm = M->cfg.c_m;
    plan(M, N, uses_m(M) ? S : 1);
    bind_z(M);
    if (uses_m(M)) {
        take_cols(M, M->in[PF_IN_MSA_MASK], 1, D->msa);
        if (evoformer(M)) be->dap_reshard(be, &D->c, D->Sp, D->Np, 1, D->msa, D->msa_rows, D->dd, 1);
        take_cols(M, M->m, cm, D->m);
    }
    take_rows(M, M->in[PF_IN_PAIR_MASK], 1, D->pair);
    be->dap_transpose(be, &D->c, D->Np, 1, D->pair, D->pair_t, D->dd);
    pad(M, M->in[PF_IN_SEQ_MASK], 1, D->seq);
    if (!D->zrows) take_rows(M, M->z, cz, D->z);  // else D->z is M->z
    pad(M, M->s, cs, D->s);
    pf_dap_streams st = streams(D, 0);
    char *saved = save ? D->saved : NULL;
    const int K = M->cfg.recompute;
    char *snap = (char *)D->saved + D->blk_max;  // recompute: the segment starts' snapshots
    for (int i = 0; i < D->nb; i++) {
        if (save && K) {  // keep the segment start's input only; save into the one-block region
            if (i % K == 0) snapshot(M, snap, 0), snap += D->snap;
            pf_dap_block_fwd(&D->blk[i], be, &D->c, &st, D->saved, D->ws, D->delta, keys[i], training);
            continue;
        }
        pf_dap_block_fwd(&D->blk[i], be, &D->c, &st, saved, D->ws, D->delta, keys[i], training);
        if (saved) saved += D->blk[i].saved_bytes;
    }
    if (D->zrows) pf_model_dap_zero_pads(M, N, M->z, cz);  // the recycled z_prev and the head read them
    else gather_rows(M, D->z, cz, M->z);
    if (uses_m(M)) gather_cols(M, D->m, cm, M->m);
    if (!evoformer(M)) be->copy(be, M->s, D->s, pf_act_size(be, N * cs));  // replicated: every rank has all of s
}

// The trunk's backward with recompute: per segment (blocks s0 .. s1 - 1, last
// segment first) the start's snapshot back into the streams, the forwards re-run
// (keeping the inner blocks' inputs), then each block's forward into the
// one-block region and its backward, last block first. The backward reads the
// streams only for the masks, so the forward may leave them as it likes.
static void trunk_bwd_recompute(pf_model *M, const uint64_t *keys) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int K = M->cfg.recompute;
    pf_dap_streams st = streams(D, 0), d = streams(D, 1);
    char *region = D->saved, *starts = region + D->blk_max, *inner = starts + (size_t)seg_starts(M) * D->snap;
    for (int s1 = D->nb, s0; s1 > 0; s1 = s0) {
        s0 = (s1 - 1) / K * K;
        char *start = starts + (size_t)(s0 / K) * D->snap;
        snapshot(M, start, 1);
        for (int k = s0; k < s1 - 1; k++) {
            if (k > s0) snapshot(M, inner + (size_t)(k - s0 - 1) * D->snap, 0);
            pf_dap_block_fwd(&D->blk[k], be, &D->c, &st, region, D->ws, D->delta, keys[k], 1);
        }
        for (int k = s1 - 1; k >= s0; k--) {
            if (k < s1 - 1) snapshot(M, k == s0 ? start : inner + (size_t)(k - s0 - 1) * D->snap, 1);
            pf_dap_block_fwd(&D->blk[k], be, &D->c, &st, region, D->ws, D->delta, keys[k], 1);
            pf_dap_block_bwd(&D->blk[k], be, &D->c, &st, &d, region, D->ws, D->dd, keys[k]);
        }
    }
}

void pf_model_dap_trunk_bwd(pf_model *M, const uint64_t *keys) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s, cm = M->cfg.c_m;
    bind_z(M);
    if (!D->zrows) take_rows(M, M->dz, cz, D->dz);  // else D->dz is M->dz
    pad(M, M->ds, cs, D->ds);
    if (uses_m(M)) take_cols(M, M->dm, cm, D->dm);
    if (M->cfg.recompute) {
        trunk_bwd_recompute(M, keys);
    } else {  // saved regions were laid out in forward order; walk back
        pf_dap_streams st = streams(D, 0), d = streams(D, 1);
        size_t off = 0;
        for (int i = 0; i < D->nb; i++) off += D->blk[i].saved_bytes;
        for (int i = D->nb - 1; i >= 0; i--) {
            off -= D->blk[i].saved_bytes;
            pf_dap_block_bwd(&D->blk[i], be, &D->c, &st, &d, (char *)D->saved + off, D->ws, D->dd, keys[i]);
        }
    }
    if (!D->zrows) gather_rows(M, D->dz, cz, M->dz);
    if (uses_m(M)) gather_cols(M, D->dm, cm, M->dm);
    if (!evoformer(M)) be->copy(be, M->ds, D->ds, pf_act_size(be, D->N * cs));
}

size_t pf_model_dap_saved_bytes(const pf_model *M) { return M->dap ? M->dap->saved_cap : 0; }

// With the model's z as rows, the parameters that see only z are shares too:
// the pair embedding (relpos, the target features' z projections), recycling's
// z LayerNorm and Linear, the distogram head.
static int zrows_share(const char *name) {
    static const char *pre[] = {"input_embedder.relpos.", "input_embedder.linear_z_i.", "input_embedder.linear_z_j.",
                                "recycle.layer_norm_z.", "recycle.linear_z.", "aux_heads.distogram."};
    for (size_t k = 0; k < sizeof pre / sizeof pre[0]; k++)
        if (!strncmp(name, pre[k], strlen(pre[k]))) return 1;
    return 0;
}

// Ranks other than 0 of the group: the gradients of every parameter outside the
// sharded blocks (and the rows' embedding and head) are replicated work (the
// same on every rank of the group): drop them.
void pf_model_dap_drop(pf_model *M) {
    if (!M->dap || M->dap->c.rank == 0) return;
    const char *trunk = evoformer(M) ? "evoformer." : "pairformer_stack.", *msa = "msa_module.blocks.";
    for (int i = 0; i < M->P.n; i++) {
        const pf_param *t = &M->P.t[i];
        if (!strncmp(t->name, trunk, strlen(trunk)) || (M->dap->n_msa && !strncmp(t->name, msa, strlen(msa))) ||
            (M->dap->zrows && zrows_share(t->name)))
            continue;
        M->be->zero(M->be, M->P.grad + t->offset, sizeof(real) * (size_t)t->numel);
    }
}
