// cpu_confidence.c: AF2's confidence heads on the CPU: the pLDDT head (Alg. 29,
// OpenFold PerResidueLDDTCaPredictor + lddt_loss) and the predicted aligned
// error head (AF2 PredictedAlignedErrorHead, OpenFold TMScoreHead + tm_loss)
// with the expected error and pTM (AF2 compute_predicted_tm_score).
// Targets (lDDT-Ca, aligned errors) come from cpu_fape.c and carry no gradient.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

// Masked mean cross-entropy over rows of logits (M, C):
//   loss = sum_m w_m (lse_m - l_m[t_m]) / (eps + sum_m w_m).
// dlogits (may be NULL) receives scale * d loss / d logits (overwritten).
static double masked_xent(int64_t M, int C, const real *logits, const int32_t *target, const real *w,
                          double eps, double scale, real *dlogits) {
    double wsum = 0, loss = 0;
    for (int64_t m = 0; m < M; m++) wsum += w[m];
    const double k = 1.0 / (eps + wsum);
    for (int64_t m = 0; m < M; m++) {  // serial: one fixed summation order
        const real *l = logits + m * C;
        real mx = l[0], se = 0;
        for (int b = 1; b < C; b++) mx = fmax(mx, l[b]);
        for (int b = 0; b < C; b++) se += exp(l[b] - mx);
        loss += w[m] * (mx + log(se) - l[target[m]]);
        if (!dlogits) continue;
        for (int b = 0; b < C; b++)
            dlogits[m * C + b] = (real)(scale * k * w[m] * (exp(l[b] - mx) / se - (b == target[m])));
    }
    return loss * k;
}

// ---------------------------------------------------------------------------
// pLDDT
// ---------------------------------------------------------------------------
typedef struct { real *x, *h1, *h2, *r, *logits; } plddt_act;

static plddt_act plddt_forward(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s) {
    const int64_t N = d->N, nh = N * d->c_h;
    plddt_act a;
    a.x = pf_malloc(sizeof(real) * (size_t)(N * d->c_s + 1));   // LN(s)
    a.h1 = pf_malloc(sizeof(real) * (size_t)(nh + 1));             // pre-activations
    a.h2 = pf_malloc(sizeof(real) * (size_t)(nh + 1));
    a.r = pf_malloc(sizeof(real) * (size_t)(nh + 1));              // relu scratch
    a.logits = pf_malloc(sizeof(real) * (size_t)(N * d->n_bins + 1));
    cpu_ln_fwd(N, d->c_s, &p->ln, s, a.x, NULL, NULL);
    cpu_linear_fwd(N, d->c_s, d->c_h, &p->lin1, a.x, a.h1, 0);
    for (int64_t k = 0; k < nh; k++) a.r[k] = a.h1[k] > 0 ? a.h1[k] : 0;
    cpu_linear_fwd(N, d->c_h, d->c_h, &p->lin2, a.r, a.h2, 0);
    for (int64_t k = 0; k < nh; k++) a.r[k] = a.h2[k] > 0 ? a.h2[k] : 0;
    cpu_linear_fwd(N, d->c_h, d->n_bins, &p->lin3, a.r, a.logits, 0);
    return a;
}

static void plddt_free(plddt_act *a) {
    pf_free(a->x); pf_free(a->h1); pf_free(a->h2); pf_free(a->r); pf_free(a->logits);
}

void cpu_plddt_fwd(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits, real *plddt) {
    plddt_act a = plddt_forward(d, p, s);
    const int nb = d->n_bins;
    if (logits) memcpy(logits, a.logits, sizeof(real) * (size_t)(d->N * nb));
    for (int64_t i = 0; plddt && i < d->N; i++) {
        const real *l = a.logits + i * nb;
        real mx = l[0], se = 0, e = 0;
        for (int b = 1; b < nb; b++) mx = fmax(mx, l[b]);
        for (int b = 0; b < nb; b++) {
            real pb = exp(l[b] - mx);
            se += pb;
            e += pb * (b + (real)0.5) / nb;  // bin centre
        }
        plddt[i] = 100 * e / se;
    }
    plddt_free(&a);
}

static int32_t *plddt_targets(const pf_plddt_dims *d, const real *lddt) {
    int32_t *t = pf_malloc(sizeof(int32_t) * (size_t)(d->N > 0 ? d->N : 1));
    for (int64_t i = 0; i < d->N; i++) {
        int b = (int)floor(lddt[i] * d->n_bins);
        t[i] = b < 0 ? 0 : b > d->n_bins - 1 ? d->n_bins - 1 : b;
    }
    return t;
}

#define PLDDT_EPS 1e-10
static real *ones_or(const real *mask, int64_t n) {
    real *w = pf_malloc(sizeof(real) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++) w[i] = mask ? mask[i] : 1;
    return w;
}

double cpu_plddt_loss(const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, const real *lddt,
                      const real *mask) {
    plddt_act a = plddt_forward(d, p, s);
    int32_t *t = plddt_targets(d, lddt);
    real *w = ones_or(mask, d->N);
    double loss = masked_xent(d->N, d->n_bins, a.logits, t, w, PLDDT_EPS, 0, NULL);
    plddt_free(&a);
    pf_free(t);
    pf_free(w);
    return loss;
}

// The network's backward from d logits (N, n_bins); a from plddt_forward (a->r is reused
// as scratch).
static void plddt_net_bwd(const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s, plddt_act *a,
                          const real *dl, real *d_s) {
    const int64_t N = d->N, nh = N * d->c_h;
    real *dh = pf_calloc((size_t)(nh + 1), sizeof(real)), *dh2 = pf_calloc((size_t)(nh + 1), sizeof(real));
    real *dx = pf_calloc((size_t)(N * d->c_s + 1), sizeof(real));
    // a->r still holds relu(h2)
    cpu_linear_bwd(N, d->c_h, d->n_bins, &p->lin3, &g->lin3, a->r, dl, dh);
    for (int64_t k = 0; k < nh; k++) dh[k] = a->h2[k] > 0 ? dh[k] : 0;
    for (int64_t k = 0; k < nh; k++) a->r[k] = a->h1[k] > 0 ? a->h1[k] : 0;
    cpu_linear_bwd(N, d->c_h, d->c_h, &p->lin2, &g->lin2, a->r, dh, dh2);
    for (int64_t k = 0; k < nh; k++) dh2[k] = a->h1[k] > 0 ? dh2[k] : 0;
    cpu_linear_bwd(N, d->c_s, d->c_h, &p->lin1, &g->lin1, a->x, dh2, dx);
    cpu_ln_bwd(N, d->c_s, &p->ln, &g->ln, s, dx, d_s);
    real *bufs[] = {dh, dh2, dx};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

void cpu_plddt_bwd(const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                   const real *lddt, const real *mask, double scale, real *d_s) {
    const int64_t N = d->N;
    plddt_act a = plddt_forward(d, p, s);
    int32_t *t = plddt_targets(d, lddt);
    real *w = ones_or(mask, N);
    real *dl = pf_malloc(sizeof(real) * (size_t)(N * d->n_bins + 1));
    masked_xent(N, d->n_bins, a.logits, t, w, PLDDT_EPS, scale, dl);
    plddt_net_bwd(d, p, g, s, &a, dl, d_s);
    pf_free(dl);
    pf_free(w);
    pf_free(t);
    plddt_free(&a);
}

void cpu_plddt_logits_bwd(const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                          const real *d_logits, real *d_s) {
    plddt_act a = plddt_forward(d, p, s);
    plddt_net_bwd(d, p, g, s, &a, d_logits, d_s);
    plddt_free(&a);
}

// ---------------------------------------------------------------------------
// Predicted aligned error
// ---------------------------------------------------------------------------
#define PAE_EPS 1e-8

static double pae_step(const pf_pae_dims *d) { return d->max_bin / (d->n_bins - 2); }

void pf_pae_bin_centers(const pf_pae_dims *d, real *centers) {
    const double step = pae_step(d);
    for (int b = 0; b < d->n_bins; b++) centers[b] = (real)(b * step + step / 2);
}

void cpu_pae_logits(const pf_pae_dims *d, const pf_linear_p *p, const real *z, real *logits) {
    cpu_linear_fwd(d->N * d->N, d->c_z, d->n_bins, p, z, logits, 0);
}

// Targets: the number of bin edges (0, step, ..., max_bin) below the error,
// compared squared as OpenFold does; pair weights mask_i mask_j.
static int32_t *pae_targets(const pf_pae_dims *d, const real *err, const real *mask, real **w_out) {
    const int64_t NN = d->N * d->N;
    const double step = pae_step(d);
    int32_t *t = pf_malloc(sizeof(int32_t) * (size_t)(NN > 0 ? NN : 1));
    real *w = pf_malloc(sizeof(real) * (size_t)(NN > 0 ? NN : 1));
    for (int64_t ij = 0; ij < NN; ij++) {
        const int64_t i = ij / d->N, j = ij % d->N;
        const double e2 = (double)err[ij] * err[ij];
        int b = 0;
        for (int k = 0; k < d->n_bins - 1; k++) b += e2 > (k * step) * (k * step);
        t[ij] = b;
        w[ij] = mask ? mask[i] * mask[j] : 1;
    }
    *w_out = w;
    return t;
}

double cpu_pae_loss(const pf_pae_dims *d, const pf_linear_p *p, const real *z, const real *err,
                    const real *mask) {
    const int64_t NN = d->N * d->N;
    real *logits = pf_malloc(sizeof(real) * (size_t)(NN * d->n_bins)), *w;
    int32_t *t = pae_targets(d, err, mask, &w);
    cpu_pae_logits(d, p, z, logits);
    double loss = masked_xent(NN, d->n_bins, logits, t, w, PAE_EPS, 0, NULL);
    pf_free(logits);
    pf_free(t);
    pf_free(w);
    return loss;
}

void cpu_pae_bwd(const pf_pae_dims *d, const pf_linear_p *p, pf_linear_p *g, const real *z,
                 const real *err, const real *mask, double scale, real *d_z) {
    const int64_t NN = d->N * d->N;
    real *logits = pf_malloc(sizeof(real) * (size_t)(NN * d->n_bins)), *w;
    int32_t *t = pae_targets(d, err, mask, &w);
    cpu_pae_logits(d, p, z, logits);
    masked_xent(NN, d->n_bins, logits, t, w, PAE_EPS, scale, logits);  // in place: d logits
    cpu_linear_bwd(NN, d->c_z, d->n_bins, p, g, z, logits, d_z);
    pf_free(logits);
    pf_free(t);
    pf_free(w);
}

// AF2 compute_predicted_tm_score with residue weights = mask: d0 from the number
// of residues (at least 19); for each aligned residue i the expected TM term
// averaged over j; the pTM is the best i (weighted by its mask).
void pf_pae_ptm_setup(const pf_pae_dims *d, const real *mask, real *ctr, double *nres, double *d0) {
    pf_pae_bin_centers(d, ctr);
    double n = 0;
    for (int64_t i = 0; i < d->N; i++) n += mask ? mask[i] : 1;
    const double n_clip = fmax(floor(n), 19);
    *nres = n;
    *d0 = 1.24 * cbrt(n_clip - 15) - 1.8;
}

double pf_pae_ptm_row(const pf_pae_dims *d, const real *ctr, double nres, double d0, const real *logits_i,
                      const real *mask, real *pae_i) {
    const int64_t N = d->N;
    const int nb = d->n_bins;
    double per = 0;
    for (int64_t j = 0; j < N; j++) {
        const real *l = logits_i + j * nb;
        double mx = l[0], se = 0, tm = 0, e = 0;
        for (int b = 1; b < nb; b++) mx = fmax(mx, l[b]);
        for (int b = 0; b < nb; b++) {
            double pb = exp(l[b] - mx);
            se += pb;
            tm += pb / (1 + (ctr[b] / d0) * (ctr[b] / d0));
            e += pb * ctr[b];
        }
        if (pae_i) pae_i[j] = (real)(e / se);
        per += (mask ? mask[j] : 1) * tm / se;
    }
    return per / (1e-8 + nres);
}

double pf_pae_ptm_best(int64_t N, const double *per, const real *mask) {
    double best = 0, best_w = -1;
    for (int64_t i = 0; i < N; i++) {  // the first row of the largest weight, in row order
        const double wi = per[i] * (mask ? mask[i] : 1);
        if (wi > best_w) { best_w = wi; best = per[i]; }
    }
    return best;
}

double pf_pae_ptm(const pf_pae_dims *d, const real *logits, const real *mask, real *pae) {
    const int64_t N = d->N;
    real *ctr = pf_malloc(sizeof(real) * (size_t)d->n_bins);
    double *per = pf_malloc(sizeof(double) * (size_t)(N + 1)), nres, d0;
    pf_pae_ptm_setup(d, mask, ctr, &nres, &d0);
    for (int64_t i = 0; i < N; i++)
        per[i] = pf_pae_ptm_row(d, ctr, nres, d0, logits + i * N * d->n_bins, mask, pae ? pae + i * N : NULL);
    const double best = pf_pae_ptm_best(N, per, mask);
    pf_free(ctr);
    pf_free(per);
    return best;
}
