// ipa_bf16_floor: the error that bf16 storage alone puts into test_cuda's IPA d z
// check (tests/cuda/test_cuda_struct.c, test_ipa), computed on the CPU.
//
// test_ipa fills d z with N(0, 0.1) values (rounded to bf16), runs the backward,
// which adds its increment d = sum_h (a_hij d o^pair_hi + d b_hij W_b) into that
// bf16 buffer, and compares the increment (got - init) against the CPU's (float).
// The CUDA kernel sums both paths in fp32 and rounds once: got = bf16(init + d).
// This program rebuilds the test's inputs bit for bit (same seeds, inputs rounded
// to bf16 as h_rand does), runs the CPU reference, and scores a kernel that is
// exact except for that one rounding:
//   E0  got = bf16(init + d_ref)                       (one rounding: today's kernel)
//   E0b got = bf16(bf16(init + d_pair) + d_bias)       (two roundings: before 72d805b)
//   E0z got = bf16(0 + d_ref)                          (the same kernel, d z starting at 0)
// with the harness's two metrics (L2 rel and max-norm rel of the increment).
// The increment shrinks like 1/N (a_ij ~ 1/N), the rounding of init does not.
// Build: make build/ipa_bf16_floor; run: build/ipa_bf16_floor [N ...]
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../tests/testlib.h"
#include "../src/core/rng.h"
#include "../src/core/util.h"
#include "../src/cpu/cpu_structure.h"

// Round to bfloat16, nearest even (__float2bfloat16).
static float bf16(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;
    u += 0x7fffu + ((u >> 16) & 1u);
    u &= 0xffff0000u;
    memcpy(&x, &u, 4);
    return x;
}
static real *rounded(real *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = bf16(x[i]);
    return x;
}
static real *uniform(int64_t n, double scale, uint64_t seed) {  // test_cuda_struct.c f_rand
    real *x = tl_zeros(n);
    for (int64_t i = 0; i < n; i++) x[i] = (real)(scale * (2 * pf_uniform(seed, (uint64_t)i) - 1));
    return x;
}

// The harness's metrics (cuda_harness.c h_compare) of got - init against ref - init.
static void score(const char *what, const real *got, const real *ref, const real *init, int64_t n) {
    double d2 = 0, r2 = 0, md = 0, mr = 0;
    for (int64_t i = 0; i < n; i++) {
        const double g = (double)got[i] - init[i], r = (double)ref[i] - init[i];
        d2 += (g - r) * (g - r);
        r2 += r * r;
        md = fmax(md, fabs(g - r));
        mr = fmax(mr, fabs(r));
    }
    printf("  %-4s L2 rel %.4f  max-norm rel %.4f  (rms increment %.3g)\n", what, sqrt(d2 / r2), md / mr,
           sqrt(r2 / (double)n));
}

static void run(int64_t N, int use_mask) {
    const pf_ipa_dims d = {N, 12, 16, 3, 4, 2, 3};  // test_ipa's sizes
    const int H = d.H, cs = d.c_s, cz = d.c_z;
    const uint64_t s0 = 100;  // ipa_params' seeds
    pf_ipa_p P, G;
    tl_linear(&P.q, &G.q, H * d.c, cs, 1, s0 + 1);
    tl_linear(&P.kv, &G.kv, 2 * H * d.c, cs, 1, s0 + 2);
    tl_linear(&P.q_points, &G.q_points, 3 * H * d.Pq, cs, 1, s0 + 3);
    tl_linear(&P.kv_points, &G.kv_points, 3 * H * (d.Pq + d.Pv), cs, 1, s0 + 4);
    tl_linear(&P.b, &G.b, H, cz, 1, s0 + 5);
    pf_linear_p hw, hwg;
    tl_linear(&hw, &hwg, H, 1, 0, s0 + 6);
    P.head_weights = hw.w;
    G.head_weights = hwg.w;
    tl_linear(&P.out, &G.out, cs, pf_ipa_cat_dim(&d), 1, s0 + 7);
    const int64_t ns = N * cs, nz = N * N * cz;
    real *s = rounded(tl_rand(ns, 1, 1), ns), *z = rounded(tl_rand(nz, 1, 2), nz);
    real *mask = use_mask ? tl_mask(N, N, 0.3, 3) : NULL;
    real *R = uniform(N * 9, 0.3, 4), *t = uniform(N * 3, 1, 5);
    for (int64_t i = 0; i < N; i++)
        for (int k = 0; k < 9; k += 4) R[i * 9 + k] += 1;
    real *saved = tl_zeros(cpu_ipa_saved_reals(&d)), *out = tl_zeros(ns);
    cpu_ipa_fwd(&d, &P, s, z, R, t, mask, out, saved);
    real *dout = rounded(tl_rand(ns, 1, 6), ns), *ds = tl_zeros(ns);
    real *init = rounded(tl_rand(nz, 0.1, 8), nz), *dz = tl_copy(init, nz);
    real *dR = tl_zeros(N * 9), *dt = tl_zeros(N * 3);
    cpu_ipa_bwd(&d, &P, &G, s, z, R, t, mask, saved, dout, ds, dz, dR, dt);
    // the pair-output path alone (d_z of a backward with linear_b's weight zeroed)
    real *wb = tl_copy(P.b.w, (int64_t)H * cz), *dz_pair = tl_copy(init, nz);
    memset(P.b.w, 0, sizeof(real) * (size_t)(H * cz));
    cpu_ipa_bwd(&d, &P, &G, s, z, R, t, mask, saved, dout, NULL, dz_pair, NULL, NULL);
    memcpy(P.b.w, wb, sizeof(real) * (size_t)(H * cz));
    real *e0 = tl_zeros(nz), *e0b = tl_zeros(nz), *e0z = tl_zeros(nz), *zero = tl_zeros(nz);
    for (int64_t k = 0; k < nz; k++) {
        const float inc = dz[k] - init[k], pair = dz_pair[k] - init[k];
        e0[k] = bf16(init[k] + inc);
        e0b[k] = bf16(bf16(init[k] + pair) + (inc - pair));
        e0z[k] = bf16(inc);
    }
    double i2 = 0;
    for (int64_t k = 0; k < nz; k++) i2 += (double)init[k] * init[k];
    printf("ipa N%lld mask %d: rms init %.3g\n", (long long)N, use_mask, sqrt(i2 / (double)nz));
    score("E0", e0, dz, init, nz);
    score("E0b", e0b, dz, init, nz);
    real *ref0 = tl_zeros(nz);
    for (int64_t k = 0; k < nz; k++) ref0[k] = dz[k] - init[k];
    score("E0z", e0z, ref0, zero, nz);
    tl_pool_reset();
}

int main(int argc, char **argv) {
    if (argc > 1) {
        for (int i = 1; i < argc; i++) run(atoll(argv[i]), 1);
        return 0;
    }
    run(7, 1);  // test_ipa's cases
    run(13, 0);
    run(70, 1);
    run(300, 1);
    return 0;
}
