// test_cuda_big.c: the CUDA backend on tensors of more than 2^31 elements (64-bit offsets), test_cuda's
// "big" group (not in --quick): LayerNorm, the transition and MSA column attention on a few rows of a 2^31 +
// 2176 element tensor; the triangle multiplication, triangle attention (starting and ending node), the outer
// product mean and pair-weighted averaging at N = 4100 (N^2 x 128 = 2,151,680,000 elements) with the data in a
// small block at the tail, checked against the CPU reference of the block's own problem.
// bf16 only where the fp32 buffers at these sizes would come near the card's memory.
#pragma GCC diagnostic ignored "-Wincompatible-pointer-types"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/cuda/cuda_backend.h"
#include "../../src/core/util.h"

void h_trimul_params(pf_trimul_p *P, pf_trimul_p *G, pf_trimul_p *Pd, pf_trimul_p *Gd, int c_z, int c,
                     int bias);                                                                      // test_cuda.c
void h_pwavg_params(pf_pwavg_p *P, pf_pwavg_p *G, pf_pwavg_p *Pd, pf_pwavg_p *Gd, const pf_pwavg_dims *d);  // test_cuda.c

static void finish(const char *label) {
    char s[320];  // labels are up to 256 characters
    snprintf(s, sizeof s, "%s guards", label);
    tl_check(h_guards_ok(), s, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

// ---- 64-bit offsets: tensors of more than 2^31 elements ------------------------------
// Element indices of the last rows do not fit in int32 (kernels that index with int
// would crash or alias near N = 2900 in a (N, N, 256) tensor). Per-position ops are
// checked on a few rows, the first and the last, against the CPU reference run on
// just those rows (the GPU's rounded inputs are downloaded and fed to the CPU).
static real *big_rows(const pf_act *dev, int64_t first, int64_t stride, int64_t count, int c) {
    real *h = tl_zeros(count * c);
    for (int64_t k = 0; k < count; k++) H_gpu->act_to_real(H_gpu, h + k * c, pf_act_at(H_gpu, dev, (first + k * stride) * c), c);
    return h;
}

static void big_check(const char *label, const char *what, int64_t row, const real *got, const real *ref, int64_t n) {
    char s[320];  // labels are up to 256 characters
    snprintf(s, sizeof s, "%s %s row %lld", label, what, (long long)row);
    h_compare(s, got, ref, n, H_tol);
}

static void test_big_rows(void) {
    const int c = 128;
    const int64_t M = ((int64_t)1 << 24) + 17, n = M * c;  // 2^31 + 2176 elements
    char label[128];
    snprintf(label, sizeof label, "%s big (%lld elements)", H_gpu->name, (long long)n);
    h_params_reset();
    real *hx = pf_malloc(sizeof(real) * (size_t)n);
    for (int64_t i = 0; i < n; i++) hx[i] = (real)((double)(((uint64_t)i * 2654435761ull) % 2001) / 1000.0 - 1.0);
    size_t bytes = pf_act_size(H_gpu, n);
    pf_act *x = H_gpu->alloc(H_gpu, bytes), *y = H_gpu->alloc(H_gpu, bytes), *dx = H_gpu->alloc(H_gpu, bytes);
    H_gpu->act_from_real(H_gpu, x, hx, n);
    pf_free(hx);
    H_gpu->zero(H_gpu, dx, bytes);
    const int64_t rows[] = {0, M / 2, M - 2, M - 1};

    // LayerNorm forward and backward (dy = y)
    pf_layernorm_p P, G, Pd, Gd;
    h_layernorm(&P, &G, &Pd, &Gd, c, 77, "big.ln");
    H_gpu->layer_norm_fwd(H_gpu, M, c, &Pd, x, y);
    H_gpu->layer_norm_bwd(H_gpu, M, c, &Pd, &Gd, x, y, dx);
    for (int k = 0; k < 4; k++) {
        int64_t r = rows[k];
        real *xr = big_rows(x, r, 1, 1, c), *dyr = big_rows(y, r, 1, 1, c), *yr = tl_zeros(c), *dxr = tl_zeros(c);
        H_cpu->layer_norm_fwd(H_cpu, 1, c, &P, xr, yr);
        big_check(label, "layer_norm fwd", r, dyr, yr, c);
        H_cpu->layer_norm_bwd(H_cpu, 1, c, &P, NULL, xr, dyr, dxr);
        big_check(label, "layer_norm bwd dx", r, big_rows(dx, r, 1, 1, c), dxr, c);
    }

    // SwiGLU transition forward (row-chunked on the GPU)
    pf_transition_p T, TG, Td, TGd;
    memset(&T, 0, sizeof T); memset(&TG, 0, sizeof TG); memset(&Td, 0, sizeof Td); memset(&TGd, 0, sizeof TGd);
    h_layernorm(&T.ln, &TG.ln, &Td.ln, &TGd.ln, c, 78, "big.tr.ln");
    h_linear(&T.lin_a, &TG.lin_a, &Td.lin_a, &TGd.lin_a, 2 * c, c, 0, 79, "big.tr.a");
    h_linear(&T.lin_b, &TG.lin_b, &Td.lin_b, &TGd.lin_b, 2 * c, c, 0, 80, "big.tr.b");
    h_linear(&T.lin_out, &TG.lin_out, &Td.lin_out, &TGd.lin_out, c, 2 * c, 0, 81, "big.tr.out");
    pf_transition_dims td = {M, c, 2, PF_ACT_SWIGLU}, t1 = {1, c, 2, PF_ACT_SWIGLU};
    pf_mem mg = H_gpu->transition_mem(H_gpu, &td), mc = H_cpu->transition_mem(H_cpu, &t1);
    void *gws = H_gpu->alloc(H_gpu, mg.ws + 256), *cws = pf_calloc(mc.ws + 64, 1);
    H_gpu->transition_fwd(H_gpu, &td, &Td, x, NULL, y, NULL, gws);
    for (int k = 0; k < 4; k++) {
        int64_t r = rows[k];
        real *xr = big_rows(x, r, 1, 1, c), *yr = tl_zeros(c);
        H_cpu->transition_fwd(H_cpu, &t1, &T, xr, NULL, yr, NULL, cws);
        big_check(label, "transition fwd", r, big_rows(y, r, 1, 1, c), yr, c);
    }
    H_gpu->free(H_gpu, gws);
    pf_free(cws);

    // MSA column attention (transposed, no bias) on x viewed as (S, N, 64): the
    // input and output offsets of the last columns pass 2^31.
    const int ca = 64;
    const int64_t S = 32, N = ((int64_t)1 << 20) + 1;  // S * N * 64 = 2^31 + 2048 <= n
    pf_attn_p A, AG, Ad, AGd;
    memset(&A, 0, sizeof A); memset(&AG, 0, sizeof AG); memset(&Ad, 0, sizeof Ad); memset(&AGd, 0, sizeof AGd);
    h_layernorm(&A.ln, &AG.ln, &Ad.ln, &AGd.ln, ca, 82, "big.attn.ln");
    h_linear(&A.q, &AG.q, &Ad.q, &AGd.q, 16, ca, 0, 83, "big.q");
    h_linear(&A.k, &AG.k, &Ad.k, &AGd.k, 16, ca, 0, 84, "big.k");
    h_linear(&A.v, &AG.v, &Ad.v, &AGd.v, 16, ca, 0, 85, "big.v");
    h_linear(&A.g, &AG.g, &Ad.g, &AGd.g, 16, ca, 1, 86, "big.g");
    h_linear(&A.o, &AG.o, &Ad.o, &AGd.o, ca, 16, 1, 87, "big.o");
    pf_attn_dims ad = {N, S, ca, 1, 16, 0, PF_BIAS_NONE, 1, NULL, 0}, a1 = {1, S, ca, 1, 16, 0, PF_BIAS_NONE, 1, NULL, 0};
    pf_mem ag = H_gpu->attn_mem(H_gpu, &ad), ac = H_cpu->attn_mem(H_cpu, &a1);
    gws = H_gpu->alloc(H_gpu, ag.ws + 256);
    cws = pf_calloc(ac.ws + 64, 1);
    H_gpu->attn_fwd(H_gpu, &ad, &Ad, x, NULL, NULL, y, NULL, gws);
    const int64_t cols[] = {0, N - 2, N - 1};
    for (int k = 0; k < 3; k++) {
        int64_t r = cols[k];
        real *xc = big_rows(x, r, N, S, ca), *yc = tl_zeros(S * ca);  // (S, 1, 64)
        H_cpu->attn_fwd(H_cpu, &a1, &A, xc, NULL, NULL, yc, NULL, cws);
        big_check(label, "msa_col attention fwd", r, big_rows(y, r, N, S, ca), yc, S * ca);
    }
    H_gpu->free(H_gpu, gws);
    pf_free(cws);
    H_gpu->free(H_gpu, x);
    H_gpu->free(H_gpu, y);
    H_gpu->free(H_gpu, dx);
    finish(label);
}

// The triangle multiplication past 2^31 elements: N = 4100 (N * N * 128 = 2,151,680,000), the data only in
// the last n rows and columns (the tail block: z, the mask, d out), zeros elsewhere with the mask 0. Masked
// positions give exact zeros in A and B, and d out 0 gives exact zeros in every gradient outside the block, so
// the block's output, its dz and every parameter gradient are the n-residue problem's, checked against the
// CPU reference of that problem while the GPU's kernels index the block at element offsets past 2^31 (and
// run their large-N plan: pieces of channels). bf16 only: the fp32 path's buffers at this N come near the
// card's memory. outw: PF_TRIMUL_OUTW for the run (the Hopper output-part kernels where they apply).
// PF_BIG_TRIMUL_N: N of test_big_trimul (default 4100: 2.15e9 elements; below 4096 the same case stays
// under 2^31, to tell a 64-bit gap from anything else).
// PF_BIG_TRIMUL_AT: the block's first row and column (default N - 12, the tail; smaller values put it
// below 2^31 in the position-major tensors while channel-major ones still pass it: where a gap is).
static void test_big_trimul(int incoming, int outw) {
    const int64_t N = h_env_int("PF_BIG_TRIMUL_N", 4100, 16, 4200), n = 12, c = 128, ns = n * n * c, NN = N * N;
    const int64_t o = h_env_int("PF_BIG_TRIMUL_AT", N - n, 0, N - n);
    char label[192];
    snprintf(label, sizeof label, "%s big trimul %s outw %d N%lld (%lld elements) block %lld at %lld", H_gpu->name,
             incoming ? "in" : "out", outw, (long long)N, (long long)(NN * c), (long long)n, (long long)o);
    if (!H_bf16) {
        printf("  %s: not run in fp32 mode (its buffers at this N)\n", label);
        return;
    }
    int ow_was = pf_cuda_set_trimul_outw(H_gpu, outw);
    // PF_BIG_GEMM_PIECE (diagnostics): every product's K in pieces of this many rows (cu_gemm), -1 no pieces
    pf_cuda_set_gemm_k_piece(H_gpu, h_env_int("PF_BIG_GEMM_PIECE", 0, -1, (int64_t)1 << 30));
    h_params_reset();
    pf_trimul_dims ds = {n, c, c, incoming}, db = {N, c, c, incoming};
    pf_trimul_p P, G, Pd, Gd;
    h_trimul_params(&P, &G, &Pd, &Gd, c, c, 0);
    hbuf z = h_rand(ns, 1, 9), mk = h_mask(n * n, 0, 0.3, 10), dout = h_rand(ns, 1, 11);
    pf_mem mc = H_cpu->trimul_mem(H_cpu, &ds);
    void *cs = pf_calloc(mc.saved + 64, 1), *cw = pf_calloc(mc.ws + 64, 1);
    real *oc = tl_zeros(ns), *dzc = tl_zeros(ns);
    H_cpu->trimul_fwd(H_cpu, &ds, &P, z.h, mk.h, oc, cs, cw);
    H_cpu->trimul_bwd(H_cpu, &ds, &P, &G, mk.h, cs, dout.h, dzc, cw);
    const size_t zb = pf_act_size(H_gpu, NN * c), mb = pf_act_size(H_gpu, NN);
    pf_act *zg = H_gpu->alloc(H_gpu, zb), *og = H_gpu->alloc(H_gpu, zb), *dog = H_gpu->alloc(H_gpu, zb);
    pf_act *dzg = H_gpu->alloc(H_gpu, zb), *mg = H_gpu->alloc(H_gpu, mb);
    pf_act *const big[] = {zg, og, dog, dzg};
    for (int k = 0; k < 4; k++) H_gpu->zero(H_gpu, big[k], zb);
    H_gpu->zero(H_gpu, mg, mb);
    for (int64_t i = 0; i < n; i++) {  // the block's rows: n positions from (o + i, o)
        const int64_t at = (o + i) * N + o;
        H_gpu->act_from_real(H_gpu, pf_act_at(H_gpu, zg, at * c), z.h + i * n * c, n * c);
        H_gpu->act_from_real(H_gpu, pf_act_at(H_gpu, dog, at * c), dout.h + i * n * c, n * c);
        H_gpu->act_from_real(H_gpu, pf_act_at(H_gpu, mg, at), mk.h + i * n, n);
    }
    pf_mem m = H_gpu->trimul_mem(H_gpu, &db);
    void *gs = H_gpu->alloc(H_gpu, m.saved + 256), *gw = H_gpu->alloc(H_gpu, m.ws + 256);
    H_gpu->trimul_fwd(H_gpu, &db, &Pd, zg, mg, og, gs, gw);
    H_gpu->trimul_bwd(H_gpu, &db, &Pd, &Gd, mg, gs, dog, dzg, gw);
    real *ob = tl_zeros(ns), *dzb = tl_zeros(ns);
    for (int64_t i = 0; i < n; i++) {
        const int64_t at = (o + i) * N + o;
        H_gpu->act_to_real(H_gpu, ob + i * n * c, pf_act_at(H_gpu, og, at * c), n * c);
        H_gpu->act_to_real(H_gpu, dzb + i * n * c, pf_act_at(H_gpu, dzg, at * c), n * c);
    }
    big_check(label, "fwd (the block)", o, ob, oc, ns);
    big_check(label, "dz (the block)", o, dzb, dzc, ns);
    h_check_param_grads(label);
    for (int k = 0; k < 4; k++) H_gpu->free(H_gpu, big[k]);
    H_gpu->free(H_gpu, mg);
    H_gpu->free(H_gpu, gs);
    H_gpu->free(H_gpu, gw);
    pf_free(cs);
    pf_free(cw);
    pf_cuda_set_trimul_outw(H_gpu, ow_was);
    pf_cuda_set_gemm_k_piece(H_gpu, 0);
    finish(label);
}


// ---- triangle attention, outer product mean, pair-weighted averaging past 2^31 elements ------------------
// test_big_trimul's pattern for the other modules that read or write z-sized tensors: the big problem is zero and
// masked outside an n-residue block at rows and columns o .. o + n - 1 (the tail), so the block's outputs, its input
// gradients and every parameter gradient are those of the n-residue problem, run on the CPU. Masked keys outside
// the block get probability 0 (each block row keeps one key unmasked: a fully masked row would average over all N
// keys), d out is 0 outside the block. The triangle attention's rows outside the block are fully masked, so its
// uniform-average rule runs there too, at offsets past 2^31 (with d out 0 they send no gradient). Two sizes by
// default: N = 4160 (a multiple of 64: the Hopper kernels' path) and 4100 (not one); both give N^2 x 128 > 2^31.
// PF_BIG_MODULE_N: one N instead (16..4200; below 4096 the same cases stay under 2^31, to tell a 64-bit gap
// from anything else); PF_BIG_MODULE_AT: the block's first row and column (default N - n).
#define BIG_N_BLOCK 12

// count runs of run elements: host run k (at host + k run) to device elements first + k stride ..
static void big_put(pf_act *dev, const real *host, int64_t first, int64_t stride, int64_t count, int64_t run) {
    for (int64_t k = 0; k < count; k++)
        H_gpu->act_from_real(H_gpu, pf_act_at(H_gpu, dev, first + k * stride), host + k * run, run);
}
static real *big_get(const pf_act *dev, int64_t first, int64_t stride, int64_t count, int64_t run) {
    real *h = tl_zeros(count * run);
    for (int64_t k = 0; k < count; k++)
        H_gpu->act_to_real(H_gpu, h + k * run, pf_act_at(H_gpu, dev, first + k * stride), run);
    return h;
}
// What a case allocates (device tensors and workspaces, host workspaces), released by big_finish.
static pf_act *big_dev[12];
static void *big_host[4];
static int big_ndev, big_nhost;
static void *big_alloc(size_t bytes) {  // device memory, not zeroed
    pf_act *p = H_gpu->alloc(H_gpu, bytes);
    if (big_ndev < 12) big_dev[big_ndev++] = p;
    return p;
}
static pf_act *big_zeros(int64_t n) {  // a zeroed device tensor of n elements
    size_t b = pf_act_size(H_gpu, n);
    pf_act *p = big_alloc(b);
    H_gpu->zero(H_gpu, p, b);
    return p;
}
static void *big_calloc(size_t bytes) {  // host memory, zeroed
    void *p = pf_calloc(bytes, 1);
    if (big_nhost < 4) big_host[big_nhost++] = p;
    return p;
}
static void big_finish(const char *label) {
    while (big_ndev > 0) H_gpu->free(H_gpu, big_dev[--big_ndev]);
    while (big_nhost > 0) pf_free(big_host[--big_nhost]);
    finish(label);
}
// The label's common part, and whether the case runs (bf16 only); o: the block's first row and column.
static int big_case(char *label, size_t cap, const char *what, int64_t N, int64_t c, int64_t *o) {
    *o = h_env_int("PF_BIG_MODULE_AT", N - BIG_N_BLOCK, 0, N - BIG_N_BLOCK);
    snprintf(label, cap, "%s big %s N%lld (%lld elements) block %d at %lld", H_gpu->name, what, (long long)N,
             (long long)(N * N * c), BIG_N_BLOCK, (long long)*o);
    if (!H_bf16) printf("  %s: not run in fp32 mode (its buffers at this N)\n", label);
    return H_bf16;
}

// Triangle attention (PF_BIAS_SELF on z itself, AF3's sizes: c 128, 4 heads of 32), starting or ending node.
static void test_big_tri_attn(int64_t N, int transpose) {
    const int c = 128, H = 4, ch = 32;
    const int64_t n = BIG_N_BLOCK, nb = n * n * c, NN = N * N;
    int64_t o;
    char label[256];
    if (!big_case(label, sizeof label, transpose ? "triangle attention ending" : "triangle attention starting", N, c,
                  &o))
        return;
    h_params_reset();
    pf_attn_dims ds = {n, n, c, H, ch, c, PF_BIAS_SELF, transpose, NULL, 0}, db = ds;
    db.B = db.L = N;
    pf_attn_p P, G, Pd, Gd;
    memset(&P, 0, sizeof P); memset(&G, 0, sizeof G); memset(&Pd, 0, sizeof Pd); memset(&Gd, 0, sizeof Gd);
    h_layernorm(&P.ln, &G.ln, &Pd.ln, &Gd.ln, c, 91, "ln");
    h_linear(&P.q, &G.q, &Pd.q, &Gd.q, H * ch, c, 0, 92, "q");
    h_linear(&P.k, &G.k, &Pd.k, &Gd.k, H * ch, c, 0, 93, "k");
    h_linear(&P.v, &G.v, &Pd.v, &Gd.v, H * ch, c, 0, 94, "v");
    h_linear(&P.g, &G.g, &Pd.g, &Gd.g, H * ch, c, 1, 95, "g");
    h_linear(&P.o, &G.o, &Pd.o, &Gd.o, c, H * ch, 1, 96, "o");
    h_linear(&P.bias, &G.bias, &Pd.bias, &Gd.bias, H, c, 0, 97, "bias");
    hbuf x = h_rand(nb, 1, 98), dout = h_rand(nb, 1, 99);
    real *mk = tl_mask(n * n, transpose ? 0 : n, 0.3, 100);  // (B, L) or, ending, (L, B): key 0 of every row kept
    if (transpose)
        for (int64_t r = 0; r < n; r++) mk[r] = 1;
    pf_mem mc = H_cpu->attn_mem(H_cpu, &ds);
    void *cs = big_calloc(mc.saved + 64), *cw = big_calloc(mc.ws + 64);
    real *oc = tl_zeros(nb), *dxc = tl_zeros(nb);
    H_cpu->attn_fwd(H_cpu, &ds, &P, x.h, NULL, mk, oc, cs, cw);
    H_cpu->attn_bwd(H_cpu, &ds, &P, &G, mk, cs, dout.h, dxc, NULL, cw);
    const int64_t at = o * N + o;  // the block's first position; its rows N apart
    pf_act *xg = big_zeros(NN * c), *og = big_zeros(NN * c), *dog = big_zeros(NN * c), *dxg = big_zeros(NN * c);
    pf_act *mg = big_zeros(NN);
    big_put(xg, x.h, at * c, N * c, n, n * c);
    big_put(dog, dout.h, at * c, N * c, n, n * c);
    big_put(mg, mk, at, N, n, n);
    pf_mem m = H_gpu->attn_mem(H_gpu, &db);
    void *gs = big_alloc(m.saved + 256), *gw = big_alloc(m.ws + 256);
    H_gpu->attn_fwd(H_gpu, &db, &Pd, xg, NULL, mg, og, gs, gw);
    H_gpu->attn_bwd(H_gpu, &db, &Pd, &Gd, mg, gs, dog, dxg, NULL, gw);
    big_check(label, "fwd (the block)", o, big_get(og, at * c, N * c, n, n * c), oc, nb);
    big_check(label, "dx (the block)", o, big_get(dxg, at * c, N * c, n, n * c), dxc, nb);
    h_check_param_grads(label);
    big_finish(label);
}

// The outer product mean (AF3's sizes: c 32, c_z 128; 8 MSA rows): its output (N, N, c_z) past 2^31. The MSA
// mask is 0 outside the block's columns, so a, b are 0 there and the block's output pairs see the block alone.
static void test_big_opm(int64_t N) {
    const int c_m = 64, c = 32, c_z = 128;
    const int64_t S = 8, n = BIG_N_BLOCK, nm = S * n * c_m, no = n * n * c_z;
    int64_t o;
    char label[256];
    if (!big_case(label, sizeof label, "outer product mean", N, c_z, &o)) return;
    h_params_reset();
    pf_opm_dims ds = {S, n, c_m, c, c_z}, db = {S, N, c_m, c, c_z};
    pf_opm_p P, G, Pd, Gd;
    h_layernorm(&P.ln, &G.ln, &Pd.ln, &Gd.ln, c_m, 101, "ln");
    h_linear(&P.a, &G.a, &Pd.a, &Gd.a, c, c_m, 1, 102, "a");
    h_linear(&P.b, &G.b, &Pd.b, &Gd.b, c, c_m, 1, 103, "b");
    h_linear(&P.o, &G.o, &Pd.o, &Gd.o, c_z, c * c, 1, 104, "o");
    hbuf m = h_rand(nm, 1, 105), dout = h_rand(no, 1, 106);
    real *mk = tl_mask(S * n, n, 0.3, 107);
    pf_mem mc = H_cpu->opm_mem(H_cpu, &ds);
    void *cs = big_calloc(mc.saved + 64), *cw = big_calloc(mc.ws + 64);
    real *oc = tl_zeros(no), *dmc = tl_zeros(nm);
    H_cpu->opm_fwd(H_cpu, &ds, &P, m.h, mk, oc, cs, cw);
    H_cpu->opm_bwd(H_cpu, &ds, &P, &G, mk, cs, dout.h, dmc, cw);
    pf_act *mg = big_zeros(S * N * c_m), *mkg = big_zeros(S * N), *og = big_zeros(N * N * c_z);
    pf_act *dog = big_zeros(N * N * c_z), *dmg = big_zeros(S * N * c_m);
    big_put(mg, m.h, o * c_m, N * c_m, S, n * c_m);  // (S, N, c_m): the block's columns of every row
    big_put(mkg, mk, o, N, S, n);
    big_put(dog, dout.h, (o * N + o) * c_z, N * c_z, n, n * c_z);
    pf_mem mm = H_gpu->opm_mem(H_gpu, &db);
    void *gs = big_alloc(mm.saved + 256), *gw = big_alloc(mm.ws + 256);
    H_gpu->opm_fwd(H_gpu, &db, &Pd, mg, mkg, og, gs, gw);
    H_gpu->opm_bwd(H_gpu, &db, &Pd, &Gd, mkg, gs, dog, dmg, gw);
    big_check(label, "fwd (the block)", o, big_get(og, (o * N + o) * c_z, N * c_z, n, n * c_z), oc, no);
    big_check(label, "dm (the block)", o, big_get(dmg, o * c_m, N * c_m, S, n * c_m), dmc, nm);
    h_check_param_grads(label);
    big_finish(label);
}

// Pair-weighted averaging (AF3's MSA module: 8 heads; c_h 8 here): z (N, N, c_z) and d z past 2^31. The mask on
// the averaged position is 0 outside the block (the block keeps its first position), so the block's rows average
// over the block alone.
static void test_big_pwavg(int64_t N) {
    const int c_m = 64, c_z = 128, H = 8, ch = 8;
    const int64_t S = 8, n = BIG_N_BLOCK, nm = S * n * c_m, nz = n * n * c_z;
    int64_t o;
    char label[256];
    if (!big_case(label, sizeof label, "pair-weighted averaging", N, c_z, &o)) return;
    h_params_reset();
    pf_pwavg_dims ds = {S, n, c_m, c_z, H, ch}, db = {S, N, c_m, c_z, H, ch};
    pf_pwavg_p P, G, Pd, Gd;
    h_pwavg_params(&P, &G, &Pd, &Gd, &ds);
    hbuf m = h_rand(nm, 1, 117), z = h_rand(nz, 1, 118), dout = h_rand(nm, 1, 119);
    real *mk = tl_mask(n, 0, 0.3, 120);
    mk[0] = 1;
    pf_mem mc = H_cpu->pwavg_mem(H_cpu, &ds);
    void *cs = big_calloc(mc.saved + 64), *cw = big_calloc(mc.ws + 64);
    real *oc = tl_zeros(nm), *dmc = tl_zeros(nm), *dzc = tl_zeros(nz);
    H_cpu->pwavg_fwd(H_cpu, &ds, &P, m.h, z.h, mk, oc, cs, cw);
    H_cpu->pwavg_bwd(H_cpu, &ds, &P, &G, mk, cs, dout.h, dmc, dzc, cw);
    pf_act *mg = big_zeros(S * N * c_m), *zg = big_zeros(N * N * c_z), *mkg = big_zeros(N);
    pf_act *og = big_zeros(S * N * c_m), *dog = big_zeros(S * N * c_m), *dmg = big_zeros(S * N * c_m);
    pf_act *dzg = big_zeros(N * N * c_z);
    big_put(mg, m.h, o * c_m, N * c_m, S, n * c_m);
    big_put(dog, dout.h, o * c_m, N * c_m, S, n * c_m);
    big_put(zg, z.h, (o * N + o) * c_z, N * c_z, n, n * c_z);
    big_put(mkg, mk, o, 0, 1, n);
    pf_mem mm = H_gpu->pwavg_mem(H_gpu, &db);
    void *gs = big_alloc(mm.saved + 256), *gw = big_alloc(mm.ws + 256);
    H_gpu->pwavg_fwd(H_gpu, &db, &Pd, mg, zg, mkg, og, gs, gw);
    H_gpu->pwavg_bwd(H_gpu, &db, &Pd, &Gd, mkg, gs, dog, dmg, dzg, gw);
    big_check(label, "fwd (the block)", o, big_get(og, o * c_m, N * c_m, S, n * c_m), oc, nm);
    big_check(label, "dm (the block)", o, big_get(dmg, o * c_m, N * c_m, S, n * c_m), dmc, nm);
    big_check(label, "dz (the block)", o, big_get(dzg, (o * N + o) * c_z, N * c_z, n, n * c_z), dzc, nz);
    h_check_param_grads(label);
    big_finish(label);
}

void cuda_big_modules(void) {
    int64_t Ns[2] = {4160, 4100};
    int nN = 2;
    if (getenv("PF_BIG_MODULE_N") && *getenv("PF_BIG_MODULE_N")) Ns[0] = h_env_int("PF_BIG_MODULE_N", 4100, 16, 4200), nN = 1;
    for (int k = 0; k < nN; k++) {
        test_big_tri_attn(Ns[k], 0);
        test_big_tri_attn(Ns[k], 1);
        test_big_opm(Ns[k]);
        test_big_pwavg(Ns[k]);
    }
}

void cuda_big_trimul(void) { test_big_trimul(0, 0); }

void cuda_big(void) {
    test_big_rows();
    test_big_trimul(0, 0);
    test_big_trimul(1, 0);
    if (pf_cuda_trimul_outw_fits(H_gpu)) test_big_trimul(0, 2);
    cuda_big_modules();
}
