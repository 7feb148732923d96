// distogram.c: the distance bins, the top contacts and contact precision (the
// prediction itself, by row blocks: distogram_predict.c).
#include "distogram.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"

pf_disto_bins pf_disto_bins_of(const pf_config *c) {
    // the width in float arithmetic, as the configuration stores min_bin / max_bin
    pf_disto_bins g = {c->min_bin, (c->max_bin - c->min_bin) / c->n_bins, c->n_bins};
    return g;
}

int pf_disto_bin(double dist, const pf_config *c) {
    // the largest k in [1, n_bins) with dist > edge k, else 0; the estimate from
    // the quotient is corrected by the exact comparisons so the bin edges stay those
    // of the definition
    pf_disto_bins g = pf_disto_bins_of(c);
    if (!(dist > pf_disto_edge(&g, 1))) return 0;
    int k = (int)floor((dist - g.min) / g.width);
    if (k > g.n - 1) k = g.n - 1;
    if (k < 1) k = 1;
    while (k < g.n - 1 && dist > pf_disto_edge(&g, k + 1)) k++;
    while (k > 1 && !(dist > pf_disto_edge(&g, k))) k--;
    return k;
}

typedef struct {
    float p;
    int64_t k;
} scored;
// highest probability first; ties by pair index, so the order is total
static int by_score(const void *a, const void *b) {
    const scored *x = a, *y = b;
    if (x->p != y->p) return x->p > y->p ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

double pf_contact_precision(const float *contact, const pf_batch *b, int min_sep, int top) {
    int64_t N = b->N, n = 0;
    int L = 0;
    for (int64_t i = 0; i < N; i++) L += b->seq_mask[i] > 0 && b->pseudo_beta_mask[i] > 0;
    if (top <= 0) top = L / 5 > 0 ? L / 5 : 1;
    scored *s = pf_malloc(sizeof(scored) * (size_t)(N * (N > 1 ? N - 1 : 1) / 2 + 1));
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = i + 1; j < N; j++) {
            if (b->chain_id[i] != b->chain_id[j]) continue;
            if (!(b->seq_mask[i] > 0 && b->seq_mask[j] > 0 && b->pseudo_beta_mask[i] > 0 && b->pseudo_beta_mask[j] > 0)) continue;
            if (b->residue_index[j] - b->residue_index[i] < min_sep) continue;  // separation in the chain, not the crop
            s[n].p = contact[i * N + j];
            s[n].k = i * N + j;
            n++;
        }
    double prec = NAN;
    if (n > 0) {
        qsort(s, (size_t)n, sizeof *s, by_score);
        int64_t m = top < n ? top : n, hit = 0;
        for (int64_t t = 0; t < m; t++) {
            int64_t i = s[t].k / N, j = s[t].k % N;
            const real *a = b->pseudo_beta + 3 * i, *c = b->pseudo_beta + 3 * j;
            double dx = a[0] - c[0], dy = a[1] - c[1], dz = a[2] - c[2];
            hit += dx * dx + dy * dy + dz * dz < 64.0;
        }
        prec = (double)hit / (double)m;
    }
    pf_free(s);
    return prec;
}

int pf_top_contacts(const float *contact, const int32_t *chain, int64_t N, int min_sep, int top, int64_t *out) {
    scored *s = pf_malloc(sizeof(scored) * (size_t)(N * (N > 1 ? N - 1 : 1) / 2 + 1));
    int64_t n = 0;
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = i + 1; j < N; j++) {
            if (chain[i] == chain[j] && j - i < min_sep) continue;
            s[n].p = contact[i * N + j];
            s[n].k = i * N + j;
            n++;
        }
    qsort(s, (size_t)n, sizeof *s, by_score);
    int m = (int)(top < n ? top : n);
    for (int t = 0; t < m; t++) out[t] = s[t].k;
    pf_free(s);
    return m < 0 ? 0 : m;
}
