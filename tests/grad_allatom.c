// grad_allatom.c: float64 checks of the all-atom construction (AF2 Alg. 24,
// src/cpu/cpu_allatom.c), FAPE over frames and points, and side-chain FAPE
// (src/model/structure_allatom.c): central differences of the backbone frames
// (R as 9 free entries), translations and unnormalised torsions; rigid-motion
// equivariance; the geometry of the placed atoms; points-FAPE against backbone FAPE.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testlib.h"
#include "../src/cpu/cpu_allatom.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/model/structure_atoms.h"
#include "../src/model/structure.h"
#include "../src/core/rng.h"

#define TOL 1e-6
#define NA PF_MAX_RES_ATOMS
#define NG PF_NUM_RIGID_GROUPS

// ARG, TRP, GLY, TYR, unknown, LYS, ILE: every chi count, a pi-periodic chi, no CB.
static int32_t AATYPE[7] = {1, 17, 7, 18, 20, 11, 9};

static void rand_frames(int64_t N, real *R, real *t, double scale, uint64_t seed) {
    real *q = tl_rand(N * 3, 1.5, seed), *tt = tl_rand(N * 3, scale, seed + 1);
    for (int64_t i = 0; i < N; i++) pf_quat_to_rot(q + i * 3, R + i * 9);
    memcpy(t, tt, sizeof(real) * (size_t)(N * 3));
}

typedef struct {
    int64_t N;
    const int32_t *aa;
    real *R, *t, *ang, *wR, *wt, *wx;  // inputs; random weights of the outputs
} aa_ctx;

// sum of the outputs weighted by wR, wt, wx (a scalar whose gradient is the weights)
static double allatom_loss(void *vc) {
    aa_ctx *c = vc;
    const int64_t N = c->N;
    real *gR = tl_zeros(N * NG * 9), *gt = tl_zeros(N * NG * 3), *x = tl_zeros(N * NA * 3);
    cpu_allatom_fwd(N, c->aa, c->R, c->t, c->ang, gR, gt, x);
    return tl_dot(gR, c->wR, N * NG * 9) + tl_dot(gt, c->wt, N * NG * 3) + tl_dot(x, c->wx, N * NA * 3);
}

static void test_allatom_grad(void) {
    aa_ctx c = {.N = 7, .aa = AATYPE};
    const int64_t N = c.N;
    c.R = tl_zeros(N * 9), c.t = tl_zeros(N * 3);
    rand_frames(N, c.R, c.t, 5, 900);
    c.ang = tl_rand(N * 14, 1, 910);
    c.wR = tl_rand(N * NG * 9, 1, 920), c.wt = tl_rand(N * NG * 3, 1, 921), c.wx = tl_rand(N * NA * 3, 1, 922);
    real *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3), *da = tl_zeros(N * 14);
    cpu_allatom_bwd(N, c.aa, c.R, c.t, c.ang, c.wR, c.wt, c.wx, dR, dt, da);
    tl_tensors ts = {0};
    tl_add(&ts, "R", c.R, dR, N * 9);
    tl_add(&ts, "t", c.t, dt, N * 3);
    tl_add(&ts, "angles", c.ang, da, N * 14);
    tl_gradcheck("allatom (Alg. 24)", allatom_loss, &c, &ts, 200, TOL);
    // only the atoms (the path predict and side-chain FAPE use): the frame weights off
    memset(c.wR, 0, sizeof(real) * (size_t)(N * NG * 9));
    memset(c.wt, 0, sizeof(real) * (size_t)(N * NG * 3));
    tl_zero_grads(&ts);
    cpu_allatom_bwd(N, c.aa, c.R, c.t, c.ang, NULL, NULL, c.wx, dR, dt, da);
    tl_gradcheck("allatom atoms only", allatom_loss, &c, &ts, 200, TOL);
}

// Placed atoms: a rigid motion of the backbone frame moves every atom with it;
// (the default frames are stored to 12 digits: rotations to ~1e-12);
// scaling an angle vector changes nothing; the chi frames are rotations; bonded
// distances CA-CB, CB-CG (ARG) and CZ-NH1 are the table's.
static void test_allatom_geometry(void) {
    const int64_t N = 7;
    real *R = tl_zeros(N * 9), *t = tl_zeros(N * 3), *ang = tl_rand(N * 14, 1, 930);
    rand_frames(N, R, t, 5, 931);
    real *gR = tl_zeros(N * NG * 9), *gt = tl_zeros(N * NG * 3), *x = tl_zeros(N * NA * 3), *x2 = tl_zeros(N * NA * 3);
    cpu_allatom_fwd(N, AATYPE, R, t, ang, gR, gt, x);
    real Rg[9], tg[3], *R2 = tl_zeros(N * 9), *t2 = tl_zeros(N * 3), *ang2 = tl_copy(ang, N * 14);
    rand_frames(1, Rg, tg, 5, 932);
    for (int64_t i = 0; i < N; i++) pf_frame_compose(Rg, tg, R + 9 * i, t + 3 * i, R2 + 9 * i, t2 + 3 * i);
    for (int64_t k = 0; k < N * 14; k++) ang2[k] *= 1.7;
    cpu_allatom_fwd(N, AATYPE, R2, t2, ang2, NULL, NULL, x2);
    real *m = tl_zeros(N * NA);
    pf_allatom_mask(N, AATYPE, m);
    double e = 0;
    for (int64_t k = 0; k < N * NA; k++) {
        real y[3];
        if (!m[k]) continue;  // absent slots stay 0
        pf_frame_apply(Rg, tg, x + 3 * k, y);
        for (int a = 0; a < 3; a++) e = fmax(e, fabs(y[a] - x2[3 * k + a]));
    }
    tl_check(e < 1e-12, "allatom: equivariant to a rigid motion, angle scale ignored", "max err %.3g", e);
    double orth = 0;
    for (int64_t f = 0; f < N * NG; f++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double d = 0;
                for (int r = 0; r < 3; r++) d += gR[9 * f + 3 * r + a] * gR[9 * f + 3 * r + b];
                orth = fmax(orth, fabs(d - (a == b)));
            }
    tl_check(orth < 1e-9, "allatom: group frames are rotations", "max |R^T R - I| %.3g", orth);
    const pf_residue_geometry *G = &pf_residue_geometry_table[1];  // ARG, residue 0
    const int cb = pf_rg_atom_index(1, "CB"), cg = pf_rg_atom_index(1, "CG"), cz = pf_rg_atom_index(1, "CZ"),
              nh1 = pf_rg_atom_index(1, "NH1"), ca = 1;
    double d1 = 0, d2 = 0, d3 = 0;
    for (int a = 0; a < 3; a++) {
        d1 += pow(x[3 * ca + a] - x[3 * cb + a], 2);
        d2 += pow(x[3 * cb + a] - x[3 * cg + a], 2);
        d3 += pow(x[3 * cz + a] - x[3 * nh1 + a], 2);
    }
    const double *pcg = G->atoms[cg].pos, *pnh = G->atoms[nh1].pos;  // NH1 and CZ in the chi4 group: CZ is at its table position
    double w3 = sqrt(pow(pnh[0] - G->atoms[cz].pos[0], 2) + pow(pnh[1] - G->atoms[cz].pos[1], 2) + pow(pnh[2] - G->atoms[cz].pos[2], 2));
    tl_check(fabs(sqrt(d1) - 1.53) < 0.02 && fabs(sqrt(d2) - sqrt(pcg[0] * pcg[0] + pcg[1] * pcg[1])) < 1e-9 &&
                 fabs(sqrt(d3) - w3) < 1e-9 && fabs(sqrt(d3) - 1.33) < 0.03,
             "allatom: bond lengths of ARG", "CA-CB %.3f CB-CG %.3f CZ-NH1 %.3f", sqrt(d1), sqrt(d2), sqrt(d3));
    int zero_ok = 1;
    for (int64_t k = 0; k < N * NA; k++)
        if (!m[k]) zero_ok &= x[3 * k] == 0 && x[3 * k + 1] == 0 && x[3 * k + 2] == 0;
    tl_check(m[0 * NA + 10] == 1 && m[0 * NA + 11] == 0 && m[1 * NA + 13] == 1 && m[2 * NA + 4] == 0 && m[4 * NA + 4] == 1 &&
                 m[4 * NA + 5] == 0 && zero_ok, "allatom: atom mask per residue type (ARG 11, TRP 14, GLY 4, UNK 5)", " ");
}

// ---------------------------------------------------------------------------
// FAPE over frames and points
// ---------------------------------------------------------------------------
typedef struct {
    int64_t nF, nX;
    real *R, *t, *Rt, *tt, *fm, *x, *xt, *xm;
    double clamp;
} fp_ctx;

static double fp_loss(void *vc) {
    fp_ctx *c = vc;
    return cpu_fape_points_fwd(c->nF, c->R, c->t, c->Rt, c->tt, c->fm, c->nX, c->x, c->xt, c->xm, c->clamp);
}

static void test_fape_points(void) {
    fp_ctx c = {.nF = 9, .nX = 11};
    c.R = tl_zeros(c.nF * 9), c.t = tl_zeros(c.nF * 3), c.Rt = tl_zeros(c.nF * 9), c.tt = tl_zeros(c.nF * 3);
    rand_frames(c.nF, c.Rt, c.tt, 6, 940);
    rand_frames(c.nF, c.R, c.t, 6, 941);
    c.xt = tl_rand(c.nX * 3, 6, 942), c.x = tl_rand(c.nX * 3, 3, 943);
    for (int64_t k = 0; k < c.nX * 3; k++) c.x[k] += c.xt[k];
    c.fm = tl_mask(c.nF, 0, 0.3, 944), c.xm = tl_mask(c.nX, 0, 0.3, 945);
    c.fm[0] = c.xm[0] = 1, c.fm[1] = c.xm[1] = 0;
    for (int clamped = 1; clamped >= 0; clamped--) {
        c.clamp = clamped ? PF_FAPE_CLAMP : 0;
        real *dR = tl_zeros(c.nF * 9), *dt = tl_zeros(c.nF * 3), *dx = tl_zeros(c.nX * 3);
        cpu_fape_points_bwd(c.nF, c.R, c.t, c.Rt, c.tt, c.fm, c.nX, c.x, c.xt, c.xm, c.clamp, 1.0, dR, dt, dx);
        tl_tensors ts = {0};
        tl_add(&ts, "R", c.R, dR, c.nF * 9);
        tl_add(&ts, "t", c.t, dt, c.nF * 3);
        tl_add(&ts, "x", c.x, dx, c.nX * 3);
        tl_gradcheck(clamped ? "fape_points" : "fape_points_unclamped", fp_loss, &c, &ts, 200, TOL);
    }
    // with the frames' own origins as the points it is backbone FAPE
    const int64_t N = 7;
    double a = cpu_fape_points_fwd(N, c.R, c.t, c.Rt, c.tt, c.fm, N, c.t, c.tt, c.fm, 10);
    double b = cpu_fape_fwd(N, c.R, c.t, c.Rt, c.tt, c.fm, 10);
    tl_check(fabs(a - b) < 1e-12 * fabs(b), "fape_points = backbone FAPE on the frames' origins", "%.15g vs %.15g", a, b);
}

// ---------------------------------------------------------------------------
// Side-chain FAPE: Alg. 24, renaming, true frames, FAPE, backward
// ---------------------------------------------------------------------------
typedef struct {
    int64_t N;
    real *R, *t, *ang, *tx, *tm, *seq;
} sc_ctx;

static double sc_loss(void *vc) {
    sc_ctx *c = vc;
    return pf_sidechain_fape(c->N, AATYPE, c->R, c->t, c->ang, c->tx, c->tm, c->seq, PF_FAPE_CLAMP, 0, NULL, NULL, NULL);
}

static void test_sidechain_fape(void) {
    sc_ctx c = {.N = 7};
    const int64_t N = c.N;
    c.R = tl_zeros(N * 9), c.t = tl_zeros(N * 3), c.tx = tl_zeros(N * NA * 3), c.tm = tl_zeros(N * NA);
    // the truth: atoms built from other frames and torsions, moved by up to 0.3 A, one atom missing
    real *Rt = tl_zeros(N * 9), *tt = tl_zeros(N * 3), *at = tl_rand(N * 14, 1, 950);
    rand_frames(N, Rt, tt, 4, 951);
    for (int64_t i = 0; i < N; i++) tt[3 * i] += 3.8 * (double)i;
    cpu_allatom_fwd(N, AATYPE, Rt, tt, at, NULL, NULL, c.tx);
    real *noise = tl_rand(N * NA * 3, 0.1, 952);
    for (int64_t k = 0; k < N * NA * 3; k++) c.tx[k] += noise[k];
    pf_allatom_mask(N, AATYPE, c.tm);
    c.tm[1 * NA + 8] = 0;
    c.seq = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) c.seq[i] = i != 5;
    // the prediction: near the truth (some pairs inside the clamp, some outside)
    real *q = tl_rand(N * 3, 0.3, 953);
    for (int64_t i = 0; i < N; i++) {
        real Rq[9], tq[3] = {0, 0, 0};
        pf_quat_to_rot(q + 3 * i, Rq);
        pf_frame_compose(Rt + 9 * i, tt + 3 * i, Rq, tq, c.R + 9 * i, c.t + 3 * i);
    }
    real *dtr = tl_rand(N * 3, 2, 954), *dang = tl_rand(N * 14, 0.4, 955);
    for (int64_t k = 0; k < N * 3; k++) c.t[k] += dtr[k];
    c.ang = tl_copy(at, N * 14);
    for (int64_t k = 0; k < N * 14; k++) c.ang[k] += dang[k];
    real *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3), *da = tl_zeros(N * 14);
    double L = pf_sidechain_fape(N, AATYPE, c.R, c.t, c.ang, c.tx, c.tm, c.seq, PF_FAPE_CLAMP, 1.0, dR, dt, da);
    tl_check(L > 0.05 && L < 1, "side-chain FAPE in range", "%g", L);
    tl_tensors ts = {0};
    tl_add(&ts, "R", c.R, dR, N * 9);
    tl_add(&ts, "t", c.t, dt, N * 3);
    tl_add(&ts, "angles", c.ang, da, N * 14);
    tl_gradcheck("sidechain_fape", sc_loss, &c, &ts, 200, TOL);
    // the true frames and torsions of atoms built without noise give sqrt(eps) / 10
    real *tx0 = tl_zeros(N * NA * 3), *m0 = tl_zeros(N * NA);
    cpu_allatom_fwd(N, AATYPE, Rt, tt, at, NULL, NULL, tx0);
    pf_allatom_mask(N, AATYPE, m0);
    double L0 = pf_sidechain_fape(N, AATYPE, Rt, tt, at, tx0, m0, NULL, PF_FAPE_CLAMP, 0, NULL, NULL, NULL);
    tl_check(fabs(L0 - 1e-3) < 1e-6, "side-chain FAPE of the truth is sqrt(eps) / 10", "%.9g", L0);
    // renaming: TYR (residue 3) with its ring atoms swapped in the truth is renamed back
    real *sw = tl_copy(tx0, N * NA * 3);
    int a = pf_rg_atom_index(18, "CD1"), b = pf_rg_atom_index(18, "CD2");
    for (int e = 0; e < 3; e++) {
        real v = sw[(3 * NA + a) * 3 + e];
        sw[(3 * NA + a) * 3 + e] = sw[(3 * NA + b) * 3 + e];
        sw[(3 * NA + b) * 3 + e] = v;
    }
    a = pf_rg_atom_index(18, "CE1"), b = pf_rg_atom_index(18, "CE2");
    for (int e = 0; e < 3; e++) {
        real v = sw[(3 * NA + a) * 3 + e];
        sw[(3 * NA + a) * 3 + e] = sw[(3 * NA + b) * 3 + e];
        sw[(3 * NA + b) * 3 + e] = v;
    }
    real *m1 = tl_copy(m0, N * NA);
    int n = pf_rename_symmetric(N, AATYPE, tx0, sw, m1);
    tl_check(n == 1 && tl_max_abs_diff(sw, tx0, N * NA * 3) < 1e-12, "renaming restores swapped TYR ring atoms", "%d renamed", n);
}

// ---------------------------------------------------------------------------
// The structure head with side-chain truth: loss parts and the gradient of the
// weighted loss (side-chain FAPE through the last layer's frames and angles)
// ---------------------------------------------------------------------------
typedef struct {
    pf_structure_head h;
    int64_t N;
    real *s, *z, *seq_mask;
    pf_structure_truth truth;
} head_ctx;

static double head_loss(void *vc) {
    head_ctx *c = vc;
    return pf_structure_head_eval(&c->h, c->N, c->s, c->z, c->seq_mask, &c->truth, 0, NULL).loss;
}

static void test_head_sidechain(void) {
    static head_ctx c;
    const int cs = 6, cz = 4;
    const int64_t N = c.N = 7;
    pf_structure_head_defaults(&c.h, cs, cz);
    tl_check(c.h.w_sidechain == 0.5, "side-chain FAPE weight is AF2's 0.5", "%g", c.h.w_sidechain);
    c.h.d.n_layers = 2;
    c.h.d.ipa.H = 2; c.h.d.ipa.c = 3; c.h.d.ipa.Pq = 2; c.h.d.ipa.Pv = 2;
    c.h.pd.c_h = 5;
    c.h.d.stop_rot_grad = 0;  // the full gradient: central differences see no stop-gradient
    c.h.d.c_resnet = 4; c.h.d.n_resnet_blocks = 1;
    pf_params P;
    pf_params_init_registry(&P);
    pf_structure_head_declare(&c.h, &P);
    pf_params_bind(&P, pf_backend_cpu());
    pf_params_initialise(&P, 5);
    for (int64_t k = 0; k < P.total; k++) P.data[k] += (real)(0.3 * pf_normal(970, (uint64_t)k));
    c.s = tl_rand(N * cs, 1, 971), c.z = tl_rand(N * N * cz, 1, 972), c.seq_mask = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) c.seq_mask[i] = i != 5;
    // truth: atoms of random frames (3.8 A apart) and torsions, with its frames and chi
    // targets (ARG 4 + TRP 2 + TYR 2 + LYS 4 + ILE 2 = 14 chi angles)
    real *Rt = tl_zeros(N * 9), *tt = tl_zeros(N * 3), *at = tl_rand(N * 14, 1, 973), *x = tl_zeros(N * NA * 3);
    rand_frames(N, Rt, tt, 2, 974);
    for (int64_t i = 0; i < N; i++) tt[3 * i] += 3.8 * (double)i;
    cpu_allatom_fwd(N, AATYPE, Rt, tt, at, NULL, NULL, x);
    real *m = tl_zeros(N * NA), *gR = tl_zeros(N * NG * 9), *gt = tl_zeros(N * NG * 3), *gm = tl_zeros(N * NG);
    real *tors = tl_zeros(N * 14), *alt = tl_zeros(N * 14), *tm = tl_zeros(N * 7), *R = tl_zeros(N * 9), *t = tl_zeros(N * 3);
    real *fm = tl_zeros(N);
    pf_allatom_mask(N, AATYPE, m);
    pf_truth_from_atoms(N, AATYPE, x, m, NULL, gR, gt, gm, tors, alt, tm);
    for (int64_t i = 0; i < N; i++) {
        memcpy(R + 9 * i, gR + i * NG * 9, sizeof(real) * 9);
        memcpy(t + 3 * i, gt + i * NG * 3, sizeof(real) * 3);
        fm[i] = gm[i * NG] * c.seq_mask[i];
    }
    double chi = 0;
    for (int64_t k = 0; k < N * 7; k++) chi += (k % 7 >= 3) * tm[k];
    tl_check(chi == 14 && gm[0 * NG + 7] == 1 && gm[2 * NG + 4] == 0 && gm[1 * NG + PF_RG_PHI] == 0,
             "truth from atoms: chi targets and group frames", "%g chi", chi);
    c.truth = (pf_structure_truth){R, t, fm, tors, alt, tm, AATYPE, x, m};
    real *ds = tl_zeros(N * cs), *dz = tl_zeros(N * N * cz);
    tl_tensors ts = {0};
    tl_add(&ts, "s", c.s, ds, N * cs);
    tl_add_linear(&ts, "structure_module.bb_update.linear", &c.h.p.bb_update, &c.h.g.bb_update, 6, cs);
    tl_add_linear(&ts, "angle_resnet.linear_out", &c.h.p.angle.lin_out, &c.h.g.angle.lin_out, 14, 4);
    pf_structure_losses o = pf_structure_head_train(&c.h, N, c.s, c.z, c.seq_mask, &c.truth, 0, 1, ds, dz);
    double want = 0.5 * o.fape + 0.5 * o.torsion + 0.01 * o.plddt_loss + 0.5 * o.sidechain_fape;
    tl_check(fabs(o.loss - want) < 1e-12 && o.sidechain_fape > 0.1, "structure head loss with side-chain FAPE",
             "%g vs %g, side-chain FAPE %g", o.loss, want, o.sidechain_fape);
    tl_gradcheck("structure_head_sidechain", head_loss, &c, &ts, 60, TOL);
    pf_params_free(&P);
}

void grad_allatom(void) {
    test_allatom_grad();
    test_allatom_geometry();
    test_fape_points();
    test_sidechain_fape();
    test_head_sidechain();
}
