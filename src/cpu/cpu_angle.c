// cpu_angle.c: the structure module's angle resnet (AF2 Alg. 20 lines 11-13,
// OpenFold AngleResnet) and the torsion-angle loss (Alg. 27). The math is in
// struct_modules.h. The resnet is small (c_resnet = 128), so its backward
// recomputes the forward rather than have the module save it per layer.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

#define ANGLE_NORM_EPS 1e-12  // OpenFold AngleResnet: sqrt(max(|a|^2, eps))
#define TORSION_EPS 1e-8

static void relu_into(int64_t n, const real *x, real *y) {
    for (int64_t k = 0; k < n; k++) y[k] = x[k] > 0 ? x[k] : 0;
}

// acts: a_0 .. a_B (B + 1 of (N, c_r)) | h_0 .. h_{B-1} (pre-activations of linear_1) | r (N, max(c_s, c_r)) scratch
static int64_t ar_act_reals(const pf_sm_dims *d) {
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, cr = d->c_resnet;
    return (2 * B + 1) * N * cr + N * PF_MAX(cr, d->ipa.c_s);
}

static void ar_forward(const pf_sm_dims *d, const pf_angle_resnet_p *p, const real *s, const real *s_initial,
                       real *acts, real *out) {
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, n = N * d->c_resnet;
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    real *h = acts + (B + 1) * n, *r = h + B * n;
    relu_into(N * cs, s_initial, r);
    cpu_linear_fwd(N, cs, cr, &p->lin_initial, r, acts, 0);
    relu_into(N * cs, s, r);
    cpu_linear_fwd(N, cs, cr, &p->lin_in, r, acts, 1);
    for (int64_t b = 0; b < B; b++) {
        real *a = acts + b * n, *a_next = a + n;
        relu_into(n, a, r);
        cpu_linear_fwd(N, cr, cr, &p->lin_1[b], r, h + b * n, 0);
        relu_into(n, h + b * n, r);
        memcpy(a_next, a, sizeof(real) * (size_t)n);
        cpu_linear_fwd(N, cr, cr, &p->lin_2[b], r, a_next, 1);
    }
    relu_into(n, acts + B * n, r);
    cpu_linear_fwd(N, cr, 2 * PF_NUM_TORSIONS, &p->lin_out, r, out, 0);
}

void cpu_angle_resnet_fwd(const pf_sm_dims *d, const pf_angle_resnet_p *p, const real *s, const real *s_initial,
                          real *angles) {
    real *acts = pf_malloc(sizeof(real) * (size_t)ar_act_reals(d));
    ar_forward(d, p, s, s_initial, acts, angles);
    pf_free(acts);
}

// Zero where x <= 0 (the ReLU's backward, in place on dy).
static void relu_mask(int64_t n, const real *x, real *dy) {
    for (int64_t k = 0; k < n; k++) if (x[k] <= 0) dy[k] = 0;
}

void cpu_angle_resnet_bwd(const pf_sm_dims *d, const pf_angle_resnet_p *p, pf_angle_resnet_p *g, const real *s,
                          const real *s_initial, const real *d_angles, real *d_s, real *d_s_initial) {
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, n = N * d->c_resnet;
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    real *acts = pf_malloc(sizeof(real) * (size_t)ar_act_reals(d));
    real *out = pf_malloc(sizeof(real) * (size_t)(N * 2 * PF_NUM_TORSIONS));
    real *da = pf_calloc((size_t)n, sizeof(real)), *dt = pf_calloc((size_t)n, sizeof(real));
    ar_forward(d, p, s, s_initial, acts, out);
    real *h = acts + (B + 1) * n, *r = h + B * n;
    relu_into(n, acts + B * n, r);
    cpu_linear_bwd(N, cr, 2 * PF_NUM_TORSIONS, &p->lin_out, &g->lin_out, r, d_angles, da);
    relu_mask(n, acts + B * n, da);  // da = d a_B
    real *dx = pf_calloc((size_t)PF_MAX(n, N * cs), sizeof(real));
    for (int64_t b = B - 1; b >= 0; b--) {  // a_{b+1} = a_b + W2 relu(W1 relu(a_b)): da carries the residual
        const real *a = acts + b * n;
        relu_into(n, h + b * n, r);
        memset(dt, 0, sizeof(real) * (size_t)n);
        cpu_linear_bwd(N, cr, cr, &p->lin_2[b], &g->lin_2[b], r, da, dt);
        relu_mask(n, h + b * n, dt);
        relu_into(n, a, r);
        memset(dx, 0, sizeof(real) * (size_t)n);
        cpu_linear_bwd(N, cr, cr, &p->lin_1[b], &g->lin_1[b], r, dt, dx);
        relu_mask(n, a, dx);
        for (int64_t k = 0; k < n; k++) da[k] += dx[k];
    }
    // a_0 = linear_in(relu(s)) + linear_initial(relu(s_initial))
    memset(dx, 0, sizeof(real) * (size_t)(N * cs));
    relu_into(N * cs, s, r);
    cpu_linear_bwd(N, cs, cr, &p->lin_in, &g->lin_in, r, da, dx);
    relu_mask(N * cs, s, dx);
    if (d_s) for (int64_t k = 0; k < N * cs; k++) d_s[k] += dx[k];
    memset(dx, 0, sizeof(real) * (size_t)(N * cs));
    relu_into(N * cs, s_initial, r);
    cpu_linear_bwd(N, cs, cr, &p->lin_initial, &g->lin_initial, r, da, dx);
    relu_mask(N * cs, s_initial, dx);
    if (d_s_initial) for (int64_t k = 0; k < N * cs; k++) d_s_initial[k] += dx[k];
    real *bufs[] = {acts, out, da, dt, dx};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

// ---------------------------------------------------------------------------
// Torsion-angle loss
// ---------------------------------------------------------------------------
double cpu_torsion_loss(int64_t N, const real *angles, const real *a_true, const real *a_alt, const real *tmask,
                        const real *seq_mask, double scale, real *d_angles) {
    double m_sum = 0, s_sum = 0, lt = 0, ln = 0;
    for (int64_t i = 0; i < N; i++) {
        s_sum += seq_mask ? seq_mask[i] : 1;
        for (int t = 0; t < PF_NUM_TORSIONS; t++) m_sum += tmask[i * PF_NUM_TORSIONS + t];
    }
    const double kt = 1.0 / (TORSION_EPS + m_sum), kn = PF_TORSION_NORM_WEIGHT / (TORSION_EPS + PF_NUM_TORSIONS * s_sum);
    for (int64_t i = 0; i < N; i++)  // serial: one fixed summation order
        for (int t = 0; t < PF_NUM_TORSIONS; t++) {
            const int64_t k = (i * PF_NUM_TORSIONS + t) * 2;
            const real x = angles[k], y = angles[k + 1], m = tmask[k / 2], sm = seq_mask ? seq_mask[i] : 1;
            const double l = sqrt(fmax(x * x + y * y, ANGLE_NORM_EPS)), ax = x / l, ay = y / l;
            const double e1 = (ax - a_true[k]) * (ax - a_true[k]) + (ay - a_true[k + 1]) * (ay - a_true[k + 1]);
            const double e2 = (ax - a_alt[k]) * (ax - a_alt[k]) + (ay - a_alt[k + 1]) * (ay - a_alt[k + 1]);
            const real *ref = e1 <= e2 ? a_true + k : a_alt + k;
            lt += m * fmin(e1, e2);
            ln += sm * fabs(l - 1);
            if (!d_angles) continue;
            // d/d(ax, ay) of the chosen error, then through a = angles / l:
            // d angles = (g - a (a . g)) / l; plus the norm term's sign(l - 1) a.
            double gx = 2 * m * kt * (ax - ref[0]), gy = 2 * m * kt * (ay - ref[1]), dot = ax * gx + ay * gy;
            double sg = sm * kn * (l > 1 ? 1 : l < 1 ? -1 : 0);
            d_angles[k] += (real)(scale * ((gx - ax * dot) / l + sg * ax));
            d_angles[k + 1] += (real)(scale * ((gy - ay * dot) / l + sg * ay));
        }
    return lt * kt + ln * kn;
}
