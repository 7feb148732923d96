// distogram.c: distogram probabilities on the host and contact precision.
#include "distogram.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "model_dap.h"

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

// One pair's bin probabilities (probs_ij, n_bins; may be NULL), expected distance and contact
// probability from its logits l (n_bins), in double.
static void pair_stats(const double *l, const pf_disto_bins *g, float *probs_ij, float *ed_out, float *pc_out) {
    double mx = -INFINITY, se = 0, ed = 0, pc = 0;
    for (int k = 0; k < g->n; k++) mx = fmax(mx, l[k]);
    for (int k = 0; k < g->n; k++) se += exp(l[k] - mx);
    for (int k = 0; k < g->n; k++) {
        double p = exp(l[k] - mx) / se;
        if (probs_ij) probs_ij[k] = (float)p;
        ed += p * pf_disto_centre(g, k);
        if (k < g->n - 1 && pf_disto_edge(g, k + 1) <= 8.0 + 1e-9) pc += p;
    }
    if (ed_out) *ed_out = (float)ed;
    if (pc_out) *pc_out = (float)pc;
}

typedef struct {
    int64_t N;
    pf_disto_bins g;
    float *probs, *expected, *contact;
    double *l;
} rows_out;

static void row_stats(void *ctx, int64_t i, const real *lr) {
    rows_out *o = ctx;
    const int nb = o->g.n;
    for (int64_t j = 0; j < o->N; j++) {
        for (int k = 0; k < nb; k++) o->l[k] = lr[j * nb + k];
        const int64_t ij = i * o->N + j;
        pair_stats(o->l, &o->g, o->probs ? o->probs + ij * nb : NULL, o->expected ? o->expected + ij : NULL,
                   o->contact ? o->contact + ij : NULL);
    }
}

void pf_distogram_predict(pf_model *M, int64_t N, float *probs, float *expected, float *contact) {
    pf_backend *be = M->be;
    const pf_config *cfg = &M->cfg;
    int64_t NN = N * N;
    int nb = cfg->n_bins;
    pf_disto_bins g = pf_disto_bins_of(cfg);
    const int want = probs || expected || contact;
    if (pf_model_dap_zrows(M)) {  // dap: z is this rank's rows; the logits of every rank's rows gathered, row by row
        rows_out o = {N, g, probs, expected, contact, pf_malloc(sizeof(double) * (size_t)nb)};
        pf_model_dap_disto_rows(M, N, want ? row_stats : NULL, &o);
        pf_free(o.l);
        return;
    }
    if (!want) return;
    real *hA = pf_malloc(sizeof(real) * (size_t)(NN * nb)), *bias = pf_malloc(sizeof(real) * (size_t)nb);
    pf_act *A = be->alloc(be, pf_act_size(be, NN * nb));  // (N, N, n_bins) z W^T, on the device
    pf_linear_p head = {M->p.disto.w, NULL};
    be->linear_fwd(be, NN, cfg->c_z, nb, &head, M->z, A, 0);
    be->act_to_real(be, hA, A, NN * nb);
    be->free(be, A);
    be->download(be, bias, M->p.disto.b, sizeof(real) * (size_t)nb);
    double *l = pf_malloc(sizeof(double) * (size_t)nb);
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            for (int k = 0; k < nb; k++) l[k] = hA[(i * N + j) * nb + k] + hA[(j * N + i) * nb + k] + bias[k];
            pair_stats(l, &g, probs ? probs + (i * N + j) * nb : NULL, expected ? expected + i * N + j : NULL,
                       contact ? contact + i * N + j : NULL);
        }
    pf_free(l);
    pf_free(hA);
    pf_free(bias);
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
