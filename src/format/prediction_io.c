// prediction_io.c: a prediction in the files people read besides its safetensors file
// (prediction_st.c): AlphaFold 3's distogram.npz, contacts as CASP RR and CSV.
#include "prediction.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include "npz.h"
#include "../core/util.h"
#include "../model/distogram.h"

int pf_prediction_write_npz(const pf_prediction *p, const char *path, char *err, size_t errlen) {
    const int64_t N = p->N, NN = N * N;
    const int nb = p->n_bins;
    pf_npy_array a[5] = {
        {"distogram", "<f4", 3, {N, N, nb}, p->probs, sizeof(float) * (size_t)(NN * nb)},
        {"bin_edges", "<f4", 1, {nb - 1}, p->bin_edges, sizeof(float) * (size_t)(nb - 1)},
        {"contact_probs", "<f4", 2, {N, N}, p->contact, sizeof(float) * (size_t)NN},
        {"chain_index", "<i4", 1, {N}, p->chain_index, sizeof(int32_t) * (size_t)N},
        {"residue_index", "<i4", 1, {N}, p->residue_index, sizeof(int32_t) * (size_t)N},
    };
    const int skip = !p->probs;  // the caller left the probabilities out (cmd_predict: above its bound)
    return pf_npz_write(path, a + skip, 5 - skip, 1, err, errlen);
}

// The contacts a writer lists (see prediction.h): pair indices i N + j, highest first.
static int pick_contacts(const pf_prediction *p, int min_sep, int top, int64_t **out) {
    int64_t N = p->N;
    int all = top <= 0;
    if (all) top = (int)PF_MIN(N * 10, 1 << 30);
    *out = pf_malloc(sizeof(int64_t) * (size_t)top + 8);
    int n = pf_top_contacts(p->contact, p->chain_index, N, min_sep, top, *out);
    if (all)
        while (n > 0 && p->contact[(*out)[n - 1]] < 0.01f) n--;
    return n;
}

// Text built in memory (pf_strbuf), written atomically.
static int tb_write(pf_strbuf *t, const char *path, char *err, size_t errlen) {
    int rc = pf_write_atomic(path, t->s, t->n);
    if (rc) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    pf_free(t->s);
    return rc;
}

static const char *chain_of(char (*names)[8], int n_names, int32_t c) { return c >= 0 && c < n_names ? names[c] : "?"; }

int pf_prediction_write_rr(const pf_prediction *p, const char *chains, const char *target, int min_sep, int top,
                           const char *path, char *err, size_t errlen) {
    char names[64][8];
    int n_names = pf_chain_names(chains, names, 64), multi = 0;
    for (int64_t i = 0; i < p->N; i++) multi |= p->chain_index[i] != 0;
    int64_t *pairs;
    int n = pick_contacts(p, min_sep, top, &pairs);
    pf_strbuf t = {pf_malloc(4096), 0, 4096};
    pf_strbuf_printf(&t, "PFRMAT RR\nTARGET %s\nAUTHOR pairfold\nMETHOD pairfold distogram head: P(pseudo-beta distance < 8 A)\n",
              target && *target ? target : "query");
    if (multi) pf_strbuf_printf(&t, "REMARK residues written CHAIN + number (1-based within each chain)\n");
    pf_strbuf_printf(&t, "MODEL  1\n");
    for (int64_t i = 0; i < p->N; i += 50) pf_strbuf_printf(&t, "%.*s\n", (int)PF_MIN(50, p->N - i), p->sequence + i);
    for (int k = 0; k < n; k++) {
        int64_t i = pairs[k] / p->N, j = pairs[k] % p->N;
        if (multi)
            pf_strbuf_printf(&t, "%s%d %s%d 0 8 %.5f\n", chain_of(names, n_names, p->chain_index[i]), p->residue_index[i] + 1,
                      chain_of(names, n_names, p->chain_index[j]), p->residue_index[j] + 1, p->contact[pairs[k]]);
        else pf_strbuf_printf(&t, "%d %d 0 8 %.5f\n", p->residue_index[i] + 1, p->residue_index[j] + 1, p->contact[pairs[k]]);
    }
    pf_strbuf_printf(&t, "END\n");
    pf_free(pairs);
    return tb_write(&t, path, err, errlen);
}

int pf_prediction_write_csv(const pf_prediction *p, const char *chains, int min_sep, int top, const char *path,
                            char *err, size_t errlen) {
    char names[64][8];
    int n_names = pf_chain_names(chains, names, 64);
    int64_t *pairs;
    int n = pick_contacts(p, min_sep, top, &pairs);
    pf_strbuf t = {pf_malloc(4096), 0, 4096};
    pf_strbuf_printf(&t, "chain_i,residue_i,aa_i,chain_j,residue_j,aa_j,probability,expected_distance\n");
    for (int k = 0; k < n; k++) {
        int64_t i = pairs[k] / p->N, j = pairs[k] % p->N;
        pf_strbuf_printf(&t, "%s,%d,%c,%s,%d,%c,%.5f,%.3f\n", chain_of(names, n_names, p->chain_index[i]),
                  p->residue_index[i] + 1, p->sequence[i], chain_of(names, n_names, p->chain_index[j]),
                  p->residue_index[j] + 1, p->sequence[j], p->contact[pairs[k]], p->expected[pairs[k]]);
    }
    pf_free(pairs);
    return tb_write(&t, path, err, errlen);
}
