// cpu_allatom.c: AF2 Alg. 24 (all-atom coordinates from frames and torsions)
// and FAPE over any frames and points, forward and backward (cpu_allatom.h).
#include "cpu_allatom.h"
#include <math.h>
#include <string.h>
#include "cpu_structure.h"

#define ANGLE_NORM_EPS 1e-12  // as the angle resnet's normalisation (cpu_angle.c)

static const pf_residue_geometry *geom(int32_t tok) {
    return &pf_residue_geometry_table[tok >= 0 && tok < PF_NUM_RESTYPES ? tok : PF_NUM_RESTYPES - 1];
}

// One residue's group frames in double: FR[g] (3, 3) row-major, Ft[g] (3), the
// constant-plus-torsion transforms M_g = D_g o R_x(torsion) (MR, Mt) and the
// normalised (sin, cos) n[k] with their lengths len[k].
typedef struct {
    double FR[PF_NUM_RIGID_GROUPS][9], Ft[PF_NUM_RIGID_GROUPS][3];
    double MR[PF_NUM_RIGID_GROUPS][9], Mt[PF_NUM_RIGID_GROUPS][3];
    double n[PF_NUM_TORSIONS][2], len[PF_NUM_TORSIONS];
} res_frames;

static void residue_frames(const pf_residue_geometry *G, const real *R, const real *t, const real *ang, res_frames *f) {
    for (int k = 0; k < 9; k++) f->FR[0][k] = R[k];
    for (int k = 0; k < 3; k++) f->Ft[0][k] = t[k];
    for (int g = 1; g < PF_NUM_RIGID_GROUPS; g++) {
        const int tk = g - 1, p = pf_rg_parent(g);
        const double x = ang[2 * tk], y = ang[2 * tk + 1];
        const double l = sqrt(fmax(x * x + y * y, ANGLE_NORM_EPS)), s = x / l, c = y / l;
        f->n[tk][0] = s, f->n[tk][1] = c, f->len[tk] = l;
        const double (*D)[3] = G->default_frame[g];
        double *M = f->MR[g];
        for (int r = 0; r < 3; r++) {  // M = D_R R_x: R_x = [[1,0,0],[0,c,-s],[0,s,c]]
            M[3 * r] = D[r][0];
            M[3 * r + 1] = D[r][1] * c + D[r][2] * s;
            M[3 * r + 2] = -D[r][1] * s + D[r][2] * c;
            f->Mt[g][r] = D[3][r];
        }
        for (int r = 0; r < 3; r++) {
            double tr = f->Ft[p][r];
            for (int k = 0; k < 3; k++) {
                double v = 0;
                for (int q = 0; q < 3; q++) v += f->FR[p][3 * r + q] * M[3 * q + k];
                f->FR[g][3 * r + k] = v;
                tr += f->FR[p][3 * r + k] * f->Mt[g][k];
            }
            f->Ft[g][r] = tr;
        }
    }
}

void cpu_allatom_fwd(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                     real *group_R, real *group_t, real *xyz) {
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        const pf_residue_geometry *G = geom(aatype[i]);
        res_frames f;
        residue_frames(G, R + 9 * i, t + 3 * i, angles + 2 * PF_NUM_TORSIONS * i, &f);
        for (int g = 0; g < PF_NUM_RIGID_GROUPS; g++) {
            for (int k = 0; k < 9 && group_R; k++) group_R[(i * PF_NUM_RIGID_GROUPS + g) * 9 + k] = (real)f.FR[g][k];
            for (int k = 0; k < 3 && group_t; k++) group_t[(i * PF_NUM_RIGID_GROUPS + g) * 3 + k] = (real)f.Ft[g][k];
        }
        real *x = xyz + i * PF_MAX_RES_ATOMS * 3;
        memset(x, 0, sizeof(real) * PF_MAX_RES_ATOMS * 3);
        for (int a = 0; a < G->n_atoms; a++) {
            const int g = G->atoms[a].group;
            const double *p = G->atoms[a].pos;
            for (int r = 0; r < 3; r++)
                x[3 * a + r] = (real)(f.FR[g][3 * r] * p[0] + f.FR[g][3 * r + 1] * p[1] + f.FR[g][3 * r + 2] * p[2] + f.Ft[g][r]);
        }
    }
}

// Group g's frame gradient (dFR, dFt) into its parent's and into torsion g - 1.
static void group_bwd(const pf_residue_geometry *G, const res_frames *f, int g, double dFR[][9], double dFt[][3],
                      double *d_n) {
    const int p = pf_rg_parent(g);
    const double *M = f->MR[g], *Mt = f->Mt[g];
    double dM[9] = {0};
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 3; q++) {
            double v = 0;  // dFR_p = dFR_g M^T + dFt_g Mt^T
            for (int k = 0; k < 3; k++) v += dFR[g][3 * r + k] * M[3 * q + k];
            dFR[p][3 * r + q] += v + dFt[g][r] * Mt[q];
        }
    for (int r = 0; r < 3; r++) dFt[p][r] += dFt[g][r];
    for (int q = 0; q < 3; q++)  // dM = FR_p^T dFR_g
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++) dM[3 * q + k] += f->FR[p][3 * r + q] * dFR[g][3 * r + k];
    const double (*D)[3] = G->default_frame[g];
    double dRx11 = 0, dRx12 = 0, dRx21 = 0, dRx22 = 0;  // dR_x = D_R^T dM (only the (1..2, 1..2) block depends on the angle)
    for (int r = 0; r < 3; r++) {
        dRx11 += D[r][1] * dM[3 * r + 1];
        dRx12 += D[r][1] * dM[3 * r + 2];
        dRx21 += D[r][2] * dM[3 * r + 1];
        dRx22 += D[r][2] * dM[3 * r + 2];
    }
    d_n[0] = dRx21 - dRx12;  // d sin
    d_n[1] = dRx11 + dRx22;  // d cos
}

void cpu_allatom_bwd(int64_t N, const int32_t *aatype, const real *R, const real *t, const real *angles,
                     const real *d_group_R, const real *d_group_t, const real *d_xyz, real *d_R, real *d_t,
                     real *d_angles) {
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        const pf_residue_geometry *G = geom(aatype[i]);
        res_frames f;
        const real *ang = angles + 2 * PF_NUM_TORSIONS * i;
        residue_frames(G, R + 9 * i, t + 3 * i, ang, &f);
        double dFR[PF_NUM_RIGID_GROUPS][9] = {{0}}, dFt[PF_NUM_RIGID_GROUPS][3] = {{0}};
        for (int g = 0; g < PF_NUM_RIGID_GROUPS; g++) {
            for (int k = 0; k < 9 && d_group_R; k++) dFR[g][k] = d_group_R[(i * PF_NUM_RIGID_GROUPS + g) * 9 + k];
            for (int k = 0; k < 3 && d_group_t; k++) dFt[g][k] = d_group_t[(i * PF_NUM_RIGID_GROUPS + g) * 3 + k];
        }
        for (int a = 0; a < G->n_atoms && d_xyz; a++) {  // x = FR_g p + Ft_g
            const int g = G->atoms[a].group;
            const double *p = G->atoms[a].pos;
            const real *dx = d_xyz + (i * PF_MAX_RES_ATOMS + a) * 3;
            for (int r = 0; r < 3; r++) {
                for (int k = 0; k < 3; k++) dFR[g][3 * r + k] += dx[r] * p[k];
                dFt[g][r] += dx[r];
            }
        }
        for (int g = PF_NUM_RIGID_GROUPS - 1; g >= 1; g--) {  // children before parents
            double dn[2];
            group_bwd(G, &f, g, dFR, dFt, dn);
            const int tk = g - 1;
            const real *a = ang + 2 * tk;
            double *n = f.n[tk], l = f.len[tk];
            double proj = a[0] * a[0] + a[1] * a[1] > ANGLE_NORM_EPS ? n[0] * dn[0] + n[1] * dn[1] : 0;
            if (d_angles)
                for (int k = 0; k < 2; k++) d_angles[2 * PF_NUM_TORSIONS * i + 2 * tk + k] += (real)((dn[k] - n[k] * proj) / l);
        }
        for (int k = 0; k < 9 && d_R; k++) d_R[9 * i + k] += (real)dFR[0][k];
        for (int k = 0; k < 3 && d_t; k++) d_t[3 * i + k] += (real)dFt[0][k];
    }
}

void pf_allatom_mask(int64_t N, const int32_t *aatype, real *atom_mask) {
    for (int64_t i = 0; i < N; i++)
        for (int a = 0; a < PF_MAX_RES_ATOMS; a++) atom_mask[i * PF_MAX_RES_ATOMS + a] = a < geom(aatype[i])->n_atoms;
}

void pf_allatom_group_mask(int64_t N, const int32_t *aatype, real *group_mask) {
    for (int64_t i = 0; i < N; i++)
        for (int g = 0; g < PF_NUM_RIGID_GROUPS; g++)
            group_mask[i * PF_NUM_RIGID_GROUPS + g] =
                g == PF_RG_BACKBONE || g == PF_RG_PSI || (g >= PF_RG_CHI1 && g - PF_RG_CHI1 < geom(aatype[i])->n_chi);
}

// ---- FAPE over frames and points ------------------------------------------
// u = R^T (x - t), the point in the frame.
static void to_local(const real *R, const real *t, const real *x, double *u) {
    for (int b = 0; b < 3; b++) {
        u[b] = 0;
        for (int a = 0; a < 3; a++) u[b] += R[3 * a + b] * (x[a] - t[a]);
    }
}

// The error vector e = u - u_true of frame f and point j and its clamped
// distance; returns 0 when the pair is outside the clamp (no gradient).
static int pair_error(const real *R, const real *t, const real *Rt, const real *tt, const real *x, const real *xt,
                      double clamp, double *e, double *d) {
    double u[3], ut[3];
    to_local(R, t, x, u);
    to_local(Rt, tt, xt, ut);
    double d2 = PF_FAPE_EPS;
    for (int b = 0; b < 3; b++) {
        e[b] = u[b] - ut[b];
        d2 += e[b] * e[b];
    }
    *d = sqrt(d2);
    if (clamp > 0 && *d > clamp) {
        *d = clamp;
        return 0;
    }
    return 1;
}

static double fape_norm(int64_t nF, const real *fmask, int64_t nX, const real *xmask) {
    double sf = 0, sx = 0;
    for (int64_t f = 0; f < nF; f++) sf += fmask[f];
    for (int64_t j = 0; j < nX; j++) sx += xmask[j];
    return PF_FAPE_SCALE * (PF_FAPE_EPS + sf) * (PF_FAPE_EPS + sx);
}

double cpu_fape_points_fwd(int64_t nF, const real *R, const real *t, const real *R_true, const real *t_true,
                           const real *fmask, int64_t nX, const real *x, const real *x_true, const real *xmask,
                           double clamp) {
    double total = 0;
    for (int64_t f = 0; f < nF; f++) {  // frame by frame, in order (same bits with any thread count)
        if (fmask[f] == 0) continue;
        double row = 0, e[3], d;
        for (int64_t j = 0; j < nX; j++) {
            if (xmask[j] == 0) continue;
            pair_error(R + 9 * f, t + 3 * f, R_true + 9 * f, t_true + 3 * f, x + 3 * j, x_true + 3 * j, clamp, e, &d);
            row += xmask[j] * d;
        }
        total += fmask[f] * row;
    }
    return total / fape_norm(nF, fmask, nX, xmask);
}

void cpu_fape_points_bwd(int64_t nF, const real *R, const real *t, const real *R_true, const real *t_true,
                         const real *fmask, int64_t nX, const real *x, const real *x_true, const real *xmask,
                         double clamp, double scale, real *d_R, real *d_t, real *d_x) {
    const double w0 = scale / fape_norm(nF, fmask, nX, xmask);
    // dd/du = e / d; u = R^T (x - t): d_x += R g, d_t -= R g, d_R[a][b] += (x - t)_a g_b.
    // Frames and points in two passes so each output element has one writer.
#pragma omp parallel for schedule(static) if (nF >= PF_SM_PAR_MIN)
    for (int64_t f = 0; f < nF; f++) {
        if (fmask[f] == 0 || (!d_R && !d_t)) continue;
        const real *Rf = R + 9 * f, *tf = t + 3 * f;
        for (int64_t j = 0; j < nX; j++) {
            double e[3], d;
            if (xmask[j] == 0 || !pair_error(Rf, tf, R_true + 9 * f, t_true + 3 * f, x + 3 * j, x_true + 3 * j, clamp, e, &d))
                continue;
            const double w = w0 * fmask[f] * xmask[j] / d;
            for (int a = 0; a < 3; a++) {
                double Rg = 0;
                for (int b = 0; b < 3; b++) {
                    if (d_R) d_R[9 * f + 3 * a + b] += (real)((x[3 * j + a] - tf[a]) * w * e[b]);
                    Rg += Rf[3 * a + b] * w * e[b];
                }
                if (d_t) d_t[3 * f + a] -= (real)Rg;
            }
        }
    }
    if (!d_x) return;
#pragma omp parallel for schedule(static) if (nX >= PF_SM_PAR_MIN)
    for (int64_t j = 0; j < nX; j++) {
        if (xmask[j] == 0) continue;
        for (int64_t f = 0; f < nF; f++) {
            double e[3], d;
            if (fmask[f] == 0 || !pair_error(R + 9 * f, t + 3 * f, R_true + 9 * f, t_true + 3 * f, x + 3 * j, x_true + 3 * j, clamp, e, &d))
                continue;
            const double w = w0 * fmask[f] * xmask[j] / d;
            for (int a = 0; a < 3; a++)
                d_x[3 * j + a] += (real)(w * (R[9 * f + 3 * a] * e[0] + R[9 * f + 3 * a + 1] * e[1] + R[9 * f + 3 * a + 2] * e[2]));
        }
    }
}
