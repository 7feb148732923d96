// metrics.c: lDDT-Ca and the TM-score search (see metrics.h).
#include "metrics.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"

static double dist(const double *a, const double *b) {
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(1e-10 + dx * dx + dy * dy + dz * dz);
}

double pf_lddt_ca(const double *pred, const double *truth, const uint8_t *pred_mask, const uint8_t *true_mask, int n,
                  double *per_res) {
    double pairs = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        double pi = 0, si = 0;  // residue i's pairs and their summed score
        for (int j = 0; j < n && true_mask[i]; j++) {
            if (j == i || !true_mask[j]) continue;
            double dt = dist(truth + 3 * i, truth + 3 * j);
            if (!(dt < PF_LDDT_CUTOFF)) continue;
            pi += 1;
            if (!pred_mask[i] || !pred_mask[j]) continue;
            double l1 = fabs(dt - dist(pred + 3 * i, pred + 3 * j));
            si += 0.25 * ((l1 < 0.5) + (l1 < 1.0) + (l1 < 2.0) + (l1 < 4.0));
        }
        if (per_res) per_res[i] = (1e-10 + si) / (1e-10 + pi);
        pairs += pi, sum += si;
    }
    return (1e-10 + sum) / (1e-10 + pairs);
}

double pf_tm_d0(int l_norm) {
    double d0 = l_norm > 15 ? 1.24 * cbrt(l_norm - 15.0) - 1.8 : 0.5;
    return d0 < 0.5 ? 0.5 : d0;
}

// The TMscore program's score_fun: moved = T(pred); TM-score over all aligned
// residues, and the residues closer than d (d grows by 0.5 A until at least 3
// are in, when there are more than 3) into cut. Returns the number cut.
typedef struct {
    const double *pred, *truth;
    int n, l_norm;
    double d0;
    double *dist;  // (n) scratch
} tm_ctx;

static int score_fun(const tm_ctx *c, const pf_rigid *T, double d, int *cut, double *score) {
    double sum = 0;
    for (int k = 0; k < c->n; k++) {
        double z[3];
        pf_rigid_apply(T, c->pred + 3 * k, z);
        double dx = z[0] - c->truth[3 * k], dy = z[1] - c->truth[3 * k + 1], dz = z[2] - c->truth[3 * k + 2];
        c->dist[k] = sqrt(dx * dx + dy * dy + dz * dz);
        sum += 1 / (1 + (c->dist[k] / c->d0) * (c->dist[k] / c->d0));
    }
    *score = sum / c->l_norm;
    for (;;) {
        int n_cut = 0;
        for (int k = 0; k < c->n; k++)
            if (c->dist[k] < d) cut[n_cut++] = k;
        if (n_cut >= 3 || c->n <= 3) return n_cut;
        d += 0.5;
    }
}

// One seed (the fragment start..start+len) and its iterations; updates *best.
static void tm_seed(const tm_ctx *c, int start, int len, double d0_search, int *cut, int *used, pf_tm_result *best) {
    for (int k = 0; k < len; k++) used[k] = start + k;
    pf_rigid T = pf_superpose(c->pred, c->truth, used, len);
    double score;
    int n_cut = score_fun(c, &T, d0_search - 1, cut, &score);
    if (score > best->tm) best->tm = score, best->best = T;
    for (int it = 0; it < 20 && n_cut > 0; it++) {
        int n_used = n_cut;
        memcpy(used, cut, (size_t)n_cut * sizeof(int));
        T = pf_superpose(c->pred, c->truth, used, n_used);
        n_cut = score_fun(c, &T, d0_search + 1, cut, &score);
        if (score > best->tm) best->tm = score, best->best = T;
        if (n_cut == n_used && memcmp(cut, used, (size_t)n_cut * sizeof(int)) == 0) break;  // converged
    }
}

pf_tm_result pf_tm_score(const double *pred, const double *truth, int n_ali, int l_norm) {
    pf_tm_result best;
    memset(&best, 0, sizeof best);
    best.d0 = pf_tm_d0(l_norm);
    best.best = pf_superpose(pred, truth, NULL, 0);
    if (n_ali <= 0 || l_norm <= 0) return best;
    best.tm = -1;
    double d0_search = PF_MAX(4.5, PF_MIN(8.0, best.d0));
    tm_ctx c = {pred, truth, n_ali, l_norm, best.d0, malloc((size_t)n_ali * sizeof(double))};
    int *cut = malloc((size_t)n_ali * sizeof(int)), *used = malloc((size_t)n_ali * sizeof(int));
    if (!c.dist || !cut || !used) pf_die("out of memory");
    // fragment lengths n_ali, n_ali/2, n_ali/4, ... down to 4 (or n_ali when shorter), at most 6 of them
    int min_len = n_ali < 4 ? n_ali : 4, lens[6], n_len = 0;
    for (int i = 0; i < 5; i++) {
        lens[n_len++] = n_ali >> i;
        if (lens[n_len - 1] <= min_len) {
            lens[n_len - 1] = min_len;
            break;
        }
    }
    if (lens[n_len - 1] > min_len) lens[n_len++] = min_len;
    for (int l = 0; l < n_len; l++)
        for (int start = 0; start + lens[l] <= n_ali; start++) tm_seed(&c, start, lens[l], d0_search, cut, used, &best);
    free(c.dist);
    free(cut);
    free(used);
    return best;
}
