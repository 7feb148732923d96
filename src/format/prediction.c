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

int pf_predict_query(const char *ckpt, const pf_config *cfg_in, pf_backend *be, const pf_msa *a,
                     const pf_af3_query *ids, int raw_weights, const pf_dap_comm *dap, pf_prediction *p, char *err,
                     size_t errlen) {
    memset(p, 0, sizeof *p);
    if (a->L < 2) { snprintf(err, errlen, "the query has %d residues (at least 2 needed)", a->L); return -1; }
    pf_config cfg = *cfg_in;
    pf_batch b;
    pf_batch_from_query(a, ids, cfg.msa_rows, pf_extra_msa_rows(&cfg), &b);
    cfg.max_tokens = b.N;  // plan the arenas for this query
    pf_model *M = pf_model_create_inference(&cfg, be);
    int ema = raw_weights ? 1 : 0;  // 0 EMA loaded, 1 none / not wanted
    int ok = pf_ckpt_load(ckpt, M, NULL, NULL, err, errlen) == 0 &&
             (raw_weights || (ema = pf_ckpt_load_ema_weights(ckpt, M, err, errlen)) >= 0);
    if (dap && dap->size > 1) {
        if (ok && pf_model_attach_dap(M, dap, err, errlen) != 0) ok = 0;
        if (!group_ok(be, dap, ok) && ok) {
            snprintf(err, errlen, "another rank of the dap group could not load %s or shard the model (its error above)", ckpt);
            ok = 0;
        }
    }
    if (!ok) {
        pf_batch_free(&b);
        pf_model_free(M);
        return -1;
    }
    // leaves the final pair representation in M->z; with a structure module, its
    // prediction of the same forward
    sm_buffers hb = {0};
    pf_structure_pred sp = {0};
    if (cfg.structure_module) sp = structure_buffers(b.N, M->sh.d.c_resnet > 0, &hb);
    pf_model_eval_structure(M, &b, cfg.structure_module ? &sp : NULL);

    const int64_t N = b.N, NN = N * N;
    const int nb = cfg.n_bins;
    p->N = N;
    p->n_bins = nb;
    if (!dap || dap->size <= 1 || dap->rank == 0) {  // the distogram's arrays: the group's rank 0 alone
        p->probs = pf_malloc(sizeof(float) * (size_t)(NN * nb));  // (N, N, n_bins)
        p->expected = pf_malloc(sizeof(float) * (size_t)NN);      // (N, N)
        p->contact = pf_malloc(sizeof(float) * (size_t)NN);       // (N, N)
    }
    pf_distogram_predict(M, N, p->probs, p->expected, p->contact);  // with dap, every rank takes part
    p->aatype = pf_malloc(sizeof(int32_t) * (size_t)N * 3);
    p->chain_index = p->aatype + N;
    p->residue_index = p->aatype + 2 * N;
    p->sequence = pf_malloc((size_t)N + 1);
    for (int64_t i = 0; i < N; i++) {
        p->aatype[i] = b.aatype[i];
        p->chain_index[i] = b.chain_id[i];
        p->residue_index[i] = b.residue_index[i];
        p->sequence[i] = b.aatype[i] >= 0 && b.aatype[i] < 20 ? PF_AA_ORDER[b.aatype[i]] : 'X';
    }
    p->sequence[N] = 0;
    p->bin_edges = pf_malloc(sizeof(float) * (size_t)(nb - 1));
    pf_disto_bins bins = pf_disto_bins_of(&cfg);
    for (int k = 0; k < nb - 1; k++) p->bin_edges[k] = (float)pf_disto_edge(&bins, k + 1);
    if (cfg.structure_module) keep_structure(b.N, &hb, &sp, p);
    p->ema = ema == 0;
    p->rows_total = a->n_seq;
    p->rows_used = PF_MIN(a->n_seq, cfg.msa_rows + pf_extra_msa_rows(&cfg));
    pf_batch_free(&b);
    pf_model_free(M);
    return 0;
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
