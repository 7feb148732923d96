// superpose.h: optimal rigid superposition of two point sets (least squares,
// proper rotations only), by Horn's quaternion method (J. Opt. Soc. Am. A 4,
// 629, 1987): the rotation is the eigenvector of the largest eigenvalue of a
// symmetric 4x4 matrix built from the cross-covariance, found here by Jacobi
// iteration. Double precision throughout; points are (n, 3) row-major.
#ifndef PF_SUPERPOSE_H
#define PF_SUPERPOSE_H

// A rigid motion x -> R x + t.
typedef struct {
    double R[3][3];
    double t[3];
} pf_rigid;

// The motion that moves the points x onto y with the least summed squared
// distance, over the points idx[0..m) (idx NULL: the first m points). m = 0
// gives the identity; m = 1 a pure translation.
pf_rigid pf_superpose(const double *x, const double *y, const int *idx, int m);
// y = R x + t for one point.
void pf_rigid_apply(const pf_rigid *T, const double x[3], double y[3]);
// Root-mean-square distance between T(x_i) and y_i over the first n points.
double pf_rmsd_after(const pf_rigid *T, const double *x, const double *y, int n);

#endif
