// structure_allatom.c: the all-atom truth (group frames, chi angles), the
// renaming of symmetric atoms and side-chain FAPE (structure_atoms.h).
#include "structure_atoms.h"
#include <math.h>
#include <string.h>
#include "structure_truth.h"
#include "../core/util.h"
#include "../cpu/cpu_allatom.h"
#include "../cpu/cpu_structure.h"

#define NA PF_MAX_RES_ATOMS
#define NG PF_NUM_RIGID_GROUPS

static const pf_residue_geometry *geom(int32_t tok) {
    return &pf_residue_geometry_table[tok >= 0 && tok < PF_NUM_RESTYPES ? tok : PF_NUM_RESTYPES - 1];
}

// The frame with origin p2, x along p2 - p1 and p3 in its xy plane (y > 0):
// the frame of a group whose torsion is (p0, p1, p2, p3). 0, or -1 if degenerate.
static int group_frame(const real *p1, const real *p2, const real *p3, real *R, real *t) {
    real far[3];
    for (int e = 0; e < 3; e++) far[e] = 2 * p2[e] - p1[e];
    return pf_frame_from_3_points(p3, p2, far, R, t);
}

// Dihedral of four points as structure_truth.c measures it: unit (sin, cos); 0 if degenerate.
static int torsion(const real *p0, const real *p1, const real *p2, const real *p3, real *sc) {
    real R[9], t[3], l[3];
    if (group_frame(p1, p2, p0, R, t)) return 0;
    pf_frame_invert_apply(R, t, p3, l);
    double n = sqrt(l[1] * l[1] + l[2] * l[2]);
    if (n < 1e-6) return 0;
    sc[0] = (real)(l[2] / n);
    sc[1] = (real)(l[1] / n);
    return 1;
}

// Backbone, psi and chi frames of residue i (x (14, 3), m (14)).
static void residue_group_frames(const pf_residue_geometry *G, const real *x, const real *m, real *R, real *t,
                                 real *gm) {
    memset(gm, 0, sizeof(real) * NG);
    pf_frame_identity(NG, R, t);
    const real *n = x, *ca = x + 3, *c = x + 6, *o = x + 9;
    if (m[0] && m[1] && m[2]) gm[PF_RG_BACKBONE] = pf_frame_from_3_points(n, ca, c, R, t) == 0;
    if (m[1] && m[2] && m[3]) gm[PF_RG_PSI] = group_frame(ca, c, o, R + 9 * PF_RG_PSI, t + 3 * PF_RG_PSI) == 0;
    for (int k = 0; k < G->n_chi; k++) {
        int a[4], ok = 1;
        for (int q = 0; q < 4; q++) {
            a[q] = pf_rg_atom_index((int)(G - pf_residue_geometry_table), G->chi_atoms[k][q]);
            ok = ok && a[q] >= 0 && (q == 0 || m[a[q]]);
        }
        const int g = PF_RG_CHI1 + k;
        if (ok) gm[g] = group_frame(x + 3 * a[1], x + 3 * a[2], x + 3 * a[3], R + 9 * g, t + 3 * g) == 0;
        if (!gm[g]) pf_frame_identity(1, R + 9 * g, t + 3 * g);
    }
    if (!gm[PF_RG_BACKBONE]) pf_frame_identity(1, R, t);
    if (!gm[PF_RG_PSI]) pf_frame_identity(1, R + 9 * PF_RG_PSI, t + 3 * PF_RG_PSI);
}

// Chi angles of residue i into tors, tors_alt (7, 2) and tm (7).
static void residue_chis(const pf_residue_geometry *G, const real *x, const real *m, real *tors, real *alt, real *tm) {
    for (int k = 0; k < G->n_chi; k++) {
        int a[4], ok = 1;
        for (int q = 0; q < 4; q++) {
            a[q] = pf_rg_atom_index((int)(G - pf_residue_geometry_table), G->chi_atoms[k][q]);
            ok = ok && a[q] >= 0 && m[a[q]];
        }
        real *sc = tors + 2 * (3 + k);
        tm[3 + k] = ok && torsion(x + 3 * a[0], x + 3 * a[1], x + 3 * a[2], x + 3 * a[3], sc);
        if (!tm[3 + k]) sc[0] = sc[1] = 0;
        const double sign = G->pi_periodic_chi == k + 1 ? -1 : 1;  // chi + pi: (sin, cos) negated
        alt[2 * (3 + k)] = (real)(sign * sc[0]);
        alt[2 * (3 + k) + 1] = (real)(sign * sc[1]);
    }
}

void pf_truth_from_atoms(int64_t N, const int32_t *aatype, const real *xyz, const real *atom_mask,
                         const int32_t *chain, real *group_R, real *group_t, real *group_mask, real *tors,
                         real *tors_alt, real *tors_mask) {
    for (int64_t i = 0; i < N; i++)
        residue_group_frames(geom(aatype[i]), xyz + i * NA * 3, atom_mask + i * NA, group_R + i * NG * 9,
                             group_t + i * NG * 3, group_mask + i * NG);
    if (!tors) return;
    // pre-omega, phi, psi from the backbone atoms (structure_truth.c)
    real *bx = pf_calloc((size_t)(N * PF_NUM_BB * 3), sizeof(real)), *R = pf_malloc(sizeof(real) * (size_t)(N * 9));
    real *t = pf_malloc(sizeof(real) * (size_t)(N * 3)), *fm = pf_malloc(sizeof(real) * (size_t)N);
    int32_t *bm = pf_calloc((size_t)N, sizeof(int32_t));
    for (int64_t i = 0; i < N; i++)
        for (int a = 0; a < PF_NUM_BB && a < geom(aatype[i])->n_atoms; a++) {
            if (!atom_mask[i * NA + a]) continue;
            bm[i] |= 1 << a;
            for (int e = 0; e < 3; e++) bx[(i * PF_NUM_BB + a) * 3 + e] = xyz[(i * NA + a) * 3 + e];
        }
    pf_truth_from_backbone(N, bx, bm, chain, R, t, fm, tors, tors_alt, tors_mask);
    for (int64_t i = 0; i < N; i++)
        residue_chis(geom(aatype[i]), xyz + i * NA * 3, atom_mask + i * NA, tors + i * 2 * PF_NUM_TORSIONS,
                     tors_alt + i * 2 * PF_NUM_TORSIONS, tors_mask + i * PF_NUM_TORSIONS);
    pf_free(bx), pf_free(R), pf_free(t), pf_free(fm), pf_free(bm);
}

int pf_truth_side_chains(int64_t N, const int32_t *aatype, const real *atom14_xyz, const int32_t *atom14_mask,
                         const int32_t *chain, real *atom_mask, real *tors, real *tors_alt, real *tors_mask) {
    int any = 0;
    for (int64_t i = 0; i < N; i++)
        for (int a = 0; a < NA; a++) {
            atom_mask[i * NA + a] = (real)(a < geom(aatype[i])->n_atoms && (atom14_mask[i] >> a & 1));
            any |= a > PF_AT_CB && atom_mask[i * NA + a] != 0;
        }
    if (!any) return 0;
    const int64_t nt = N * PF_NUM_TORSIONS;
    real *gR = pf_malloc(sizeof(real) * (size_t)(N * NG * 9)), *gt = pf_malloc(sizeof(real) * (size_t)(N * NG * 3));
    real *gm = pf_malloc(sizeof(real) * (size_t)(N * NG)), *tr = pf_malloc(sizeof(real) * (size_t)(2 * nt));
    real *alt = pf_malloc(sizeof(real) * (size_t)(2 * nt)), *tm = pf_malloc(sizeof(real) * (size_t)nt);
    pf_truth_from_atoms(N, aatype, atom14_xyz, atom_mask, chain, gR, gt, gm, tr, alt, tm);
    for (int64_t k = 0; k < nt; k++) {
        if (k % PF_NUM_TORSIONS < 3) continue;  // chi1..4 only
        tors_mask[k] = tm[k];
        for (int e = 0; e < 2; e++) tors[2 * k + e] = tr[2 * k + e], tors_alt[2 * k + e] = alt[2 * k + e];
    }
    pf_free(gR), pf_free(gt), pf_free(gm), pf_free(tr), pf_free(alt), pf_free(tm);
    return 1;
}

static double dist(const real *a, const real *b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// Slot of each atom of residue type G under the swapped naming.
static int swapped_slots(const pf_residue_geometry *G, int *perm) {
    int n = 0;
    for (int a = 0; a < NA; a++) perm[a] = a;
    for (int s = 0; s < 2 && G->swaps[s][0][0]; s++) {
        const int tok = (int)(G - pf_residue_geometry_table);
        int a = pf_rg_atom_index(tok, G->swaps[s][0]), b = pf_rg_atom_index(tok, G->swaps[s][1]);
        if (a < 0 || b < 0) continue;
        perm[a] = b, perm[b] = a, n++;
    }
    return n;
}

int pf_rename_symmetric(int64_t N, const int32_t *aatype, const real *pred_xyz, real *true_xyz, real *atom_mask) {
    int renamed = 0;
    for (int64_t i = 0; i < N; i++) {
        int perm[NA];
        if (!swapped_slots(geom(aatype[i]), perm)) continue;
        double cost[2] = {0, 0};  // as is, swapped
        for (int a = 0; a < NA; a++) {
            if (perm[a] == a || !atom_mask[i * NA + a] || !atom_mask[i * NA + perm[a]]) continue;
            const real *p = pred_xyz + (i * NA + a) * 3;
            for (int64_t j = 0; j < N; j++)
                for (int b = 0; b < NA && j != i; b++) {
                    if (!atom_mask[j * NA + b]) continue;
                    const real *q = pred_xyz + (j * NA + b) * 3, *tb = true_xyz + (j * NA + b) * 3;
                    const double dp = dist(p, q);
                    cost[0] += fabs(dp - dist(true_xyz + (i * NA + a) * 3, tb));
                    cost[1] += fabs(dp - dist(true_xyz + (i * NA + perm[a]) * 3, tb));
                }
        }
        if (!(cost[1] < cost[0])) continue;
        real x[NA * 3], m[NA];
        memcpy(x, true_xyz + i * NA * 3, sizeof x);
        memcpy(m, atom_mask + i * NA, sizeof m);
        for (int a = 0; a < NA; a++) {
            memcpy(true_xyz + (i * NA + a) * 3, x + 3 * perm[a], sizeof(real) * 3);
            atom_mask[i * NA + a] = m[perm[a]];
        }
        renamed++;
    }
    return renamed;
}

// The side-chain FAPE's buffers for N residues.
typedef struct { real *gR, *gt, *px, *tx, *tm, *tR, *tt, *fm, *tfm, *dgR, *dgt, *dx; } sc_bufs;

double pf_sidechain_fape(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                         const real *true_xyz, const real *true_mask, const real *seq_mask, double clamp,
                         double scale, real *d_R, real *d_t, real *d_angles) {
    sc_bufs b;
    real **all[] = {&b.gR, &b.gt, &b.px, &b.tx, &b.tm, &b.tR, &b.tt, &b.fm, &b.tfm, &b.dgR, &b.dgt, &b.dx};
    const int64_t size[] = {N * NG * 9, N * NG * 3, N * NA * 3, N * NA * 3, N * NA, N * NG * 9, N * NG * 3,
                            N * NG, N * NG, N * NG * 9, N * NG * 3, N * NA * 3};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) *all[k] = pf_calloc((size_t)size[k], sizeof(real));
    cpu_allatom_fwd(N, aatype, R, t, angles, b.gR, b.gt, b.px);
    memcpy(b.tx, true_xyz, sizeof(real) * (size_t)(N * NA * 3));
    pf_allatom_mask(N, aatype, b.tm);
    for (int64_t k = 0; k < N * NA; k++) b.tm[k] *= true_mask[k] * (seq_mask ? seq_mask[k / NA] : 1);
    pf_rename_symmetric(N, aatype, b.px, b.tx, b.tm);
    pf_truth_from_atoms(N, aatype, b.tx, b.tm, NULL, b.tR, b.tt, b.tfm, NULL, NULL, NULL);
    pf_allatom_group_mask(N, aatype, b.fm);
    for (int64_t k = 0; k < N * NG; k++) b.fm[k] *= b.tfm[k];
    const double loss = cpu_fape_points_fwd(N * NG, b.gR, b.gt, b.tR, b.tt, b.fm, N * NA, b.px, b.tx, b.tm, clamp);
    if (scale != 0 && (d_R || d_t || d_angles)) {
        cpu_fape_points_bwd(N * NG, b.gR, b.gt, b.tR, b.tt, b.fm, N * NA, b.px, b.tx, b.tm, clamp, scale, b.dgR,
                            b.dgt, b.dx);
        cpu_allatom_bwd(N, aatype, R, t, angles, b.dgR, b.dgt, b.dx, d_R, d_t, d_angles);
    }
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) pf_free(*all[k]);
    return loss;
}
