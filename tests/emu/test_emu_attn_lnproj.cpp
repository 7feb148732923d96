// test_emu_attn_lnproj.cpp: the attention module's LayerNorm + bias logits + q|k|v|g projections in one Hopper pass
// (cu_attn_lnproj.cu's k_attn_lnproj_wg<NT, TR>, PF_ATTN_LNPROJ) on the CPU kernel emulator (src/cuda/emu;
// docs/EMULATOR.md), against a float64 reference with the kernel's bf16 roundings:
//   xln = bf16(LN(x))             (lnw, lnb fp32; mean, variance of x - mean, eps LN_EPS) against float64 LN(x),
//                                 within a bf16 rounding (2^-8 |ref|) plus fp32 noise;
//   zb  = bf16(xln bf16(W_bias)^T) (M, H) and
//   X   = bf16(xln W_cat^T + b_cat) (M, 4 HC, rows ldx apart), both in float64 from the kernel's own xln (the
//                                 products see LN(x) rounded to bf16), within 2^-8 |ref| + 1e-3 rms(ref);
//   cp  = x, bit for bit.
// The transposed read (TR, PF_ATTN_END_INPLACE: x (L, L, 128) read as x^T) must give the bits of a run on x^T made
// here, cp included (the saved x^T). Guard values after the last row (M) of every output and in X's columns
// 4 HC .. ldx of every row catch writes outside the outputs. Each problem runs in several launches (3 or 1 warpgroups
// per block, one block per tile group or 1 / 2 blocks so that a warpgroup loops over several 64-row tiles, cp and / or
// xln NULL), each in five emulator orders (asynchronous work at its wait / at issue, threads and blocks ascending /
// descending / shuffled, one slow warp: warp 5 or warp 0); every run must give the first run's bits (the rows'
// arithmetic does not depend on the launch). W_cat is packed by k_ago_pack (the host code's ago_pack_rows), checked
// against trwg_off on the host.
//
// Build and run: make test-emu (mk/emu.mk), or make BUILD=B B/emu/test_emu_attn_lnproj. Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define ago_sm emu_smem
#define alp_sm emu_smem
#include "../../src/cuda/cu_attn_gate_wg.cu"  // k_ago_pack
#include "../../src/cuda/cu_attn_lnproj.cu"
#include "emu_check.h"

#define KC 128             // c_in
#define GUARD_BITS 0x7f81  // a NaN no computation produces
#define NORD 5             // emulator orders per launch
#define GROWS 64           // guard rows after M in every output (a whole row tile: the last tile's rows past M)

static uint64_t seed_base;  // -s N: other random inputs (0: the default's)

struct problem {
    int64_t M, ldx;
    int tiles, NO, H;  // NO = 4 HC = 64 tiles
    bool has_bias;
    std::vector<bf16> x, W, b, wpack;  // x (M, 128); W_cat (NO, 128); b_cat (NO); W_cat packed (k_ago_pack)
    std::vector<float> lnw, lnb, wb;   // (128), (128), W_bias (H, 128)
};

static problem make_problem(int64_t M, int tiles, int H, int64_t ldx, bool has_bias, uint64_t seed) {
    rng = (seed + 1000003 * seed_base) * 0x2545F4914F6CDD1Dull + 3;
    problem p;
    p.M = M, p.ldx = ldx, p.tiles = tiles, p.NO = 64 * tiles, p.H = H, p.has_bias = has_bias;
    p.x.resize((size_t)(M * KC)), p.W.resize((size_t)p.NO * KC), p.b.resize((size_t)p.NO);
    for (int64_t i = 0; i < M; i++) {  // rows of their own offset and scale; row 1 constant (variance 0)
        const double off = 2 * urand() - 1, sc = 0.5 + 1.5 * urand(), c = 0.75 + urand();
        for (int k = 0; k < KC; k++) p.x[(size_t)(i * KC + k)] = tob(i == 1 ? c : off + sc * nrand());
    }
    for (auto &v : p.W) v = tob(0.09 * nrand());
    for (auto &v : p.b) v = tob(0.5 * nrand());
    p.lnw.resize(KC), p.lnb.resize(KC), p.wb.resize((size_t)H * KC);
    for (auto &v : p.lnw) v = (float)(1 + 0.3 * nrand());
    for (auto &v : p.lnb) v = (float)(0.2 * nrand());
    for (auto &v : p.wb) v = (float)(0.09 * nrand());  // fp32, not bf16 numbers: the kernel rounds them
    // W_cat packed as the host code does (ago_pack_rows: k_ago_pack's forward form, NO rows of 128)
    p.wpack.resize((size_t)tiles * 64 * KC);
    emu_run(dim3(4), dim3(256), 0, [&] { k_ago_pack(p.wpack.data(), p.W.data(), p.NO, KC, 0, tiles); });
    return p;
}

// An output of `width` columns in M rows `ld` apart, GROWS rows of guard values after M and guard values in
// each row's columns width .. ld.
struct gbuf {
    std::vector<bf16> v;
    int64_t M, ld, width;
    gbuf(int64_t M_, int64_t ld_, int64_t width_) : v((size_t)((M_ + GROWS) * ld_)), M(M_), ld(ld_), width(width_) {
        uint16_t g = GUARD_BITS;
        for (auto &x : v) memcpy((void *)&x, &g, 2);
    }
    std::vector<bf16> rows() const {
        std::vector<bf16> r((size_t)(M * width));
        for (int64_t i = 0; i < M; i++) memcpy(&r[(size_t)(i * width)], &v[(size_t)(i * ld)], (size_t)width * sizeof(bf16));
        return r;
    }
    bool guards_ok() const {
        for (size_t i = 0; i < v.size(); i++) {
            if ((int64_t)i / ld < M && (int64_t)i % ld < width) continue;
            uint16_t g;
            memcpy(&g, &v[i], 2);
            if (g != GUARD_BITS) return false;
        }
        return true;
    }
};

struct result {
    std::vector<bf16> X, zb, cp, xln;  // (M, NO), (M, H), (M, 128), (M, 128); cp / xln empty where NULL
    bool guards = true;
};

// One launch: nwg warpgroups per block, `grid` blocks (0: one per nwg 64-row tiles, as ts_wave_blocks gives
// where the GPU holds them all), cp / xln written or NULL.
// xt_L > 0: p.x is read as the transpose of an (xt_L, xt_L) grid (k_attn_lnproj_wg<NT, true>)
template <int NT>
static result run(const problem &p, int nwg, int grid, bool want_cp, bool want_xln, uint32_t xt_L = 0) {
    const int64_t M = p.M, T = (M + 63) / 64, need = (T + nwg - 1) / nwg;
    gbuf X(M, p.ldx, p.NO), zb(M, p.H, p.H), cp(M, KC, KC), xln(M, KC, KC);
    alp_args a;
    memset(&a, 0, sizeof a);
    a.w = (const unsigned char *)p.wpack.data(), a.tiles = p.tiles, a.M = M, a.x = p.x.data();
    a.lnw = p.lnw.data(), a.lnb = p.lnb.data(), a.wb = p.wb.data(), a.H = p.H;
    a.bias = p.has_bias ? p.b.data() : NULL;
    a.X = X.v.data(), a.ldx = p.ldx, a.zb = zb.v.data();
    a.cp = want_cp ? cp.v.data() : NULL, a.xln = want_xln ? xln.v.data() : NULL;
    a.L = xt_L;
    const unsigned nb = (unsigned)(grid > 0 && grid < need ? grid : need);
    // alp_bytes: cu_attn_lnproj.cu's own (outside its PF_EMU_NO_HOST part)
    emu_run(dim3(nb), dim3(128 * nwg), (size_t)alp_bytes(p.tiles, nwg), [&] {
        if (xt_L) k_attn_lnproj_wg<NT, true>(a);
        else k_attn_lnproj_wg<NT, false>(a);
    });
    result r;
    r.X = X.rows(), r.zb = zb.rows();
    if (want_cp) r.cp = cp.rows();
    if (want_xln) r.xln = xln.rows();
    r.guards = X.guards_ok() && zb.guards_ok() && (!want_cp || cp.guards_ok()) && (!want_xln || xln.guards_ok());
    return r;
}

static bool eqb(const std::vector<bf16> &x, const std::vector<bf16> &y) {
    return x.size() == y.size() && !memcmp(x.data(), y.data(), x.size() * sizeof(bf16));
}
// b's outputs equal a's (those b has: cp / xln may be absent)
static bool same_bits(const result &a, const result &b) {
    return eqb(a.X, b.X) && eqb(a.zb, b.zb) && (b.cp.empty() || eqb(a.cp, b.cp)) && (b.xln.empty() || eqb(a.xln, b.xln));
}

// Elementwise: |got - ref| <= rel |ref| + abs_rms rms(ref) + abs; returns the count outside (NaN included) and
// the worst excess ratio.
static int64_t count_bad(const std::vector<bf16> &got, const std::vector<double> &ref, double rel, double abs_rms,
                         double abs, double &worst, int64_t &at) {
    double s = 0;
    for (double r : ref) s += r * r;
    const double rms = sqrt(s / (double)(ref.size() ? ref.size() : 1));
    int64_t bad = 0;
    worst = 0, at = -1;
    for (size_t i = 0; i < ref.size(); i++) {
        const double g = fb(got[i]), d = fabs(g - ref[i]), tol = rel * fabs(ref[i]) + abs_rms * rms + abs;
        if (!(d <= tol)) bad++;
        const double q = d == d ? d / tol : INFINITY;
        if (!(q <= worst)) worst = q, at = (int64_t)i;
    }
    return bad;
}

// The reference from full (cp and xln written) and its checks.
static void check_reference(const std::string &name, const problem &p, const result &got) {
    const int64_t M = p.M;
    const double r8 = 1.0 / 256;  // 2^-8: a bf16 rounding relative to the value
    // LN(x) in float64
    std::vector<double> ln((size_t)(M * KC));
    for (int64_t i = 0; i < M; i++) {
        double mu = 0, var = 0;
        for (int k = 0; k < KC; k++) mu += fb(p.x[(size_t)(i * KC + k)]);
        mu /= KC;
        for (int k = 0; k < KC; k++) {
            const double d = fb(p.x[(size_t)(i * KC + k)]) - mu;
            var += d * d;
        }
        const double rs = 1 / sqrt(var / KC + (double)LN_EPS);
        for (int k = 0; k < KC; k++)
            ln[(size_t)(i * KC + k)] = (fb(p.x[(size_t)(i * KC + k)]) - mu) * rs * p.lnw[(size_t)k] + p.lnb[(size_t)k];
    }
    double worst;
    int64_t at, bad;
    // a rounding to bf16 is within 2^-8 |ref| (half an ulp); the fp32 LN's own error (~1e-6 of |w x^| + |b| <= ~10)
    // may tip a value near a rounding midpoint the other way: 3e-5 absolute
    bad = count_bad(got.xln, ln, r8, 0, 3e-5, worst, at);
    if (verbose) printf("     %s xln: largest error %.3g of the tolerance\n", name.c_str(), worst);
    check(bad == 0, name + " xln = bf16(LN(x))", "%lld of %lld outside, worst %.3g x tolerance at row %lld col %lld",
          (long long)bad, (long long)ln.size(), worst, (long long)(at / KC), (long long)(at % KC));
    check(eqb(got.cp, p.x), name + " cp = x (bits)", "%s", "the copy differs");
    // zb and X in float64 from the kernel's xln (bf16 numbers, the products' A operand)
    std::vector<double> zr((size_t)(M * p.H)), Xr((size_t)(M * p.NO));
    std::vector<double> wbr((size_t)p.H * KC);
    for (size_t i = 0; i < wbr.size(); i++) wbr[i] = bfr(p.wb[i]);  // fa_pack2: W_bias rounded to bf16
    for (int64_t i = 0; i < M; i++) {
        const bf16 *xl = &got.xln[(size_t)(i * KC)];
        double xd[KC];
        for (int k = 0; k < KC; k++) xd[k] = fb(xl[k]);
        for (int h = 0; h < p.H; h++) {
            double s = 0;
            for (int k = 0; k < KC; k++) s += xd[k] * wbr[(size_t)(h * KC + k)];
            zr[(size_t)(i * p.H + h)] = s;
        }
        for (int n = 0; n < p.NO; n++) {
            double s = p.has_bias ? fb(p.b[(size_t)n]) : 0.0;
            for (int k = 0; k < KC; k++) s += xd[k] * fb(p.W[(size_t)n * KC + k]);
            Xr[(size_t)(i * p.NO + n)] = s;
        }
    }
    bad = count_bad(got.zb, zr, r8, 1e-3, 0, worst, at);
    if (verbose) printf("     %s zb: largest error %.3g of the tolerance\n", name.c_str(), worst);
    check(bad == 0, name + " zb = xln W_bias^T", "%lld of %lld outside, worst %.3g x tolerance at row %lld head %lld",
          (long long)bad, (long long)zr.size(), worst, (long long)(at / p.H), (long long)(at % p.H));
    bad = count_bad(got.X, Xr, r8, 1e-3, 0, worst, at);
    if (verbose) printf("     %s X: largest error %.3g of the tolerance\n", name.c_str(), worst);
    check(bad == 0, name + (p.has_bias ? " X = xln W_cat^T + b_cat" : " X = xln W_cat^T"),
          "%lld of %lld outside, worst %.3g x tolerance at row %lld col %lld", (long long)bad, (long long)Xr.size(), worst,
          (long long)(at / p.NO), (long long)(at % p.NO));
}

struct launch {
    int nwg, grid;
    bool cp, xln;
};

template <int NT>
static void run_case(int64_t M, int tiles, int H, int64_t ldx, bool has_bias, const std::vector<launch> &launches) {
    problem p = make_problem(M, tiles, H, ldx, has_bias, (uint64_t)(M * 131 + tiles * 17 + H));
    char base[160];
    snprintf(base, sizeof base, "M %lld 4HC %d H %d ldx %lld%s", (long long)M, p.NO, H, (long long)ldx,
             has_bias ? " b_cat" : " no b_cat");
    {  // k_ago_pack's layout: trwg_off's, zero rows past NO (none here: NO = 64 tiles)
        std::vector<bf16> hp(p.wpack.size());
        for (int r = 0; r < 64 * tiles; r++)
            for (int k = 0; k < KC; k++) hp[(size_t)trwg_off(r, k, KC)] = p.W[(size_t)r * KC + k];
        check(eqb(hp, p.wpack), std::string(base) + " W_cat packed in trwg_off's layout", "%s", "k_ago_pack differs");
    }
    // asynchronous work at its wait (lazy) or at issue (eager); threads and blocks ascending, descending, shuffled;
    // one warp slow (emu_opts.slow_warp): warp 5 (1 of the 4-warp blocks) one round in 4, or warp 0 (whose thread
    // 0 issues the weight's copies) one round in 64, so that the other warps run ahead into refilled rows
    emu_options orders[NORD] = {{0, 0, 0, 1}, {1, 1, 1, 2}, {0, 2, 0, 7}, {1, 2, 0, 5}, {1, 2, 0, 12}};
    orders[3].slow_warp = 4, orders[4].slow_warp = 64;
    static const char *oname[NORD] = {"lazy ascending", "eager descending", "lazy shuffled", "eager shuffled, warp 5 slow",
                                      "eager shuffled, warp 0 slow"};
    result first;
    for (size_t lf = 0; lf < launches.size(); lf++) {
        const launch &l = launches[lf];
        char name[320];
        const int64_t T = (M + 63) / 64, need = (T + l.nwg - 1) / l.nwg, nb = l.grid > 0 && l.grid < need ? l.grid : need;
        snprintf(name, sizeof name, "%s: %d warpgroup%s x %lld block%s%s%s", base, l.nwg, l.nwg > 1 ? "s" : "",
                 (long long)nb, nb > 1 ? "s" : "", l.cp ? "" : ", cp NULL", l.xln ? "" : ", xln NULL");
        result r0;
        bool guards = true, same = true;
        std::string diff;
        for (int o = 0; o < NORD; o++) {
            emu_opts = orders[o];
            result r = run<NT>(p, l.nwg, l.grid, l.cp, l.xln);
            guards = guards && r.guards;
            if (!o) r0 = r;
            else if (!same_bits(r0, r)) same = false, diff += std::string(diff.empty() ? "" : ", ") + oname[o];
        }
        emu_opts = orders[0];
        check(guards, std::string(name) + " no write outside the outputs (every order)", "%s", "a guard value changed");
        check(same, std::string(name) + " the same bits in every order", "%s differ from lazy ascending", diff.c_str());
        if (lf == 0) {
            if (!l.cp || !l.xln) {
                fprintf(stderr, "the first launch of a case must write cp and xln (the reference's xln)\n");
                exit(2);
            }
            first = r0;
            check_reference(name, p, r0);
        } else {
            check(same_bits(first, r0), std::string(name) + " the first launch's bits", "%s",
                  "X, zb, cp or xln differ from the first launch's");
        }
    }
}

// The transposed read: x (L, L, 128) read as x^T against a run on x^T itself (two launch shapes, two emulator orders:
// lazy ascending, eager shuffled), every output (cp: the saved x^T) the same bits.
template <int NT>
static void run_transposed(int64_t L, int tiles, int H, int64_t ldx) {
    problem p = make_problem(L * L, tiles, H, ldx, true, (uint64_t)(L * 7919 + H));
    problem pt = p;  // x^T: position (r, l) of x^T is x's (l, r)
    for (int64_t r = 0; r < L; r++)
        for (int64_t l = 0; l < L; l++)
            memcpy(&pt.x[(size_t)((r * L + l) * KC)], &p.x[(size_t)((l * L + r) * KC)], KC * sizeof(bf16));
    emu_options orders[2] = {{0, 0, 0, 1}, {1, 2, 0, 5}};
    for (int nwg : {3, 1}) {
        char name[200];
        snprintf(name, sizeof name, "L %lld (M %lld) 4HC %d H %d: x read as x^T, %d warpgroup%s", (long long)L,
                 (long long)(L * L), p.NO, H, nwg, nwg > 1 ? "s" : "");
        bool same = true, guards = true;
        for (auto &o : orders) {
            emu_opts = o;
            result want = run<NT>(pt, nwg, 1, true, true);
            result got = run<NT>(p, nwg, 1, true, true, (uint32_t)L);
            same = same && same_bits(want, got) && eqb(got.cp, pt.x), guards = guards && got.guards;
        }
        emu_opts = orders[0];
        check(same, std::string(name) + " = the run on x^T (bits; cp = x^T)", "%s", "an output differs");
        check(guards, std::string(name) + " no write outside the outputs", "%s", "a guard value changed");
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) seed_base = strtoull(argv[++i], NULL, 10);  // other inputs
    // the module's shape: HC 128 (4 HC = 512, 8 weight tiles, 128 KiB of shared weight), H 4; rows 5 HC apart
    run_case<1>(333, 8, 4, 640, true,
                {{3, 0, true, true}, {3, 1, true, true}, {1, 2, true, true}, {3, 0, false, true}, {3, 0, true, false},
                 {1, 1, false, false}});
    // H 12 (two n8 tiles of W_bias), no b_cat, rows 8 HC apart, a last tile of 8 rows
    run_case<2>(200, 8, 12, 1024, false, {{3, 0, true, true}, {3, 1, true, true}, {1, 2, false, false}});
    // 4 HC = 256, rows one 16-byte chunk wider than 4 HC; 16 tiles of rows: grid 1 x 3 warpgroups loops 6 times
    run_case<2>(1000, 4, 12, 264, true, {{3, 1, true, true}, {1, 2, true, true}, {3, 0, false, false}});
    run_case<1>(1000, 4, 4, 320, false, {{3, 2, true, true}, {1, 1, true, false}});
    // odd H (zb's single stores), H 8 and 16 (each n8 tile full), 4 HC 64 / 128 (1 / 2 weight tiles), a single
    // partial row tile, rows exactly 4 HC apart (ldx = 4 HC: guard rows only)
    run_case<1>(130, 4, 7, 256, true, {{3, 0, true, true}, {1, 1, true, true}});
    run_case<1>(37, 1, 8, 64, true, {{3, 0, true, true}, {1, 1, false, true}});
    run_case<2>(64, 2, 16, 136, true, {{3, 0, true, true}, {1, 1, true, false}});
    run_case<2>(77, 8, 9, 512, true, {{3, 0, true, true}, {3, 1, false, true}});
    // the ending node's x read in place (PF_ATTN_END_INPLACE): L 19 (361 positions, a partial last row tile), L 16
    run_transposed<1>(19, 8, 4, 640);
    run_transposed<2>(16, 4, 12, 264);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
