// prediction.c: one query's distogram from a checkpoint (the computation shared by
// `pairfold predict` and the C API; the file writers are in prediction_io.c).
#include "prediction.h"
#include <string.h>
#include "checkpoint.h"
#include "../core/util.h"
#include "../model/model.h"
#include "../model/distogram.h"
#include "../data/query_batch.h"

void pf_prediction_free(pf_prediction *p) {
    if (!p) return;
    pf_free(p->probs);
    pf_free(p->expected);
    pf_free(p->contact);
    pf_free(p->bin_edges);
    pf_free(p->aatype);  // chain_index and residue_index live in the same block
    pf_free(p->sequence);
    pf_free(p->frames);
    pf_free(p->torsions);
    pf_free(p->plddt);
    pf_free(p->pae);
    memset(p, 0, sizeof *p);
}

// The prediction's arrays from the structure module's last layer (real, the model's
// precision) into p's float copies; returns the real buffers for the evaluation to fill.
typedef struct { real *R, *t, *a, *pl, *pae; } sm_buffers;

static pf_structure_pred structure_buffers(int64_t N, int tors, sm_buffers *h) {
    h->R = pf_malloc(sizeof(real) * (size_t)(N * 9));
    h->t = pf_malloc(sizeof(real) * (size_t)(N * 3));
    h->a = tors ? pf_malloc(sizeof(real) * (size_t)(N * 2 * PF_NUM_TORSIONS)) : NULL;
    h->pl = pf_malloc(sizeof(real) * (size_t)N);
    h->pae = pf_malloc(sizeof(real) * (size_t)(N * N));
    pf_structure_pred out = {h->R, h->t, h->a, h->pl, h->pae, 0};
    return out;
}

static void keep_structure(int64_t N, sm_buffers *h, const pf_structure_pred *out, pf_prediction *p) {
    p->has_structure = 1;
    p->frames = pf_malloc(sizeof(float) * (size_t)(N * 12));
    p->torsions = h->a ? pf_malloc(sizeof(float) * (size_t)(N * 2 * PF_NUM_TORSIONS)) : NULL;
    p->plddt = pf_malloc(sizeof(float) * (size_t)N);
    p->pae = pf_malloc(sizeof(float) * (size_t)(N * N));
    for (int64_t i = 0; i < N; i++) {
        for (int k = 0; k < 9; k++) p->frames[i * 12 + k] = (float)h->R[i * 9 + k];
        for (int k = 0; k < 3; k++) p->frames[i * 12 + 9 + k] = (float)h->t[i * 3 + k];
        for (int k = 0; h->a && k < 2 * PF_NUM_TORSIONS; k++)  // AF2's order: pre-omega, phi, psi, chi1..4
            p->torsions[i * 2 * PF_NUM_TORSIONS + k] = (float)h->a[i * 2 * PF_NUM_TORSIONS + k];
        p->plddt[i] = (float)h->pl[i];
    }
    for (int64_t k = 0; k < N * N; k++) p->pae[k] = (float)h->pae[k];
    p->ptm = out->ptm;
    real *bufs[] = {h->R, h->t, h->a, h->pl, h->pae};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

// Whether every rank of the dap group has ok set (the group's sum of the failures): a rank
// that could not load must not leave the others waiting in the forward's first collective.
static int group_ok(pf_backend *be, const pf_dap_comm *c, int ok) {
    real h = ok ? 0 : 1;
    real *d = be->alloc(be, sizeof(real));  // the collectives take backend memory
    be->upload(be, d, &h, sizeof h);
    c->sum(c, d, 1);
    be->download(be, &h, d, sizeof h);
    be->free(be, d);
    return h == 0;
}

// The query's per-token arrays, names and bin edges into p (before the distogram: a sink's
// begin writes them).
static void query_arrays(const pf_batch *b, const pf_config *cfg, pf_prediction *p) {
    const int64_t N = b->N;
    const int nb = cfg->n_bins;
    p->aatype = pf_malloc(sizeof(int32_t) * (size_t)N * 3);
    p->chain_index = p->aatype + N;
    p->residue_index = p->aatype + 2 * N;
    p->sequence = pf_malloc((size_t)N + 1);
    for (int64_t i = 0; i < N; i++) {
        p->aatype[i] = b->aatype[i];
        p->chain_index[i] = b->chain_id[i];
        p->residue_index[i] = b->residue_index[i];
        p->sequence[i] = b->aatype[i] >= 0 && b->aatype[i] < 20 ? PF_AA_ORDER[b->aatype[i]] : 'X';
    }
    p->sequence[N] = 0;
    p->bin_edges = pf_malloc(sizeof(float) * (size_t)(nb - 1));
    pf_disto_bins bins = pf_disto_bins_of(cfg);
    for (int k = 0; k < nb - 1; k++) p->bin_edges[k] = (float)pf_disto_edge(&bins, k + 1);
}

// Rank 0's rows per block for every rank of the group (the gathers' size must agree: the
// group's sum of rank 0's value and zeros), clamped to [1, N]; 0 stays "the default".
static int64_t agreed_rows_block(pf_backend *be, const pf_dap_comm *c, int64_t rows, int64_t N) {
    if (rows > 0) rows = PF_MIN(rows, N);
    if (!c || c->size <= 1) return rows;
    real h = c->rank == 0 ? (real)rows : 0;  // exact: N < 2^24
    real *d = be->alloc(be, sizeof(real));
    be->upload(be, d, &h, sizeof h);
    c->sum(c, d, 1);
    be->download(be, &h, d, sizeof h);
    be->free(be, d);
    return (int64_t)h;
}

// The checkpoint into a model planned for b; with dap every rank agrees it loaded (a rank that
// could not must not leave the others waiting in the forward's first collective). *ema: 0 the
// EMA weights were loaded. NULL with err.
static pf_model *load_model(const char *ckpt, const pf_config *cfg, pf_backend *be, int raw_weights,
                            const pf_dap_comm *dap, int *ema, char *err, size_t errlen) {
    pf_model *M = pf_model_create_inference(cfg, be);
    *ema = raw_weights ? 1 : 0;  // 0 EMA loaded, 1 none / not wanted
    int ok = pf_ckpt_load(ckpt, M, NULL, NULL, err, errlen) == 0 &&
             (raw_weights || (*ema = pf_ckpt_load_ema_weights(ckpt, M, err, errlen)) >= 0);
    if (dap && dap->size > 1) {
        if (ok && pf_model_attach_dap(M, dap, err, errlen) != 0) ok = 0;
        if (!group_ok(be, dap, ok) && ok) {
            snprintf(err, errlen, "another rank of the dap group could not load %s or shard the model (its error above)", ckpt);
            ok = 0;
        }
    }
    if (ok) return M;
    pf_model_free(M);
    return NULL;
}

// Progress of a long query on stderr, the trunk's blocks and then the distogram's rows: quiet
// for the first PROGRESS_QUIET_MS (short queries print nothing new), then a line at most every
// PROGRESS_EVERY_MS and at the end of each part.
#define PROGRESS_QUIET_MS 5000.0
#define PROGRESS_EVERY_MS 10000.0
typedef struct {
    double t0, last;
    int64_t N;
    pf_backend *be;
    int64_t rows_done;  // distogram rows written so far (under dap they come rank by rank, not in order)
    const pf_probs_sink *sink;
} predict_progress;
// Whether a line is due now (last: the part's final call).
static int progress_due(const predict_progress *p, int last) {
    double t = pf_now_ms();
    return t - p->t0 >= PROGRESS_QUIET_MS && (last || t - p->last >= PROGRESS_EVERY_MS);
}
static void print_trunk_progress(void *ctx, int done, int total) {
    predict_progress *p = ctx;
    if (!progress_due(p, done == total)) return;
    p->be->sync(p->be);  // the host runs ahead: block `done` has now run, and the time is its
    p->last = pf_now_ms();
    fprintf(stderr, "predict: %lld residues: trunk block %d of %d (recycling passes included), %.0f s\n",
            (long long)p->N, done, total, (p->last - p->t0) / 1e3);
}
// The sink's rows passed on, then a line when due (at N = 2048 the 1 GB of probabilities took
// longer than the trunk).
static void print_rows_progress(void *ctx, int64_t i0, int64_t n, const float *probs) {
    predict_progress *p = ctx;
    p->sink->rows(p->sink->ctx, i0, n, probs);
    p->rows_done += n;
    if (!progress_due(p, p->rows_done == p->N)) return;
    p->last = pf_now_ms();
    fprintf(stderr, "predict: %lld residues: distogram rows %lld of %lld written, %.0f s\n", (long long)p->N,
            (long long)p->rows_done, (long long)p->N, (p->last - p->t0) / 1e3);
}

int pf_predict_query_rows(const char *ckpt, const pf_config *cfg_in, pf_backend *be, const pf_msa *a,
                          const pf_af3_query *ids, int raw_weights, const pf_dap_comm *dap, const pf_probs_sink *sink,
                          pf_prediction *p, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    if (a->L < 2) { snprintf(err, errlen, "the query has %d residues (at least 2 needed)", a->L); return -1; }
    pf_config cfg = *cfg_in;
    pf_batch b;
    pf_batch_from_query(a, ids, cfg.msa_rows, pf_extra_msa_rows(&cfg), &b);
    cfg.max_tokens = b.N;  // plan the arenas for this query
    int ema;
    pf_model *M = load_model(ckpt, &cfg, be, raw_weights, dap, &ema, err, errlen);
    if (!M) {
        pf_batch_free(&b);
        return -1;
    }
    // leaves the final pair representation in M->z; with a structure module, its
    // prediction of the same forward
    predict_progress tp = {pf_now_ms(), -1e300, b.N, be, 0, sink};  // last: none yet
    const int lead = !dap || dap->size <= 1 || dap->rank == 0;  // the distogram's arrays: the group's rank 0 alone
    if (lead) M->progress = print_trunk_progress, M->progress_ctx = &tp;
    sm_buffers hb = {0};
    pf_structure_pred sp = {0};
    if (cfg.structure_module) sp = structure_buffers(b.N, M->sh.d.c_resnet > 0, &hb);
    pf_model_eval_structure(M, &b, cfg.structure_module ? &sp : NULL);

    const int64_t N = b.N, NN = N * N;
    p->N = N;
    p->n_bins = cfg.n_bins;
    query_arrays(&b, &cfg, p);
    if (cfg.structure_module) keep_structure(b.N, &hb, &sp, p);
    p->ema = ema == 0;
    p->rows_total = a->n_seq;
    p->rows_used = PF_MIN(a->n_seq, cfg.msa_rows + pf_extra_msa_rows(&cfg));
    if (lead) {
        p->expected = pf_malloc(sizeof(float) * (size_t)NN);  // (N, N)
        p->contact = pf_malloc(sizeof(float) * (size_t)NN);   // (N, N)
        if (sink && sink->begin) sink->begin(sink->ctx, p);
    }
    // with dap, every rank takes part; the probabilities go to the sink a row block at a time
    const int64_t rows = agreed_rows_block(be, dap, sink ? sink->rows_block : 0, N);
    pf_distogram_predict_rows(M, N, rows, lead && sink && sink->rows ? print_rows_progress : NULL, &tp, p->expected,
                              p->contact);
    pf_batch_free(&b);
    pf_model_free(M);
    return 0;
}

// pf_predict_query's sink: the probabilities whole, in p->probs.
static void whole_begin(void *ctx, const pf_prediction *p_const) {
    (void)p_const;
    pf_prediction *p = ctx;
    p->probs = pf_malloc(sizeof(float) * (size_t)(p->N * p->N * p->n_bins));  // (N, N, n_bins)
}
static void whole_rows(void *ctx, int64_t i0, int64_t n, const float *probs) {
    pf_prediction *p = ctx;
    const int64_t row = p->N * p->n_bins;
    memcpy(p->probs + i0 * row, probs, sizeof(float) * (size_t)(n * row));
}

int pf_predict_query(const char *ckpt, const pf_config *cfg, pf_backend *be, const pf_msa *a, const pf_af3_query *ids,
                     int raw_weights, const pf_dap_comm *dap, pf_prediction *p, char *err, size_t errlen) {
    pf_probs_sink whole = {whole_begin, whole_rows, p, 0};
    return pf_predict_query_rows(ckpt, cfg, be, a, ids, raw_weights, dap, &whole, p, err, errlen);
}

int pf_chain_names(const char *chains, char (*names)[8], int max) {
    int n = 0;
    for (const char *q = chains ? chains : ""; *q && n < max; n++) {
        size_t l = strcspn(q, ":,");
        snprintf(names[n], 8, "%.*s", (int)(l < 7 ? l : 7), q);
        q += strcspn(q, ",");
        if (*q) q++;
    }
    return n;
}
