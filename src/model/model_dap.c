// model_dap.c: the Pairformer trunk sharded over a dap group
// (dap.h). Embeddings, the MSA module and the distogram head stay replicated:
// every rank computes the full z, takes its rows before the trunk, and the rows
// are all-gathered after it (the backward mirrors this: the head's d z is
// sliced, the trunk's d z gathered). Every rank of the group computes the same
// replicated gradients; ranks other than 0 drop theirs (model_dap_drop), so the
// world-wide gradient sum counts each structure once.
#include "model_dap.h"
#include <string.h>
#include "../core/util.h"

struct pf_model_dap {
    pf_dap_comm c;
    pf_dap_block *blk;         // one per trunk block
    int64_t N, n, Np;          // the current step's sizes
    void *saved, *ws;          // backend memory
    size_t saved_cap, ws_cap;
    int64_t zcap;              // elements the stream buffers below hold
    pf_act *z, *dz, *s, *ds;   // (n, Np, c_z), (Np, c_s)
    pf_act *pair, *pair_t, *seq, *delta, *dd, *full;  // masks; scratch; (Np, Np, c_z)
};

int pf_model_attach_dap(pf_model *M, const pf_dap_comm *c, char *err, size_t n) {
    if (c->size <= 1) return 0;
    if (M->cfg.recompute) {
        snprintf(err, n, "dap > 1 needs recompute = 0 (the sharded trunk keeps its own saved activations)");
        return -1;
    }
    for (int i = 0; i < M->n_trunk; i++)
        if (pf_dap_check(&M->trunk[i], M->be, err, n)) return -1;
    M->dap = pf_calloc(1, sizeof *M->dap);
    M->dap->c = *c;
    M->dap->blk = pf_calloc((size_t)M->n_trunk + 1, sizeof(pf_dap_block));
    pf_model_replan(M);  // the unsharded trunk's saved activations and workspace are not needed
    return 0;
}

static void free_bufs(pf_model_dap *D, pf_backend *be) {
    pf_act **b[] = {&D->z, &D->dz, &D->s, &D->ds, &D->pair, &D->pair_t, &D->seq, &D->delta, &D->dd, &D->full};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (*b[i]) be->free(be, *b[i]);
        *b[i] = NULL;
    }
}

void pf_model_dap_free(pf_model *M) {
    pf_model_dap *D = M->dap;
    if (!D) return;
    pf_backend *be = M->be;
    for (int i = 0; i < M->n_trunk; i++) pf_dap_block_free(&D->blk[i], be);
    free_bufs(D, be);
    if (D->saved) be->free(be, D->saved);
    if (D->ws) be->free(be, D->ws);
    pf_free(D->blk);
    pf_free(D);
    M->dap = NULL;
}

// Plan the blocks for N tokens and size the buffers (grow only).
static void plan(pf_model *M, int64_t N) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s;
    size_t saved = 0, ws = 0;
    for (int i = 0; i < M->n_trunk; i++) {
        pf_dap_block_plan(&D->blk[i], &M->trunk[i], be, &D->c, N, 1);
        saved += D->blk[i].saved_bytes;
        ws = PF_MAX(ws, D->blk[i].ws_bytes);
    }
    D->N = N;
    D->n = pf_dap_rows(N, D->c.size);
    D->Np = D->n * D->c.size;
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
    int64_t nz = D->Np * D->Np * cz;  // the largest buffer, (Np, Np, c_z)
    if (nz <= D->zcap) return;
    free_bufs(D, be);
    int64_t rows = D->n * D->Np * cz, big = PF_MAX(rows, D->Np * cs);
    D->z = be->alloc(be, pf_act_size(be, rows));
    D->dz = be->alloc(be, pf_act_size(be, rows));
    D->s = be->alloc(be, pf_act_size(be, D->Np * cs));
    D->ds = be->alloc(be, pf_act_size(be, D->Np * cs));
    D->pair = be->alloc(be, pf_act_size(be, D->n * D->Np));
    D->pair_t = be->alloc(be, pf_act_size(be, D->n * D->Np));
    D->seq = be->alloc(be, pf_act_size(be, D->Np));
    D->delta = be->alloc(be, pf_act_size(be, PF_MAX(big, 2 * D->n * D->Np)));
    D->dd = be->alloc(be, pf_act_size(be, PF_MAX(big, 2 * D->n * D->Np)));
    D->full = be->alloc(be, pf_act_size(be, nz));
    D->zcap = nz;
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

// Every rank's rows (n, Np, C) gathered into x (N, N, C).
static void gather_rows(pf_model *M, const pf_act *rows, int C, pf_act *x) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    D->c.all_gather(&D->c, (const real *)rows, (real *)D->full, D->n * D->Np * C);
    for (int64_t i = 0; i < D->N; i++)
        be->copy(be, pf_act_at(be, x, i * D->N * C), pf_act_at(be, D->full, i * D->Np * C), pf_act_size(be, D->N * C));
}

static pf_dap_streams streams(pf_model_dap *D, int grads) {
    pf_dap_streams st = {.z = grads ? D->dz : D->z, .s = grads ? D->ds : D->s, .pair = D->pair,
                         .pair_t = D->pair_t, .seq = D->seq};
    return st;
}

void pf_model_dap_trunk_fwd(pf_model *M, int64_t N, const uint64_t *keys, int save, int training) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s;
    plan(M, N);
    take_rows(M, M->in[PF_IN_PAIR_MASK], 1, D->pair);
    be->dap_transpose(be, &D->c, D->Np, 1, D->pair, D->pair_t, D->dd);
    pad(M, M->in[PF_IN_SEQ_MASK], 1, D->seq);
    take_rows(M, M->z, cz, D->z);
    pad(M, M->s, cs, D->s);
    pf_dap_streams st = streams(D, 0);
    char *saved = save ? D->saved : NULL;
    for (int i = 0; i < M->n_trunk; i++) {
        pf_dap_block_fwd(&D->blk[i], be, &D->c, &st, saved, D->ws, D->delta, keys[i], training);
        if (saved) saved += D->blk[i].saved_bytes;
    }
    gather_rows(M, D->z, cz, M->z);
    be->copy(be, M->s, D->s, pf_act_size(be, N * cs));  // replicated: every rank has all of s
}

void pf_model_dap_trunk_bwd(pf_model *M, const uint64_t *keys) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, cs = M->cfg.c_s;
    take_rows(M, M->dz, cz, D->dz);
    pad(M, M->ds, cs, D->ds);
    pf_dap_streams st = streams(D, 0), d = streams(D, 1);
    size_t off = 0;
    for (int i = 0; i < M->n_trunk; i++) off += D->blk[i].saved_bytes;
    for (int i = M->n_trunk - 1; i >= 0; i--) {
        off -= D->blk[i].saved_bytes;
        pf_dap_block_bwd(&D->blk[i], be, &D->c, &st, &d, (char *)D->saved + off, D->ws, D->dd, keys[i]);
    }
    gather_rows(M, D->dz, cz, M->dz);
    be->copy(be, M->ds, D->ds, pf_act_size(be, D->N * cs));
}

// Ranks other than 0 of the group: the gradients of every parameter outside the
// trunk blocks are replicated work (the same on every rank of the group): drop them.
void pf_model_dap_drop(pf_model *M) {
    if (!M->dap || M->dap->c.rank == 0) return;
    const char *trunk = "pairformer_stack.";
    for (int i = 0; i < M->P.n; i++) {
        const pf_param *t = &M->P.t[i];
        if (strncmp(t->name, trunk, strlen(trunk)))
            M->be->zero(M->be, M->P.grad + t->offset, sizeof(real) * (size_t)t->numel);
    }
}
