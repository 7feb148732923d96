// dap.c: the Pairformer block on one rank's rows of the pair tensor (dap.h).
#include "dap.h"
#include <string.h>
#include "../core/util.h"
#include "../core/rng.h"

// How a step runs on the shard.
enum {
    K_ROW,     // on the rank's rows of z (trimul outgoing, starting node, pair transition)
    K_COL,     // on the rows of z^T (trimul incoming, ending node): transpose in and out
    K_SINGLE,  // on the replicated s (single attention: z-biased; single transition)
};

static int step_kind(const pf_step *s) {
    if (s->target == PF_STREAM_S) return K_SINGLE;
    if (s->op == PF_OP_TRIMUL) return s->d.trimul.incoming ? K_COL : K_ROW;
    if (s->op == PF_OP_ATTN) return s->d.attn.transpose ? K_COL : K_ROW;
    return K_ROW;
}

int pf_dap_check(const pf_block *b, pf_backend *be, char *err, size_t n) {
    if (b->kind != PF_BLOCK_PAIRFORMER) {
        snprintf(err, n, "dap > 1: the sharded pair tensor is implemented for Pairformer blocks only (got a %s block)",
                 pf_block_kind_name(b->kind));
        return -1;
    }
    if (!be->attn_dap_fwd || !be->trimul_dap_fwd || !be->dap_transpose) {
        snprintf(err, n, "dap > 1: backend '%s' has no sharded ops (attn_dap, trimul_dap, dap_transpose)", be->name);
        return -1;
    }
    for (int i = 0; i < b->n; i++) {
        const pf_step *s = &b->step[i];
        int ok = s->op == PF_OP_TRIMUL || s->op == PF_OP_TRANSITION ||
                 (s->op == PF_OP_ATTN && (s->input == PF_STREAM_Z || s->second == PF_STREAM_Z));
        if (!ok || (s->dropout > 0 && step_kind(s) == K_ROW && s->dropout_axis != 0)) {
            snprintf(err, n, "dap > 1: step '%s' has no sharded form", s->name);
            return -1;
        }
    }
    return 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// Scratch for the replicated gradients of ranks != 0: the largest such tensor.
static int64_t discard_numel(const pf_block *b) {
    int64_t m = 1;
    for (int i = 0; i < b->n; i++) {
        const pf_step *s = &b->step[i];
        if (step_kind(s) != K_SINGLE) continue;
        int64_t c = b->c[PF_STREAM_S];
        if (s->op == PF_OP_ATTN) m = max64(m, (int64_t)s->d.attn.H * s->d.attn.c_h * c + c);
        if (s->op == PF_OP_TRANSITION) m = max64(m, (int64_t)s->d.transition.n * c * c + c);
    }
    return m;
}

void pf_dap_block_plan(pf_dap_block *db, const pf_block *b, pf_backend *be, const pf_dap_comm *c, int64_t N) {
    char err[512];
    if (pf_dap_check(b, be, err, sizeof err)) pf_die("%s", err);
    real *keep = db->b == b ? db->discard : NULL;
    memset(db, 0, sizeof *db);
    db->b = b;
    db->P = c->size;
    db->rank = c->rank;
    db->N = N;
    db->n = pf_dap_rows(N, c->size);
    db->Np = db->n * c->size;
    const int64_t n = db->n, Np = db->Np;
    size_t off = 0, ws = 0;
    for (int i = 0; i < b->n; i++) {
        const pf_step *s = &b->step[i];
        pf_step_dims *d = &db->d[i];
        *d = s->d;
        if (s->op == PF_OP_TRIMUL) {
            d->trimul.N = Np;
            d->trimul.incoming = 0;  // the incoming update runs as outgoing on z^T
            db->mem[i] = be->trimul_dap_mem(be, &d->trimul, c->size);
        } else if (s->op == PF_OP_ATTN) {
            d->attn.B = s->target == PF_STREAM_S ? 1 : n;
            d->attn.L = Np;
            d->attn.transpose = 0;  // the ending node runs as the starting node on z^T
            db->mem[i] = be->attn_dap_mem(be, &d->attn, c->size);
        } else {
            d->transition.M = s->target == PF_STREAM_S ? Np : n * Np;
            db->mem[i] = be->transition_mem(be, &d->transition);
        }
        db->saved_off[i] = off;
        off += (db->mem[i].saved + 255) & ~(size_t)255;
        if (db->mem[i].ws > ws) ws = db->mem[i].ws;
    }
    db->saved_bytes = off;
    // op workspace | three (n, Np, c_z) transposition buffers | the transpose's own 2 n Np c_z
    ws = (ws + 255) & ~(size_t)255;
    db->ws_bytes = ws + pf_act_size(be, 5 * n * Np * b->c[PF_STREAM_Z]);
    db->discard = keep ? keep : be->alloc(be, sizeof(real) * (size_t)discard_numel(b));
}

void pf_dap_block_free(pf_dap_block *db, pf_backend *be) {
    if (db->discard) be->free(be, db->discard);
    db->discard = NULL;
}

typedef struct {
    void *op_ws;
    pf_act *t[3];  // (n, Np, c_z) each
    void *tr_ws;   // 2 n Np c_z
} dap_ws;

static dap_ws carve(const pf_dap_block *db, pf_backend *be, void *ws) {
    size_t op = 0;
    for (int i = 0; i < db->b->n; i++) op = db->mem[i].ws > op ? db->mem[i].ws : op;
    op = (op + 255) & ~(size_t)255;
    const int64_t nz = db->n * db->Np * db->b->c[PF_STREAM_Z];
    dap_ws w;
    w.op_ws = ws;
    const pf_act *base = (const pf_act *)((char *)ws + op);
    for (int k = 0; k < 3; k++) w.t[k] = pf_act_at(be, base, k * nz);
    w.tr_ws = pf_act_at(be, base, 3 * nz);
    return w;
}

// The step's parameters and gradients as the sharded op sees them: the incoming
// update swaps a and b (dap.h); replicated gradients of ranks != 0 go to scratch.
static void step_params(const pf_dap_block *db, const pf_step *s, pf_step_params *p, pf_step_params *g) {
    *p = s->p;
    *g = s->g;
    if (s->op == PF_OP_TRIMUL && s->d.trimul.incoming) {
        p->trimul.a_p = s->p.trimul.b_p, p->trimul.b_p = s->p.trimul.a_p;
        p->trimul.a_g = s->p.trimul.b_g, p->trimul.b_g = s->p.trimul.a_g;
        g->trimul.a_p = s->g.trimul.b_p, g->trimul.b_p = s->g.trimul.a_p;
        g->trimul.a_g = s->g.trimul.b_g, g->trimul.b_g = s->g.trimul.a_g;
    }
    if (step_kind(s) != K_SINGLE || db->rank == 0) return;
    real *x = db->discard;
#define DISCARD_LIN(l) do { if ((l).w) (l).w = x; if ((l).b) (l).b = x; } while (0)
    if (s->op == PF_OP_ATTN) {  // the bias projection and LN_z see this rank's rows: kept
        DISCARD_LIN(g->attn.ln); DISCARD_LIN(g->attn.q); DISCARD_LIN(g->attn.k);
        DISCARD_LIN(g->attn.v); DISCARD_LIN(g->attn.g); DISCARD_LIN(g->attn.o);
    } else {
        DISCARD_LIN(g->transition.ln); DISCARD_LIN(g->transition.lin_a);
        DISCARD_LIN(g->transition.lin_b); DISCARD_LIN(g->transition.lin_out);
    }
#undef DISCARD_LIN
}

// Dropout of step i on a (A, B, C) update whose mask depends on the column (axis 0).
static pf_dropout step_drop(const pf_dap_block *db, const pf_step *s, int i, uint64_t key, int training) {
    const int single = s->target == PF_STREAM_S;
    pf_dropout d = {.A = single ? 1 : db->n, .B = db->Np, .C = db->b->c[s->target],
                    .rate = training ? s->dropout : 0, .shared_axis = single ? s->dropout_axis : 0,
                    .key = pf_hash2(key, (uint64_t)i)};
    return d;
}

// A column-wise step's mask that depends on the original row (axis 1) depends on
// the column of z^T: it is applied there, before transposing back.
static int drop_in_t(const pf_step *s) { return step_kind(s) == K_COL && s->dropout_axis == 1; }

static void op_fwd(pf_backend *be, const pf_dap_comm *c, const pf_step *s, const pf_step_dims *d,
                   const pf_step_params *p, const pf_act *x, const pf_act *z, const pf_act *mask, pf_act *out,
                   void *sv, void *ws) {
    if (s->op == PF_OP_TRIMUL) be->trimul_dap_fwd(be, &d->trimul, &p->trimul, x, mask, out, sv, ws, c);
    else if (s->op == PF_OP_ATTN) be->attn_dap_fwd(be, &d->attn, &p->attn, x, z, mask, out, sv, ws, c);
    else be->transition_fwd(be, &d->transition, &p->transition, x, mask, out, sv, ws);
}

void pf_dap_block_fwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st, void *saved,
                      void *ws, pf_act *delta, uint64_t key, int training) {
    dap_ws w = carve(db, be, ws);
    const int cz = db->b->c[PF_STREAM_Z];
    for (int i = 0; i < db->b->n; i++) {
        const pf_step *s = &db->b->step[i];
        const int kind = step_kind(s);
        pf_step_params p, g;
        step_params(db, s, &p, &g);
        void *sv = saved ? (char *)saved + db->saved_off[i] : NULL;
        pf_dropout dr = step_drop(db, s, i, key, training);
        if (kind == K_SINGLE) {
            const pf_act *z = s->second == PF_STREAM_Z ? st->z : NULL;
            op_fwd(be, c, s, &db->d[i], &p, st->s, z, st->seq, delta, sv, w.op_ws);
            be->dropout_add(be, &dr, st->s, delta);
        } else if (kind == K_ROW) {
            op_fwd(be, c, s, &db->d[i], &p, st->z, NULL, st->pair, delta, sv, w.op_ws);
            be->dropout_add(be, &dr, st->z, delta);
        } else {
            be->dap_transpose(be, c, db->Np, cz, st->z, w.t[0], w.tr_ws);  // z^T rows
            op_fwd(be, c, s, &db->d[i], &p, w.t[0], NULL, st->pair_t, w.t[1], sv, w.op_ws);
            if (drop_in_t(s)) be->dropout_bwd(be, &dr, w.t[2], w.t[1]);  // apply the mask
            else be->copy(be, w.t[2], w.t[1], pf_act_size(be, db->n * db->Np * cz));
            be->dap_transpose(be, c, db->Np, cz, w.t[2], delta, w.tr_ws);
            if (drop_in_t(s)) dr.rate = 0;
            be->dropout_add(be, &dr, st->z, delta);
        }
    }
}

static void op_bwd(pf_backend *be, const pf_dap_comm *c, const pf_step *s, const pf_step_dims *d,
                   const pf_step_params *p, pf_step_params *g, const pf_act *mask, const void *sv,
                   const pf_act *dout, pf_act *dx, pf_act *dz, void *ws) {
    if (s->op == PF_OP_TRIMUL) be->trimul_dap_bwd(be, &d->trimul, &p->trimul, &g->trimul, mask, sv, dout, dx, ws, c);
    else if (s->op == PF_OP_ATTN)
        be->attn_dap_bwd(be, &d->attn, &p->attn, &g->attn, mask, sv, dout, dx, dz, ws, c, s->target != PF_STREAM_S);
    else be->transition_bwd(be, &d->transition, &p->transition, &g->transition, mask, sv, dout, dx, ws);
}

void pf_dap_block_bwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st,
                      pf_dap_streams *d, const void *saved, void *ws, pf_act *d_delta, uint64_t key) {
    dap_ws w = carve(db, be, ws);
    const int cz = db->b->c[PF_STREAM_Z];
    const size_t zbytes = pf_act_size(be, db->n * db->Np * cz);
    for (int i = db->b->n - 1; i >= 0; i--) {
        const pf_step *s = &db->b->step[i];
        const int kind = step_kind(s);
        pf_step_params p, g;
        step_params(db, s, &p, &g);
        const void *sv = (const char *)saved + db->saved_off[i];
        pf_dropout dr = step_drop(db, s, i, key, 1);
        if (kind == K_SINGLE) {
            be->dropout_bwd(be, &dr, d_delta, d->s);
            pf_act *dz = s->second == PF_STREAM_Z ? d->z : NULL;
            op_bwd(be, c, s, &db->d[i], &p, &g, st->seq, sv, d_delta, d->s, dz, w.op_ws);
        } else if (kind == K_ROW) {
            be->dropout_bwd(be, &dr, d_delta, d->z);
            op_bwd(be, c, s, &db->d[i], &p, &g, st->pair, sv, d_delta, d->z, NULL, w.op_ws);
        } else {
            pf_dropout rd = dr;
            if (drop_in_t(s)) rd.rate = 0;
            be->dropout_bwd(be, &rd, w.t[2], d->z);
            be->dap_transpose(be, c, db->Np, cz, w.t[2], w.t[0], w.tr_ws);  // d update^T
            if (drop_in_t(s)) be->dropout_bwd(be, &dr, w.t[1], w.t[0]);
            else be->copy(be, w.t[1], w.t[0], zbytes);
            be->zero(be, w.t[2], zbytes);
            op_bwd(be, c, s, &db->d[i], &p, &g, st->pair_t, sv, w.t[1], w.t[2], NULL, w.op_ws);
            be->dap_transpose(be, c, db->Np, cz, w.t[2], w.t[0], w.tr_ws);
            be->add(be, d->z, w.t[0], db->n * db->Np * cz);
        }
    }
}
