// superpose.c: Horn's quaternion superposition (see superpose.h).
#include "superpose.h"
#include <math.h>
#include <string.h>

// Eigenvector of the largest eigenvalue of the symmetric 4x4 matrix A (cyclic
// Jacobi: converges for every symmetric matrix, no special cases).
static void top_eigenvector(double A[4][4], double v[4]) {
    double V[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    for (int sweep = 0; sweep < 64; sweep++) {
        double off = 0, norm = 0;
        for (int p = 0; p < 4; p++)
            for (int q = 0; q < 4; q++) *(p == q ? &norm : &off) += A[p][q] * A[p][q];
        if (off <= 1e-30 * (norm + off) || off == 0) break;
        for (int p = 0; p < 3; p++)
            for (int q = p + 1; q < 4; q++) {
                if (A[p][q] == 0) continue;
                double theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; k++) {  // A <- A J (columns p, q)
                    double akp = A[k][p], akq = A[k][q];
                    A[k][p] = c * akp - s * akq;
                    A[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 4; k++) {  // A <- J^T A (rows p, q)
                    double apk = A[p][k], aqk = A[q][k];
                    A[p][k] = c * apk - s * aqk;
                    A[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 4; k++) {
                    double vkp = V[k][p], vkq = V[k][q];
                    V[k][p] = c * vkp - s * vkq;
                    V[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (A[k][k] > A[best][best]) best = k;
    for (int k = 0; k < 4; k++) v[k] = V[k][best];
}

pf_rigid pf_superpose(const double *x, const double *y, const int *idx, int m) {
    pf_rigid T;
    memset(&T, 0, sizeof T);
    T.R[0][0] = T.R[1][1] = T.R[2][2] = 1;
    if (m <= 0) return T;
    double cx[3] = {0}, cy[3] = {0};
    for (int k = 0; k < m; k++) {
        int i = idx ? idx[k] : k;
        for (int d = 0; d < 3; d++) cx[d] += x[3 * i + d], cy[d] += y[3 * i + d];
    }
    for (int d = 0; d < 3; d++) cx[d] /= m, cy[d] /= m;
    double S[3][3] = {{0}};  // cross-covariance sum_i (x_i - cx)(y_i - cy)^T
    for (int k = 0; k < m; k++) {
        int i = idx ? idx[k] : k;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) S[a][b] += (x[3 * i + a] - cx[a]) * (y[3 * i + b] - cy[b]);
    }
    double N[4][4] = {
        {S[0][0] + S[1][1] + S[2][2], S[1][2] - S[2][1], S[2][0] - S[0][2], S[0][1] - S[1][0]},
        {S[1][2] - S[2][1], S[0][0] - S[1][1] - S[2][2], S[0][1] + S[1][0], S[2][0] + S[0][2]},
        {S[2][0] - S[0][2], S[0][1] + S[1][0], -S[0][0] + S[1][1] - S[2][2], S[1][2] + S[2][1]},
        {S[0][1] - S[1][0], S[2][0] + S[0][2], S[1][2] + S[2][1], -S[0][0] - S[1][1] + S[2][2]}};
    double q[4];
    top_eigenvector(N, q);
    double a = q[0], b = q[1], c = q[2], d = q[3];
    double R[3][3] = {{a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)},
                      {2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)},
                      {2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d}};
    memcpy(T.R, R, sizeof R);
    for (int r = 0; r < 3; r++) T.t[r] = cy[r] - (R[r][0] * cx[0] + R[r][1] * cx[1] + R[r][2] * cx[2]);
    return T;
}

void pf_rigid_apply(const pf_rigid *T, const double x[3], double y[3]) {
    for (int r = 0; r < 3; r++) y[r] = T->R[r][0] * x[0] + T->R[r][1] * x[1] + T->R[r][2] * x[2] + T->t[r];
}

double pf_rmsd_after(const pf_rigid *T, const double *x, const double *y, int n) {
    if (n <= 0) return 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double z[3];
        pf_rigid_apply(T, x + 3 * i, z);
        for (int d = 0; d < 3; d++) sum += (z[d] - y[3 * i + d]) * (z[d] - y[3 * i + d]);
    }
    return sqrt(sum / n);
}
