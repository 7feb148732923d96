// api_predict.c: predict through the C API (pairfold.h): the computation of
// `pairfold predict` (src/format/prediction.c), results as arrays and files.
#include <stdlib.h>
#include <string.h>
#include "api_int.h"
#include "../core/util.h"
#include "../data/msa.h"
#include "../format/checkpoint.h"
#include "../format/prediction.h"
#include "../registry/registry.h"

struct pairfold_prediction {
    pf_prediction p;
    char chains[32];  // "A:N": one chain
};

// "msa_rows=16,recycles=1": the inference-time fields only (as `predict --set`).
static int apply_settings(pf_config *cfg, const char *settings) {
    static const char *const settable[] = {"msa_rows", "extra_msa_rows", "recycles", NULL};
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    for (const char *q = settings ? settings : ""; *q;) {
        size_t l = strcspn(q, ","), kl = strcspn(q, "=");
        char key[64], val[64];
        if (kl >= l || kl == 0 || kl >= sizeof key || l - kl - 1 >= sizeof val)
            return pf_api_fail(PAIRFOLD_ERR_ARG, "settings: '%.*s' is not KEY=VALUE", (int)l, q);
        snprintf(key, sizeof key, "%.*s", (int)kl, q);
        snprintf(val, sizeof val, "%.*s", (int)(l - kl - 1), q + kl + 1);
        int ok = 0;
        for (int i = 0; settable[i]; i++) ok |= !strcmp(key, settable[i]);
        if (!ok) return pf_api_fail(PAIRFOLD_ERR_ARG, "settings: %s: predict takes only msa_rows, extra_msa_rows, recycles", key);
        if (pf_config_set(cfg, key, val, err, elen) != 0) return PAIRFOLD_ERR_ARG;
        q += l;
        if (*q) q++;
    }
    return pf_config_validate(cfg, err, elen) ? PAIRFOLD_ERR_ARG : PAIRFOLD_OK;
}

// The query: an alignment file, or one sequence as a one-row alignment.
static int read_query(const char *alignment, const char *sequence, pf_msa *a) {
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    if (alignment) return pf_read_msa(alignment, a, err, elen) ? PAIRFOLD_ERR_IO : PAIRFOLD_OK;
    if (!sequence) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_predict: neither an alignment nor a sequence");
    size_t n = strlen(sequence);
    char *text = pf_malloc(n + 16);
    snprintf(text, n + 16, ">query\n%s\n", sequence);
    int rc = pf_parse_a3m(text, strlen(text), "sequence", a, err, elen);
    pf_free(text);
    return rc ? PAIRFOLD_ERR_ARG : PAIRFOLD_OK;
}

int pairfold_predict(pairfold_backend *bh, const char *ckpt, const char *alignment, const char *sequence,
                     const char *settings, int raw_weights, pairfold_prediction **out) {
    if (!out) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_predict: out is NULL");
    *out = NULL;
    if (!ckpt) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_predict: no checkpoint");
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    pf_config cfg;
    if (pf_ckpt_read_config(ckpt, &cfg, err, elen) != 0) return PAIRFOLD_ERR_IO;
    if (cfg.n_bins < 2 || cfg.n_bins > 512)
        return pf_api_fail(PAIRFOLD_ERR_IO, "%s: n_bins %d outside [2, 512]", ckpt, cfg.n_bins);
    int rc = apply_settings(&cfg, settings);
    if (rc) return rc;
    pf_msa a;
    if ((rc = read_query(alignment, sequence, &a)) != PAIRFOLD_OK) return rc;
    pf_backend *be = bh ? bh->be : pf_backend_open(cfg.device, 0, err, elen);
    if (!be) {
        pf_msa_free(&a);
        return PAIRFOLD_ERR_DEVICE;
    }
    pairfold_prediction *h = pf_calloc(1, sizeof *h);
    char msg[1024];
    if (pf_predict_query(ckpt, &cfg, be, &a, NULL, raw_weights, NULL, &h->p, msg, sizeof msg) != 0) {
        rc = pf_api_fail(PAIRFOLD_ERR_IO, "%s: %s", alignment ? alignment : "sequence", msg);
        pf_free(h);
    } else {
        snprintf(h->chains, sizeof h->chains, "A:%d", a.L);
        *out = h;
    }
    if (!bh && be->destroy) be->destroy(be);
    pf_msa_free(&a);
    return rc;
}

int64_t pairfold_prediction_length(const pairfold_prediction *h) { return h ? h->p.N : 0; }
int pairfold_prediction_bins(const pairfold_prediction *h) { return h ? h->p.n_bins : 0; }
const float *pairfold_prediction_distogram(const pairfold_prediction *h) { return h ? h->p.probs : NULL; }
const float *pairfold_prediction_contact_probs(const pairfold_prediction *h) { return h ? h->p.contact : NULL; }
const float *pairfold_prediction_expected_distance(const pairfold_prediction *h) { return h ? h->p.expected : NULL; }
const float *pairfold_prediction_bin_edges(const pairfold_prediction *h) { return h ? h->p.bin_edges : NULL; }
const int32_t *pairfold_prediction_chain_index(const pairfold_prediction *h) { return h ? h->p.chain_index : NULL; }
const int32_t *pairfold_prediction_residue_index(const pairfold_prediction *h) { return h ? h->p.residue_index : NULL; }
const char *pairfold_prediction_sequence(const pairfold_prediction *h) { return h ? h->p.sequence : NULL; }

int pairfold_prediction_write(const pairfold_prediction *h, const char *path, const char *format, int top) {
    if (!h || !path || !format) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_prediction_write: NULL argument");
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    int rc;
    const char *meta[] = {"sequence", h->p.sequence, "chains", h->chains, "weights", h->p.ema ? "ema" : "trained", NULL};
    if (!strcmp(format, "safetensors")) rc = pf_prediction_write_safetensors(&h->p, path, meta, err, elen);
    else if (!strcmp(format, "npz")) rc = pf_prediction_write_npz(&h->p, path, err, elen);
    else if (!strcmp(format, "rr")) rc = pf_prediction_write_rr(&h->p, h->chains, "query", 6, top, path, err, elen);
    else if (!strcmp(format, "csv")) rc = pf_prediction_write_csv(&h->p, h->chains, 6, top, path, err, elen);
    else return pf_api_fail(PAIRFOLD_ERR_ARG, "unknown format '%s' (safetensors, npz, rr, csv)", format);
    return rc ? PAIRFOLD_ERR_IO : PAIRFOLD_OK;
}

void pairfold_prediction_free(pairfold_prediction *h) {
    if (!h) return;
    pf_prediction_free(&h->p);
    pf_free(h);
}
