// grad_struct_losses.c: float64 checks of the structure losses and confidence
// heads (src/cpu/cpu_fape.c, cpu_confidence.c): backbone FAPE (clamped and
// unclamped), lDDT-Ca, the pLDDT head and loss, the PAE head, loss and pTM.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testlib.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/core/rng.h"
#include "../src/model/structure.h"

#define TOL 1e-6

static void rand_frames(int64_t N, real *R, real *t, double scale, uint64_t seed) {
    real *q = tl_rand(N * 3, 1.5, seed), *tt = tl_rand(N * 3, scale, seed + 1);
    for (int64_t i = 0; i < N; i++) pf_quat_to_rot(q + i * 3, R + i * 9);
    memcpy(t, tt, sizeof(real) * (size_t)(N * 3));
}

// ---------------------------------------------------------------------------
// FAPE
// ---------------------------------------------------------------------------
typedef struct {
    int64_t N;
    real *R, *t, *Rt, *tt, *mask;
    double clamp;
} fape_ctx;

static double fape_loss(void *vc) {
    fape_ctx *c = vc;
    return cpu_fape_fwd(c->N, c->R, c->t, c->Rt, c->tt, c->mask, c->clamp);
}

// Straight from Alg. 28 with explicit inverse frames.
static double fape_ref(const fape_ctx *c) {
    double num = 0, m = 0;
    for (int64_t i = 0; i < c->N; i++) m += c->mask[i];
    for (int64_t i = 0; i < c->N; i++)
        for (int64_t j = 0; j < c->N; j++) {
            double xp[3], xt[3], d2 = 0;
            for (int b = 0; b < 3; b++) {
                xp[b] = xt[b] = 0;
                for (int a = 0; a < 3; a++) {
                    xp[b] += c->R[i * 9 + a * 3 + b] * (c->t[j * 3 + a] - c->t[i * 3 + a]);
                    xt[b] += c->Rt[i * 9 + a * 3 + b] * (c->tt[j * 3 + a] - c->tt[i * 3 + a]);
                }
                d2 += (xp[b] - xt[b]) * (xp[b] - xt[b]);
            }
            double dist = sqrt(d2 + 1e-4);
            if (c->clamp > 0) dist = fmin(dist, c->clamp);
            num += c->mask[i] * c->mask[j] * dist / 10;
        }
    return num / ((1e-4 + m) * (1e-4 + m));
}

static void test_fape(void) {
    fape_ctx c = {.N = 7};
    const int64_t N = c.N;
    c.R = tl_zeros(N * 9); c.t = tl_zeros(N * 3); c.Rt = tl_zeros(N * 9); c.tt = tl_zeros(N * 3);
    rand_frames(N, c.Rt, c.tt, 6, 700);
    rand_frames(N, c.R, c.t, 6, 710);
    for (int64_t k = 0; k < N * 3; k++) c.t[k] = 0.6 * c.t[k] + c.tt[k];
    c.mask = tl_mask(N, 0, 0.3, 720);
    c.mask[0] = 1; c.mask[3] = 0;
    real *err = tl_zeros(N * N);
    pf_aligned_error(N, c.R, c.t, c.Rt, c.tt, err);
    int above = 0, below = 0;
    for (int64_t k = 0; k < N * N; k++) { above += err[k] > 10.5; below += err[k] < 9.5; }
    tl_check(above > 0 && below > 0, "fape test has errors on both sides of the clamp", "%d above, %d below", above, below);
    for (int clamped = 1; clamped >= 0; clamped--) {
        c.clamp = clamped ? PF_FAPE_CLAMP : 0;
        const char *lab = clamped ? "fape" : "fape_unclamped";
        double L = fape_loss(&c), Lr = fape_ref(&c);
        char name[64];
        snprintf(name, sizeof name, "%s vs Alg. 28", lab);
        tl_check(fabs(L - Lr) < 1e-12 * fabs(Lr), name, "%.15g vs %.15g", L, Lr);
        real *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3);
        tl_tensors ts = {0};
        tl_add(&ts, "R", c.R, dR, N * 9);
        tl_add(&ts, "t", c.t, dt, N * 3);
        cpu_fape_bwd(N, c.R, c.t, c.Rt, c.tt, c.mask, c.clamp, 1.0, dR, dt);
        tl_gradcheck(lab, fape_loss, &c, &ts, 200, TOL);
    }
    // invariant to a global motion of the prediction; sqrt(eps) / 10 when exact
    real Rg[9], tg[3];
    rand_frames(1, Rg, tg, 5, 730);
    double L0 = fape_loss(&c);
    for (int64_t i = 0; i < N; i++) {
        real Rc[9], tc[3];
        pf_frame_compose(Rg, tg, c.R + i * 9, c.t + i * 3, Rc, tc);
        memcpy(c.R + i * 9, Rc, sizeof Rc);
        memcpy(c.t + i * 3, tc, sizeof tc);
    }
    double L1 = fape_loss(&c);
    tl_check(fabs(L1 - L0) < 1e-12, "fape invariant to a global motion", "%.15g vs %.15g", L1, L0);
    double m = 0;
    for (int64_t i = 0; i < N; i++) m += c.mask[i];
    double Le = cpu_fape_fwd(N, c.Rt, c.tt, c.Rt, c.tt, c.mask, 10), want = 1e-3 * m * m / ((1e-4 + m) * (1e-4 + m));
    tl_check(fabs(Le - want) < 1e-14, "fape of the true frames is sqrt(eps) / 10", "%.15g vs %.15g", Le, want);
}

// Three residues on a line (0, 3, 6 A), the third predicted 1.5 A further out,
// a fourth 30 A away (no pair within the cutoff).
static void test_lddt(void) {
    real xt[12] = {0, 0, 0, 3, 0, 0, 6, 0, 0, 30, 0, 0}, x[12], l[4], ones[4] = {1, 1, 1, 1};
    memcpy(x, xt, sizeof x);
    pf_lddt_ca_per_residue(4, x, xt, ones, PF_LDDT_CA_CUTOFF, l);
    tl_check(l[0] == 1 && l[1] == 1 && l[2] == 1 && l[3] == 1, "lddt of the truth is 1", "%g %g %g %g", l[0], l[1], l[2], l[3]);
    x[6] = 7.5;
    pf_lddt_ca_per_residue(4, x, xt, ones, PF_LDDT_CA_CUTOFF, l);
    tl_check(fabs(l[0] - 0.75) < 1e-9 && fabs(l[1] - 0.75) < 1e-9 && fabs(l[2] - 0.5) < 1e-9,
             "lddt by hand", "%g %g %g (want 0.75 0.75 0.5)", l[0], l[1], l[2]);
    real m[4] = {1, 0, 1, 1};
    pf_lddt_ca_per_residue(4, x, xt, m, PF_LDDT_CA_CUTOFF, l);
    tl_check(fabs(l[0] - 0.5) < 1e-9 && fabs(l[2] - 0.5) < 1e-9, "lddt skips masked residues", "%g %g", l[0], l[2]);
}

// ---------------------------------------------------------------------------
// pLDDT head
// ---------------------------------------------------------------------------
typedef struct {
    pf_plddt_dims d;
    pf_plddt_p p, g;
    real *s, *lddt, *mask;
} plddt_ctx;

static double plddt_loss(void *vc) {
    plddt_ctx *c = vc;
    return cpu_plddt_loss(&c->d, &c->p, c->s, c->lddt, c->mask);
}

static void test_plddt(void) {
    plddt_ctx c = {.d = {.N = 7, .c_s = 6, .c_h = 5, .n_bins = 50}};
    const int64_t N = c.d.N;
    const int nb = c.d.n_bins;
    tl_layernorm(&c.p.ln, &c.g.ln, c.d.c_s, 800);
    tl_linear(&c.p.lin1, &c.g.lin1, c.d.c_h, c.d.c_s, 1, 802);
    tl_linear(&c.p.lin2, &c.g.lin2, c.d.c_h, c.d.c_h, 1, 804);
    tl_linear(&c.p.lin3, &c.g.lin3, nb, c.d.c_h, 1, 806);
    c.s = tl_rand(N * c.d.c_s, 1, 808);
    c.lddt = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) c.lddt[i] = pf_uniform(809, (uint64_t)i);
    c.lddt[1] = 1;  // the top bin
    c.lddt[2] = 0;
    c.mask = tl_mask(N, 0, 0.3, 810);
    c.mask[1] = 1; c.mask[4] = 0;
    // loss against the cross-entropy written out, bins floor(50 lddt) capped at 49
    real *logits = tl_zeros(N * nb), *pl = tl_zeros(N);
    cpu_plddt_fwd(&c.d, &c.p, c.s, logits, pl);
    double num = 0, den = 0, pmin = 100, pmax = 0;
    for (int64_t i = 0; i < N; i++) {
        int t = (int)(c.lddt[i] * nb);
        if (t > nb - 1) t = nb - 1;
        double se = 0;
        for (int b = 0; b < nb; b++) se += exp(logits[i * nb + b]);
        num += c.mask[i] * (log(se) - logits[i * nb + t]);
        den += c.mask[i];
        pmin = fmin(pmin, pl[i]);
        pmax = fmax(pmax, pl[i]);
    }
    double L = plddt_loss(&c), Lr = num / (1e-10 + den);
    tl_check(fabs(L - Lr) < 1e-12 * Lr, "plddt loss vs cross-entropy", "%.15g vs %.15g", L, Lr);
    tl_check(pmin > 1 && pmax < 99, "plddt in (0, 100)", "%g .. %g", pmin, pmax);
    real *ds = tl_zeros(N * c.d.c_s);
    tl_tensors ts = {0};
    tl_add_layernorm(&ts, "plddt.layer_norm", &c.p.ln, &c.g.ln, c.d.c_s);
    tl_add_linear(&ts, "plddt.linear_1", &c.p.lin1, &c.g.lin1, c.d.c_h, c.d.c_s);
    tl_add_linear(&ts, "plddt.linear_2", &c.p.lin2, &c.g.lin2, c.d.c_h, c.d.c_h);
    tl_add_linear(&ts, "plddt.linear_3", &c.p.lin3, &c.g.lin3, nb, c.d.c_h);
    tl_add(&ts, "s", c.s, ds, N * c.d.c_s);
    cpu_plddt_bwd(&c.d, &c.p, &c.g, c.s, c.lddt, c.mask, 1.0, ds);
    tl_gradcheck("plddt", plddt_loss, &c, &ts, 200, TOL);
}

// ---------------------------------------------------------------------------
// PAE head
// ---------------------------------------------------------------------------
typedef struct {
    pf_pae_dims d;
    pf_linear_p p, g;
    real *z, *err, *mask;
} pae_ctx;

static double pae_loss(void *vc) {
    pae_ctx *c = vc;
    return cpu_pae_loss(&c->d, &c->p, c->z, c->err, c->mask);
}

// With W = 0 and a bias that puts all mass on bin k, the loss is ~0 exactly
// when every target is k.
static double pae_loss_at_bin(pae_ctx *c, real err, int k) {
    const int64_t NN = c->d.N * c->d.N;
    pf_linear_p p = {tl_zeros((int64_t)c->d.n_bins * c->d.c_z), tl_zeros(c->d.n_bins)};
    p.b[k] = 60;
    real *e = tl_zeros(NN);
    for (int64_t q = 0; q < NN; q++) e[q] = err;
    return cpu_pae_loss(&c->d, &p, c->z, e, c->mask);
}

static void test_pae(void) {
    pae_ctx c = {.d = {.N = 5, .c_z = 4, .n_bins = 64, .max_bin = 31}};
    const int64_t N = c.d.N;
    const int nb = c.d.n_bins;
    tl_linear(&c.p, &c.g, nb, c.d.c_z, 1, 900);
    c.z = tl_rand(N * N * c.d.c_z, 1, 901);
    real *R = tl_zeros(N * 9), *t = tl_zeros(N * 3), *Rt = tl_zeros(N * 9), *tt = tl_zeros(N * 3);
    rand_frames(N, R, t, 8, 902);
    rand_frames(N, Rt, tt, 8, 904);
    c.err = tl_zeros(N * N);
    pf_aligned_error(N, R, t, Rt, tt, c.err);
    c.mask = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) c.mask[i] = i != 2;
    real ctr[64];
    pf_pae_bin_centers(&c.d, ctr);
    tl_check(ctr[0] == 0.25 && ctr[63] == 31.75, "pae bin centres 0.25 .. 31.75 A", "%g .. %g", ctr[0], ctr[63]);
    double l0 = pae_loss_at_bin(&c, 0, 0), l1 = pae_loss_at_bin(&c, 0.3, 1), l63 = pae_loss_at_bin(&c, 31.2, 63);
    double lw = pae_loss_at_bin(&c, 0.3, 0);
    tl_check(l0 < 1e-20 && l1 < 1e-20 && l63 < 1e-20 && lw > 50, "pae target bins (0 A: 0, 0.3 A: 1, 31.2 A: 63)",
             "%g %g %g, wrong bin %g", l0, l1, l63, lw);
    real *dz = tl_zeros(N * N * c.d.c_z);
    tl_tensors ts = {0};
    tl_add_linear(&ts, "tm.linear", &c.p, &c.g, nb, c.d.c_z);
    tl_add(&ts, "z", c.z, dz, N * N * c.d.c_z);
    cpu_pae_bwd(&c.d, &c.p, &c.g, c.z, c.err, c.mask, 1.0, dz);
    tl_gradcheck("pae", pae_loss, &c, &ts, 300, TOL);
    // masked residue 2: no gradient into its pairs
    double e = 0;
    for (int64_t j = 0; j < N; j++)
        for (int k = 0; k < c.d.c_z; k++) e = fmax(e, fabs(dz[(2 * N + j) * c.d.c_z + k]) + fabs(dz[(j * N + 2) * c.d.c_z + k]));
    tl_check(e == 0, "pae masked pairs get no gradient", "max %.3e", e);
    // pTM with all the mass on the first bin: 1 / (1 + (0.25 / d0)^2), d0 of 19 residues
    real *logits = tl_zeros(N * N * nb), *pae = tl_zeros(N * N);
    for (int64_t q = 0; q < N * N; q++) logits[q * nb] = 80;
    double ptm = pf_pae_ptm(&c.d, logits, c.mask, pae), d0 = 1.24 * cbrt(19 - 15) - 1.8;
    double want = 1 / (1 + (0.25 / d0) * (0.25 / d0)) * 4 / (4 + 1e-8);
    tl_check(fabs(ptm - want) < 1e-12 && fabs(pae[7] - 0.25) < 1e-12, "ptm and pae by hand", "ptm %.15g vs %.15g, pae %g",
             ptm, want, pae[7]);
}

void grad_struct_losses(void) {
    test_fape();
    test_lddt();
    test_plddt();
    test_pae();
}

// ---------------------------------------------------------------------------
// The structure head (src/model/structure.h): names, AF2 initialisation,
// prediction at initialisation, and the gradient of the weighted loss.
// ---------------------------------------------------------------------------
typedef struct {
    pf_structure_head h;
    int64_t N;
    real *s, *z, *seq_mask, *Rt, *tt, *fmask;
    pf_structure_truth truth;
} head_ctx;

static double head_loss(void *vc) {
    head_ctx *c = vc;
    return pf_structure_head_train(&c->h, c->N, c->s, c->z, c->seq_mask, &c->truth, 0, 0, NULL, NULL).loss;
}

// Unit (sin, cos) pairs (N, 7, 2) at random angles; the alternative shifted by pi.
static void rand_torsions(int64_t N, real *a, real *alt, uint64_t seed) {
    for (int64_t k = 0; k < N * PF_NUM_TORSIONS; k++) {
        double th = 6.283185307179586 * pf_uniform(seed, (uint64_t)k);
        a[2 * k] = sin(th); a[2 * k + 1] = cos(th);
        alt[2 * k] = -a[2 * k]; alt[2 * k + 1] = -a[2 * k + 1];
    }
}

typedef struct {
    int64_t N;
    real *ang, *tr, *alt, *tm, *sm;
} tors_ctx;

static double tors_loss(void *vc) {
    tors_ctx *c = vc;
    return cpu_torsion_loss(c->N, c->ang, c->tr, c->alt, c->tm, c->sm, 0, NULL);
}

static void test_torsion(void) {
    tors_ctx c = {.N = 5};
    const int64_t N = c.N, na = N * 2 * PF_NUM_TORSIONS;
    c.tr = tl_zeros(na); c.alt = tl_zeros(na);
    rand_torsions(N, c.tr, c.alt, 990);
    c.tm = tl_mask(N * PF_NUM_TORSIONS, 0, 0.3, 991);
    c.sm = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) c.sm[i] = i != 1;
    // the truth scaled by 1.5 (0.5 off the unit circle) or the alternative: only the norm term
    c.ang = tl_zeros(na);
    for (int64_t k = 0; k < na; k++) c.ang[k] = (real)(1.5 * ((k / 2) % 2 ? c.alt[k] : c.tr[k]));
    double L = tors_loss(&c);
    tl_check(fabs(L - 0.02 * 0.5) < 1e-10, "torsion loss of the truth or its alternative: the norm term only", "%.15g", L);
    real *noise = tl_rand(na, 0.7, 992), *dang = tl_zeros(na);
    for (int64_t k = 0; k < na; k++) c.ang[k] += noise[k];
    tl_tensors ts = {0};
    tl_add(&ts, "angles", c.ang, dang, na);
    cpu_torsion_loss(N, c.ang, c.tr, c.alt, c.tm, c.sm, 1.0, dang);
    tl_gradcheck("torsion", tors_loss, &c, &ts, 200, TOL);
}

static void check_param(const pf_params *P, const char *name, int64_t d0, int64_t d1) {
    const pf_param *t = pf_params_find(P, name);
    tl_check(t && t->shape[0] == d0 && (t->ndim == 1 || t->shape[1] == d1), name, "%s", t ? "wrong shape" : "not declared");
}

void grad_structure_head(void) {
    test_torsion();
    static head_ctx c;
    const int cs = 6, cz = 4;
    c.N = 7;
    pf_structure_head_defaults(&c.h, cs, cz);
    tl_check(c.h.d.n_layers == 8 && c.h.d.ipa.H == 12 && c.h.d.ipa.c == 16 && c.h.d.ipa.Pq == 4 && c.h.d.ipa.Pv == 8 &&
             c.h.d.stop_rot_grad == 1 && c.h.pd.n_bins == 50 && c.h.ad.n_bins == 64 && c.h.ad.max_bin == 31,
             "structure head defaults are AF2's", " ");
    c.h.d.n_layers = 2;
    c.h.d.ipa.H = 2; c.h.d.ipa.c = 3; c.h.d.ipa.Pq = 2; c.h.d.ipa.Pv = 2;
    c.h.pd.c_h = 5;
    c.h.w_pae = 0.1;
    c.h.d.stop_rot_grad = 0;  // the full gradient: central differences see no stop-gradient
    c.h.d.c_resnet = 4; c.h.d.n_resnet_blocks = 1;
    pf_params P;
    pf_params_init_registry(&P);
    pf_structure_head_declare(&c.h, &P);
    pf_params_bind(&P, pf_backend_cpu());
    pf_params_initialise(&P, 5);
    check_param(&P, "structure_module.ipa.linear_q_points.weight", 3 * 2 * 2, cs);
    check_param(&P, "structure_module.ipa.linear_out.weight", cs, 2 * (3 + 4 * 2 + cz));
    check_param(&P, "structure_module.transition.layers.0.linear_3.bias", cs, 0);
    check_param(&P, "structure_module.transition.layer_norm.weight", cs, 0);
    check_param(&P, "structure_module.bb_update.linear.weight", 6, cs);
    check_param(&P, "aux_heads.plddt.linear_3.weight", 50, 5);
    check_param(&P, "aux_heads.tm.linear.weight", 64, cz);
    check_param(&P, "structure_module.angle_resnet.layers.0.linear_2.weight", 4, 4);
    check_param(&P, "structure_module.angle_resnet.linear_out.weight", 14, 4);
    tl_check(!pf_params_find(&P, "structure_module.angle_resnet.layers.1.linear_1.weight"), "one resnet block declared", " ");
    tl_check(fabs(log1p(exp(c.h.p.ipa.head_weights[1])) - 1) < 1e-12, "ipa head_weights start at softplus^-1(1)", "%g",
             c.h.p.ipa.head_weights[1]);
    const int64_t N = c.N;
    c.s = tl_rand(N * cs, 1, 950);
    c.z = tl_rand(N * N * cz, 1, 951);
    c.seq_mask = tl_zeros(N); c.fmask = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) { c.seq_mask[i] = i != 5; c.fmask[i] = i != 5 && i != 2; }
    c.Rt = tl_zeros(N * 9); c.tt = tl_zeros(N * 3);
    rand_frames(N, c.Rt, c.tt, 6, 952);
    const int64_t na = N * 2 * PF_NUM_TORSIONS;
    real *tors = tl_zeros(na), *alt = tl_zeros(na), *tmask = tl_mask(N * PF_NUM_TORSIONS, 0, 0.3, 954);
    rand_torsions(N, tors, alt, 955);
    c.truth = (pf_structure_truth){c.Rt, c.tt, c.fmask, tors, alt, tmask, NULL, NULL, NULL};
    // AF2's zero-initialised outputs: every frame the identity, uniform pLDDT and PAE
    pf_structure_pred pr = {.t = tl_zeros(N * 3), .tors = tl_zeros(na), .plddt = tl_zeros(N), .pae = tl_zeros(N * N)};
    pf_structure_head_predict(&c.h, N, c.s, c.z, c.seq_mask, &pr);
    tl_check(tl_max_abs(pr.t, N * 3) == 0 && fabs(pr.plddt[3] - 50) < 1e-9 && fabs(pr.pae[9] - 16) < 1e-9 && pr.ptm > 0 &&
             pr.ptm < 1 && fabs(pr.tors[4] * pr.tors[4] + pr.tors[5] * pr.tors[5] - 1) < 1e-12,
             "structure head at initialisation", "max|t| %g, plddt %g, pae %g, ptm %g", tl_max_abs(pr.t, N * 3),
             pr.plddt[3], pr.pae[9], pr.ptm);
    // random weights everywhere, then the gradient of the weighted loss
    for (int64_t k = 0; k < P.total; k++) P.data[k] += (real)(0.3 * pf_normal(953, (uint64_t)k));
    real *ds = tl_zeros(N * cs), *dz = tl_zeros(N * N * cz);
    tl_tensors ts = {0};
    tl_add(&ts, "s", c.s, ds, N * cs);
    tl_add(&ts, "z", c.z, dz, N * N * cz);
    tl_add_linear(&ts, "aux_heads.tm.linear", &c.h.pae, &c.h.pae_g, 64, cz);
    tl_add_linear(&ts, "aux_heads.plddt.linear_1", &c.h.pp.lin1, &c.h.pg.lin1, 5, cs);
    tl_add_linear(&ts, "structure_module.bb_update.linear", &c.h.p.bb_update, &c.h.g.bb_update, 6, cs);
    tl_add_linear(&ts, "angle_resnet.linear_initial", &c.h.p.angle.lin_initial, &c.h.g.angle.lin_initial, 4, cs);
    pf_structure_losses o = pf_structure_head_train(&c.h, N, c.s, c.z, c.seq_mask, &c.truth, 0, 1, ds, dz);
    double want = 0.5 * o.fape + 0.5 * o.torsion + 0.01 * o.plddt_loss + 0.1 * o.pae_loss;
    tl_check(fabs(o.loss - want) < 1e-12 && o.fape > 0 && o.torsion > 0 && o.plddt_loss > 0 && o.pae_loss > 0,
             "structure head loss parts",
             "%g vs %g", o.loss, want);
    tl_gradcheck("structure_head", head_loss, &c, &ts, 60, TOL);
    pf_params_free(&P);
}

// Degenerate inputs give finite numbers, no crash: one residue, and every
// residue masked (no resolved frame, no torsion).
void grad_structure_edges(void) {
    static head_ctx c;
    const int cs = 5, cz = 3;
    pf_structure_head_defaults(&c.h, cs, cz);
    c.h.d.n_layers = 2;
    c.h.d.ipa.H = 2; c.h.d.ipa.c = 2; c.h.d.ipa.Pq = 1; c.h.d.ipa.Pv = 2;
    c.h.d.c_resnet = 3; c.h.d.n_resnet_blocks = 1;
    c.h.pd.c_h = 4;
    c.h.w_pae = 0.1;
    pf_params P;
    pf_params_init_registry(&P);
    pf_structure_head_declare(&c.h, &P);
    pf_params_bind(&P, pf_backend_cpu());
    pf_params_initialise(&P, 9);
    for (int64_t k = 0; k < P.total; k++) P.data[k] += (real)(0.3 * pf_normal(960, (uint64_t)k));
    for (int all_masked = 0; all_masked <= 1; all_masked++)
        for (int64_t N = 1; N <= 3; N += 2) {
            const int64_t na = N * 2 * PF_NUM_TORSIONS;
            real *s = tl_rand(N * cs, 1, 961), *z = tl_rand(N * N * cz, 1, 962), *m = tl_zeros(N);
            real *R = tl_zeros(N * 9), *t = tl_zeros(N * 3), *tors = tl_zeros(na), *alt = tl_zeros(na);
            real *tm = tl_zeros(N * PF_NUM_TORSIONS), *ds = tl_zeros(N * cs), *dz = tl_zeros(N * N * cz);
            rand_frames(N, R, t, 5, 963);
            rand_torsions(N, tors, alt, 964);
            for (int64_t i = 0; i < N; i++) m[i] = !all_masked;
            for (int64_t k = 0; k < N * PF_NUM_TORSIONS; k++) tm[k] = !all_masked;
            pf_structure_truth tr = {R, t, m, tors, alt, tm, NULL, NULL, NULL};
            pf_structure_losses o = pf_structure_head_train(&c.h, N, s, z, m, &tr, 10, 1, ds, dz);
            pf_structure_pred pr = {.t = tl_zeros(N * 3), .plddt = tl_zeros(N), .pae = tl_zeros(N * N)};
            pf_structure_head_predict(&c.h, N, s, z, m, &pr);
            int ok = isfinite(o.loss) && isfinite(o.lddt_ca) && isfinite(pr.ptm) && isfinite(tl_max_abs(ds, N * cs)) &&
                     isfinite(tl_max_abs(dz, N * N * cz)) && isfinite(tl_max_abs(pr.t, N * 3)) &&
                     isfinite(tl_max_abs(pr.plddt, N)) && isfinite(tl_max_abs(pr.pae, N * N));
            double gn = 0;
            for (int64_t k = 0; k < P.total; k++) gn += (double)P.grad[k] * P.grad[k];
            char name[96];
            snprintf(name, sizeof name, "structure head N = %lld%s: finite", (long long)N, all_masked ? ", all masked" : "");
            tl_check(ok && isfinite(gn) && (all_masked || o.loss > 0), name, "loss %g, lddt %g, ptm %g, |grad|^2 %g", o.loss,
                     o.lddt_ca, pr.ptm, gn);
        }
    pf_params_free(&P);
}
