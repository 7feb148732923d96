// cpu_fape.c: backbone frame aligned point error over Ca atoms (AF2 Alg. 28,
// OpenFold backbone_loss / compute_fape), the aligned Ca error that the PAE head
// learns, and per-residue lDDT-Ca (OpenFold lddt). Frames and positions in A;
// the Ca of residue j is its frame's translation t_j.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

// delta = T_i^-1 x_j - T_i^true-1 x_j^true (3)
static void aligned_delta(const real *R, const real *t, const real *Rt, const real *tt, int64_t i, int64_t j,
                          real *delta) {
    real xp[3], xt[3];
    pf_frame_invert_apply(R + i * 9, t + i * 3, t + j * 3, xp);
    pf_frame_invert_apply(Rt + i * 9, tt + i * 3, tt + j * 3, xt);
    for (int e = 0; e < 3; e++) delta[e] = xp[e] - xt[e];
}

void pf_aligned_error(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                      real *err) {
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            real dl[3];
            aligned_delta(R, t, R_true, t_true, i, j, dl);
            err[i * N + j] = sqrt(dl[0] * dl[0] + dl[1] * dl[1] + dl[2] * dl[2]);
        }
}

// 1 / ((eps + sum m)^2): frames and points share the residue mask here
static double fape_norm(int64_t N, const real *mask) {
    double m = 0;
    for (int64_t i = 0; i < N; i++) m += mask ? mask[i] : 1;
    return 1.0 / ((PF_FAPE_EPS + m) * (PF_FAPE_EPS + m));
}

double cpu_fape_fwd(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                    const real *mask, double clamp) {
    double *row = pf_calloc((size_t)(N > 0 ? N : 1), sizeof(double));
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        if (mask && mask[i] == 0) continue;
        double s = 0;
        for (int64_t j = 0; j < N; j++) {
            if (mask && mask[j] == 0) continue;
            real dl[3];
            aligned_delta(R, t, R_true, t_true, i, j, dl);
            double dist = sqrt(dl[0] * dl[0] + dl[1] * dl[1] + dl[2] * dl[2] + PF_FAPE_EPS);
            s += clamp > 0 && dist > clamp ? clamp : dist;
        }
        row[i] = s;
    }
    double loss = 0;
    for (int64_t i = 0; i < N; i++) loss += row[i];
    pf_free(row);
    return loss * fape_norm(N, mask) / PF_FAPE_SCALE;
}

// With y = R_i^T (t_j - t_i) and dy = d loss / d y_ij (3):
//   dR_i[a][b] += (t_j - t_i)[a] dy[b]; dt_j += R_i dy; dt_i -= R_i dy.
void cpu_fape_bwd(int64_t N, const real *R, const real *t, const real *R_true, const real *t_true,
                  const real *mask, double clamp, double scale, real *d_R, real *d_t) {
    const double k = scale * fape_norm(N, mask) / PF_FAPE_SCALE;
    real *gv = pf_calloc((size_t)(N * N * 3), sizeof(real));  // (N, N, 3): R_i dy_ij
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        if (mask && mask[i] == 0) continue;
        const real *Ri = R + i * 9;
        for (int64_t j = 0; j < N; j++) {
            if (mask && mask[j] == 0) continue;
            real dl[3];
            aligned_delta(R, t, R_true, t_true, i, j, dl);
            double dist = sqrt(dl[0] * dl[0] + dl[1] * dl[1] + dl[2] * dl[2] + PF_FAPE_EPS);
            if (clamp > 0 && dist > clamp) continue;  // flat beyond the clamp
            real dy[3], *g = gv + (i * N + j) * 3;
            for (int e = 0; e < 3; e++) dy[e] = (real)(k * dl[e] / dist);
            for (int e = 0; e < 3; e++) {
                g[e] = Ri[e * 3] * dy[0] + Ri[e * 3 + 1] * dy[1] + Ri[e * 3 + 2] * dy[2];
                if (d_R)
                    for (int f = 0; f < 3; f++) d_R[i * 9 + e * 3 + f] += (t[j * 3 + e] - t[i * 3 + e]) * dy[f];
            }
        }
    }
    if (d_t) {
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
        for (int64_t i = 0; i < N; i++)
            for (int e = 0; e < 3; e++) {
                real s = 0;
                for (int64_t j = 0; j < N; j++) s += gv[(j * N + i) * 3 + e] - gv[(i * N + j) * 3 + e];
                d_t[i * 3 + e] += s;
            }
    }
    pf_free(gv);
}

static inline real dist3(const real *a, const real *b) {
    real d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

// OpenFold lddt(per_residue=True): pairs j != i with both masked in and true
// distance < cutoff; score = mean over the thresholds 0.5, 1, 2, 4 A of
// |d_true - d_pred| < threshold; lddt_i = (eps + sum score) / (eps + count).
void pf_lddt_ca_per_residue(int64_t N, const real *x, const real *x_true, const real *mask, double cutoff, real *lddt) {
    const double eps = 1e-10;
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        double n = 0, s = 0;
        for (int64_t j = 0; j < N; j++) {
            if (j == i || (mask && (mask[i] == 0 || mask[j] == 0))) continue;
            real dt = dist3(x_true + i * 3, x_true + j * 3);
            if (!(dt < cutoff)) continue;
            real l1 = fabs(dt - dist3(x + i * 3, x + j * 3));
            n += 1;
            s += 0.25 * ((l1 < 0.5) + (l1 < 1.0) + (l1 < 2.0) + (l1 < 4.0));
        }
        lddt[i] = (real)((eps + s) / (eps + n));
    }
}

double cpu_fape_layers(int L, int64_t N, const real *R_out, const real *t_out, const real *R_true,
                       const real *t_true, const real *mask, double clamp, double scale, real *d_R_out,
                       real *d_t_out) {
    double loss = 0;
    for (int l = 0; l < L; l++) {
        const real *R = R_out + l * N * 9, *t = t_out + l * N * 3;
        loss += cpu_fape_fwd(N, R, t, R_true, t_true, mask, clamp) / L;
        if (d_R_out || d_t_out)
            cpu_fape_bwd(N, R, t, R_true, t_true, mask, clamp, scale / L, d_R_out ? d_R_out + l * N * 9 : NULL,
                         d_t_out ? d_t_out + l * N * 3 : NULL);
    }
    return loss;
}
