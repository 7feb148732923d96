// prediction_st.c: a prediction's safetensors file, written at once
// (pf_prediction_write_safetensors) or with its (N, N, n_bins) probabilities a row block
// at a time (pf_prediction_file: predict, which never holds them whole). One table of
// arrays for both, so both give the same bytes.
#include "prediction.h"
#include <stdio.h>
#include <string.h>

enum { N_ARRAYS = 7 };

// The file's arrays in file order; probs: distogram_probs' data (NULL: written in rows).
static void arrays_of(const pf_prediction *p, const float *probs, pf_st_tensor ts[N_ARRAYS]) {
    const int64_t N = p->N, NN = N * N;
    const int nb = p->n_bins;
    pf_st_tensor t[N_ARRAYS] = {
        {"distogram_probs", "F32", 3, {N, N, nb}, probs, sizeof(float) * (size_t)(NN * nb)},
        {"expected_distance", "F32", 2, {N, N}, p->expected, sizeof(float) * (size_t)NN},
        {"contact_probability_8A", "F32", 2, {N, N}, p->contact, sizeof(float) * (size_t)NN},
        {"query", "I32", 1, {N}, p->aatype, sizeof(int32_t) * (size_t)N},
        {"chain_index", "I32", 1, {N}, p->chain_index, sizeof(int32_t) * (size_t)N},
        {"residue_index", "I32", 1, {N}, p->residue_index, sizeof(int32_t) * (size_t)N},
        {"bin_edges", "F32", 1, {nb - 1}, p->bin_edges, sizeof(float) * (size_t)(nb - 1)},
    };
    memcpy(ts, t, sizeof t);
}

int pf_prediction_write_safetensors(const pf_prediction *p, const char *path, const char *const *meta_kv,
                                    char *err, size_t errlen) {
    pf_st_tensor ts[N_ARRAYS];
    arrays_of(p, p->probs, ts);
    return pf_st_write(path, ts, N_ARRAYS, meta_kv, err, errlen);
}

void pf_prediction_file_begin(pf_prediction_file *f, const pf_prediction *p, const char *path,
                              const char *const *meta_kv) {
    memset(f, 0, sizeof *f);
    pf_st_tensor ts[N_ARRAYS];
    arrays_of(p, NULL, ts);  // expected / contact: p's arrays, written at finish
    f->w = pf_st_writer_begin(path, ts, N_ARRAYS, meta_kv, f->err, sizeof f->err);
    f->failed = !f->w;
}

void pf_prediction_file_rows(pf_prediction_file *f, int64_t i0, int64_t n, const float *probs) {
    if (f->failed || !f->w) return;
    if (pf_st_writer_rows(f->w, 0, i0, n, probs) != 0) {
        snprintf(f->err, sizeof f->err, "%s", pf_st_writer_error(f->w));
        f->failed = 1;  // the writer keeps the error too; finish reports it
    }
}

int pf_prediction_file_finish(pf_prediction_file *f, char *err, size_t errlen) {
    if (!f->w) {
        snprintf(err, errlen, "%s", f->failed ? f->err : "the prediction file was never begun");
        return -1;
    }
    int rc = pf_st_writer_finish(f->w, err, errlen);
    f->w = NULL;
    return rc;
}

void pf_prediction_file_abort(pf_prediction_file *f) {
    pf_st_writer_abort(f->w);
    f->w = NULL;
}
