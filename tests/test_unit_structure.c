// test_unit_structure: the structure module's pieces working together in the
// float32 build, on a bundled protein: the truth (backbone frames and torsions)
// from its atoms against independent formulas, then the structure head
// (src/model/structure.h: module, angle resnet, FAPE, torsion with chi targets,
// side-chain FAPE, pLDDT and PAE losses, AF2's initialisation) trained alone
// with Adam on fixed random s and z. FAPE, side-chain FAPE and the torsion loss
// must fall, lDDT-Ca rise, the pLDDT loss fall.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "testlib.h"
#include "../src/model/structure.h"
#include "../src/model/structure_truth.h"
#include "../src/model/structure_atoms.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/data/structure.h"
#include "../src/core/rng.h"
#include "../src/model/model.h"
#include "../src/optim/optim.h"
#include "../src/train/synthetic.h"

enum { NRES = 32, CS = 16, CZ = 8, STEPS = 400 };

// The textbook dihedral of four points (IUPAC sign), radians.
static double dihedral(const float *a, const float *b, const float *c, const float *d) {
    double b1[3], b2[3], b3[3], n1[3], n2[3], m[3];
    for (int e = 0; e < 3; e++) { b1[e] = b[e] - a[e]; b2[e] = c[e] - b[e]; b3[e] = d[e] - c[e]; }
#define CROSS(u, v, w) (w[0] = u[1] * v[2] - u[2] * v[1], w[1] = u[2] * v[0] - u[0] * v[2], w[2] = u[0] * v[1] - u[1] * v[0])
    CROSS(b1, b2, n1);
    CROSS(b2, b3, n2);
    CROSS(n1, b2, m);
    double nb2 = sqrt(b2[0] * b2[0] + b2[1] * b2[1] + b2[2] * b2[2]);
    double x = n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2], y = (m[0] * n2[0] + m[1] * n2[1] + m[2] * n2[2]) / nb2;
    return atan2(-y, x);
}

static double angle_diff(double a, double b) { return fabs(remainder(a - b, 2 * M_PI)); }

// The chain's backbone as a batch holds it (real coordinates, int32 atom bits).
static real *bb_xyz(const pf_chain *ch, int32_t **mask) {
    real *x = tl_zeros((int64_t)ch->n * 15);
    *mask = malloc(sizeof(int32_t) * (size_t)ch->n);
    for (int64_t k = 0; k < (int64_t)ch->n * 15; k++) x[k] = ch->xyz[k];
    for (int i = 0; i < ch->n; i++) (*mask)[i] = ch->atom_mask[i];
    return x;
}

// The chain's true frames and torsions (model/structure_truth.h) from its backbone.
typedef struct { int32_t *am; real *bx, *R, *t, *fm, *tors, *alt, *tm; } chain_truth;
static chain_truth truth_of(const pf_chain *ch) {
    const int64_t N = ch->n;
    chain_truth c;
    c.bx = bb_xyz(ch, &c.am);
    c.R = tl_zeros(N * 9), c.t = tl_zeros(N * 3), c.fm = tl_zeros(N), c.tors = tl_zeros(N * 14), c.alt = tl_zeros(N * 14);
    c.tm = tl_zeros(N * 7);
    pf_truth_from_backbone(N, c.bx, c.am, NULL, c.R, c.t, c.fm, c.tors, c.alt, c.tm);
    return c;
}

// Every heavy atom placed from the true backbone frame and the true torsions
// (model/structure_atoms.h, AF2 Alg. 24 with the measured ideal geometry: what
// predict writes) against the protein's own atoms, over the residues with every
// heavy atom. Ideal geometry differs from a real residue by bond-angle noise
// that grows along the side chain (tools/gen_residue_geometry.py --check: per
// atom type 0.03-0.7 A over its 2548 residues; 1CTF: all heavy atoms 0.28 A,
// beyond CB 0.48 A, the worst residue a lysine whose NZ is 2.3 A off; 1UBI:
// 0.17 / 0.27 A). A chi off by 0.5 rad moves the
// atoms after it by more than 1 A: the same placement must then fail. The pi-shifted
// chi of symmetric side chains places the same atoms with their names swapped.
static double place_rmsd(const pf_chain *ch, const real *tors_all, double chi_shift, double *sc_rmsd, int *n_res,
                         double *worst_res) {
    const int64_t N = ch->n;
    real *x = tl_zeros(N * PF_MAX_RES_ATOMS * 3), *m = tl_zeros(N * PF_MAX_RES_ATOMS);
    real *gR = tl_zeros(N * 72), *gt = tl_zeros(N * 24), *gm = tl_zeros(N * 8);
    real *tors = tl_zeros(N * 14), *alt = tl_zeros(N * 14), *tm = tl_zeros(N * 7);
    int32_t *aa = malloc(sizeof(int32_t) * (size_t)N);
    for (int64_t i = 0; i < N; i++) {
        aa[i] = ch->tok[i];
        pf_chain_residue_atoms(ch, (int)i, x + i * PF_MAX_RES_ATOMS * 3, m + i * PF_MAX_RES_ATOMS);
    }
    pf_truth_from_atoms(N, aa, x, m, NULL, gR, gt, gm, tors, alt, tm);
    if (tors_all) memcpy(tors, tors_all, sizeof(real) * (size_t)(N * 14));
    double s2 = 0, sc2 = 0;
    int n = 0, nsc = 0;
    *n_res = 0, *worst_res = 0;
    for (int64_t i = 0; i < N; i++) {
        const pf_residue_geometry *G = &pf_residue_geometry_table[aa[i] < 21 ? aa[i] : 20];
        int full = aa[i] < 20 && gm[i * 8] && tm[i * 7 + 2];
        for (int a = 0; a < G->n_atoms; a++) full = full && m[i * PF_MAX_RES_ATOMS + a];
        for (int k = 0; k < G->n_chi; k++) full = full && tm[i * 7 + 3 + k];
        if (!full) continue;
        real t7[14], y[PF_MAX_RES_ATOMS][3];
        memcpy(t7, tors + 14 * i, sizeof t7);
        if (chi_shift != 0 && G->n_chi > 0) {  // chi1 + shift
            double c = atan2(t7[6], t7[7]) + chi_shift;
            t7[6] = (real)sin(c), t7[7] = (real)cos(c);
        }
        pf_residue_atoms(gR + 72 * i, gt + 24 * i, t7, aa[i], y);
        double r2 = 0;
        for (int a = 0; a < G->n_atoms; a++) {
            const real *xt = x + (i * PF_MAX_RES_ATOMS + a) * 3;
            double d2 = pow(y[a][0] - xt[0], 2) + pow(y[a][1] - xt[1], 2) + pow(y[a][2] - xt[2], 2);
            s2 += d2, r2 += d2, n++;
            if (a > PF_AT_CB) sc2 += d2, nsc++;
        }
        *worst_res = fmax(*worst_res, sqrt(r2 / G->n_atoms));
        (*n_res)++;
    }
    *sc_rmsd = sqrt(sc2 / (nsc ? nsc : 1));
    free(aa);
    return sqrt(s2 / (n ? n : 1));
}

static void test_atoms(const pf_chain *ch) {
    const int64_t N = ch->n;
    double sc, worst, sc_b, worst_b;
    int n, n_b;
    double all = place_rmsd(ch, NULL, 0, &sc, &n, &worst);
    tl_check(n > N - 10 && all < 0.3 && sc < 0.5, "every heavy atom from the true frames and torsions",
             "%s: %d residues; RMSD all heavy atoms %.3f A, side chain beyond CB %.3f A, worst residue %.3f A",
             ch->id, n, all, sc, worst);
    double bad = place_rmsd(ch, NULL, 0.5, &sc_b, &n_b, &worst_b);
    tl_check(sc_b > 1.0 && sc_b > 2 * sc && bad > all + 0.2, "a chi1 off by 0.5 rad is seen", "side chain %.3f A, all %.3f A", sc_b, bad);
}

// The pi-periodic chi: ASP / GLU / PHE / TYR placed with tors_alt put OD1 where
// the file has OD2 (and so on); the other atoms stay put.
static void test_atoms_alt(const pf_chain *ch) {
    const int64_t N = ch->n;
    real *x = tl_zeros(N * PF_MAX_RES_ATOMS * 3), *m = tl_zeros(N * PF_MAX_RES_ATOMS);
    real *gR = tl_zeros(N * 72), *gt = tl_zeros(N * 24), *gm = tl_zeros(N * 8);
    real *tors = tl_zeros(N * 14), *alt = tl_zeros(N * 14), *tm = tl_zeros(N * 7);
    int32_t *aa = malloc(sizeof(int32_t) * (size_t)N);
    for (int64_t i = 0; i < N; i++) {
        aa[i] = ch->tok[i];
        pf_chain_residue_atoms(ch, (int)i, x + i * PF_MAX_RES_ATOMS * 3, m + i * PF_MAX_RES_ATOMS);
    }
    pf_truth_from_atoms(N, aa, x, m, NULL, gR, gt, gm, tors, alt, tm);
    double worst = 0;
    int seen = 0;
    for (int64_t i = 0; i < N; i++) {
        const pf_residue_geometry *G = &pf_residue_geometry_table[aa[i] < 21 ? aa[i] : 20];
        if (!G->pi_periodic_chi || !gm[i * 8] || !tm[i * 7 + 2 + G->pi_periodic_chi]) continue;
        real y[PF_MAX_RES_ATOMS][3];
        pf_residue_atoms(gR + 72 * i, gt + 24 * i, alt + 14 * i, aa[i], y);
        int perm[PF_MAX_RES_ATOMS];
        for (int a = 0; a < PF_MAX_RES_ATOMS; a++) perm[a] = a;
        for (int s = 0; s < 2 && G->swaps[s][0][0]; s++) {
            int p = pf_rg_atom_index(aa[i], G->swaps[s][0]), q = pf_rg_atom_index(aa[i], G->swaps[s][1]);
            perm[p] = q, perm[q] = p;
        }
        for (int a = 0; a < G->n_atoms; a++) {
            if (!m[i * PF_MAX_RES_ATOMS + perm[a]]) continue;
            const real *xt = x + (i * PF_MAX_RES_ATOMS + perm[a]) * 3;
            worst = fmax(worst, sqrt(pow(y[a][0] - xt[0], 2) + pow(y[a][1] - xt[1], 2) + pow(y[a][2] - xt[2], 2)));
        }
        seen++;
    }
    tl_check(seen > 3 && worst < 1.0, "the pi-shifted chi places the swapped atoms", "%d residues, worst atom %.3f A", seen,
             worst);
    free(aa);
}

// Frames and torsions of the whole first chain against the dihedral formula.
static void test_truth(const pf_chain *ch) {
    const int64_t N = ch->n;
    chain_truth tr = truth_of(ch);
    int32_t *am = tr.am;
    real *bx = tr.bx, *R = tr.R, *t = tr.t, *fm = tr.fm, *tors = tr.tors, *alt = tr.alt, *tm = tr.tm;
    double e = 0;
    int n[3] = {0, 0, 0}, helix_phi = 0;
    for (int64_t i = 1; i < N; i++) {
        const float *x = ch->xyz + i * PF_NUM_BB * 3, *p = x - PF_NUM_BB * 3;
        const float *N_ = x, *CA = x + 3, *C = x + 6, *O = x + 9, *pCA = p + 3, *pC = p + 6;
        double want[3] = {dihedral(pCA, pC, N_, CA), dihedral(pC, N_, CA, C), dihedral(N_, CA, C, O) + M_PI};
        for (int k = 0; k < 3; k++) {
            if (!tm[i * 7 + k]) continue;
            n[k]++;
            e = fmax(e, angle_diff(atan2(tors[i * 14 + 2 * k], tors[i * 14 + 2 * k + 1]), want[k]));
        }
        helix_phi += tm[i * 7 + 1] && want[1] < 0;
    }
    double chi = 0;
    for (int64_t k = 0; k < N * 7; k++) chi += (k % 7 >= 3) * tm[k];
    tl_check(e < 1e-4 && n[0] > N - 8 && n[1] > N - 8 && n[2] > N - 8 && chi == 0 && helix_phi > N / 2,
             "backbone torsions vs the dihedral formula", "max err %.2e rad, %d/%d/%d torsions, %d negative phi", e, n[0],
             n[1], n[2], helix_phi);
    tl_check(!memcmp(tors, alt, sizeof(real) * (size_t)(N * 14)), "no ambiguous torsion without side chains", " ");
    // a chain starting at residue 10: no pre-omega or phi there (no previous residue)
    int32_t *chain = malloc(sizeof(int32_t) * (size_t)N);
    for (int64_t i = 0; i < N; i++) chain[i] = i >= 10;
    pf_truth_from_backbone(N, bx, am, chain, R, t, fm, tors, alt, tm);
    tl_check(tm[10 * 7] == 0 && tm[10 * 7 + 1] == 0 && tm[10 * 7 + 2] == 1 && tm[11 * 7 + 1] == 1 && tm[0] == 0,
             "torsions across a chain break are masked", " ");
    free(chain);
    free(am);
}

static double train(const pf_chain *ch) {
    const int64_t N = NRES;
    real R[NRES * 9], t[NRES * 3], fm[NRES], tors[NRES * 14], alt[NRES * 14], tm[NRES * 7];
    int32_t *am;
    real *bx = bb_xyz(ch, &am);
    pf_truth_from_backbone(N, bx, am, NULL, R, t, fm, tors, alt, tm);
    free(am);
    // every heavy atom: chi targets (torsion loss) and side-chain FAPE
    real *ax = tl_zeros(N * PF_MAX_RES_ATOMS * 3), *amask = tl_zeros(N * PF_MAX_RES_ATOMS);
    real *gR = tl_zeros(N * 72), *gt = tl_zeros(N * 24), *gm = tl_zeros(N * 8);
    int32_t aa[NRES];
    for (int64_t i = 0; i < N; i++) {
        aa[i] = ch->tok[i];
        pf_chain_residue_atoms(ch, (int)i, ax + i * PF_MAX_RES_ATOMS * 3, amask + i * PF_MAX_RES_ATOMS);
    }
    pf_truth_from_atoms(N, aa, ax, amask, NULL, gR, gt, gm, tors, alt, tm);
    pf_structure_head h;
    pf_structure_head_defaults(&h, CS, CZ);
    h.d.n_layers = 4;
    h.d.ipa.H = 4; h.d.ipa.c = 8;
    h.d.c_resnet = 16;
    h.pd.c_h = 16;
    h.w_pae = 0.1;
    pf_params P;
    pf_params_init_registry(&P);
    pf_structure_head_declare(&h, &P);
    pf_params_bind(&P, pf_backend_cpu());
    pf_params_initialise(&P, 1);
    real *m = tl_zeros(P.total), *v = tl_zeros(P.total), *s = tl_rand(N * CS, 1, 1), *z = tl_rand(N * N * CZ, 1, 2);
    real *seq = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) seq[i] = 1;
    pf_structure_truth truth = {R, t, fm, tors, alt, tm, aa, ax, amask};
    pf_structure_losses first = {0}, o = {0};
    double pl_tail = 0;
    for (int step = 1; step <= STEPS; step++) {
        pf_params_zero_grad(&P);
        o = pf_structure_head_train(&h, N, s, z, seq, &truth, PF_FAPE_CLAMP, 1.0, NULL, NULL);
        if (step == 1) first = o;
        if (step > STEPS - 30) pl_tail += o.plddt_loss / 30;  // its target moves with the structure: average
        if (getenv("PF_TEST_VERBOSE") && step % 20 == 0)
            printf("step %3d fape %.4f torsion %.4f lddt %.4f plddt %.4f pae %.4f side-chain fape %.4f\n", step, o.fape,
                   o.torsion, o.lddt_ca, o.plddt_loss, o.pae_loss, o.sidechain_fape);
        for (int64_t k = 0; k < P.total; k++) {  // Adam, lr 5e-3
            double g = P.grad[k], b1t = 1 - pow(0.9, step), b2t = 1 - pow(0.999, step);
            m[k] = (real)(0.9 * m[k] + 0.1 * g);
            v[k] = (real)(0.999 * v[k] + 0.001 * g * g);
            P.data[k] -= (real)(5e-3 * (m[k] / b1t) / (sqrt(v[k] / b2t) + 1e-8));
        }
    }
    tl_check(isfinite(o.loss) && o.fape < 0.6 * first.fape, "structure head trained: FAPE falls", "%.4f -> %.4f",
             first.fape, o.fape);
    tl_check(o.torsion < 0.5 * first.torsion, "torsion loss (with chi) falls", "%.4f -> %.4f", first.torsion, o.torsion);
    tl_check(o.sidechain_fape < 0.7 * first.sidechain_fape, "side-chain FAPE falls", "%.4f -> %.4f", first.sidechain_fape,
             o.sidechain_fape);
    tl_check(o.lddt_ca > first.lddt_ca + 0.3, "lDDT-Ca of the last layer rises", "%.4f -> %.4f", first.lddt_ca, o.lddt_ca);
    tl_check(pl_tail < first.plddt_loss - 0.3, "pLDDT loss falls", "%.4f -> %.4f (mean of the last 30 steps)",
             first.plddt_loss, pl_tail);
    tl_check(o.pae_loss < first.pae_loss - 0.3, "PAE loss falls", "%.4f -> %.4f", first.pae_loss, o.pae_loss);
    pf_params_free(&P);
    return o.fape;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The whole model (tiny preset, structure_module=1, its own AdamW and schedule)
// overfits one synthetic example whose backbone is built around its CA trace:
// the structure module learns through the trunk (FAPE falls, lDDT-Ca rises).
static void test_model_overfit(void) {
    enum { STEPS_M = 120 };
    pf_config cfg;
    pf_config_preset(&cfg, "tiny");
    cfg.structure_module = 1;
    cfg.sm_layers = 3;
    cfg.crop_size = 24;
    pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
    pf_optim o;
    pf_optim_init(&o, &M->P);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 1, 0, &b);
    for (int i = 0; i < b.N; i++) {  // N toward the previous CA, C toward the next, O off C
        real *x = b.backbone_xyz + (int64_t)i * 15;
        const real *ca = b.pseudo_beta + 3 * i;
        int ip = i > 0 ? i - 1 : i + 1, in = i < b.N - 1 ? i + 1 : i - 1;
        for (int e = 0; e < 3; e++) {
            x[3 + e] = ca[e];
            x[e] = ca[e] + (real)0.38 * (b.pseudo_beta[3 * ip + e] - ca[e]) + (real)(0.3 * (e == 2));
            x[6 + e] = ca[e] + (real)0.40 * (b.pseudo_beta[3 * in + e] - ca[e]);
            x[9 + e] = x[6 + e] + (real)(0.5 * (e == 1));
        }
        b.backbone_mask[i] = 15;
    }
    double fape[STEPS_M], lddt0 = 0, lddt = 0;
    for (int step = 1; step <= STEPS_M; step++) {
        pf_params_zero_grad(&M->P);
        pf_step_result r = pf_model_train_step(M, &b, step);
        double lr;
        pf_optim_step(&o, &cfg, &lr);
        fape[step - 1] = r.fape;
        if (step == 1) lddt0 = r.lddt_ca;
        if (step > STEPS_M - 20) lddt += r.lddt_ca / 20;
    }
    double f0 = fape[0], tail[21];
    memcpy(tail, fape + STEPS_M - 21, sizeof tail);
    qsort(tail, 21, sizeof(double), cmp_double);  // median: 10% of the steps use unclamped FAPE
    tl_check(tail[10] < 0.8 * f0 && lddt > lddt0 + 0.3, "whole model with the structure module overfits one example",
             "fape %.3f -> %.3f (median of the last 21), lDDT-Ca %.3f -> %.3f (last 20)", f0, tail[10], lddt0, lddt);
    pf_batch_free(&b);
    src->destroy(src);
    pf_optim_free(&o);
    pf_model_free(M);
}

int main(void) {
    omp_set_num_threads(1);  // tiny sizes: parallel regions would cost more than the work
    pf_structure st;
    char err[256];
    if (pf_read_structure("data/structures/1CTF_A_domain.pdb.gz", &st, err, sizeof err)) {
        tl_check(0, "read data/structures/1CTF_A_domain.pdb.gz", "%s", err);
        return tl_finish();
    }
    const pf_chain *ch = &st.chains[0];
    tl_check(ch->n >= NRES, "bundled chain long enough", "%d residues", ch->n);
    if (ch->n >= NRES) {
        test_truth(ch);
        test_atoms(ch);
        test_atoms_alt(ch);
        train(ch);
    }
    pf_structure_free(&st);
    if (pf_read_structure("data/structures/1UBI.pdb.gz", &st, err, sizeof err) == 0) {  // 1.8 A ubiquitin
        test_atoms(&st.chains[0]);
        test_atoms_alt(&st.chains[0]);
        pf_structure_free(&st);
    } else {
        tl_check(0, "read data/structures/1UBI.pdb.gz", "%s", err);
    }
    test_model_overfit();
    return tl_finish();
}
