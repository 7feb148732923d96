// structure_dev.c: the structure module through the backend (structure_dev.h).
#include "structure_dev.h"
#include <math.h>
#include <string.h>
#include "../core/util.h"
#include "../cpu/cpu_structure.h"

#define DEV_PLDDT_EPS 1e-10  // as cpu_confidence.c

// Backend buffers of one call.
typedef struct {
    pf_act *mask, *pae_logits, *pae_w;
    real *R, *t, *s, *ang, *plogits, *dR, *dt, *dang, *ds, *dpl;
    void *saved, *ws;
} dev_bufs;

static void *dalloc(pf_backend *be, size_t bytes) { return be->alloc(be, bytes > 0 ? bytes : 16); }

static dev_bufs dev_alloc(pf_backend *be, const pf_structure_head *h, int64_t N) {
    const int64_t L = h->d.n_layers, na = L * N * 2 * PF_NUM_TORSIONS, cs = h->d.ipa.c_s;
    const pf_mem m = be->sm_mem(be, &h->d);
    dev_bufs b;
    b.mask = dalloc(be, pf_act_size(be, N));
    b.pae_logits = dalloc(be, pf_act_size(be, N * N * h->ad.n_bins));
    b.pae_w = dalloc(be, pf_act_size(be, N * N));
    real **rb[] = {&b.R, &b.t, &b.s, &b.ang, &b.plogits, &b.dR, &b.dt, &b.dang, &b.ds, &b.dpl};
    const int64_t rn[] = {L * N * 9, L * N * 3, N * cs, na, N * h->pd.n_bins, L * N * 9, L * N * 3, na, N * cs,
                          N * h->pd.n_bins};
    for (size_t k = 0; k < sizeof rb / sizeof *rb; k++) *rb[k] = dalloc(be, sizeof(real) * (size_t)rn[k]);
    b.saved = dalloc(be, m.saved);
    b.ws = dalloc(be, m.ws);
    return b;
}

static void dev_free(pf_backend *be, dev_bufs *b) {
    void *p[] = {b->mask, b->pae_logits, b->pae_w, b->R, b->t, b->s, b->ang, b->plogits, b->dR, b->dt,
                 b->dang, b->ds, b->dpl, b->saved, b->ws};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++) be->free(be, p[k]);
}

// pLDDT cross-entropy on the host logits (N, nb) against the bins of lddt, rows
// weighted by mask (cpu_confidence.c masked_xent); dl (may be NULL) = scale d loss.
static double plddt_xent(const pf_plddt_dims *d, const real *logits, const real *lddt, const real *mask,
                         double scale, real *dl) {
    const int nb = d->n_bins;
    double wsum = 0, loss = 0;
    for (int64_t i = 0; i < d->N; i++) wsum += mask[i];
    const double k = 1.0 / (DEV_PLDDT_EPS + wsum);
    for (int64_t i = 0; i < d->N; i++) {
        const real *l = logits + i * nb;
        int t = (int)floor(lddt[i] * nb);
        t = t < 0 ? 0 : t > nb - 1 ? nb - 1 : t;
        double mx = l[0], se = 0;
        for (int b = 1; b < nb; b++) mx = fmax(mx, l[b]);
        for (int b = 0; b < nb; b++) se += exp(l[b] - mx);
        loss += mask[i] * (mx + log(se) - l[t]);
        for (int b = 0; dl && b < nb; b++) dl[i * nb + b] = (real)(scale * k * mask[i] * (exp(l[b] - mx) / se - (b == t)));
    }
    return loss * k;
}

// The PAE loss through the backend: logits = z W^T + b, the weighted cross-entropy
// against the bins of err (cpu_confidence.c pae_targets), and its backward.
static double pae_dev(pf_structure_head *h, pf_backend *be, int64_t N, const pf_act *z, const real *err,
                      const real *mask, const dev_bufs *b, double scale, pf_act *d_z) {
    const int64_t NN = N * N;
    const int nb = h->ad.n_bins;
    const double step = h->ad.max_bin / (nb - 2);
    int32_t *tg = pf_malloc(sizeof(int32_t) * (size_t)(NN > 0 ? NN : 1));
    real *w = pf_malloc(sizeof(real) * (size_t)(NN > 0 ? NN : 1));
    for (int64_t ij = 0; ij < NN; ij++) {
        const double e2 = (double)err[ij] * err[ij];
        int bin = 0;
        for (int k = 0; k < nb - 1; k++) bin += e2 > (k * step) * (k * step);
        tg[ij] = bin;
        w[ij] = mask[ij / N] * mask[ij % N];
    }
    be->act_from_real(be, b->pae_w, w, NN);
    be->linear_fwd(be, NN, h->ad.c_z, nb, &h->pae, z, b->pae_logits, 0);
    double loss = be->xent(be, NN, nb, b->pae_logits, tg, b->pae_w, scale, d_z ? b->pae_logits : NULL);
    if (d_z) be->linear_bwd(be, NN, h->ad.c_z, nb, &h->pae, &h->pae_g, z, b->pae_logits, d_z);
    be->sync(be);  // tg, w are host memory the backend may still read
    pf_free(tg);
    pf_free(w);
    return loss;
}

static void down(pf_backend *be, real *host, const real *dev, int64_t n) {
    be->download(be, host, dev, sizeof(real) * (size_t)n);
}

// The last layer's frames, unit torsions, pLDDT, PAE and pTM (structure.c fill_pred).
static void dev_pred(pf_structure_head *h, pf_backend *be, int64_t N, const pf_act *z, const real *seq_mask,
                     const real *R, const real *t, const real *ang, const real *plog, const dev_bufs *b,
                     pf_structure_pred *out) {
    const int64_t L = h->d.n_layers, na = N * 2 * PF_NUM_TORSIONS;
    const int nb = h->pd.n_bins;
    if (out->R) memcpy(out->R, R + (L - 1) * N * 9, sizeof(real) * (size_t)(N * 9));
    if (out->t) memcpy(out->t, t + (L - 1) * N * 3, sizeof(real) * (size_t)(N * 3));
    for (int64_t k = 0; out->tors && h->d.c_resnet > 0 && k < na; k += 2) {
        const real *a = ang + (L - 1) * na + k;
        double l = sqrt(fmax(a[0] * a[0] + a[1] * a[1], 1e-12));
        out->tors[k] = (real)(a[0] / l);
        out->tors[k + 1] = (real)(a[1] / l);
    }
    for (int64_t i = 0; out->plddt && i < N; i++) {
        const real *l = plog + i * nb;
        double mx = l[0], se = 0, e = 0;
        for (int k = 1; k < nb; k++) mx = fmax(mx, l[k]);
        for (int k = 0; k < nb; k++) {
            double pb = exp(l[k] - mx);
            se += pb;
            e += pb * (k + 0.5) / nb;
        }
        out->plddt[i] = (real)(100 * e / se);
    }
    const int64_t nl = N * N * h->ad.n_bins;
    real *logits = pf_malloc(sizeof(real) * (size_t)(nl > 0 ? nl : 1));
    be->linear_fwd(be, N * N, h->ad.c_z, h->ad.n_bins, &h->pae, z, b->pae_logits, 0);
    be->act_to_real(be, logits, b->pae_logits, nl);
    out->ptm = pf_pae_ptm(&h->ad, logits, seq_mask, out->pae);
    pf_free(logits);
}

static double masked_mean_dev(int64_t N, const real *x, const real *m) {
    double s = 0, n = 0;
    for (int64_t i = 0; i < N; i++) { s += m[i] * x[i]; n += m[i]; }
    return n > 0 ? s / n : 0;
}

pf_structure_losses pf_structure_head_run_dev(pf_structure_head *h, pf_backend *be, int64_t N, const pf_act *s,
                                              const pf_act *z, const real *seq_mask, const pf_structure_truth *tr,
                                              double clamp, int training, pf_act *d_s, pf_act *d_z,
                                              pf_structure_pred *out) {
    if (!be->sm_fwd || !be->plddt_fwd) pf_die("structure module: backend %s has no structure entries", be->name);
    h->d.ipa.N = h->pd.N = h->ad.N = N;
    const int64_t L = h->d.n_layers, na = L * N * 2 * PF_NUM_TORSIONS, cs = h->d.ipa.c_s, nb = h->pd.n_bins;
    pf_structure_losses o = {0};
    dev_bufs b = dev_alloc(be, h, N);
    be->act_from_real(be, b.mask, seq_mask, N);
    be->sm_fwd(be, &h->d, &h->p, s, z, b.mask, b.R, b.t, b.s, h->d.c_resnet > 0 ? b.ang : NULL, b.saved, b.ws);
    be->plddt_fwd(be, &h->pd, &h->pp, b.s, b.plogits);
    // host: frames, angles, pLDDT logits; the losses and their gradients
    real *R = pf_calloc((size_t)(L * N * 9 + 1), sizeof(real)), *t = pf_calloc((size_t)(L * N * 3 + 1), sizeof(real));
    real *ang = pf_calloc((size_t)(na + 1), sizeof(real)), *plog = pf_calloc((size_t)(N * nb + 1), sizeof(real));
    real *dR = pf_calloc((size_t)(L * N * 9 + 1), sizeof(real)), *dt = pf_calloc((size_t)(L * N * 3 + 1), sizeof(real));
    real *dang = pf_calloc((size_t)(na + 1), sizeof(real)), *dpl = pf_calloc((size_t)(N * nb + 1), sizeof(real));
    real *lddt = pf_malloc(sizeof(real) * (size_t)(N + 1)), *err = pf_malloc(sizeof(real) * (size_t)(N * N + 1));
    down(be, R, b.R, L * N * 9);
    down(be, t, b.t, L * N * 3);
    if (h->d.c_resnet > 0) down(be, ang, b.ang, na);
    down(be, plog, b.plogits, N * nb);
    const real *Rl = R + (L - 1) * N * 9, *tl = t + (L - 1) * N * 3;
    const double sc = training ? 1.0 : 0.0;
    o.fape = pf_structure_fape_mix(h, (int)L, N, R, t, tr, clamp, sc * h->w_fape, training ? dR : NULL,
                                   training ? dt : NULL, &o.fape_clamped);
    o.torsion = pf_structure_torsion_layers(h, N, ang, tr, seq_mask, sc * h->w_torsion, training ? dang : NULL);
    pf_lddt_ca_per_residue(N, tl, tr->t, tr->frame_mask, PF_LDDT_CA_CUTOFF, lddt);  // targets: no gradient (AF2)
    o.lddt_ca = masked_mean_dev(N, lddt, tr->frame_mask);
    const int pl_grad = training && h->w_plddt != 0, pae_grad = training && h->w_pae != 0;
    o.plddt_loss = plddt_xent(&h->pd, plog, lddt, tr->frame_mask, h->w_plddt, pl_grad ? dpl : NULL);
    pf_aligned_error(N, Rl, tl, tr->R, tr->t, err);
    o.pae_loss = pae_dev(h, be, N, z, err, tr->frame_mask, &b, h->w_pae, pae_grad ? d_z : NULL);
    o.sidechain_fape = pf_structure_sidechain_fape(h, N, R, t, ang, tr, seq_mask, clamp, sc, training ? dR : NULL,
                                                   training ? dt : NULL, training ? dang : NULL);
    if (training) {
        be->upload(be, b.dR, dR, sizeof(real) * (size_t)(L * N * 9));
        be->upload(be, b.dt, dt, sizeof(real) * (size_t)(L * N * 3));
        be->upload(be, b.dang, dang, sizeof(real) * (size_t)na);
        be->zero(be, b.ds, sizeof(real) * (size_t)(N * cs));
        if (pl_grad) {
            be->upload(be, b.dpl, dpl, sizeof(real) * (size_t)(N * nb));
            be->plddt_bwd(be, &h->pd, &h->pp, &h->pg, b.s, b.dpl, b.ds);
        }
        be->sm_bwd(be, &h->d, &h->p, &h->g, s, z, b.mask, b.saved, b.dR, b.dt, b.ds, h->d.c_resnet > 0 ? b.dang : NULL,
                   d_s, d_z, b.ws);
    } else if (out) {
        dev_pred(h, be, N, z, seq_mask, R, t, ang, plog, &b, out);
    }
    o.loss = h->w_fape * o.fape + h->w_torsion * o.torsion + h->w_plddt * o.plddt_loss + h->w_pae * o.pae_loss +
             h->w_sidechain * o.sidechain_fape;
    be->sync(be);
    real *bufs[] = {R, t, ang, plog, dR, dt, dang, dpl, lddt, err};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
    dev_free(be, &b);
    return o;
}
