// grad_structure.c: float64 checks of the structure module's CPU reference
// (src/cpu/cpu_structure.h): rigid transforms and the backbone update
// (grad_rigid), invariant point attention (grad_ipa) and the whole module loop
// with and without AF2's stop-gradient on rotations (grad_structure_module).
// Odd sizes, masked residues, frames far from the identity.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>
#include "testlib.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/cpu/cpu_prim.h"
#include "../src/core/rng.h"

#define TOL 1e-6

// Random frames: rotations from random quaternions, translations ~ scale.
static void rand_frames(int64_t N, real *R, real *t, double scale, uint64_t seed) {
    real *q = tl_rand(N * 3, 1.5, seed), *tt = tl_rand(N * 3, scale, seed + 1);
    for (int64_t i = 0; i < N; i++) pf_quat_to_rot(q + i * 3, R + i * 9);
    memcpy(t, tt, sizeof(real) * (size_t)(N * 3));
}

// max |R R^T - I| and |det R - 1|
static double rot_error(const real *R) {
    double e = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += R[a * 3 + k] * R[b * 3 + k];
            e = fmax(e, fabs(s - (a == b)));
        }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    return fmax(e, fabs(det - 1));
}

static void test_rigid_algebra(void) {
    real R[9 * 3], t[9], x[3] = {0.3, -1.2, 2.5}, y[3], y2[3], Ri[9], ti[3], Rc[9], tc[3];
    rand_frames(3, R, t, 3, 10);
    double e = 0;
    for (int i = 0; i < 3; i++) e = fmax(e, rot_error(R + i * 9));
    tl_check(e < 1e-14, "quaternion rotation orthonormal, det 1", "err %.3e", e);
    real zero[3] = {0, 0, 0}, I[9];
    pf_quat_to_rot(zero, I);
    tl_check(I[0] == 1 && I[4] == 1 && I[8] == 1 && I[1] == 0 && I[5] == 0, "quaternion (1,0,0,0) is identity", " ");
    // (1, 1, 0, 0) / sqrt 2: 90 degrees about x, e_y -> e_z
    real qx[3] = {1, 0, 0}, Rx[9], ey[3] = {0, 1, 0}, ez[3];
    pf_quat_to_rot(qx, Rx);
    pf_frame_apply(Rx, zero, ey, ez);
    tl_check(fabs(ez[0]) < 1e-15 && fabs(ez[1]) < 1e-15 && fabs(ez[2] - 1) < 1e-15, "quaternion (1,1,0,0) turns y to z",
             "%g %g %g", ez[0], ez[1], ez[2]);
    // T^-1 (T x) = x; (T1 o T2) x = T1 (T2 x); T o T^-1 = identity
    pf_frame_apply(R, t, x, y);
    pf_frame_invert_apply(R, t, y, y2);
    tl_check(tl_max_abs_diff(x, y2, 3) < 1e-14, "invert_apply undoes apply", " ");
    pf_frame_compose(R, t, R + 9, t + 3, Rc, tc);
    pf_frame_apply(Rc, tc, x, y);
    pf_frame_apply(R + 9, t + 3, x, y2);
    pf_frame_apply(R, t, y2, y2);
    tl_check(tl_max_abs_diff(y, y2, 3) < 1e-14, "compose applies the right frame first", " ");
    pf_frame_invert(R, t, Ri, ti);
    pf_frame_compose(R, t, Ri, ti, Rc, tc);
    real Iref[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    tl_check(tl_max_abs_diff(Rc, Iref, 9) < 1e-14 && tl_max_abs(tc, 3) < 1e-14, "T o T^-1 is identity", " ");
    // Alg. 21 from N, CA, C: origin at CA, C on +x, N in the xy plane (y > 0)
    real xN[3] = {1.2, 0.4, -0.3}, xA[3] = {2.0, 1.1, 0.5}, xC[3] = {3.1, 0.9, 1.7}, Rf[9], tf[3], l[3];
    int rc = pf_frame_from_3_points(xN, xA, xC, Rf, tf);
    pf_frame_invert_apply(Rf, tf, xC, l);
    int okC = fabs(l[1]) < 1e-14 && fabs(l[2]) < 1e-14 && l[0] > 0;
    pf_frame_invert_apply(Rf, tf, xN, l);
    tl_check(rc == 0 && okC && fabs(l[2]) < 1e-14 && l[1] > 0 && rot_error(Rf) < 1e-14,
             "rigid_from_3_points frame", "rc %d, N local %g %g %g", rc, l[0], l[1], l[2]);
    real xL[3] = {4.2, 0.7, 2.9};  // on the line CA -> C extended past C (collinear)
    for (int a = 0; a < 3; a++) xL[a] = xA[a] + 2 * (xC[a] - xA[a]);
    tl_check(pf_frame_from_3_points(xL, xA, xC, Rf, tf) == -1, "rigid_from_3_points collinear refused", " ");
}

// Backbone update: loss = <R_new, WR> + <t_new, Wt>.
typedef struct {
    int64_t N;
    int cs;
    pf_linear_p p, g;
    real *s, *R, *t, *Rn, *tn, *WR, *Wt;
} bb_ctx;

static double bb_loss(void *vc) {
    bb_ctx *c = vc;
    cpu_bb_update_fwd(c->N, c->cs, &c->p, c->s, c->R, c->t, c->Rn, c->tn, NULL);
    return tl_dot(c->Rn, c->WR, c->N * 9) + tl_dot(c->tn, c->Wt, c->N * 3);
}

static void test_bb_update(void) {
    bb_ctx c = {.N = 5, .cs = 7};
    const int64_t N = c.N;
    tl_linear(&c.p, &c.g, 6, c.cs, 1, 20);
    c.s = tl_rand(N * c.cs, 1, 21);
    c.R = tl_zeros(N * 9);
    c.t = tl_zeros(N * 3);
    rand_frames(N, c.R, c.t, 4, 22);
    c.Rn = tl_zeros(N * 9);
    c.tn = tl_zeros(N * 3);
    c.WR = tl_rand(N * 9, 1, 23);
    c.Wt = tl_rand(N * 3, 1, 24);
    real *u = tl_zeros(N * 6), *ds = tl_zeros(N * c.cs), *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3);
    cpu_bb_update_fwd(N, c.cs, &c.p, c.s, c.R, c.t, c.Rn, c.tn, u);
    double e = 0;
    for (int64_t i = 0; i < N; i++) e = fmax(e, rot_error(c.Rn + i * 9));
    tl_check(e < 1e-13, "backbone update keeps rotations orthonormal", "err %.3e", e);
    tl_tensors ts = {0};
    tl_add_linear(&ts, "bb_update.linear", &c.p, &c.g, 6, c.cs);
    tl_add(&ts, "s", c.s, ds, N * c.cs);
    tl_add(&ts, "R", c.R, dR, N * 9);
    tl_add(&ts, "t", c.t, dt, N * 3);
    cpu_bb_update_bwd(N, c.cs, &c.p, &c.g, c.s, c.R, c.t, u, c.WR, c.Wt, ds, dR, dt);
    tl_gradcheck("bb_update", bb_loss, &c, &ts, 200, TOL);
}

void grad_rigid(void) {
    test_rigid_algebra();
    test_bb_update();
}

// ---------------------------------------------------------------------------
// IPA
// ---------------------------------------------------------------------------
typedef struct {
    pf_ipa_dims d;
    pf_ipa_p p, g;
    real *s, *z, *R, *t, *mask, *out, *saved, *W;
} ipa_ctx;

static double ipa_loss(void *vc) {
    ipa_ctx *c = vc;
    cpu_ipa_fwd(&c->d, &c->p, c->s, c->z, c->R, c->t, c->mask, c->out, c->saved);
    return tl_dot(c->out, c->W, c->d.N * c->d.c_s);
}

static void ipa_setup(ipa_ctx *c, pf_ipa_dims d, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->d = d;
    const int64_t N = d.N;
    const int H = d.H, cs = d.c_s, P = d.Pq + d.Pv;
    tl_linear(&c->p.q, &c->g.q, H * d.c, cs, 1, seed);
    tl_linear(&c->p.kv, &c->g.kv, 2 * H * d.c, cs, 1, seed + 2);
    tl_linear(&c->p.q_points, &c->g.q_points, 3 * H * d.Pq, cs, 1, seed + 4);
    tl_linear(&c->p.kv_points, &c->g.kv_points, 3 * H * P, cs, 1, seed + 6);
    tl_linear(&c->p.b, &c->g.b, H, d.c_z, 1, seed + 8);
    tl_linear(&c->p.out, &c->g.out, cs, pf_ipa_cat_dim(&d), 1, seed + 10);
    c->p.head_weights = tl_rand(H, 1, seed + 12);
    c->g.head_weights = tl_zeros(H);
    c->s = tl_rand(N * cs, 1, seed + 13);
    c->z = tl_rand(N * N * d.c_z, 1, seed + 14);
    c->R = tl_zeros(N * 9);
    c->t = tl_zeros(N * 3);
    rand_frames(N, c->R, c->t, 1.0, seed + 15);
    c->mask = tl_mask(N, 0, 0.25, seed + 17);
    c->mask[0] = 1;
    c->mask[N - 1] = 0;  // at least one masked residue (its row is fully masked)
    c->out = tl_zeros(N * cs);
    c->saved = tl_zeros(cpu_ipa_saved_reals(&d));
    c->W = tl_rand(N * cs, 1, seed + 18);
}

static void ipa_add_params(tl_tensors *ts, ipa_ctx *c) {
    const pf_ipa_dims *d = &c->d;
    const int H = d->H, cs = d->c_s, P = d->Pq + d->Pv;
    tl_add_linear(ts, "ipa.linear_q", &c->p.q, &c->g.q, H * d->c, cs);
    tl_add_linear(ts, "ipa.linear_kv", &c->p.kv, &c->g.kv, 2 * H * d->c, cs);
    tl_add_linear(ts, "ipa.linear_q_points", &c->p.q_points, &c->g.q_points, 3 * H * d->Pq, cs);
    tl_add_linear(ts, "ipa.linear_kv_points", &c->p.kv_points, &c->g.kv_points, 3 * H * P, cs);
    tl_add_linear(ts, "ipa.linear_b", &c->p.b, &c->g.b, H, d->c_z);
    tl_add_linear(ts, "ipa.linear_out", &c->p.out, &c->g.out, cs, pf_ipa_cat_dim(d));
    tl_add(ts, "ipa.head_weights", c->p.head_weights, c->g.head_weights, H);
}

static void test_ipa_grad(const char *lab, pf_ipa_dims d, int samples, uint64_t seed) {
    ipa_ctx c;
    ipa_setup(&c, d, seed);
    const int64_t N = d.N;
    real *ds = tl_zeros(N * d.c_s), *dz = tl_zeros(N * N * d.c_z), *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3);
    tl_tensors ts = {0};
    ipa_add_params(&ts, &c);
    tl_add(&ts, "s", c.s, ds, N * d.c_s);
    tl_add(&ts, "z", c.z, dz, N * N * d.c_z);
    tl_add(&ts, "R", c.R, dR, N * 9);
    tl_add(&ts, "t", c.t, dt, N * 3);
    ipa_loss(&c);
    cpu_ipa_bwd(&c.d, &c.p, &c.g, c.s, c.z, c.R, c.t, c.mask, c.saved, c.W, ds, dz, dR, dt);
    tl_gradcheck(lab, ipa_loss, &c, &ts, samples, TOL);
}

// IPA forward written out from OpenFold's InvariantPointAttention.forward
// (layouts: views (N, H, c) / (N, H, 2c); points split into [x | y | z] chunks
// of H*P, stacked, then viewed (N, H, P, 3); concat order o, o_pt x, y, z,
// |o_pt|, o_pair), with its own frame arithmetic. Rows with mask 0 are skipped:
// OpenFold's -1e5 shift leaves them an unmasked softmax, pairfold's rule a
// uniform one (modules.h), and AF2 never reads them.
static double ipa_point(const ipa_ctx *c, const real *lin, int P, int64_t i, int h, int p, int e, double *g) {
    const int HP = c->d.H * P;
    double x[3];
    for (int k = 0; k < 3; k++) x[k] = lin[i * 3 * HP + k * HP + h * P + p];
    for (int a = 0; a < 3; a++) g[a] = c->t[i * 3 + a] + c->R[i * 9 + a * 3] * x[0] + c->R[i * 9 + a * 3 + 1] * x[1] +
                                       c->R[i * 9 + a * 3 + 2] * x[2];
    return g[e];
}

static real *ipa_reference(const ipa_ctx *c) {
    const pf_ipa_dims *d = &c->d;
    const int64_t N = d->N;
    const int H = d->H, C = d->c, Pq = d->Pq, Pv = d->Pv, P = Pq + Pv, cz = d->c_z, D = pf_ipa_cat_dim(d);
    real *q = tl_zeros(N * H * C), *kv = tl_zeros(N * H * 2 * C), *qpl = tl_zeros(N * 3 * H * Pq);
    real *kvpl = tl_zeros(N * 3 * H * P), *b = tl_zeros(N * N * H), *cat = tl_zeros(N * D), *out = tl_zeros(N * d->c_s);
    cpu_linear_fwd(N, d->c_s, H * C, &c->p.q, c->s, q, 0);
    cpu_linear_fwd(N, d->c_s, 2 * H * C, &c->p.kv, c->s, kv, 0);
    cpu_linear_fwd(N, d->c_s, 3 * H * Pq, &c->p.q_points, c->s, qpl, 0);
    cpu_linear_fwd(N, d->c_s, 3 * H * P, &c->p.kv_points, c->s, kvpl, 0);
    cpu_linear_fwd(N * N, cz, H, &c->p.b, c->z, b, 0);
    for (int64_t i = 0; i < N; i++) {
        if (!c->mask[i]) continue;
        for (int h = 0; h < H; h++) {
            double a[64], mx = -1e300, se = 0, hw = log1p(exp(c->p.head_weights[h])) * sqrt(1.0 / (3 * (Pq * 9.0 / 2)));
            for (int64_t j = 0; j < N; j++) {
                double qk = 0, pt = 0, g1[3], g2[3];
                for (int k = 0; k < C; k++) qk += q[(i * H + h) * C + k] * kv[(j * H + h) * 2 * C + k];
                for (int p = 0; p < Pq; p++) {
                    ipa_point(c, qpl, Pq, i, h, p, 0, g1);
                    ipa_point(c, kvpl, P, j, h, p, 0, g2);
                    for (int e = 0; e < 3; e++) pt += (g1[e] - g2[e]) * (g1[e] - g2[e]);
                }
                a[j] = qk * sqrt(1.0 / (3 * C)) + sqrt(1.0 / 3) * b[(i * N + j) * H + h] - 0.5 * hw * pt;
                a[j] += 1e5 * (c->mask[i] * c->mask[j] - 1);
                mx = fmax(mx, a[j]);
            }
            for (int64_t j = 0; j < N; j++) se += (a[j] = exp(a[j] - mx));
            for (int64_t j = 0; j < N; j++) {
                a[j] /= se;
                for (int k = 0; k < C; k++) cat[i * D + h * C + k] += a[j] * kv[(j * H + h) * 2 * C + C + k];
                for (int k = 0; k < cz; k++) cat[i * D + H * (C + 4 * Pv) + h * cz + k] += a[j] * c->z[(i * N + j) * cz + k];
            }
            for (int p = 0; p < Pv; p++) {
                double og[3] = {0, 0, 0}, g[3], l[3], n2 = 0;
                for (int64_t j = 0; j < N; j++) {
                    ipa_point(c, kvpl, P, j, h, Pq + p, 0, g);
                    for (int e = 0; e < 3; e++) og[e] += a[j] * g[e];
                }
                for (int e = 0; e < 3; e++) {  // R^T (og - t)
                    l[e] = 0;
                    for (int f = 0; f < 3; f++) l[e] += c->R[i * 9 + f * 3 + e] * (og[f] - c->t[i * 3 + f]);
                    cat[i * D + H * C + e * H * Pv + h * Pv + p] = l[e];
                    n2 += l[e] * l[e];
                }
                cat[i * D + H * C + 3 * H * Pv + h * Pv + p] = sqrt(n2 + 1e-8);
            }
        }
    }
    cpu_linear_fwd(N, D, d->c_s, &c->p.out, cat, out, 0);
    return out;
}

static void test_ipa_reference(void) {
    ipa_ctx c;
    ipa_setup(&c, (pf_ipa_dims){.N = 7, .c_s = 6, .c_z = 5, .H = 3, .c = 4, .Pq = 2, .Pv = 3}, 480);
    ipa_loss(&c);
    real *ref = ipa_reference(&c);
    double e = 0, mx = 0;
    for (int64_t i = 0; i < c.d.N; i++)
        for (int k = 0; c.mask[i] && k < c.d.c_s; k++) {
            e = fmax(e, fabs(c.out[i * c.d.c_s + k] - ref[i * c.d.c_s + k]));
            mx = fmax(mx, fabs(ref[i * c.d.c_s + k]));
        }
    tl_check(e < 1e-12 * mx && mx > 0.1, "ipa forward vs OpenFold written out", "max diff %.3e (max |out| %.3f)", e, mx);
}

// IPA is invariant to a global rigid motion of every frame; the outputs of
// unmasked rows ignore masked residues; a second backward doubles.
static void test_ipa_properties(void) {
    pf_ipa_dims d = {.N = 6, .c_s = 5, .c_z = 3, .H = 2, .c = 3, .Pq = 2, .Pv = 3};
    ipa_ctx c;
    ipa_setup(&c, d, 500);
    const int64_t N = d.N, ns = N * d.c_s;
    ipa_loss(&c);
    real *out0 = tl_copy(c.out, ns), *Rg = tl_zeros(9), *tg = tl_zeros(3), *R0 = tl_copy(c.R, N * 9);
    real *t0 = tl_copy(c.t, N * 3);
    rand_frames(1, Rg, tg, 5.0, 510);
    for (int64_t i = 0; i < N; i++) {
        real Rc[9], tc[3];
        pf_frame_compose(Rg, tg, R0 + i * 9, t0 + i * 3, Rc, tc);
        memcpy(c.R + i * 9, Rc, sizeof Rc);
        memcpy(c.t + i * 3, tc, sizeof tc);
    }
    ipa_loss(&c);
    double e = tl_max_abs_diff(c.out, out0, ns);
    tl_check(e < 1e-12 && tl_max_abs(out0, ns) > 1e-3, "ipa invariant to a global rigid motion", "max diff %.3e", e);
    memcpy(c.R, R0, sizeof(real) * (size_t)(N * 9));
    memcpy(c.t, t0, sizeof(real) * (size_t)(N * 3));
    // change the masked residue's s, z row/column and frame: unmasked rows unchanged
    const int64_t m = N - 1;
    for (int k = 0; k < d.c_s; k++) c.s[m * d.c_s + k] += 0.7;
    for (int64_t j = 0; j < N; j++)
        for (int k = 0; k < d.c_z; k++) c.z[(j * N + m) * d.c_z + k] -= 0.4;
    c.t[m * 3] += 2;
    ipa_loss(&c);
    double em = 0, ed = 0;
    for (int64_t i = 0; i < N; i++)
        for (int k = 0; k < d.c_s; k++) {
            double df = fabs(c.out[i * d.c_s + k] - out0[i * d.c_s + k]);
            if (c.mask[i]) em = fmax(em, df); else ed = fmax(ed, df);
        }
    tl_check(em == 0 && ed > 0, "ipa rows ignore masked residues", "unmasked diff %.3e, masked row diff %.3e", em, ed);
    // backward twice doubles (parameters and inputs)
    real *ds = tl_zeros(ns), *dR = tl_zeros(N * 9);
    cpu_ipa_bwd(&c.d, &c.p, &c.g, c.s, c.z, c.R, c.t, c.mask, c.saved, c.W, ds, NULL, dR, NULL);
    real *ds1 = tl_copy(ds, ns), *dR1 = tl_copy(dR, N * 9), *gq1 = tl_copy(c.g.kv_points.w, 3 * 2 * 5 * 5);
    real hw1 = c.g.head_weights[1];
    cpu_ipa_bwd(&c.d, &c.p, &c.g, c.s, c.z, c.R, c.t, c.mask, c.saved, c.W, ds, NULL, dR, NULL);
    double e2 = fabs(c.g.head_weights[1] - 2 * hw1);
    for (int64_t k = 0; k < ns; k++) e2 = fmax(e2, fabs(ds[k] - 2 * ds1[k]));
    for (int64_t k = 0; k < N * 9; k++) e2 = fmax(e2, fabs(dR[k] - 2 * dR1[k]));
    for (int64_t k = 0; k < 3 * 2 * 5 * 5; k++) e2 = fmax(e2, fabs(c.g.kv_points.w[k] - 2 * gq1[k]));
    tl_check(e2 < 1e-12 * tl_max_abs(ds1, ns), "ipa backward twice doubles", "max diff %.3e", e2);
}

void grad_ipa(void) {
    // odd small sizes, and AF2's head / point counts with a small c_s
    test_ipa_grad("ipa", (pf_ipa_dims){.N = 7, .c_s = 6, .c_z = 5, .H = 3, .c = 4, .Pq = 2, .Pv = 3}, 200, 400);
    test_ipa_grad("ipa_af2_heads", (pf_ipa_dims){.N = 5, .c_s = 8, .c_z = 3, .H = 12, .c = 16, .Pq = 4, .Pv = 8},
                  60, 450);
    test_ipa_properties();
    test_ipa_reference();
}

// ---------------------------------------------------------------------------
// The structure module
// ---------------------------------------------------------------------------
typedef struct {
    pf_sm_dims d;
    pf_sm_p p, g;
    ipa_ctx ic;  // the IPA parameters (and test inputs) come from ipa_setup
    real *s, *z, *mask, *Ro, *to, *so, *ang, *saved, *WR, *Wt, *Ws, *Wa, *frozen;
} sm_ctx;

static double sm_loss(void *vc) {
    sm_ctx *c = vc;
    const int64_t N = c->d.ipa.N, L = c->d.n_layers;
    cpu_sm_fwd(&c->d, &c->p, c->s, c->z, c->mask, c->Ro, c->to, c->so, c->ang, c->saved, c->frozen);
    return tl_dot(c->Ro, c->WR, L * N * 9) + tl_dot(c->to, c->Wt, L * N * 3) + tl_dot(c->so, c->Ws, N * c->d.ipa.c_s) +
           tl_dot(c->ang, c->Wa, L * N * 2 * PF_NUM_TORSIONS);
}

static void sm_setup(sm_ctx *c, int64_t N_res, int stop, uint64_t seed) {
    memset(c, 0, sizeof *c);
    pf_ipa_dims id = {.N = N_res, .c_s = 6, .c_z = 4, .H = 2, .c = 3, .Pq = 2, .Pv = 3};
    c->d = (pf_sm_dims){.ipa = id, .n_layers = 3, .stop_rot_grad = stop, .c_resnet = 5, .n_resnet_blocks = 2};
    ipa_setup(&c->ic, id, seed);
    c->p.ipa = c->ic.p;
    c->g.ipa = c->ic.g;
    const int cs = id.c_s;
    const int64_t N = id.N, L = c->d.n_layers;
    tl_layernorm(&c->p.ln_s, &c->g.ln_s, cs, seed + 30);
    tl_layernorm(&c->p.ln_z, &c->g.ln_z, id.c_z, seed + 32);
    tl_layernorm(&c->p.ln_ipa, &c->g.ln_ipa, cs, seed + 34);
    tl_layernorm(&c->p.ln_tr, &c->g.ln_tr, cs, seed + 36);
    tl_linear(&c->p.linear_in, &c->g.linear_in, cs, cs, 1, seed + 40);
    tl_linear(&c->p.tr1, &c->g.tr1, cs, cs, 1, seed + 42);
    tl_linear(&c->p.tr2, &c->g.tr2, cs, cs, 1, seed + 44);
    tl_linear(&c->p.tr3, &c->g.tr3, cs, cs, 1, seed + 46);
    tl_linear(&c->p.bb_update, &c->g.bb_update, 6, cs, 1, seed + 48);
    const int cr = c->d.c_resnet;
    tl_linear(&c->p.angle.lin_in, &c->g.angle.lin_in, cr, cs, 1, seed + 60);
    tl_linear(&c->p.angle.lin_initial, &c->g.angle.lin_initial, cr, cs, 1, seed + 62);
    for (int b = 0; b < c->d.n_resnet_blocks; b++) {
        tl_linear(&c->p.angle.lin_1[b], &c->g.angle.lin_1[b], cr, cr, 1, seed + 64 + 4 * b);
        tl_linear(&c->p.angle.lin_2[b], &c->g.angle.lin_2[b], cr, cr, 1, seed + 66 + 4 * b);
    }
    tl_linear(&c->p.angle.lin_out, &c->g.angle.lin_out, 2 * PF_NUM_TORSIONS, cr, 1, seed + 72);
    c->ang = tl_zeros(L * N * 2 * PF_NUM_TORSIONS);
    c->Wa = tl_rand(L * N * 2 * PF_NUM_TORSIONS, 1, seed + 55);
    c->s = tl_rand(N * cs, 1, seed + 50);
    c->z = tl_rand(N * N * id.c_z, 1, seed + 51);
    c->mask = c->ic.mask;
    c->Ro = tl_zeros(L * N * 9);
    c->to = tl_zeros(L * N * 3);
    c->so = tl_zeros(N * cs);
    c->saved = tl_zeros(cpu_sm_saved_reals(&c->d));
    c->WR = tl_rand(L * N * 9, 1, seed + 52);
    c->Wt = tl_rand(L * N * 3, 0.1, seed + 53);  // t is in A: 10x the internal units
    c->Ws = tl_rand(N * cs, 1, seed + 54);
}

static void sm_add_params(tl_tensors *ts, sm_ctx *c) {
    const int cs = c->d.ipa.c_s;
    ipa_add_params(ts, &c->ic);
    tl_add_layernorm(ts, "layer_norm_s", &c->p.ln_s, &c->g.ln_s, cs);
    tl_add_layernorm(ts, "layer_norm_z", &c->p.ln_z, &c->g.ln_z, c->d.ipa.c_z);
    tl_add_layernorm(ts, "layer_norm_ipa", &c->p.ln_ipa, &c->g.ln_ipa, cs);
    tl_add_layernorm(ts, "transition.layer_norm", &c->p.ln_tr, &c->g.ln_tr, cs);
    tl_add_linear(ts, "linear_in", &c->p.linear_in, &c->g.linear_in, cs, cs);
    tl_add_linear(ts, "transition.linear_1", &c->p.tr1, &c->g.tr1, cs, cs);
    tl_add_linear(ts, "transition.linear_2", &c->p.tr2, &c->g.tr2, cs, cs);
    tl_add_linear(ts, "transition.linear_3", &c->p.tr3, &c->g.tr3, cs, cs);
    tl_add_linear(ts, "bb_update.linear", &c->p.bb_update, &c->g.bb_update, 6, cs);
    const int cr = c->d.c_resnet;
    tl_add_linear(ts, "angle_resnet.linear_in", &c->p.angle.lin_in, &c->g.angle.lin_in, cr, cs);
    tl_add_linear(ts, "angle_resnet.linear_initial", &c->p.angle.lin_initial, &c->g.angle.lin_initial, cr, cs);
    tl_add_linear(ts, "angle_resnet.layers.1.linear_1", &c->p.angle.lin_1[1], &c->g.angle.lin_1[1], cr, cr);
    tl_add_linear(ts, "angle_resnet.layers.0.linear_2", &c->p.angle.lin_2[0], &c->g.angle.lin_2[0], cr, cr);
    tl_add_linear(ts, "angle_resnet.linear_out", &c->p.angle.lin_out, &c->g.angle.lin_out, 2 * PF_NUM_TORSIONS, cr);
}

// stop = 0: the full gradient against plain central differences. stop = 1:
// against central differences of the forward whose later layers take the base
// point's rotations as constants (cpu_sm_fwd's frozen_R), which is what
// AF2's stop_gradient on the rotations defines. Returns d s_init.
static real *test_sm_grad(int stop) {
    static sm_ctx c;
    sm_setup(&c, 7, stop, 600);
    const int64_t N = c.d.ipa.N, L = c.d.n_layers;
    const int cs = c.d.ipa.c_s;
    real *ds = tl_zeros(N * cs), *dz = tl_zeros(N * N * c.d.ipa.c_z);
    tl_tensors ts = {0};
    sm_add_params(&ts, &c);
    tl_add(&ts, "s_init", c.s, ds, N * cs);
    tl_add(&ts, "z", c.z, dz, N * N * c.d.ipa.c_z);
    sm_loss(&c);
    double tmax = 0;
    for (int64_t k = 0; k < L * N * 3; k++) tmax = fmax(tmax, fabs(c.to[k]));
    tl_check(tmax > 1, "structure module moves the frames", "max |t| %.3f A", tmax);
    cpu_sm_bwd(&c.d, &c.p, &c.g, c.s, c.z, c.mask, c.saved, c.WR, c.Wt, c.Ws, c.Wa, ds, dz);
    if (stop) c.frozen = tl_copy(c.Ro, L * N * 9);
    tl_gradcheck(stop ? "structure_module stop_rot_grad" : "structure_module", sm_loss, &c, &ts, 24, TOL);
    return ds;
}

// Forward and backward give the same bits with 1 and 3 threads (N above
// PF_SM_PAR_MIN, so the residue loops do run in parallel).
static void test_sm_threads(void) {
    static sm_ctx c;
    sm_setup(&c, PF_SM_PAR_MIN + 5, 1, 650);
    const int64_t N = c.d.ipa.N, nz = N * N * c.d.ipa.c_z;
    const int cs = c.d.ipa.c_s;
    real *ds[2], *dz[2], *gq[2], *to[2];
    int nt = omp_get_max_threads();
    for (int r = 0; r < 2; r++) {
        omp_set_num_threads(r == 0 ? 1 : 3);
        ds[r] = tl_zeros(N * cs);
        dz[r] = tl_zeros(nz);
        memset(c.g.ipa.q_points.w, 0, sizeof(real) * (size_t)(3 * 2 * 2 * cs));
        sm_loss(&c);
        cpu_sm_bwd(&c.d, &c.p, &c.g, c.s, c.z, c.mask, c.saved, c.WR, c.Wt, c.Ws, c.Wa, ds[r], dz[r]);
        gq[r] = tl_copy(c.g.ipa.q_points.w, 3 * 2 * 2 * cs);
        to[r] = tl_copy(c.to, c.d.n_layers * N * 3);
    }
    omp_set_num_threads(nt);
    int same = !memcmp(ds[0], ds[1], sizeof(real) * (size_t)(N * cs)) && !memcmp(dz[0], dz[1], sizeof(real) * (size_t)nz) &&
               !memcmp(gq[0], gq[1], sizeof(real) * (size_t)(12 * cs)) &&
               !memcmp(to[0], to[1], sizeof(real) * (size_t)(c.d.n_layers * N * 3));
    tl_check(same && tl_max_abs(ds[0], N * cs) > 0, "structure module same bits with 1 and 3 threads", "N = %lld",
             (long long)N);
}

// The structure module's forward with IPA by row ranges (cpu_ipa_fwd_rows, the
// dap path: structure_rows.c) gives cpu_sm_fwd's bits: frames, s and angles.
typedef struct { sm_ctx *c; const real *zln; } rows_hook;

static void ipa_in_pieces(void *ctx, const real *s_in, const real *R_in, const real *t_in, real *out) {
    const rows_hook *k = ctx;
    const pf_ipa_dims *d = &k->c->d.ipa;
    const int64_t N = d->N, cut[] = {0, 13, 26, N};  // three uneven ranges, as dap = 3 has them
    for (int q = 0; q < 3; q++)
        cpu_ipa_fwd_rows(d, &k->c->p.ipa, cut[q], cut[q + 1] - cut[q], s_in, k->zln + cut[q] * N * d->c_z, R_in,
                         t_in, k->c->mask, out + cut[q] * d->c_s);
}

static void test_sm_rows(void) {
    static sm_ctx c;
    sm_setup(&c, PF_SM_PAR_MIN + 5, 1, 660);
    const int64_t N = c.d.ipa.N, L = c.d.n_layers, cs = c.d.ipa.c_s, na = L * N * 2 * PF_NUM_TORSIONS;
    sm_loss(&c);
    real *zln = tl_zeros(N * N * c.d.ipa.c_z), *R = tl_zeros(L * N * 9), *t = tl_zeros(L * N * 3);
    real *so = tl_zeros(N * cs), *ang = tl_zeros(na);
    cpu_ln_fwd(N * N, c.d.ipa.c_z, &c.p.ln_z, c.z, zln, NULL, NULL);
    rows_hook k = {&c, zln};
    cpu_sm_fwd_ipa(&c.d, &c.p, c.s, ipa_in_pieces, &k, R, t, so, ang);
    int same = !memcmp(R, c.Ro, sizeof(real) * (size_t)(L * N * 9)) && !memcmp(t, c.to, sizeof(real) * (size_t)(L * N * 3)) &&
               !memcmp(so, c.so, sizeof(real) * (size_t)(N * cs)) && !memcmp(ang, c.ang, sizeof(real) * (size_t)na);
    tl_check(same && tl_max_abs(c.to, L * N * 3) > 1e-3, "structure module with IPA by row ranges: the same bits",
             "N = %lld, rows 0..12, 13..25, 26..%lld; max diff t %.3e", (long long)N, (long long)N - 1,
             tl_max_abs_diff(t, c.to, L * N * 3));
}

void grad_structure_module(void) {
    test_sm_threads();
    test_sm_rows();
    real *ds0 = test_sm_grad(0), *ds1 = test_sm_grad(1);
    // the stop-gradient must change the gradient (else the check above proves nothing)
    double diff = tl_max_abs_diff(ds0, ds1, 7 * 6);
    tl_check(diff > 1e-6, "stop_rot_grad changes the gradient", "max diff %.3e", diff);
}
