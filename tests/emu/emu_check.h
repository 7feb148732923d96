// emu_check.h: what the emulator tests share (tests/emu/test_emu_*.cpp, one translation unit
// each): checks with one verdict line, seeded random numbers, bf16 helpers, error measures.
#ifndef PF_EMU_CHECK_H
#define PF_EMU_CHECK_H
#include <vector>
#include <string>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <cuda_bf16.h>

static int passed, failed, verbose;
static inline void check(bool ok, const std::string &name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void check(bool ok, const std::string &name, const char *fmt, ...) {
    if (ok) {
        passed++;
        if (verbose) printf("ok   %s\n", name.c_str());
        return;
    }
    failed++;
    printf("FAIL %s: ", name.c_str());
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static inline double urand(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static inline double nrand(void) { return sqrt(-2 * log(urand() + 1e-300)) * cos(6.283185307179586 * urand()); }
static inline float bfr(double x) { return __bfloat162float(__float2bfloat16((float)x)); }
static inline __nv_bfloat16 tob(double x) { return __float2bfloat16((float)x); }
static inline double fb(__nv_bfloat16 x) { return __bfloat162float(x); }

// Relative L2 error and the largest error in units of the reference's largest magnitude.
struct err {
    double rel_l2, rel_max;
};
static inline err compare(const __nv_bfloat16 *got, const __nv_bfloat16 *ref, int64_t n, int64_t stride_rows = 0, int64_t ld = 0, int64_t M = 0) {
    double num = 0, den = 0, emax = 0, rmax = 0;
    for (int64_t i = 0; i < n; i++) {
        if (stride_rows && i % ld >= M) continue;  // channel-major: positions past M are not outputs
        const double a = fb(got[i]), b = fb(ref[i]);
        num += (a - b) * (a - b), den += b * b;
        emax = fmax(emax, fabs(a - b)), rmax = fmax(rmax, fabs(b));
        if (a != a) emax = INFINITY;
    }
    return err{sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300)};
}

// Logits of one query over L keys as the attention kernels form them: scale q.k + bias where the key's mask is
// on, else (float)(-1e9 + scale q.k) (a fully masked row: all equal in fp32). q: the query's ch channels; k, mask,
// bias: key 0's, then every kstride / 1 / bstride elements. Returns whether any key is on; mx: the largest logit.
static inline bool attn_logits(const __nv_bfloat16 *q, const __nv_bfloat16 *k, int64_t kstride, const __nv_bfloat16 *mask,
                               const float *bias, int64_t bstride, int64_t L, int ch, double scale,
                               std::vector<double> &lg, double &mx) {
    bool any = false;
    mx = -INFINITY;
    for (int64_t j = 0; j < L; j++) {
        double s = 0;
        for (int c = 0; c < ch; c++) s += fb(q[c]) * fb(k[j * kstride + c]);
        const bool on = fb(mask[j]) != 0;
        any |= on;
        lg[(size_t)j] = on ? s * scale + bias[j * bstride] : (double)(float)(-1e9 + s * scale);
        mx = fmax(mx, lg[(size_t)j]);
    }
    return any;
}

// The attention forward in float64 over (B rows, L positions, H heads of ch) tensors laid out (B, L, H ch): o
// (rounded to bf16) and lse ((B, H, L); +inf on a fully masked row, whose o is the plain average of v). biasT:
// (H, L key, L query).
static inline void attn_forward_ref(const std::vector<__nv_bfloat16> &q, const std::vector<__nv_bfloat16> &k,
                                    const std::vector<__nv_bfloat16> &v, const std::vector<__nv_bfloat16> &mask,
                                    const std::vector<float> &biasT, int64_t B, int64_t L, int H, int ch,
                                    std::vector<__nv_bfloat16> &o, std::vector<float> &lse) {
    const int64_t HC = (int64_t)H * ch;
    const double scale = 1 / sqrt((double)ch);
    o.resize((size_t)(B * L * HC)), lse.resize((size_t)(B * H * L));
    std::vector<double> lg((size_t)L);
    for (int64_t b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int64_t i = 0; i < L; i++) {
                double mx;
                const bool any = attn_logits(&q[(size_t)((b * L + i) * HC + h * ch)], &k[(size_t)(b * L * HC + h * ch)], HC,
                                             &mask[(size_t)(b * L)], &biasT[(size_t)(h * L * L + i)], L, L, ch, scale, lg, mx);
                double sum = 0;
                for (int64_t j = 0; j < L; j++) sum += any ? exp(lg[(size_t)j] - mx) : 1.0;
                for (int c = 0; c < ch; c++) {
                    double acc = 0;
                    for (int64_t j = 0; j < L; j++)
                        acc += (any ? exp(lg[(size_t)j] - mx) : 1.0) * fb(v[(size_t)((b * L + j) * HC + h * ch + c)]);
                    o[(size_t)((b * L + i) * HC + h * ch + c)] = tob(acc / sum);
                }
                lse[(size_t)((b * H + h) * L + i)] = any ? (float)(mx + log(sum)) : INFINITY;
            }
}

// The attention backward's inputs (test_emu_attn_bwd, test_emu_attn_dbias): B rows of L positions, H heads of 32
// channels, random bf16 q, k, v, dO; row 1 fully masked, about a fifth of the even rows' keys masked; the pair
// bias (bf16 numbers) or zeros; the forward's o and lse from attn_forward_ref, D = rowsum(dO o).
struct bwd_problem {
    int64_t B, L;
    int H, ch;
    std::vector<bf16> q, k, v, dO, mask, o;
    std::vector<float> biasT, lse, D;  // biasT (H, L key, L query), bf16 numbers
};
struct bwd_grads {
    std::vector<bf16> dq, dk, dv;
};

// Softmax over keys of scale q.k + bias + mask term (CU_MASK_INF (m - 1)); the forward's o (bf16) and lse
// (+inf on a fully masked row), D = rowsum(dO o) from the bf16 o, as the module gives them to the backward.
static bwd_problem make(int64_t B, int64_t L, int H, bool bias, uint64_t seed) {
    rng = seed * 0x2545F4914F6CDD1Dull + 7;
    bwd_problem p;
    p.B = B, p.L = L, p.H = H, p.ch = 32;
    const int64_t HC = (int64_t)H * p.ch, n = B * L * HC;
    p.q.resize((size_t)n), p.k.resize((size_t)n), p.v.resize((size_t)n), p.dO.resize((size_t)n), p.o.resize((size_t)n);
    for (auto &x : p.q) x = tob(nrand());
    for (auto &x : p.k) x = tob(nrand());
    for (auto &x : p.v) x = tob(nrand());
    for (auto &x : p.dO) x = tob(nrand());
    p.mask.resize((size_t)(B * L));
    for (int64_t r = 0; r < B; r++)
        for (int64_t l = 0; l < L; l++)
            p.mask[(size_t)(r * L + l)] = tob(r == 1 ? 0.0 : (r % 2 == 0 && urand() < 0.2) ? 0.0 : 1.0);  // row 1 fully masked
    p.biasT.resize((size_t)(H * L * L));
    for (auto &x : p.biasT) x = bias ? bfr(1.5 * nrand()) : 0.f;  // none: zeros in the reference, NULL to the kernel
    attn_forward_ref(p.q, p.k, p.v, p.mask, p.biasT, B, L, H, p.ch, p.o, p.lse);
    p.D.assign((size_t)(B * H * L), 0.f);
    for (int64_t b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int64_t i = 0; i < L; i++) {
                double d = 0;
                for (int c = 0; c < p.ch; c++) {
                    const size_t at = (size_t)((b * L + i) * HC + h * p.ch + c);
                    d += fb(p.dO[at]) * fb(p.o[at]);
                }
                p.D[(size_t)((b * H + h) * L + i)] = (float)d;
            }
    return p;
}


// Each (row b, head h, query i, key j) with a gradient, in float64 from the saved lse and D: P = exp(s - lse) (none
// where lse is +inf or the key is masked), dS = P (dO.v - D); fn(qi, kj, h, i, j, P, dS), qi / kj the query's and
// the key's first element of the head in q / k / v / dO.
template <typename F>
static void attn_bwd_each(const bwd_problem &p, F fn) {
    const int64_t B = p.B, L = p.L, HC = (int64_t)p.H * p.ch;
    const double scale = 1 / sqrt((double)p.ch);
    for (int64_t b = 0; b < B; b++)
        for (int h = 0; h < p.H; h++)
            for (int64_t i = 0; i < L; i++) {
                const double lse = p.lse[(size_t)((b * p.H + h) * L + i)];
                if (isinf(lse)) continue;
                const size_t qi = (size_t)((b * L + i) * HC + h * p.ch);
                for (int64_t j = 0; j < L; j++) {
                    if (fb(p.mask[(size_t)(b * L + j)]) == 0) continue;
                    const size_t kj = (size_t)((b * L + j) * HC + h * p.ch);
                    double s = 0, dp = 0;
                    for (int c = 0; c < p.ch; c++) s += fb(p.q[qi + c]) * fb(p.k[kj + c]), dp += fb(p.dO[qi + c]) * fb(p.v[kj + c]);
                    const double P = exp(s * scale + p.biasT[(size_t)((h * L + j) * L + i)] - lse);
                    fn(qi, kj, h, i, j, P, P * (dp - p.D[(size_t)((b * p.H + h) * L + i)]));
                }
            }
}
#endif
