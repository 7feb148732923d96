// cpu_backend.c: the CPU reference backend: memory, elementwise ops, dropout,
// the optimizer, and the table that binds every op.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "../backend/ops.h"
#include "cpu_prim.h"
#include "../core/util.h"
#include "../core/rng.h"

static void *cpu_alloc(pf_backend *be, size_t bytes) { (void)be; return pf_calloc(bytes ? bytes : 1, 1); }
static void cpu_free(pf_backend *be, void *p) { (void)be; pf_free(p); }
static void cpu_zero(pf_backend *be, void *p, size_t bytes) { (void)be; if (bytes) memset(p, 0, bytes); }
static void cpu_copy(pf_backend *be, void *dst, const void *src, size_t bytes) { (void)be; if (bytes && dst != src) memmove(dst, src, bytes); }
static void cpu_act_from_real(pf_backend *be, pf_act *dst, const real *host, int64_t n) { (void)be; if (n) memmove(dst, host, sizeof(real) * (size_t)n); }
static void cpu_act_to_real(pf_backend *be, real *host, const pf_act *src, int64_t n) { (void)be; if (n) memmove(host, src, sizeof(real) * (size_t)n); }
static void cpu_sync(pf_backend *be) { (void)be; }

static void cpu_add(pf_backend *be, pf_act *y, const pf_act *x, int64_t n) {
    (void)be;
    cpu_axpy(n, 1, CPU_CR(x), CPU_R(y));
}

// Mask value (0 or 1 / (1 - rate)) of element (a, b, c) of a (A, B, C) tensor.
static inline real dropout_scale(const pf_dropout *d, int64_t a, int64_t b, int64_t c) {
    int64_t u = d->shared_axis == 0 ? b : a;
    int64_t idx = d->shared_axis == -1 ? (a * d->B + b) * d->C + c : (d->u0 + u) * d->C + c;
    return pf_uniform_f(d->key, (uint64_t)idx) >= d->rate ? (real)(1.0 / (1.0 - (double)d->rate)) : 0;
}

static void cpu_dropout_add(pf_backend *be, const pf_dropout *d, pf_act *yv, const pf_act *dv) {
    real *y = CPU_R(yv);
    const real *delta = CPU_CR(dv);
    int64_t n = d->A * d->B * d->C;
    if (d->rate <= 0) { cpu_add(be, yv, dv, n); return; }
#pragma omp parallel for schedule(static)
    for (int64_t a = 0; a < d->A; a++)
        for (int64_t b = 0; b < d->B; b++)
            for (int64_t c = 0; c < d->C; c++) {
                int64_t i = (a * d->B + b) * d->C + c;
                y[i] += dropout_scale(d, a, b, c) * delta[i];
            }
}

static void cpu_dropout_bwd(pf_backend *be, const pf_dropout *d, pf_act *ddv, const pf_act *dyv) {
    (void)be;
    real *dd = CPU_R(ddv);
    const real *dy = CPU_CR(dyv);
    int64_t n = d->A * d->B * d->C;
    if (d->rate <= 0) { memmove(dd, dy, sizeof(real) * (size_t)n); return; }
#pragma omp parallel for schedule(static)
    for (int64_t a = 0; a < d->A; a++)
        for (int64_t b = 0; b < d->B; b++)
            for (int64_t c = 0; c < d->C; c++) {
                int64_t i = (a * d->B + b) * d->C + c;
                dd[i] = dropout_scale(d, a, b, c) * dy[i];
            }
}

static void cpu_bcast_add(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *xv, int axis, pf_act *yv) {
    (void)be;
    const real *x = CPU_CR(xv);
    real *y = CPU_R(yv);
#pragma omp parallel for schedule(static)
    for (int64_t a = 0; a < A; a++)
        for (int64_t b = 0; b < B; b++) {
            const real *xr = x + (axis == 0 ? b : a) * C;
            real *yr = y + (a * B + b) * C;
            for (int c = 0; c < C; c++) yr[c] += xr[c];
        }
}

static void cpu_bcast_reduce(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *dyv, int axis, pf_act *dxv) {
    (void)be;
    const real *dy = CPU_CR(dyv);
    real *dx = CPU_R(dxv);
    int64_t outer = axis == 0 ? B : A, inner = axis == 0 ? A : B;
#pragma omp parallel for schedule(static)
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t a = axis == 0 ? i : o, b = axis == 0 ? o : i;
            const real *r = dy + (a * B + b) * C;
            for (int c = 0; c < C; c++) dx[o * C + c] += r[c];
        }
}

static void cpu_linear_fwd_op(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p,
                              const pf_act *x, pf_act *y, int accumulate) {
    (void)be;
    cpu_linear_fwd(M, in, out, p, CPU_CR(x), CPU_R(y), accumulate);
}
static void cpu_linear_bwd_op(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p,
                              pf_linear_p *g, const pf_act *x, const pf_act *dy, pf_act *dx) {
    (void)be;
    cpu_linear_bwd(M, in, out, p, g, CPU_CR(x), CPU_CR(dy), dx ? CPU_R(dx) : NULL);
}
static void cpu_layer_norm_fwd_op(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p,
                                  const pf_act *x, pf_act *y) {
    (void)be;
    cpu_ln_fwd(M, c, p, CPU_CR(x), CPU_R(y), NULL, NULL);
}
static void cpu_layer_norm_bwd_op(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p,
                                  pf_layernorm_p *g, const pf_act *x, const pf_act *dy, pf_act *dx) {
    (void)be;
    cpu_ln_bwd(M, c, p, g, CPU_CR(x), CPU_CR(dy), dx ? CPU_R(dx) : NULL);
}

// Sum of squares in a fixed order (blocks of 4096 reduced in sequence) so the
// gradient norm is identical run to run.
static double cpu_sum_sq(pf_backend *be, const real *x, int64_t n) {
    (void)be;
    int64_t nb = (n + 4095) / 4096;
    double *part = pf_malloc(sizeof(double) * (size_t)(nb ? nb : 1));
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < nb; b++) {
        double s = 0;
        int64_t e = PF_MIN(n, (b + 1) * 4096);
        for (int64_t i = b * 4096; i < e; i++) s += (double)x[i] * (double)x[i];
        part[b] = s;
    }
    double s = 0;
    for (int64_t b = 0; b < nb; b++) s += part[b];
    pf_free(part);
    return s;
}

static void cpu_scale(pf_backend *be, real *x, int64_t n, double s) {
    (void)be;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) x[i] = (real)(x[i] * s);
}

// AdamW (Loshchilov & Hutter): decoupled weight decay, bias-corrected moments.
static void cpu_adamw(pf_backend *be, real *p, const real *g, real *m, real *v, int64_t n,
                      const pf_adamw_hp *hp) {
    (void)be;
    double bc1 = 1.0 - pow(hp->beta1, (double)hp->step), bc2 = 1.0 - pow(hp->beta2, (double)hp->step);
    float lr = hp->lr, b1 = hp->beta1, b2 = hp->beta2, eps = hp->eps, wd = hp->weight_decay;
    float step_size = (float)(lr / bc1), rbc2 = (float)(1.0 / sqrt(bc2));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        real gi = g[i];
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        real denom = (real)sqrt(v[i]) * rbc2 + eps;
        p[i] = p[i] * (1 - lr * wd) - step_size * m[i] / denom;
    }
}

// Computed as avg + (1 - decay)(x - avg): exact when x == avg, in any precision.
static void cpu_ema(pf_backend *be, real *avg, const real *x, int64_t n, double decay) {
    (void)be;
    real w = (real)(1.0 - decay);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) avg[i] += w * (x[i] - avg[i]);
}

static pf_backend cpu_backend = {
    .name = "cpu",
    .act_bytes = sizeof(real),
    .supports = pf_backend_supports_by_slots,  // derived from the slots below
    .alloc = cpu_alloc,
    .free = cpu_free,
    .zero = cpu_zero,
    .copy = cpu_copy,
    .upload = cpu_copy,
    .download = cpu_copy,
    .act_from_real = cpu_act_from_real,
    .act_to_real = cpu_act_to_real,
    .sync = cpu_sync,
    .add = cpu_add,
    .dropout_add = cpu_dropout_add,
    .dropout_bwd = cpu_dropout_bwd,
    .bcast_add = cpu_bcast_add,
    .bcast_reduce = cpu_bcast_reduce,
    .linear_fwd = cpu_linear_fwd_op,
    .linear_bwd = cpu_linear_bwd_op,
    .layer_norm_fwd = cpu_layer_norm_fwd_op,
    .layer_norm_bwd = cpu_layer_norm_bwd_op,
    .relpos_fwd = cpu_relpos_fwd,
    .relpos_bwd = cpu_relpos_bwd,
    .disto_fwd = cpu_disto_fwd,
    .disto_bwd = cpu_disto_bwd,
    .xent = cpu_xent,
    // every module op of ops.def: .NAME_mem = cpu_NAME_mem, _fwd, _bwd
#define PF_MODULE_OP(name, NAME, D, P, n_in) \
    .name##_mem = cpu_##name##_mem, .name##_fwd = cpu_##name##_fwd, .name##_bwd = cpu_##name##_bwd,
#include "../backend/ops.def"
    .attn_keep_bytes = cpu_attn_keep_bytes,
    .core_attn_ws = cpu_core_attn_ws,
    .core_attn_fwd = cpu_core_attn_fwd,
    .core_attn_bwd = cpu_core_attn_bwd,
    .attn_dap_mem = cpu_attn_dap_mem,
    .attn_dap_fwd = cpu_attn_dap_fwd,
    .attn_dap_bwd = cpu_attn_dap_bwd,
    .trimul_dap_mem = cpu_trimul_dap_mem,
    .trimul_dap_fwd = cpu_trimul_dap_fwd,
    .trimul_dap_bwd = cpu_trimul_dap_bwd,
    .dap_transpose = cpu_dap_transpose,
    .opm_dap_mem = cpu_opm_dap_mem,
    .opm_dap_fwd = cpu_opm_dap_fwd,
    .opm_dap_bwd = cpu_opm_dap_bwd,
    .pwavg_dap_mem = cpu_pwavg_dap_mem,
    .pwavg_dap_fwd = cpu_pwavg_dap_fwd,
    .pwavg_dap_bwd = cpu_pwavg_dap_bwd,
    .dap_reshard = cpu_dap_reshard,
    .ipa_mem = cpu_ipa_mem,
    .ipa_fwd = cpu_ipa_fwd_op,
    .ipa_bwd = cpu_ipa_bwd_op,
    .ipa_fwd_rows = cpu_ipa_fwd_rows_op,
    .sm_mem = cpu_sm_mem,
    .sm_fwd = cpu_sm_fwd_op,
    .sm_bwd = cpu_sm_bwd_op,
    .plddt_fwd = cpu_plddt_fwd_op,
    .plddt_bwd = cpu_plddt_bwd_op,
    .sum_sq = cpu_sum_sq,
    .scale = cpu_scale,
    .adamw = cpu_adamw,
    .ema = cpu_ema,
};

pf_backend *pf_backend_cpu(void) { return &cpu_backend; }
