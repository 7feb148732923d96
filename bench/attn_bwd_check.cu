// attn_bwd_check.cu: checks and times the bf16 tensor-core attention backward
// (cu_flash_bwd.cu) against the previous one (fa_tc_backward_v1, cu_flash_tc.cu)
// and the fp32 kernels of cu_flash.cu on the same inputs (docs/ATTENTION_BWD.md).
//
//   attn_bwd_check [--check] [--time N,N,...] [--reps R] [--profile N] [--profile-shape K] [--variant NAME]
//                  [--dbias-variant NAME] [--shapes] [--dbias]
//
// --check: random bf16 q, k, v, dO, fp32 bias (holding bf16 numbers), 0/1 key masks with some fully
// masked rows, odd sizes (L 77, 136, 1000), the transposed (ending node) layout,
// c_h 16 / 24 / 32, with and without bias. Per case: ||x - ref|| / ||ref|| and
// max|x - ref| / max|ref| of dq, dk, dv, dbias for the new and the previous
// backward against the fp32 reference (fp32 forward and backward on the same
// bf16-rounded values), every output written (NaN poison), and the new
// backward bit-identical over two runs. Verdict line last.
// --time: triangle attention core (B = L = N, H 4, c_h 32, bias, all-ones mask)
// at each N: previous backward, every variant (also per kernel), CUDA events,
// median of R after 2 warm-ups; TFLOP/s with backward core = 8 B H L^2 c_h
// (2 x the forward's 4 B H L^2 c_h).
// --dbias: the bias-gradient pass alone with each kernel variant (cu_flash_bwd_dbias.cu)
// at each N of --time (triangle shape) and on --shapes' three shapes.
// --check also runs every bias-gradient variant and requires the default's bits.
#include "../src/cuda/cu_flash.cuh"
#include <stdarg.h>
#include <vector>
#include <algorithm>

extern "C" void pf_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "attn_bwd_check: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}
void cu_fail(const char *what, const char *file, int line, const char *msg) {
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", what, file, line, msg);
    exit(2);
}
// Linked without cu_flash_sm90.cu: fa_forward's Hopper hook declines (the
// reference runs the fp32 path, the bf16 forward is called directly).
__attribute__((weak)) int fa_sm90_forward(cu_impl *, const fa_args *) { return 1; }

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand() {  // splitmix64 -> [0, 1)
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}
static float nrand() { return (float)((urand() + urand() + urand() - 1.5) * 2.0); }

static uint16_t f2bf(float f) {  // round to nearest even
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7FFF + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}
static float bf2f(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void *dalloc(size_t bytes) {
    void *p = NULL;
    CU_CHECK(cudaMalloc(&p, bytes ? bytes : 16));
    return p;
}

typedef struct {
    int64_t B, L;
    int H, ch, transpose, bias, mask, full_masked;
    const char *name;
} tcase;

// Device buffers of one problem in bf16 (b) and fp32 (f), same values.
typedef struct {
    int64_t M, HC, LL;
    void *bq, *bk, *bv, *bdO, *bmask, *bo, *bdq, *bdk, *bdv, *bdb;
    void *fq, *fk, *fv, *fdO, *fmask, *fo, *fdq, *fdk, *fdv, *fdb;
    float *biasT, *blse, *flse, *bD, *fD, *part;
} prob;

static void upload_both(const std::vector<float> &h, void **b, void **f) {
    std::vector<uint16_t> hb(h.size());
    std::vector<float> hf(h.size());
    for (size_t i = 0; i < h.size(); i++) { hb[i] = f2bf(h[i]); hf[i] = bf2f(hb[i]); }
    *b = dalloc(hb.size() * 2);
    *f = dalloc(hf.size() * 4);
    CU_CHECK(cudaMemcpy(*b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    CU_CHECK(cudaMemcpy(*f, hf.data(), hf.size() * 4, cudaMemcpyHostToDevice));
}

static fa_args make_args(const tcase &t) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.B = t.B;
    a.L = t.L;
    a.H = t.H;
    a.ch = t.ch;
    a.HC = (int64_t)t.H * t.ch;
    a.rstride = t.transpose ? 1 : t.L;
    a.pstride = t.transpose ? t.B : 1;
    a.bias_tr = t.transpose;
    a.scale = (float)(1.0 / sqrt((double)t.ch));
    return a;
}

static void prob_make(prob *p, const tcase &t, int with_f32) {
    p->M = t.B * t.L;
    p->HC = (int64_t)t.H * t.ch;
    p->LL = t.L * t.L;
    size_t n = (size_t)(p->M * p->HC);
    std::vector<float> h(with_f32 ? n : 0);
    void **dst[4][2] = {{&p->bq, &p->fq}, {&p->bk, &p->fk}, {&p->bv, &p->fv}, {&p->bdO, &p->fdO}};
    for (int u = 0; u < 4; u++) {
        if (with_f32)
            for (size_t i = 0; i < n; i++) h[i] = (u == 3 ? 0.5f : 1.0f) * nrand();
        if (with_f32) upload_both(h, dst[u][0], dst[u][1]);
        else {  // timing sizes: values from a table of 2^20 random bf16 (fast fill)
            static std::vector<uint16_t> table;
            if (table.empty())
                for (int i = 0; i < (1 << 20); i++) table.push_back(f2bf(nrand()));
            std::vector<uint16_t> hb(n);
            for (size_t i = 0; i < n; i++) hb[i] = table[(i * 2654435761u + (size_t)u * 977) & ((1u << 20) - 1)];
            *dst[u][0] = dalloc(n * 2);
            CU_CHECK(cudaMemcpy(*dst[u][0], hb.data(), n * 2, cudaMemcpyHostToDevice));
            *dst[u][1] = NULL;
        }
    }
    // key mask (M) in the stored layout: position (r, l) at r * rstride + l * pstride
    p->bmask = p->fmask = NULL;
    if (t.mask) {
        std::vector<float> m((size_t)p->M, 1.f);
        fa_args a = make_args(t);
        for (int64_t r = 0; r < t.B; r++) {
            bool full = t.full_masked && (r % 5 == 2);  // every fifth row fully masked
            for (int64_t l = 0; l < t.L; l++)
                if (full || urand() < 0.1) m[(size_t)(r * a.rstride + l * a.pstride)] = 0.f;
        }
        if (with_f32) upload_both(m, &p->bmask, &p->fmask);
        else {
            std::vector<uint16_t> hb(m.size());
            for (size_t i = 0; i < m.size(); i++) hb[i] = f2bf(m[i]);
            p->bmask = dalloc(hb.size() * 2);
            CU_CHECK(cudaMemcpy(p->bmask, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
        }
    }
    p->biasT = NULL;
    if (t.bias) {
        std::vector<float> b((size_t)(p->LL * t.H));
        // bf16 numbers, as the modules' bias (a bf16 projection) in bf16 mode: the fused
        // backward may then read it as bf16 (fa_args.bias_bf16)
        for (auto &x : b) x = bf2f(f2bf(nrand()));
        p->biasT = (float *)dalloc(b.size() * 4);
        CU_CHECK(cudaMemcpy(p->biasT, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
    }
    size_t nl = (size_t)(t.B * t.H * t.L);
    p->bo = dalloc(n * 2);
    p->bdq = dalloc(n * 2);
    p->bdk = dalloc(n * 2);
    p->bdv = dalloc(n * 2);
    p->bdb = dalloc((size_t)(p->LL * t.H) * 2);
    p->blse = (float *)dalloc(nl * 4);
    p->bD = (float *)dalloc(nl * 4);
    int dev = 0, sms = 0;  // the SM count fa_bwd_dbias asks with (cu_impl.n_sm)
    CU_CHECK(cudaGetDevice(&dev));
    CU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    p->part = (float *)dalloc((size_t)fa_dbias_splits(1, t.B, t.L, t.H, sms) * (size_t)(p->LL * t.H) * 4);
    p->fo = p->fdq = p->fdk = p->fdv = p->fdb = NULL;
    p->flse = p->fD = NULL;
    if (with_f32) {
        p->fo = dalloc(n * 4);
        p->fdq = dalloc(n * 4);
        p->fdk = dalloc(n * 4);
        p->fdv = dalloc(n * 4);
        p->fdb = dalloc((size_t)(p->LL * t.H) * 4);
        p->flse = (float *)dalloc(nl * 4);
        p->fD = (float *)dalloc(nl * 4);
    }
}

static void prob_free(prob *p) {
    void *all[] = {p->bq, p->bk, p->bv, p->bdO, p->bmask, p->bo, p->bdq, p->bdk, p->bdv, p->bdb,
                   p->fq, p->fk, p->fv, p->fdO, p->fmask, p->fo, p->fdq, p->fdk, p->fdv, p->fdb,
                   p->biasT, p->blse, p->flse, p->bD, p->fD, p->part};
    for (void *x : all)
        if (x) CU_CHECK(cudaFree(x));
}

static fa_args bf_args(const tcase &t, const prob *p) {
    fa_args a = make_args(t);
    a.q = p->bq; a.k = p->bk; a.v = p->bv; a.o = p->bo; a.dO = p->bdO; a.mask = p->bmask;
    a.out_o = p->bo; a.dq = p->bdq; a.dk = p->bdk; a.dv = p->bdv;
    a.dbias = t.bias ? p->bdb : NULL;
    a.biasT = p->biasT;
    a.bias_bf16 = 1;
    a.lse = p->blse;
    a.D = p->bD;
    a.dbias_part = p->part;
    return a;
}

static std::vector<float> down_bf(const void *d, size_t n) {
    std::vector<uint16_t> hb(n);
    CU_CHECK(cudaMemcpy(hb.data(), d, n * 2, cudaMemcpyDeviceToHost));
    std::vector<float> h(n);
    for (size_t i = 0; i < n; i++) h[i] = bf2f(hb[i]);
    return h;
}
static std::vector<float> down_f(const void *d, size_t n) {
    std::vector<float> h(n);
    CU_CHECK(cudaMemcpy(h.data(), d, n * 4, cudaMemcpyDeviceToHost));
    return h;
}

// ||x - ref|| / ||ref|| and max |x - ref| / max |ref|; NaN anywhere gives NaN
static void rel_err(const std::vector<float> &x, const std::vector<float> &ref, double *l2, double *mx) {
    double d2 = 0, r2 = 0, dm = 0, rm = 0;
    bool bad = false;
    for (size_t i = 0; i < x.size(); i++) {
        if (!std::isfinite(x[i])) bad = true;
        double d = (double)x[i] - ref[i];
        d2 += d * d;
        r2 += (double)ref[i] * ref[i];
        dm = std::max(dm, fabs(d));
        rm = std::max(rm, (double)fabs(ref[i]));
    }
    *l2 = bad ? NAN : sqrt(d2 / (r2 > 0 ? r2 : 1));
    *mx = bad ? NAN : dm / (rm > 0 ? rm : 1);
}

static void poison(const fa_args &a, const prob *p, int bias) {
    size_t n = (size_t)(p->M * p->HC) * 2;
    CU_CHECK(cudaMemset(p->bdq, 0xFF, n));  // bf16 0xFFFF: NaN
    CU_CHECK(cudaMemset(p->bdk, 0xFF, n));
    CU_CHECK(cudaMemset(p->bdv, 0xFF, n));
    if (bias) CU_CHECK(cudaMemset(p->bdb, 0xFF, (size_t)(p->LL * a.H) * 2));
}

// a backward variant with BWL_BM (name ending in ".bm"): not the same bits as fused8
static bool bw_name_bm(const char *vn) {
    size_t n = strlen(vn);
    return n >= 3 && !strcmp(vn + n - 3, ".bm");
}

static int run_check(cu_impl *cb, cu_impl *cf) {
    const tcase cases[] = {
        {77, 77, 4, 32, 0, 1, 1, 1, "tri start L77 masked"},
        {77, 77, 4, 32, 1, 1, 1, 1, "tri end L77 masked"},
        {8, 1000, 4, 32, 0, 1, 1, 1, "B8 L1000 masked"},
        {6, 1000, 4, 32, 1, 1, 1, 0, "B6 L1000 transposed"},
        {130, 130, 4, 16, 0, 1, 1, 1, "tri L130 ch16"},
        {40, 136, 4, 16, 1, 1, 1, 1, "tri end L136 ch16"},
        {2, 300, 16, 24, 0, 1, 1, 0, "single L300 16x24"},
        {12, 200, 8, 32, 0, 1, 1, 1, "msa row S12 L200"},
        {20, 100, 8, 32, 1, 0, 1, 1, "msa col no bias"},
        {256, 256, 4, 32, 0, 1, 0, 0, "tri L256 no mask"},
        {1, 300, 8, 32, 0, 1, 1, 0, "single L300 8x32 planes"},  // one row range: dbias per-head planes
        // fused.wg's cases (cu_flash_bwd_wg.cu: c_h 32, L % 64 == 0): half a key block (L % 128
        // == 64) in the transposed layout, L 384 with fully masked rows, no bias
        {64, 192, 4, 32, 1, 1, 1, 1, "tri end B64 L192 masked"},
        {16, 384, 4, 32, 0, 1, 1, 1, "B16 L384 masked"},
        {24, 128, 4, 32, 1, 0, 1, 1, "col L128 no bias"},
    };
    int fails = 0, n = 0;
    const double tol_l2 = 2e-2;  // test_cuda's bf16 tolerance (||diff|| / ||ref||)
    printf("%-24s %-6s %10s %10s %10s %10s   (||x-ref||/||ref||; max in brackets)\n", "case", "bwd", "dq", "dk", "dv",
           "dbias");
    for (const tcase &t : cases) {
        prob p;
        prob_make(&p, t, 1);
        fa_args a = bf_args(t, &p);
        // fp32 reference: fp32 forward (lse, o), D, fp32 backward
        fa_args f = a;
        f.q = p.fq; f.k = p.fk; f.v = p.fv; f.o = p.fo; f.dO = p.fdO; f.mask = p.fmask;
        f.out_o = p.fo; f.dq = p.fdq; f.dk = p.fdk; f.dv = p.fdv;
        f.dbias = t.bias ? p.fdb : NULL;
        f.lse = p.flse;
        f.D = p.fD;
        fa_forward(cf, &f);
        fa_rowdot(cf, &f, p.fD);
        fa_backward(cf, &f);
        // bf16: tensor-core forward, D, then each backward
        fa_tc_forward(cb, &a);
        fa_rowdot(cb, &a, p.bD);
        CU_CHECK(cudaDeviceSynchronize());
        size_t nq = (size_t)(p.M * p.HC), nb = (size_t)(p.LL * t.H);
        std::vector<float> ref[4] = {down_f(p.fdq, nq), down_f(p.fdk, nq), down_f(p.fdv, nq),
                                     t.bias ? down_f(p.fdb, nb) : std::vector<float>()};
        for (int which = 0; which < 2; which++) {
            poison(a, &p, t.bias);
            if (which == 0) fa_tc_backward_v1(cb, &a);
            else fa_tc_backward(cb, &a);
            CU_CHECK(cudaDeviceSynchronize());
            std::vector<float> got[4] = {down_bf(p.bdq, nq), down_bf(p.bdk, nq), down_bf(p.bdv, nq),
                                         t.bias ? down_bf(p.bdb, nb) : std::vector<float>()};
            double l2[4] = {0, 0, 0, 0}, mx[4] = {0, 0, 0, 0};
            bool ok = true;
            for (int u = 0; u < 4; u++) {
                if (u == 3 && !t.bias) continue;
                rel_err(got[u], ref[u], &l2[u], &mx[u]);
                if (!(l2[u] <= tol_l2)) ok = false;
            }
            printf("%-24s %-6s", t.name, which ? "new" : "v1");
            for (int u = 0; u < 4; u++) printf(" %.2e[%.1e]", l2[u], mx[u]);
            if (which == 1) {
                // bit-identical run to run (poisoned in between)
                poison(a, &p, t.bias);
                fa_tc_backward(cb, &a);
                CU_CHECK(cudaDeviceSynchronize());
                bool same = true;
                std::vector<float> again[4] = {down_bf(p.bdq, nq), down_bf(p.bdk, nq), down_bf(p.bdv, nq),
                                               t.bias ? down_bf(p.bdb, nb) : std::vector<float>()};
                for (int u = 0; u < 4; u++)
                    if (memcmp(again[u].data(), got[u].data(), got[u].size() * 4) != 0) same = false;
                printf(" %s", same ? "bit-identical" : "NOT-IDENTICAL");
                if (!same) ok = false;
                // every variant against the default (same math, other blocking: equal
                // up to bf16 rounding of the output); the fused8.* variants (same blocking
                // and summation order as fused8) also bit for bit against fused8, except
                // the .bm ones (the bias added on the tensor cores with 1 / scale rounded
                // to bf16: other bits, the reference's tolerance)
                std::vector<float> f8[4];
                for (int v = 1; v < fa_tc_backward_variants(); v++) {
                    poison(a, &p, t.bias);
                    fa_tc_backward_variant(cb, &a, v, 7);
                    CU_CHECK(cudaDeviceSynchronize());
                    std::vector<float> gv[4] = {down_bf(p.bdq, nq), down_bf(p.bdk, nq), down_bf(p.bdv, nq),
                                                t.bias ? down_bf(p.bdb, nb) : std::vector<float>()};
                    double worst = 0;
                    for (int u = 0; u < 4; u++) {
                        if (u == 3 && !t.bias) continue;
                        double e2, em;
                        rel_err(gv[u], ref[u], &e2, &em);
                        if (!(e2 <= worst)) worst = e2;
                    }
                    if (!(worst <= tol_l2)) { ok = false; printf(" var%d:%.2e!", v, worst); }
                    if (strncmp(fa_tc_backward_variant_name(v), "fused", 5) == 0) {
                        // the one-pass variants (not the default at these sizes): same bits twice
                        poison(a, &p, t.bias);
                        fa_tc_backward_variant(cb, &a, v, 7);
                        CU_CHECK(cudaDeviceSynchronize());
                        std::vector<float> g2[4] = {down_bf(p.bdq, nq), down_bf(p.bdk, nq), down_bf(p.bdv, nq),
                                                    t.bias ? down_bf(p.bdb, nb) : std::vector<float>()};
                        bool same2 = true;
                        for (int u = 0; u < 4; u++)
                            if (memcmp(g2[u].data(), gv[u].data(), gv[u].size() * 4) != 0) same2 = false;
                        printf(" var%d:%.2e%s", v, worst, same2 ? "" : ":NOT-IDENTICAL");
                        if (!same2) ok = false;
                        const char *vn = fa_tc_backward_variant_name(v);
                        if (!strcmp(vn, "fused8"))
                            for (int u = 0; u < 4; u++) f8[u] = gv[u];
                        else if (!strncmp(vn, "fused8.", 7) && !f8[0].empty() && !bw_name_bm(vn)) {
                            bool same8 = true;
                            for (int u = 0; u < 4; u++)
                                if (gv[u].size() != f8[u].size() ||
                                    memcmp(gv[u].data(), f8[u].data(), gv[u].size() * 4) != 0)
                                    same8 = false;
                            if (!same8) {
                                ok = false;
                                printf(" var%d:NOT-SAME-AS-fused8!", v);
                            }
                        }
                    }
                }
                // every bias-gradient kernel variant (cu_flash_bwd_dbias.cu) in the default
                // backward: against the reference, the same bits twice, and the same bits as
                // the default's (every variant sums each element's dS in the same order; a
                // .bm one would add the bias on the tensor cores: other bits)
                for (int v = 0; t.bias && v < fa_bwd_dbias_variants(); v++) {
                    cb->attn_dbias = v + 1;
                    std::vector<float> gd[2];
                    for (int rep = 0; rep < 2; rep++) {
                        poison(a, &p, t.bias);
                        fa_tc_backward(cb, &a);
                        CU_CHECK(cudaDeviceSynchronize());
                        gd[rep] = down_bf(p.bdb, nb);
                    }
                    cb->attn_dbias = 0;
                    double e2, em;
                    rel_err(gd[0], ref[3], &e2, &em);
                    bool same2 = memcmp(gd[0].data(), gd[1].data(), gd[0].size() * 4) == 0;
                    bool same_def = memcmp(gd[0].data(), got[3].data(), gd[0].size() * 4) == 0 ||
                                    bw_name_bm(fa_bwd_dbias_variant_name(v));
                    if (!(e2 <= tol_l2) || !same2 || !same_def) {
                        ok = false;
                        printf(" db%d(%s):%.2e%s%s!", v, fa_bwd_dbias_variant_name(v), e2, same2 ? "" : ":NOT-IDENTICAL",
                               same_def ? "" : ":NOT-SAME-AS-default");
                    }
                }
            }
            printf(" %s\n", ok ? "ok" : "FAIL");
            n++;
            if (!ok) fails++;
        }
        prob_free(&p);
    }
    printf("check: %d passed, %d failed\n", n - fails, fails);
    return fails;
}

typedef void (*bwd_fn)(cu_impl *c, const fa_args *a, int v, int parts);
static void run_v1(cu_impl *c, const fa_args *a, int, int) { fa_tc_backward_v1(c, a); }
static void run_var(cu_impl *c, const fa_args *a, int v, int parts) { fa_tc_backward_variant(c, a, v, parts); }

static float time_median(cu_impl *c, const fa_args *a, bwd_fn fn, int v, int parts, int reps) {
    cudaEvent_t e0, e1;
    CU_CHECK(cudaEventCreate(&e0));
    CU_CHECK(cudaEventCreate(&e1));
    for (int i = 0; i < 2; i++) fn(c, a, v, parts);
    std::vector<float> ms;
    for (int i = 0; i < reps; i++) {
        CU_CHECK(cudaEventRecord(e0, c->stream));
        fn(c, a, v, parts);
        CU_CHECK(cudaEventRecord(e1, c->stream));
        CU_CHECK(cudaEventSynchronize(e1));
        float t;
        CU_CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    CU_CHECK(cudaEventDestroy(e0));
    CU_CHECK(cudaEventDestroy(e1));
    return ms[ms.size() / 2];
}

// A timed problem: random inputs with an all-ones mask (the module always passes one);
// saved (1): lse and D made by the forward and rowdot, as the backward expects them.
static fa_args timed_problem(cu_impl *cb, const tcase &t, prob *p, int saved) {
    prob_make(p, t, 0);
    std::vector<uint16_t> ones((size_t)p->M, f2bf(1.f));
    CU_CHECK(cudaMemcpy(p->bmask, ones.data(), ones.size() * 2, cudaMemcpyHostToDevice));
    fa_args a = bf_args(t, p);
    if (saved) {
        fa_tc_forward(cb, &a);
        fa_rowdot(cb, &a, p->bD);
    }
    return a;
}

// --variant NAME with --time: that variant and the default's (fused8.lean.x4.st.sw) only
static int time_variant = -1;
static int time_default_v = -1;
static void run_time(cu_impl *cb, const std::vector<int64_t> &sizes, int reps) {
    printf("\n%-6s %-12s %10s %8s %10s %10s %10s\n", "N", "backward", "ms", "TFLOP/s", "dkdv ms", "dq ms", "dbias ms");
    for (int64_t N : sizes) {
        tcase t = {N, N, 4, 32, 0, 1, 1, 0, "time"};
        prob p;
        fa_args a = timed_problem(cb, t, &p, 1);
        double flop = 8.0 * (double)N * t.H * (double)N * N * t.ch;
        float v1 = time_median(cb, &a, run_v1, 0, 7, reps);
        printf("%-6lld %-12s %10.3f %8.1f\n", (long long)N, "v1", v1, flop / v1 * 1e-9);
        for (int v = 0; v < fa_tc_backward_variants(); v++) {
            if (time_variant >= 0 && v != time_variant && v != time_default_v) continue;
            float all = time_median(cb, &a, run_var, v, 7, reps);
            float kv = time_median(cb, &a, run_var, v, 1, reps), dq = time_median(cb, &a, run_var, v, 2, reps),
                  db = time_median(cb, &a, run_var, v, 4, reps);
            printf("%-6lld %-12s %10.3f %8.1f %10.3f %10.3f %10.3f  x%.2f vs v1\n", (long long)N,
                   fa_tc_backward_variant_name(v), all, flop / all * 1e-9, kv, dq, db, v1 / all);
        }
        fflush(stdout);
        prob_free(&p);
    }
}

// --dbias: the bias-gradient pass alone (parts 4) with each kernel variant of
// cu_flash_bwd_dbias.cu, on the triangle shape at each N of --time and on --shapes' list.
static void run_dbias(cu_impl *cb, const std::vector<int64_t> &sizes, int reps);

// --shapes: forward + backward of issue 10's three module shapes, the first kernels
// (fa_tc_forward's k_tc_fwd and fa_tc_backward_v1) against today's (fa_forward, which
// takes the Hopper kernel on sm_90, and fa_tc_backward). Both backwards include
// fa_rowdot (today's version in both, so the ratio does not credit its rewrite).
static void bwd_v1_rowdot(cu_impl *c, const fa_args *a, int, int) { fa_rowdot(c, a, (float *)a->D); fa_tc_backward_v1(c, a); }
static void bwd_new_rowdot(cu_impl *c, const fa_args *a, int, int) { fa_rowdot(c, a, (float *)a->D); fa_tc_backward(c, a); }
static void fwd_old(cu_impl *c, const fa_args *a, int, int) { fa_tc_forward(c, a); }
static void fwd_new(cu_impl *c, const fa_args *a, int, int) { fa_forward(c, a); }
// k_s9_fwd, b16: with the bf16 bias tile
static void fwd_k_s9(cu_impl *c, const fa_args *a, int b16, int) { fa_sm90_forward_variant(c, a, b16); }
static void bwd_var_rowdot(cu_impl *c, const fa_args *a, int v, int) {
    fa_rowdot(c, a, (float *)a->D);
    fa_tc_backward_variant(c, a, v, 7);
}

static const tcase shapes[] = {{1024, 1024, 4, 32, 0, 1, 1, 0, "triangle start N=1024 4x32"},
                               {128, 1024, 8, 32, 0, 1, 1, 0, "MSA row S=128 N=1024 8x32"},
                               {1, 2048, 16, 24, 0, 1, 1, 0, "single N=2048 16x24"}};

static void run_shapes(cu_impl *cb, int reps) {
    printf("\n%-28s %9s %9s %9s | %9s %9s %9s | %7s %7s\n", "shape", "old fwd", "old bwd", "old f+b", "new fwd",
           "new bwd", "new f+b", "x fwd", "x f+b");
    for (const tcase &t : shapes) {
        prob p;
        fa_args a = timed_problem(cb, t, &p, 0);
        float of = time_median(cb, &a, fwd_old, 0, 7, reps);
        float ob = time_median(cb, &a, bwd_v1_rowdot, 0, 7, reps);
        float nf = time_median(cb, &a, fwd_new, 0, 7, reps);
        float nb = time_median(cb, &a, bwd_new_rowdot, 0, 7, reps);
        printf("%-28s %9.3f %9.3f %9.3f | %9.3f %9.3f %9.3f | %7.2f %7.2f\n", t.name, of, ob, of + ob, nf, nb, nf + nb,
               of / nf, (of + ob) / (nf + nb));
        // the other choices per shape: k_s9_fwd's bias tile, backward variants (rows per block
        // 2 and 4 of k_s9_fwd were slower and removed in session 15)
        printf("    forward k_s9_fwd, bias tile fp32 / bf16:");
        for (int b16 : {0, 1}) {  // the bf16 copy's time included
            float ms = -1;
            if (fa_sm90_forward_variant(cb, &a, b16) == 0) ms = time_median(cb, &a, fwd_k_s9, b16, 7, reps);
            printf(" %.3f", ms);
        }
        printf("\n");
        printf("    backward (with rowdot):");
        for (int v = 0; v < fa_tc_backward_variants(); v++)
            printf(" %s %.3f", fa_tc_backward_variant_name(v), time_median(cb, &a, bwd_var_rowdot, v, 7, reps));
        printf("\n");
        fflush(stdout);
        prob_free(&p);
    }
}

static void run_dbias(cu_impl *cb, const std::vector<int64_t> &sizes, int reps) {
    std::vector<tcase> cases;
    for (int64_t N : sizes) cases.push_back({N, N, 4, 32, 0, 1, 1, 0, "triangle"});
    for (const tcase &t : shapes) cases.push_back(t);
    printf("\n%-28s %6s", "bias gradient (ms)", "L");
    std::vector<int> wid;  // column widths: the variant names
    for (int v = 0; v < fa_bwd_dbias_variants(); v++) {
        wid.push_back(std::max(9, (int)strlen(fa_bwd_dbias_variant_name(v))));
        printf(" %*s", wid[v], fa_bwd_dbias_variant_name(v));
    }
    printf(" %9s", "default");
    printf("\n");
    for (const tcase &t : cases) {
        prob p;
        fa_args a = timed_problem(cb, t, &p, 1);
        printf("%-28s %6lld", t.name, (long long)t.L);
        for (int v = 0; v < fa_bwd_dbias_variants(); v++) {
            cb->attn_dbias = v + 1;
            printf(" %*.3f", wid[v], time_median(cb, &a, run_var, 0, 4, reps));
            fflush(stdout);
        }
        cb->attn_dbias = 0;
        printf(" %9.3f\n", time_median(cb, &a, run_var, 0, 4, reps));
        prob_free(&p);
    }
}

// One default backward at N (triangle attention shape), or of shape -N - 1 of --shapes'
// list (--profile-shape K), for a profiler (ncu -k regex:k_bwd); --variant NAME: that
// backward variant instead of the default; --dbias-variant NAME: that bias-gradient kernel.
static int profile_variant = -1;
static int profile_dbias = 0;  // --dbias-variant NAME: v + 1, that bias-gradient kernel variant
static void run_profile(cu_impl *cb, int64_t N) {
    tcase t = {N, N, 4, 32, 0, 1, 1, 0, "profile"};
    if (N < 0) t = shapes[-N - 1];
    prob p;
    prob_make(&p, t, 0);
    fa_args a = bf_args(t, &p);
    fa_tc_forward(cb, &a);
    fa_rowdot(cb, &a, p.bD);
    if (profile_variant >= 0) fa_tc_backward_variant(cb, &a, profile_variant, 7);
    else fa_tc_backward(cb, &a);
    CU_CHECK(cudaDeviceSynchronize());
    prob_free(&p);
}

int main(int argc, char **argv) {
    int check = 0, reps = 10, shapes = 0, dbias = 0;
    int64_t profile = 0;
    std::vector<int64_t> sizes;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--shapes")) shapes = 1;
        else if (!strcmp(argv[i], "--dbias")) dbias = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
            profile = atoll(argv[++i]);
            if (profile < 1 || profile > 8192) pf_die("--profile: size %s not in 1..8192", argv[i]);
        }
        else if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            const char *name = argv[++i];
            for (int v = 0; v < fa_tc_backward_variants(); v++)
                if (!strcmp(fa_tc_backward_variant_name(v), name)) profile_variant = v;
            if (profile_variant < 0) pf_die("--variant: no backward variant '%s' (see --time's list)", name);
            time_variant = profile_variant;
            for (int v = 0; v < fa_tc_backward_variants(); v++)
                if (!strcmp(fa_tc_backward_variant_name(v), "fused8.lean.x4.st.sw")) time_default_v = v;
        }
        else if (!strcmp(argv[i], "--dbias-variant") && i + 1 < argc) {
            const char *name = argv[++i];
            for (int v = 0; v < fa_bwd_dbias_variants(); v++)
                if (!strcmp(fa_bwd_dbias_variant_name(v), name)) profile_dbias = v + 1;
            if (!profile_dbias) pf_die("--dbias-variant: no bias-gradient variant '%s' (see --dbias's list)", name);
        }
        else if (!strcmp(argv[i], "--profile-shape") && i + 1 < argc) {
            int k = atoi(argv[++i]);
            if (k < 0 || k > 2) pf_die("--profile-shape: %s not in 0..2 (triangle, MSA row, single)", argv[i]);
            profile = -k - 1;
        }
        else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
            for (char *s = strtok(argv[++i], ","); s; s = strtok(NULL, ",")) {
                long long v = atoll(s);
                if (v < 1 || v > 8192) pf_die("--time: size %s not in 1..8192", s);
                sizes.push_back(v);
            }
        } else pf_die("usage: attn_bwd_check [--check] [--time N,N,...] [--reps R] [--profile N] [--profile-shape K] [--variant NAME] [--dbias-variant NAME] [--shapes] [--dbias] (unknown '%s')", argv[i]);
    }
    if (reps < 1) pf_die("--reps must be >= 1");
    cudaDeviceProp prop;
    CU_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
    cu_impl cb, cf;
    memset(&cb, 0, sizeof cb);
    memset(&cf, 0, sizeof cf);
    cb.bf16 = 1;
    cf.bf16 = 0;
    cb.n_sm = cf.n_sm = prop.multiProcessorCount;
    CU_CHECK(cudaStreamCreate(&cb.stream));
    cf.stream = cb.stream;
    // the backend's scratch pool (the fused backward's dq slots come from it)
    cb.pool_bytes = 256u << 20;
    CU_CHECK(cudaMalloc((void **)&cb.pool, cb.pool_bytes));
    int fails = 0;
    if (check) fails = run_check(&cb, &cf);
    if (dbias) run_dbias(&cb, sizes, reps);
    else if (!sizes.empty()) run_time(&cb, sizes, reps);
    if (shapes) run_shapes(&cb, reps);
    cb.attn_dbias = profile_dbias;
    if (profile) run_profile(&cb, profile);
    if (check) printf("attn_bwd_check: %s\n", fails ? "FAILED" : "PASSED");
    return fails ? 1 : 0;
}
