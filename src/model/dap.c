// dap.c: a Pairformer, Evoformer or AF3 MSA-module block on one rank's rows of
// the pair tensor (dap.h).
#include "dap.h"
#include <string.h>
#include "../core/util.h"
#include "../core/rng.h"

// How a step runs on the shard.
enum {
    K_ROW,        // on the rank's rows of z (trimul outgoing, starting node, pair transition)
    K_COL,        // on the rows of z^T (trimul incoming, ending node): transpose in and out
    K_SINGLE,     // on the replicated s (single attention: z-biased; single transition)
    K_MSA_ROW,    // MSA row attention on the MSA's row shard: re-shard in and out
    K_MSA_LOCAL,  // on the rank's MSA columns (column attention, MSA transition)
    K_OPM,        // outer product mean: the rank's MSA columns -> its rows of z
    K_PWAVG,      // pair-weighted averaging: the rank's MSA columns with its rows of z
};

static int step_kind(const pf_step *s) {
    if (s->target == PF_STREAM_S) return K_SINGLE;
    if (s->op == PF_OP_OPM) return K_OPM;
    if (s->op == PF_OP_PWAVG) return K_PWAVG;
    if (s->target == PF_STREAM_M) return s->op == PF_OP_ATTN && s->second == PF_STREAM_Z ? K_MSA_ROW : K_MSA_LOCAL;
    if (s->op == PF_OP_TRIMUL) return s->d.trimul.incoming ? K_COL : K_ROW;
    if (s->op == PF_OP_ATTN) return s->d.attn.transpose ? K_COL : K_ROW;
    return K_ROW;
}

int pf_dap_check(const pf_block *b, pf_backend *be, char *err, size_t n) {
    if (b->kind != PF_BLOCK_PAIRFORMER && b->kind != PF_BLOCK_EVOFORMER && b->kind != PF_BLOCK_MSA_MODULE) {
        snprintf(err, n, "dap > 1: the sharded pair tensor is implemented for Pairformer, Evoformer and AF3 MSA "
                 "module blocks only (got a %s block)", pf_block_kind_name(b->kind));
        return -1;
    }
    if (!be->attn_dap_fwd || !be->trimul_dap_fwd || !be->dap_transpose) {
        snprintf(err, n, "dap > 1: backend '%s' has no sharded ops (attn_dap, trimul_dap, dap_transpose)", be->name);
        return -1;
    }
    if (b->kind == PF_BLOCK_EVOFORMER && (!be->opm_dap_fwd || !be->dap_reshard)) {
        snprintf(err, n, "dap > 1: backend '%s' has no sharded MSA ops (opm_dap, dap_reshard): the Evoformer trunk "
                 "cannot be sharded there (the Pairformer trunk can)", be->name);
        return -1;
    }
    if (b->kind == PF_BLOCK_MSA_MODULE && (!be->opm_dap_fwd || !be->pwavg_dap_fwd)) {
        snprintf(err, n, "dap > 1: backend '%s' has no sharded MSA-module ops (opm_dap, pwavg_dap): the AF3 MSA "
                 "module cannot be sharded there", be->name);
        return -1;
    }
    for (int i = 0; i < b->n; i++) {
        const pf_step *s = &b->step[i];
        const int k = step_kind(s);
        int ok = s->op == PF_OP_TRIMUL || s->op == PF_OP_TRANSITION || s->op == PF_OP_OPM ||
                 (s->op == PF_OP_PWAVG && s->dropout_axis == 0) ||
                 (s->op == PF_OP_ATTN && (s->input == PF_STREAM_Z || s->second == PF_STREAM_Z)) ||
                 (s->op == PF_OP_ATTN && k == K_MSA_LOCAL && s->d.attn.transpose && s->d.attn.bias == PF_BIAS_NONE);
        if (s->dropout > 0 && (k == K_MSA_LOCAL || k == K_OPM)) ok = 0;
        if (!ok || (s->dropout > 0 && (k == K_ROW || k == K_MSA_ROW) && s->dropout_axis != 0)) {
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

// One step's dims at the shard's sizes and its memory.
static void plan_step(pf_dap_block *db, int i, pf_backend *be, const pf_dap_comm *c) {
    const pf_step *s = &db->b->step[i];
    pf_step_dims *d = &db->d[i];
    const int k = step_kind(s);
    const int64_t n = db->n, Np = db->Np;
    *d = s->d;
    if (s->op == PF_OP_TRIMUL) {
        d->trimul.N = Np;
        d->trimul.incoming = 0;  // the incoming update runs as outgoing on z^T
        db->mem[i] = be->trimul_dap_mem(be, &d->trimul, c->size);
    } else if (s->op == PF_OP_OPM) {
        d->opm.S = db->Sp;
        d->opm.N = Np;
        db->mem[i] = be->opm_dap_mem(be, &d->opm, c->size);
    } else if (s->op == PF_OP_PWAVG) {
        d->pwavg.S = db->Sp;
        d->pwavg.N = Np;
        db->mem[i] = be->pwavg_dap_mem(be, &d->pwavg, c->size);
    } else if (s->op == PF_OP_ATTN && k == K_MSA_LOCAL) {  // column attention over the rank's columns
        d->attn.B = n;
        d->attn.L = db->Sp;
        db->mem[i] = be->attn_mem(be, &d->attn);
    } else if (s->op == PF_OP_ATTN) {
        d->attn.B = k == K_SINGLE ? 1 : k == K_MSA_ROW ? db->s : n;
        d->attn.L = Np;
        d->attn.transpose = 0;  // the ending node runs as the starting node on z^T
        db->mem[i] = be->attn_dap_mem(be, &d->attn, c->size);
    } else {
        d->transition.M = k == K_SINGLE ? Np : k == K_MSA_LOCAL ? db->Sp * n : n * Np;
        db->mem[i] = be->transition_mem(be, &d->transition);
    }
}

// Elements of the largest sharded stream: z's rows or the MSA's columns (= its rows).
static int64_t shard_elems(const pf_dap_block *db) {
    return max64(db->n * db->Np * db->b->c[PF_STREAM_Z], db->Sp * db->n * db->b->c[PF_STREAM_M]);
}

// Bytes of the region shared by the ops' workspaces and the transposes' (2 shard_elems).
static size_t op_region(const pf_dap_block *db, pf_backend *be) {
    size_t op = pf_act_size(be, 2 * shard_elems(db));
    for (int i = 0; i < db->b->n; i++) op = db->mem[i].ws > op ? db->mem[i].ws : op;
    return (op + 255) & ~(size_t)255;
}

// Whether a step runs on the MSA's row shard (re-laid out into a copy; z^T needs none).
static int has_msa_row(const pf_block *b) {
    for (int i = 0; i < b->n; i++)
        if (step_kind(&b->step[i]) == K_MSA_ROW) return 1;
    return 0;
}

void pf_dap_block_plan(pf_dap_block *db, const pf_block *b, pf_backend *be, const pf_dap_comm *c, int64_t N,
                       int64_t S) {
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
    db->S = S;
    db->s = pf_dap_rows(S, c->size);
    db->Sp = db->s * c->size;
    size_t off = 0, ws = 0;
    for (int i = 0; i < b->n; i++) {
        plan_step(db, i, be, c);
        db->saved_off[i] = off;
        off += (db->mem[i].saved + 255) & ~(size_t)255;
        if (db->mem[i].ws > ws) ws = db->mem[i].ws;
    }
    db->saved_bytes = off;
    // op workspace, which the transposes use too (never at the same time) | the MSA's row shard
    db->ws_bytes = op_region(db, be) + (has_msa_row(b) ? pf_act_size(be, shard_elems(db)) : 0);
    db->discard = keep ? keep : be->alloc(be, sizeof(real) * (size_t)discard_numel(b));
}

void pf_dap_block_free(pf_dap_block *db, pf_backend *be) {
    if (db->discard) be->free(be, db->discard);
    db->discard = NULL;
}

typedef struct {
    void *op_ws;  // an op's workspace, or the transposes' (2 shard_elems)
    pf_act *t;    // the MSA's (s, Np, c_m): the re-laid-out input, then update (Evoformer only)
    void *tr_ws;  // = op_ws
} dap_ws;

static dap_ws carve(const pf_dap_block *db, pf_backend *be, void *ws) {
    dap_ws w;
    w.op_ws = w.tr_ws = ws;
    w.t = (pf_act *)((char *)ws + op_region(db, be));
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
// Pair-weighted averaging's update is the MSA's columns (Sp, n, c_m): its mask
// (shared along MSA rows) starts at the rank's first column.
static pf_dropout step_drop(const pf_dap_block *db, const pf_step *s, int i, uint64_t key, int training) {
    const int single = s->target == PF_STREAM_S;
    pf_dropout d = {.A = single ? 1 : db->n, .B = db->Np, .C = db->b->c[s->target],
                    .rate = training ? s->dropout : 0, .shared_axis = single ? s->dropout_axis : 0,
                    .key = pf_hash2(key, (uint64_t)i)};
    if (step_kind(s) == K_PWAVG) d.A = db->Sp, d.B = db->n, d.u0 = (int64_t)db->rank * db->n;
    return d;
}

// A column-wise step's mask that depends on the original row (axis 1) depends on
// the column of z^T: it is applied there, before transposing back.
static int drop_in_t(const pf_step *s) { return step_kind(s) == K_COL && s->dropout_axis == 1; }

static void op_fwd(pf_backend *be, const pf_dap_comm *c, const pf_step *s, const pf_step_dims *d,
                   const pf_step_params *p, const pf_act *x, const pf_act *z, const pf_act *mask, pf_act *out,
                   void *sv, void *ws) {
    const int k = step_kind(s);
    if (s->op == PF_OP_TRIMUL) be->trimul_dap_fwd(be, &d->trimul, &p->trimul, x, mask, out, sv, ws, c);
    else if (s->op == PF_OP_OPM) be->opm_dap_fwd(be, &d->opm, &p->opm, x, mask, out, sv, ws, c);
    else if (s->op == PF_OP_PWAVG) be->pwavg_dap_fwd(be, &d->pwavg, &p->pwavg, x, z, mask, out, sv, ws, c);
    else if (s->op == PF_OP_ATTN && k == K_MSA_LOCAL) be->attn_fwd(be, &d->attn, &p->attn, x, NULL, mask, out, sv, ws);
    else if (s->op == PF_OP_ATTN) be->attn_dap_fwd(be, &d->attn, &p->attn, x, z, mask, out, sv, ws, c);
    else be->transition_fwd(be, &d->transition, &p->transition, x, mask, out, sv, ws);
}

// A step that runs on a re-laid-out copy of its stream (z^T, or the MSA's rows).
// The MSA's rows: laid out into t, the op into delta, the update laid back out into
// t (the caller adds it). z^T needs no copy: z is transposed in place (the transposes
// read their input whole into the workspace first), the op runs into delta, z is
// transposed back and the update in place (the caller adds delta): two transposes
// more than with a copy, one z-sized buffer less on every rank. The dropout mask is
// applied in the op's layout when it depends on that layout's columns.
static void relaid_fwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, const pf_step *s, int i,
                       const pf_step_params *p, pf_dap_streams *st, void *sv, const dap_ws *w, pf_act *delta,
                       pf_dropout *dr) {
    const int msa = step_kind(s) == K_MSA_ROW;
    const int C = db->b->c[s->target];
    pf_act *x = msa ? st->m : st->z;
    if (msa) be->dap_reshard(be, c, db->Sp, db->Np, C, x, w->t, w->tr_ws, 1);
    else be->dap_transpose(be, c, db->Np, C, x, x, w->tr_ws);
    op_fwd(be, c, s, &db->d[i], p, msa ? w->t : x, st->z, msa ? st->msa_rows : st->pair_t, delta, sv, w->op_ws);
    if (!msa) be->dap_transpose(be, c, db->Np, C, x, x, w->tr_ws);
    pf_dropout dt = *dr;
    if (msa) dt.A = db->s;
    if (msa || drop_in_t(s)) {
        be->dropout_bwd(be, &dt, delta, delta);  // apply the mask (elementwise: in place)
        dr->rate = 0;
    }
    if (msa) be->dap_reshard(be, c, db->Sp, db->Np, C, delta, w->t, w->tr_ws, 0);
    else be->dap_transpose(be, c, db->Np, C, delta, delta, w->tr_ws);
}

void pf_dap_block_fwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st, void *saved,
                      void *ws, pf_act *delta, uint64_t key, int training) {
    dap_ws w = carve(db, be, ws);
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
        } else if (kind == K_ROW || kind == K_OPM) {
            const int opm = kind == K_OPM;
            op_fwd(be, c, s, &db->d[i], &p, opm ? st->m : st->z, NULL, opm ? st->msa : st->pair, delta, sv, w.op_ws);
            be->dropout_add(be, &dr, st->z, delta);
        } else if (kind == K_PWAVG) {
            op_fwd(be, c, s, &db->d[i], &p, st->m, st->z, st->seq, delta, sv, w.op_ws);
            be->dropout_add(be, &dr, st->m, delta);
        } else if (kind == K_MSA_LOCAL) {  // no dropout (pf_dap_check)
            op_fwd(be, c, s, &db->d[i], &p, st->m, NULL, st->msa, delta, sv, w.op_ws);
            be->add(be, st->m, delta, db->Sp * db->n * db->b->c[PF_STREAM_M]);
        } else {
            relaid_fwd(db, be, c, s, i, &p, st, sv, &w, delta, &dr);
            if (kind == K_MSA_ROW) be->add(be, st->m, w.t, db->Sp * db->n * db->b->c[PF_STREAM_M]);
            else be->dropout_add(be, &dr, st->z, delta);
        }
    }
}

static void op_bwd(pf_backend *be, const pf_dap_comm *c, const pf_step *s, const pf_step_dims *d,
                   const pf_step_params *p, pf_step_params *g, const pf_act *mask, const void *sv,
                   const pf_act *dout, pf_act *dx, pf_act *dz, void *ws) {
    const int k = step_kind(s);
    if (s->op == PF_OP_TRIMUL) be->trimul_dap_bwd(be, &d->trimul, &p->trimul, &g->trimul, mask, sv, dout, dx, ws, c);
    else if (s->op == PF_OP_OPM) be->opm_dap_bwd(be, &d->opm, &p->opm, &g->opm, mask, sv, dout, dx, ws, c);
    else if (s->op == PF_OP_PWAVG)
        be->pwavg_dap_bwd(be, &d->pwavg, &p->pwavg, &g->pwavg, mask, sv, dout, dx, dz, ws, c);
    else if (s->op == PF_OP_ATTN && k == K_MSA_LOCAL)
        be->attn_bwd(be, &d->attn, &p->attn, &g->attn, mask, sv, dout, dx, NULL, ws);
    else if (s->op == PF_OP_ATTN)
        be->attn_dap_bwd(be, &d->attn, &p->attn, &g->attn, mask, sv, dout, dx, dz, ws, c, k != K_SINGLE);
    else be->transition_bwd(be, &d->transition, &p->transition, &g->transition, mask, sv, dout, dx, ws);
}

// The backward of relaid_fwd: d update into the other layout (with the mask
// where the forward applied it there), the op's backward, input gradient laid
// back out and added. dd: scratch of a shard's size. z^T: dd holds the transposed
// d update, and d z itself is transposed in place around the op's backward, which
// adds its input gradient there (no copy, as in the forward).
static void relaid_bwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, const pf_step *s, int i,
                       const pf_step_params *p, pf_step_params *g, pf_dap_streams *st, pf_dap_streams *d,
                       const void *sv, const dap_ws *w, pf_dropout dr, pf_act *dd) {
    const int msa = step_kind(s) == K_MSA_ROW;
    const int C = db->b->c[s->target];
    const int64_t ne = msa ? db->Sp * db->n * C : db->n * db->Np * C;
    pf_act *dy = msa ? d->m : d->z;
    pf_dropout rd = dr, dt = dr;
    if (msa) dt.A = db->s;
    if (msa || drop_in_t(s)) rd.rate = 0;
    else dt.rate = 0;
    if (msa) be->copy(be, dd, dy, pf_act_size(be, ne));  // rd's (n, Np) dims are z's, not the MSA's
    else be->dropout_bwd(be, &rd, dd, dy);
    if (!msa) {
        be->dap_transpose(be, c, db->Np, C, dd, dd, w->tr_ws);
        be->dropout_bwd(be, &dt, dd, dd);  // elementwise: in place
        be->dap_transpose(be, c, db->Np, C, dy, dy, w->tr_ws);
        op_bwd(be, c, s, &db->d[i], p, g, st->pair_t, sv, dd, dy, NULL, w->op_ws);
        be->dap_transpose(be, c, db->Np, C, dy, dy, w->tr_ws);
        return;
    }
    be->dap_reshard(be, c, db->Sp, db->Np, C, dd, w->t, w->tr_ws, 1);
    be->dropout_bwd(be, &dt, w->t, w->t);  // elementwise: in place
    be->zero(be, dd, pf_act_size(be, ne));
    op_bwd(be, c, s, &db->d[i], p, g, st->msa_rows, sv, w->t, dd, d->z, w->op_ws);
    be->dap_reshard(be, c, db->Sp, db->Np, C, dd, w->t, w->tr_ws, 0);
    be->add(be, dy, w->t, ne);
}

void pf_dap_block_bwd(pf_dap_block *db, pf_backend *be, const pf_dap_comm *c, pf_dap_streams *st,
                      pf_dap_streams *d, const void *saved, void *ws, pf_act *d_delta, uint64_t key) {
    dap_ws w = carve(db, be, ws);
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
        } else if (kind == K_ROW || kind == K_OPM) {
            const int opm = kind == K_OPM;
            be->dropout_bwd(be, &dr, d_delta, d->z);
            op_bwd(be, c, s, &db->d[i], &p, &g, opm ? st->msa : st->pair, sv, d_delta, opm ? d->m : d->z, NULL,
                   w.op_ws);
        } else if (kind == K_PWAVG) {
            be->dropout_bwd(be, &dr, d_delta, d->m);
            op_bwd(be, c, s, &db->d[i], &p, &g, st->seq, sv, d_delta, d->m, d->z, w.op_ws);
        } else if (kind == K_MSA_LOCAL) {
            be->copy(be, d_delta, d->m, pf_act_size(be, db->Sp * db->n * db->b->c[PF_STREAM_M]));
            op_bwd(be, c, s, &db->d[i], &p, &g, st->msa, sv, d_delta, d->m, NULL, w.op_ws);
        } else {
            relaid_bwd(db, be, c, s, i, &p, &g, st, d, sv, &w, dr, d_delta);
        }
    }
}
