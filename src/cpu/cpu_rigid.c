// cpu_rigid.c: rigid transforms (rotation + translation) and the backbone
// update of the structure module, AF2 Alg. 21 and 23. Frames are R (3, 3)
// row-major and t (3): T x = R x + t.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

void pf_frame_identity(int64_t N, real *R, real *t) {
    for (int64_t i = 0; i < N; i++) {
        for (int k = 0; k < 9; k++) R[i * 9 + k] = (k % 4 == 0);
        for (int k = 0; k < 3; k++) t[i * 3 + k] = 0;
    }
}

void pf_frame_apply(const real *R, const real *t, const real *x, real *y) {
    real r[3];
    for (int a = 0; a < 3; a++) r[a] = R[a * 3] * x[0] + R[a * 3 + 1] * x[1] + R[a * 3 + 2] * x[2] + t[a];
    memcpy(y, r, sizeof r);
}

void pf_frame_invert_apply(const real *R, const real *t, const real *x, real *y) {
    real v[3] = {x[0] - t[0], x[1] - t[1], x[2] - t[2]}, r[3];
    for (int b = 0; b < 3; b++) r[b] = R[b] * v[0] + R[3 + b] * v[1] + R[6 + b] * v[2];
    memcpy(y, r, sizeof r);
}

void pf_frame_compose(const real *R1, const real *t1, const real *R2, const real *t2, real *R, real *t) {
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++)
            R[a * 3 + b] = R1[a * 3] * R2[b] + R1[a * 3 + 1] * R2[3 + b] + R1[a * 3 + 2] * R2[6 + b];
        t[a] = R1[a * 3] * t2[0] + R1[a * 3 + 1] * t2[1] + R1[a * 3 + 2] * t2[2] + t1[a];
    }
}

void pf_frame_invert(const real *R, const real *t, real *Ri, real *ti) {
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) Ri[a * 3 + b] = R[b * 3 + a];
    for (int a = 0; a < 3; a++) ti[a] = -(Ri[a * 3] * t[0] + Ri[a * 3 + 1] * t[1] + Ri[a * 3 + 2] * t[2]);
}

int pf_frame_from_3_points(const real *x1, const real *x2, const real *x3, real *R, real *t) {
    double v1[3], v2[3], e1[3], e2[3], e3[3], n1 = 0, d = 0, n2 = 0;
    for (int a = 0; a < 3; a++) {
        v1[a] = (double)x3[a] - x2[a];
        v2[a] = (double)x1[a] - x2[a];
        n1 += v1[a] * v1[a];
    }
    pf_frame_identity(1, R, t);
    if (n1 < 1e-12) return -1;
    for (int a = 0; a < 3; a++) { e1[a] = v1[a] / sqrt(n1); d += e1[a] * v2[a]; }
    for (int a = 0; a < 3; a++) { e2[a] = v2[a] - d * e1[a]; n2 += e2[a] * e2[a]; }
    if (n2 < 1e-12) return -1;
    for (int a = 0; a < 3; a++) e2[a] /= sqrt(n2);
    e3[0] = e1[1] * e2[2] - e1[2] * e2[1];
    e3[1] = e1[2] * e2[0] - e1[0] * e2[2];
    e3[2] = e1[0] * e2[1] - e1[1] * e2[0];
    for (int a = 0; a < 3; a++) {  // the columns of R are e1, e2, e3
        R[a * 3] = (real)e1[a];
        R[a * 3 + 1] = (real)e2[a];
        R[a * 3 + 2] = (real)e3[a];
        t[a] = x2[a];
    }
    return 0;
}

// M(w, x, y, z): the rotation of the quaternion (w, x, y, z) times its squared norm.
static void quat_m(real w, real x, real y, real z, real *M) {
    M[0] = w * w + x * x - y * y - z * z; M[1] = 2 * (x * y - w * z);         M[2] = 2 * (x * z + w * y);
    M[3] = 2 * (x * y + w * z);         M[4] = w * w - x * x + y * y - z * z; M[5] = 2 * (y * z - w * x);
    M[6] = 2 * (x * z - w * y);         M[7] = 2 * (y * z + w * x);         M[8] = w * w - x * x - y * y + z * z;
}

void pf_quat_to_rot(const real *bcd, real *R) {
    real n2 = 1 + bcd[0] * bcd[0] + bcd[1] * bcd[1] + bcd[2] * bcd[2];
    quat_m(1, bcd[0], bcd[1], bcd[2], R);
    for (int k = 0; k < 9; k++) R[k] /= n2;
}

// R = M / n2 with n2 = 1 + x^2 + y^2 + z^2: dR/dq_k = (dM/dq_k - 2 q_k R) / n2.
void pf_quat_to_rot_bwd(const real *bcd, const real *dR, real *d_bcd) {
    const real x = bcd[0], y = bcd[1], z = bcd[2], w = 1;
    const real n2 = 1 + x * x + y * y + z * z;
    const real dM[3][9] = {
        {2 * x, 2 * y, 2 * z, 2 * y, -2 * x, -2 * w, 2 * z, 2 * w, -2 * x},   // d/dx
        {-2 * y, 2 * x, 2 * w, 2 * x, 2 * y, 2 * z, -2 * w, 2 * z, -2 * y},   // d/dy
        {-2 * z, -2 * w, 2 * x, 2 * w, -2 * z, 2 * y, 2 * x, 2 * y, 2 * z}};  // d/dz
    real R[9];
    pf_quat_to_rot(bcd, R);
    for (int k = 0; k < 3; k++) {
        real s = 0;
        for (int e = 0; e < 9; e++) s += dR[e] * (dM[k][e] - 2 * bcd[k] * R[e]);
        d_bcd[k] += s / n2;
    }
}

void cpu_bb_update_fwd(int64_t N, int c_s, const pf_linear_p *p, const real *s, const real *R,
                       const real *t, real *R_new, real *t_new, real *u_out) {
    real *u = u_out ? u_out : pf_malloc(sizeof(real) * (size_t)(N * 6));  // (N, 6)
    cpu_linear_fwd(N, c_s, 6, p, s, u, 0);
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        real Ru[9];
        pf_quat_to_rot(u + i * 6, Ru);
        pf_frame_compose(R + i * 9, t + i * 3, Ru, u + i * 6 + 3, R_new + i * 9, t_new + i * 3);
    }
    if (!u_out) pf_free(u);
}

// R_new = R R_u, t_new = R t_u + t:
//   dR += dR_new R_u^T + dt_new t_u^T; dR_u = R^T dR_new; dt_u = R^T dt_new; dt += dt_new.
void cpu_bb_update_bwd(int64_t N, int c_s, const pf_linear_p *p, pf_linear_p *g, const real *s,
                       const real *R, const real *t, const real *u, const real *d_R_new,
                       const real *d_t_new, real *d_s, real *d_R, real *d_t) {
    real *du = pf_calloc((size_t)(N * 6), sizeof(real));  // (N, 6)
#pragma omp parallel for schedule(static) if (N >= PF_SM_PAR_MIN)
    for (int64_t i = 0; i < N; i++) {
        const real *Ri = R + i * 9, *ui = u + i * 6, *dRn = d_R_new + i * 9, *dtn = d_t_new + i * 3;
        real Ru[9], dRu[9];
        pf_quat_to_rot(ui, Ru);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                real sr = 0, su = 0;
                for (int k = 0; k < 3; k++) {
                    sr += dRn[a * 3 + k] * Ru[b * 3 + k];
                    su += Ri[k * 3 + a] * dRn[k * 3 + b];
                }
                if (d_R) d_R[i * 9 + a * 3 + b] += sr + dtn[a] * ui[3 + b];
                dRu[a * 3 + b] = su;
            }
        for (int b = 0; b < 3; b++)
            du[i * 6 + 3 + b] = Ri[b] * dtn[0] + Ri[3 + b] * dtn[1] + Ri[6 + b] * dtn[2];
        if (d_t)
            for (int a = 0; a < 3; a++) d_t[i * 3 + a] += dtn[a];
        pf_quat_to_rot_bwd(ui, dRu, du + i * 6);
    }
    cpu_linear_bwd(N, c_s, 6, p, g, s, du, d_s);
    pf_free(du);
}
