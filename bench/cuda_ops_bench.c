// cuda_ops_bench.c: op-level timings of the CUDA backend (bf16), one JSON line
// per (op, N): median ms of the forward and of forward+backward, TFLOP/s by the
// FLOP model below, and device memory (planned saved+ws, and the high-water
// mark of cudaMemGetInfo around the op).
//   bench_cuda_ops [--ops tri_attn,tri_attn_end,trimul,transition] [--sizes 256,512,...] [--reps 10] [--fp32]
// tri_attn is the starting node, tri_attn_end the ending node (the transposed op).
// FLOP model (multiply-add = 2), M = N*N positions, c = c_z, HC = H*c_h:
//   tri_attn fwd: projections 2 M c (4 HC + H) + output 2 M HC c + core 4 N^3 H c_h
//            bwd: 2 x projections/output + 2.5 x core (FlashAttention's count:
//                 5 products against 2), so fwd+bwd = 3 x linear + 3.5 x core.
//   trimul fwd: 2 M c_z (4 c + c_z) + 2 M c c_z + contraction 2 N^3 c; fwd+bwd = 3 x fwd.
//   transition fwd: 2 M c (n c) x 2 (ReLU) or x 3 (SwiGLU); fwd+bwd = 3 x fwd (the
//            backward's recompute of the hidden layer not counted). The AF3 pair
//            transition: SwiGLU, c = 128, n = 4, M = N*N.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime_api.h>
#include "../src/backend/backend.h"
#include "../src/cuda/cuda_backend.h"
#include "../src/core/util.h"
#include "../src/core/rng.h"
#include "../src/core/env_names.h"

static pf_backend *be;
static size_t mem_base;

static size_t used_now(void) {
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    return tot - fr;
}

static real *dparam(int64_t n, double scale, double shift, uint64_t seed) {
    real *h = pf_malloc(sizeof(real) * (size_t)n);
    uint64_t key = pf_hash2(seed, 99);
    for (int64_t i = 0; i < n; i++) h[i] = (real)(shift + scale * (2 * pf_uniform(key, (uint64_t)i) - 1));
    real *d = be->alloc(be, sizeof(real) * (size_t)n);
    be->upload(be, d, h, sizeof(real) * (size_t)n);
    pf_free(h);
    return d;
}
static pf_linear_p lin(int out, int in, int bias, uint64_t seed) {
    pf_linear_p p = {dparam((int64_t)out * in, 1.0 / sqrt(in), 0, seed), bias ? dparam(out, 0.1, 0, seed + 1) : NULL};
    return p;
}
static pf_linear_p lin_zero(int out, int in, int bias) {
    pf_linear_p p = {be->alloc(be, sizeof(real) * (size_t)out * in), bias ? be->alloc(be, sizeof(real) * out) : NULL};
    be->zero(be, p.w, sizeof(real) * (size_t)out * in);
    if (p.b) be->zero(be, p.b, sizeof(real) * out);
    return p;
}
static pf_layernorm_p lnp(int c, uint64_t seed) {
    pf_layernorm_p p = {dparam(c, 0.1, 1, seed), dparam(c, 0.1, 0, seed + 1)};
    return p;
}
static pf_layernorm_p ln_zero(int c) {
    pf_layernorm_p p = {be->alloc(be, 4 * c), be->alloc(be, 4 * c)};
    be->zero(be, p.w, 4 * c);
    be->zero(be, p.b, 4 * c);
    return p;
}
static pf_act *dact(int64_t n, uint64_t seed) {
    real *h = pf_malloc(sizeof(real) * (size_t)n);
    uint64_t key = pf_hash2(seed, 7);
    for (int64_t i = 0; i < n; i++) h[i] = (real)(2 * pf_uniform(key, (uint64_t)i) - 1);
    pf_act *d = be->alloc(be, pf_act_size(be, n));
    be->act_from_real(be, d, h, n);
    pf_free(h);
    return d;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef void (*step_fn)(void *ctx, int bwd);
static double time_median(step_fn f, void *ctx, int bwd, int reps) {
    double *t = malloc(sizeof(double) * reps);
    f(ctx, bwd);  // warm-up (heuristics, weight copies)
    f(ctx, bwd);
    be->sync(be);
    for (int r = 0; r < reps; r++) {
        double t0 = pf_now_ms();
        f(ctx, bwd);
        be->sync(be);
        t[r] = pf_now_ms() - t0;
    }
    qsort(t, reps, sizeof(double), cmp_d);
    double m = t[reps / 2];
    free(t);
    return m;
}

// ---- triangle attention (starting or ending node), and trimul / transition ---------------
typedef struct {
    pf_attn_dims d;
    pf_attn_p p, g;
    pf_act *x, *mask, *out, *dout, *dx;
    void *saved, *ws;
} attn_ctx;
static void attn_step(void *c_, int bwd) {
    attn_ctx *c = c_;
    be->attn_fwd(be, &c->d, &c->p, c->x, NULL, c->mask, c->out, c->saved, c->ws);
    if (bwd) be->attn_bwd(be, &c->d, &c->p, &c->g, c->mask, c->saved, c->dout, c->dx, NULL, c->ws);
}
typedef struct {
    pf_trimul_dims d;
    pf_trimul_p p, g;
    pf_act *z, *mask, *out, *dout, *dz;
    void *saved, *ws;
} tm_ctx;
static void tm_step(void *c_, int bwd) {
    tm_ctx *c = c_;
    be->trimul_fwd(be, &c->d, &c->p, c->z, c->mask, c->out, c->saved, c->ws);
    if (bwd) be->trimul_bwd(be, &c->d, &c->p, &c->g, c->mask, c->saved, c->dout, c->dz, c->ws);
}

typedef struct {
    pf_transition_dims d;
    pf_transition_p p, g;
    pf_act *x, *mask, *out, *dout, *dx;
    void *saved, *ws;
} tr_ctx;
static void tr_step(void *c_, int bwd) {
    tr_ctx *c = c_;
    be->transition_fwd(be, &c->d, &c->p, c->x, c->mask, c->out, c->saved, c->ws);
    if (bwd) be->transition_bwd(be, &c->d, &c->p, &c->g, c->mask, c->saved, c->dout, c->dx, c->ws);
}

static void report(const char *op, int64_t N, double fwd_ms, double fb_ms, double fwd_flop, double fb_flop,
                   pf_mem m, size_t peak) {
    printf("{\"impl\": \"pairfold\", \"op\": \"%s\", \"N\": %lld, \"fwd_ms\": %.4f, \"fwdbwd_ms\": %.4f, "
           "\"fwd_tflops\": %.2f, \"fwdbwd_tflops\": %.2f, \"saved_mib\": %.1f, \"ws_mib\": %.1f, \"peak_mib\": %.1f}\n",
           op, (long long)N, fwd_ms, fb_ms, fwd_flop / fwd_ms * 1e-9, fb_flop / fb_ms * 1e-9, m.saved / 1048576.0,
           m.ws / 1048576.0, peak / 1048576.0);
    fflush(stdout);
}

static void bench_tri_attn(int64_t N, int reps, int end) {
    attn_ctx c;
    memset(&c, 0, sizeof c);
    int cz = 128, H = 4, ch = 32, HC = H * ch;
    c.d = (pf_attn_dims){N, N, cz, H, ch, cz, PF_BIAS_SELF, end, NULL, 0};
    c.p.ln = lnp(cz, 1);
    c.p.q = lin(HC, cz, 0, 2); c.p.k = lin(HC, cz, 0, 3); c.p.v = lin(HC, cz, 0, 4);
    c.p.g = lin(HC, cz, 1, 5); c.p.o = lin(cz, HC, 1, 6); c.p.bias = lin(H, cz, 0, 7);
    c.g.ln = ln_zero(cz);
    c.g.q = lin_zero(HC, cz, 0); c.g.k = lin_zero(HC, cz, 0); c.g.v = lin_zero(HC, cz, 0);
    c.g.g = lin_zero(HC, cz, 1); c.g.o = lin_zero(cz, HC, 1); c.g.bias = lin_zero(H, cz, 0);
    int64_t M = N * N, nx = M * cz;
    c.x = dact(nx, 8);
    c.dout = dact(nx, 9);
    c.out = be->alloc(be, pf_act_size(be, nx));
    c.dx = be->alloc(be, pf_act_size(be, nx));
    be->zero(be, c.dx, pf_act_size(be, nx));
    c.mask = NULL;
    pf_mem m = be->attn_mem(be, &c.d);
    c.saved = be->alloc(be, m.saved);
    c.ws = be->alloc(be, m.ws);
    size_t peak = used_now() - mem_base;
    double lin_f = 2.0 * M * cz * (4.0 * HC + H) + 2.0 * M * HC * cz;
    double core_f = 4.0 * (double)N * N * N * H * ch;
    double tf = time_median(attn_step, &c, 0, reps), tb = time_median(attn_step, &c, 1, reps);
    size_t p2 = used_now() - mem_base;
    report(end ? "tri_attn_end" : "tri_attn", N, tf, tb, lin_f + core_f, 3 * lin_f + 3.5 * core_f, m, p2 > peak ? p2 : peak);
    void *bufs[] = {c.x, c.dout, c.out, c.dx, c.saved, c.ws};
    for (int i = 0; i < 6; i++) be->free(be, bufs[i]);
    // parameters are leaked deliberately: small, and the process ends soon
}

static void bench_trimul(int64_t N, int reps) {
    tm_ctx c;
    memset(&c, 0, sizeof c);
    int cz = 128, ch = 128;
    c.d = (pf_trimul_dims){N, cz, ch, 0};
    c.p.ln_in = lnp(cz, 1); c.p.ln_out = lnp(ch, 2);
    c.p.a_p = lin(ch, cz, 0, 3); c.p.a_g = lin(ch, cz, 0, 4); c.p.b_p = lin(ch, cz, 0, 5); c.p.b_g = lin(ch, cz, 0, 6);
    c.p.g = lin(cz, cz, 0, 7); c.p.z = lin(cz, ch, 0, 8);
    c.g.ln_in = ln_zero(cz); c.g.ln_out = ln_zero(ch);
    c.g.a_p = lin_zero(ch, cz, 0); c.g.a_g = lin_zero(ch, cz, 0); c.g.b_p = lin_zero(ch, cz, 0); c.g.b_g = lin_zero(ch, cz, 0);
    c.g.g = lin_zero(cz, cz, 0); c.g.z = lin_zero(cz, ch, 0);
    int64_t M = N * N, nz = M * cz;
    c.z = dact(nz, 9);
    c.dout = dact(nz, 10);
    c.out = be->alloc(be, pf_act_size(be, nz));
    c.dz = be->alloc(be, pf_act_size(be, nz));
    be->zero(be, c.dz, pf_act_size(be, nz));
    pf_mem m = be->trimul_mem(be, &c.d);
    c.saved = be->alloc(be, m.saved);
    c.ws = be->alloc(be, m.ws);
    double f = 2.0 * M * cz * (4.0 * ch + cz) + 2.0 * M * ch * cz + 2.0 * (double)N * N * N * ch;
    double tf = time_median(tm_step, &c, 0, reps), tb = time_median(tm_step, &c, 1, reps);
    report("trimul", N, tf, tb, f, 3 * f, m, used_now() - mem_base);
    void *bufs[] = {c.z, c.dout, c.out, c.dz, c.saved, c.ws};
    for (int i = 0; i < 6; i++) be->free(be, bufs[i]);
}

// AF3's pair transition: SwiGLU, c = 128, n = 4, the pair mask (all ones) as the block
// passes it. PF_TR_FUSED=0 (unfused) or 2 (fused, LayerNorm apart) and PF_TR_CHUNK_M=4
// (the former chunks) for A/B runs.
static void bench_transition(int64_t N, int reps) {
    tr_ctx c;
    memset(&c, 0, sizeof c);
    int cz = 128, n = 4;
    c.d = (pf_transition_dims){N * N, cz, n, PF_ACT_SWIGLU};
    c.p.ln = lnp(cz, 1);
    c.p.lin_a = lin(n * cz, cz, 0, 2); c.p.lin_b = lin(n * cz, cz, 0, 3); c.p.lin_out = lin(cz, n * cz, 0, 4);
    c.g.ln = ln_zero(cz);
    c.g.lin_a = lin_zero(n * cz, cz, 0); c.g.lin_b = lin_zero(n * cz, cz, 0); c.g.lin_out = lin_zero(cz, n * cz, 0);
    int64_t M = N * N, nx = M * cz;
    c.x = dact(nx, 5);
    c.dout = dact(nx, 6);
    c.out = be->alloc(be, pf_act_size(be, nx));
    c.dx = be->alloc(be, pf_act_size(be, nx));
    be->zero(be, c.dx, pf_act_size(be, nx));
    real *ones = pf_malloc(sizeof(real) * (size_t)M);
    for (int64_t i = 0; i < M; i++) ones[i] = 1;
    c.mask = be->alloc(be, pf_act_size(be, M));
    be->act_from_real(be, c.mask, ones, M);
    pf_free(ones);
    pf_mem m = be->transition_mem(be, &c.d);
    c.saved = be->alloc(be, m.saved);
    c.ws = be->alloc(be, m.ws);
    double f = pf_transition_flops(&c.d);
    double tf = time_median(tr_step, &c, 0, reps), tb = time_median(tr_step, &c, 1, reps);
    report("transition", N, tf, tb, f, 3 * f, m, used_now() - mem_base);
    void *bufs[] = {c.x, c.dout, c.out, c.dx, c.mask, c.saved, c.ws};
    for (int i = 0; i < 7; i++) be->free(be, bufs[i]);
}

// Whether the comma-separated list ops names op (whole names: tri_attn is not tri_attn_end).
static int has_op(const char *ops, const char *op) {
    size_t n = strlen(op);
    for (const char *s = ops; (s = strstr(s, op)) != NULL; s += n)
        if ((s == ops || s[-1] == ',') && (s[n] == ',' || s[n] == 0)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (pf_env_check_unknown("bench_cuda_ops")) return 2;  // an A/B switch mistyped would time the defaults
    const char *ops = "tri_attn,trimul";
    const char *sizes = "256,512,768,1024";
    int reps = 10, fp32 = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = argv[++i];
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fp32")) fp32 = 1;
    }
    mem_base = used_now();
    be = pf_backend_cuda(!fp32);
    if (!be) pf_die("no CUDA device");
    mem_base = used_now();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", sizes);
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
        int64_t N = atoll(s);
        if (has_op(ops, "tri_attn")) bench_tri_attn(N, reps, 0);
        if (has_op(ops, "tri_attn_end")) bench_tri_attn(N, reps, 1);
        if (has_op(ops, "trimul")) bench_trimul(N, reps);
        if (has_op(ops, "transition")) bench_transition(N, reps);
    }
    be->destroy(be);
    return 0;
}
