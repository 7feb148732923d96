// test_emu_trimul_out.cpp: the triangle multiplication's output-part kernels on the CPU kernel
// emulator (src/cuda/emu; docs/EMULATOR.md), against a float64 reference with the kernels'
// bf16 roundings. k_tm_outf / k_tm_outb (cu_trimul_outb.cu: mma.sync, ldmatrix, cp.async, named
// barriers) passed test_cuda on an H200 (session 36), so they check the emulator and this test's
// reference; k_tm_outfw / k_tm_outbw (cu_trimul_outw.cu, cu_trimul_outwb.cu: wgmma, TMA,
// mbarriers, ldmatrix.trans, stmatrix.trans; session 37) had never run anywhere before this.
// Each kernel runs at several grid sizes (so blocks loop over tiles), with asynchronous work at
// its wait and at issue, threads in ascending, descending and shuffled order: every variant must
// give the same bits, and the outputs must match the reference within bf16 tolerances. Writes
// outside each output's positions are caught by guard values.
//
// Build and run: make test-emu (tests/emu/emu.mk). Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define ow_sm emu_smem
#define owb_sm emu_smem
#define owd_sm emu_smem
#define ob_smem emu_smem
#define to_smem emu_smem
#include "../../src/cuda/cu_trimul_outk.cu"
#include "../../src/cuda/cu_trimul_outb.cu"
#include "../../src/cuda/cu_trimul_outw.cu"
#include "../../src/cuda/cu_trimul_outwb.cu"
#include "../../src/cuda/cu_trimul_outwd.cu"
#include "emu_check.h"

// A problem: M positions of the output part, X channel-major with row stride ldx.
struct problem {
    int64_t M, ldx;
    std::vector<bf16> X, zl, dout;
    std::vector<float> wz, wg, bz, bg, lnw, lnb;
    bool has_lnb;
};
struct result {
    std::vector<bf16> out, xl, dy, dg, dzl, dX;
    std::vector<double> dlnw, dlnb;
    std::vector<double> dwz;  // k_tm_outbw_dwz: d y^T xl (128 x 128, (out, in)); the reference's from its d y, xl
};

static problem make_problem(int64_t M, int64_t ldx, bool has_lnb, uint64_t seed) {
    rng = seed * 0x2545F4914F6CDD1Dull + 1;
    problem p;
    p.M = M, p.ldx = ldx, p.has_lnb = has_lnb;
    p.X.assign((size_t)(128 * ldx), tob(0));
    for (int c = 0; c < 128; c++)
        for (int64_t i = 0; i < M; i++) p.X[(size_t)(c * ldx + i)] = tob(0.3 * c / 128.0 + nrand() * (1 + (i % 5)));
    for (int64_t i = M; i < ldx; i++)
        for (int c = 0; c < 128; c++) p.X[(size_t)(c * ldx + i)] = tob(777.0);  // never read into a result
    p.zl.resize((size_t)(M * 128)), p.dout.resize((size_t)(M * 128));
    for (auto &v : p.zl) v = tob(nrand());
    for (auto &v : p.dout) v = tob(nrand());
    auto fill = [](std::vector<float> &v, size_t n, double s, double off) {
        v.resize(n);
        for (auto &x : v) x = (float)(off + s * nrand());
    };
    fill(p.wz, 128 * 128, 0.09, 0), fill(p.wg, 128 * 128, 0.09, 0), fill(p.bz, 128, 0.3, 0), fill(p.bg, 128, 0.3, 0);
    fill(p.lnw, 128, 0.2, 1.0), fill(p.lnb, 128, 0.2, 0);
    return p;
}

// The reference: the kernels' arithmetic in float64 with their bf16 roundings (xl, y, the gate's
// pre-activation, out, d g, d y, dzl, dxl, dX) and LN_out's statistics in float64.
static result reference(const problem &p) {
    const int64_t M = p.M;
    result r;
    r.out.resize((size_t)(M * 128)), r.xl.resize((size_t)(M * 128)), r.dy = r.xl, r.dg = r.xl, r.dzl = r.xl;
    r.dX.assign((size_t)(128 * p.ldx), tob(0));
    r.dlnw.assign(128, 0), r.dlnb.assign(128, 0);
    std::vector<float> wzb(128 * 128), wgb(128 * 128);
    for (int i = 0; i < 128 * 128; i++) wzb[(size_t)i] = bfr(p.wz[(size_t)i]), wgb[(size_t)i] = bfr(p.wg[(size_t)i]);
    std::vector<double> x(128), xh(128), xl(128), zl(128), y(128), s(128), dg(128), dy(128), dxl(128);
    for (int64_t i = 0; i < M; i++) {
        double mu = 0, var = 0;
        for (int c = 0; c < 128; c++) x[(size_t)c] = fb(p.X[(size_t)(c * p.ldx + i)]), mu += x[(size_t)c];
        mu /= 128;
        for (int c = 0; c < 128; c++) var += (x[(size_t)c] - mu) * (x[(size_t)c] - mu);
        const double rs = 1 / sqrt(var / 128 + 1e-5);
        for (int c = 0; c < 128; c++) {
            xh[(size_t)c] = (x[(size_t)c] - mu) * rs;
            xl[(size_t)c] = bfr(xh[(size_t)c] * p.lnw[(size_t)c] + (p.has_lnb ? p.lnb[(size_t)c] : 0));
            r.xl[(size_t)(i * 128 + c)] = tob(xl[(size_t)c]);
            zl[(size_t)c] = fb(p.zl[(size_t)(i * 128 + c)]);
        }
        for (int o = 0; o < 128; o++) {
            double ay = 0, ag = 0;
            for (int k = 0; k < 128; k++) ay += xl[(size_t)k] * wzb[(size_t)(o * 128 + k)], ag += zl[(size_t)k] * wgb[(size_t)(o * 128 + k)];
            y[(size_t)o] = bfr(ay + bfr(p.bz[(size_t)o]));
            const double gp = bfr(ag + bfr(p.bg[(size_t)o]));
            s[(size_t)o] = 1 / (1 + exp(-gp));
            r.out[(size_t)(i * 128 + o)] = tob(y[(size_t)o] * s[(size_t)o]);
            const double du = fb(p.dout[(size_t)(i * 128 + o)]);
            dg[(size_t)o] = bfr(du * y[(size_t)o] * s[(size_t)o] * (1 - s[(size_t)o]));
            dy[(size_t)o] = bfr(du * s[(size_t)o]);
            r.dg[(size_t)(i * 128 + o)] = tob(dg[(size_t)o]), r.dy[(size_t)(i * 128 + o)] = tob(dy[(size_t)o]);
        }
        double m1 = 0, m2 = 0;
        for (int k = 0; k < 128; k++) {
            double az = 0, ax = 0;
            for (int o = 0; o < 128; o++) az += dg[(size_t)o] * wgb[(size_t)(o * 128 + k)], ax += dy[(size_t)o] * wzb[(size_t)(o * 128 + k)];
            r.dzl[(size_t)(i * 128 + k)] = tob(az);
            dxl[(size_t)k] = bfr(ax);
            const double dxh = dxl[(size_t)k] * p.lnw[(size_t)k];
            m1 += dxh, m2 += dxh * xh[(size_t)k];
            r.dlnw[(size_t)k] += dxl[(size_t)k] * xh[(size_t)k], r.dlnb[(size_t)k] += dxl[(size_t)k];
        }
        m1 /= 128, m2 /= 128;
        for (int k = 0; k < 128; k++)
            r.dX[(size_t)(k * p.ldx + i)] = tob(rs * (dxl[(size_t)k] * p.lnw[(size_t)k] - m1 - xh[(size_t)k] * m2));
    }
    r.dwz.assign(128 * 128, 0.0);
    for (int64_t i = 0; i < M; i++)
        for (int o = 0; o < 128; o++) {
            const double d = fb(r.dy[(size_t)(i * 128 + o)]);
            for (int c = 0; c < 128; c++) r.dwz[(size_t)(o * 128 + c)] += d * fb(r.xl[(size_t)(i * 128 + c)]);
        }
    return r;
}

static err compare_d(const std::vector<double> &got, const std::vector<double> &ref) {
    double num = 0, den = 0, emax = 0, rmax = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        num += (got[i] - ref[i]) * (got[i] - ref[i]), den += ref[i] * ref[i];
        emax = fmax(emax, fabs(got[i] - ref[i])), rmax = fmax(rmax, fabs(ref[i]));
        if (got[i] != got[i]) emax = INFINITY;
    }
    return err{sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300)};
}

// Device-side buffers with guard values after the end (and for channel-major outputs, past M in
// every channel): any write outside the kernel's outputs changes them.
#define GUARD 64
static const uint16_t GUARD_BITS = 0x7f81;  // a NaN no computation produces
struct buf {
    std::vector<bf16> v;
    int64_t n;
    explicit buf(int64_t n_) : v((size_t)(n_ + GUARD)), n(n_) {
        uint16_t g = GUARD_BITS;
        for (auto &x : v) memcpy((void *)&x, &g, 2);
    }
    bf16 *p() { return v.data(); }
    bool guards_ok(int64_t ld = 0, int64_t M = 0) const {
        for (int64_t i = 0; i < n + GUARD; i++) {
            if (i < n && !(ld && i % ld >= M)) continue;
            uint16_t g;
            memcpy(&g, &v[(size_t)i], 2);
            if (g != GUARD_BITS) return false;
        }
        return true;
    }
};

// The packed weights: k_to_pack (k_tm_outf / k_tm_outb's, as cu_tm_out3_weights packs them) and
// k_ow_pack (the Hopper kernels'), run on the emulator.
struct packed {
    std::vector<bf16> w3, ww;
    std::vector<float> b3, bw;
};
static packed pack(const problem &p) {
    packed k;
    to_pack q;
    memset(&q, 0, sizeof q);
    q.wz = p.wz.data(), q.wg = p.wg.data(), q.bz = p.bz.data(), q.bg = p.bg.data();
    q.cx = q.cz = 128, q.KP = 128, q.perm = 1, q.n = (int64_t)2 * 2 * TO_CT * 128;
    k.w3.resize((size_t)q.n), k.b3.resize(2 * 2 * TO_CT);
    q.wout = k.w3.data(), q.bout = k.b3.data();
    emu_run(dim3(4), dim3(256), 0, [&] { k_to_pack(q); });
    ow_pack_args o = {p.wz.data(), p.wg.data(), p.bz.data(), p.bg.data(), NULL, NULL};
    k.ww.resize(4 * OW_WT), k.bw.resize(256);
    o.w = k.ww.data(), o.bias = k.bw.data();
    emu_run(dim3(4), dim3(256), 0, [&] { k_ow_pack(o); });
    return k;
}

struct run_out {
    result r;
    bool guards;
};

// One forward and one backward of a kernel family: "outb" (k_tm_outf / k_tm_outb with TM teams)
// or "outw" (k_tm_outfw with fwg warpgroups / k_tm_outbw with bwg), `grid` blocks (0: one per tile or team).
static run_out run(const problem &p, const packed &k, const std::string &fam, int tm, int fwg, int bwg, int grid,
                   bool inplace) {
    const int64_t M = p.M, ldx = p.ldx;
    buf out(M * 128), xl(M * 128), dy(M * 128), dg(M * 128), dzl(M * 128), dXb(128 * ldx);
    std::vector<bf16> Xc = p.X;  // in place: dX over X's copy
    bf16 *dX = inplace ? Xc.data() : dXb.p();
    run_out ro;
    std::vector<float> part;
    unsigned nb = 0;
    if (fam == "outb") {
        ob_args a;
        memset(&a, 0, sizeof a);
        a.X = Xc.data(), a.ldx = ldx, a.M = M, a.zl = p.zl.data(), a.dout = p.dout.data(), a.w = k.w3.data(),
        a.bias = k.b3.data(), a.ln_w = p.lnw.data(), a.ln_b = p.has_lnb ? p.lnb.data() : NULL, a.out = out.p();
        auto go = [&](auto tmc) {
            constexpr int TM = decltype(tmc)::value;
            const int64_t nblk = (M + ob_t<TM>::BT - 1) / ob_t<TM>::BT, need = (nblk + TM - 1) / TM;
            nb = (unsigned)(grid > 0 && grid < need ? grid : need);
            emu_run(dim3(nb), dim3(OB_THREADS), ob_t<TM>::SMEM, [&] { k_tm_outf<TM>(a, nblk); });
            part.assign((size_t)nb * 256, 0.f);
            a.part = part.data(), a.dX = dX, a.xl = xl.p(), a.dy = dy.p(), a.dgp = dg.p(), a.dzl = dzl.p();
            emu_run(dim3(nb), dim3(OB_THREADS), ob_t<TM>::SMEM, [&] { k_tm_outb<TM>(a, nblk); });
        };
        if (tm == 1) go(std::integral_constant<int, 1>());
        else if (tm == 4) go(std::integral_constant<int, 4>());
        else go(std::integral_constant<int, 2>());
    } else {
        ow_args a;
        memset(&a, 0, sizeof a);
        a.X = Xc.data(), a.ldx = ldx, a.M = M, a.zl = p.zl.data(), a.dout = p.dout.data(), a.w = k.ww.data(),
        a.bias = k.bw.data(), a.ln_w = p.lnw.data(), a.ln_b = p.has_lnb ? p.lnb.data() : NULL, a.out = out.p();
        const int64_t tiles = (M + 63) / 64;
        auto fwd = [&](auto nwgc) {
            constexpr int NWG = decltype(nwgc)::value;
            const int64_t need = (tiles + NWG - 1) / NWG;
            const unsigned g = (unsigned)(grid > 0 && grid < need ? grid : need);
            emu_run(dim3(g), dim3(128 * NWG), ow_smem<false, NWG>::BYTES, [&] { k_tm_outfw<NWG>(a); });
        };
        if (fwg == 4) fwd(std::integral_constant<int, 4>());
        else if (fwg == 3) fwd(std::integral_constant<int, 3>());
        else fwd(std::integral_constant<int, 2>());
        auto bwd = [&](auto nwgc) {
            constexpr int NWG = decltype(nwgc)::value;
            const int64_t need = (tiles + NWG - 1) / NWG;
            nb = (unsigned)(grid > 0 && grid < need ? grid : need);
            part.assign((size_t)nb * 256, 0.f);
            a.part = part.data(), a.dX = dX, a.xl = xl.p(), a.dy = dy.p(), a.dgp = dg.p(), a.dzl = dzl.p();
            emu_run(dim3(nb), dim3(128 * NWG), ow_smem<true, NWG>::BYTES, [&] { k_tm_outbw<NWG>(a); });
        };
        if (bwg >= 4) {  // k_tm_outbw_dwz: 2 compute warpgroups and the dW_z one; xl, d y not written (5: without its
                         // L2 prefetch of the next tile)
            const int64_t need = (tiles + 1) / 2;
            nb = (unsigned)(grid > 0 && grid < need ? grid : need);
            part.assign((size_t)nb * 256, 0.f);
            std::vector<float> dwz((size_t)nb * 128 * 128, 0.f);
            a.part = part.data(), a.dX = dX, a.xl = NULL, a.dy = NULL, a.dgp = dg.p(), a.dzl = dzl.p();
            emu_run(dim3(nb), dim3(384), owd_smem::BYTES, [&] { k_tm_outbw_dwz(a, dwz.data(), bwg == 4); });
            ro.r.dwz.assign(128 * 128, 0.0);
            std::vector<float> sum(128 * 128, 0.f);  // k_ow_dwz_add's fp32 sums, blocks in order
            for (unsigned b = 0; b < nb; b++)
                for (int i = 0; i < 128 * 128; i++) sum[(size_t)i] += dwz[(size_t)b * 128 * 128 + i];
            for (int i = 0; i < 128 * 128; i++) ro.r.dwz[(size_t)i] = sum[(size_t)i];
        } else if (bwg == 3) {
            bwd(std::integral_constant<int, 3>());
        } else {
            bwd(std::integral_constant<int, 2>());
        }
    }
    auto take = [&](buf &b) { return std::vector<bf16>(b.v.begin(), b.v.begin() + b.n); };
    ro.r.out = take(out), ro.r.xl = take(xl), ro.r.dy = take(dy), ro.r.dg = take(dg), ro.r.dzl = take(dzl);
    ro.r.dX = inplace ? std::vector<bf16>(Xc.begin(), Xc.end()) : take(dXb);
    ro.r.dlnw.assign(128, 0), ro.r.dlnb.assign(128, 0);
    for (unsigned b = 0; b < nb; b++)  // cu_tm_ln_parts_add's order: blocks in order
        for (int c = 0; c < 128; c++) ro.r.dlnw[(size_t)c] += part[(size_t)b * 256 + c], ro.r.dlnb[(size_t)c] += part[(size_t)b * 256 + 128 + c];
    ro.guards = out.guards_ok() && xl.guards_ok() && dy.guards_ok() && dg.guards_ok() && dzl.guards_ok() &&
                (inplace || dXb.guards_ok(ldx, M));
    return ro;
}

// The bits of two (positions, 128) outputs, or of two channel-major ones (128 rows of ld) over their first M
// positions (dX in place keeps X past M).
static bool same_vec(const std::vector<bf16> &x, const std::vector<bf16> &y) {
    return x.size() == y.size() && !memcmp(x.data(), y.data(), x.size() * sizeof(bf16));
}
static bool same_cm(const std::vector<bf16> &x, const std::vector<bf16> &y, int64_t ld, int64_t M) {
    for (int c = 0; c < 128; c++)
        if (memcmp(x.data() + c * ld, y.data() + c * ld, (size_t)M * sizeof(bf16))) return false;
    return true;
}

static bool same_bits(const result &a, const result &b) {
    auto eq = [](const std::vector<bf16> &x, const std::vector<bf16> &y) {
        return x.size() == y.size() && !memcmp(x.data(), y.data(), x.size() * sizeof(bf16));
    };
    return eq(a.out, b.out) && eq(a.xl, b.xl) && eq(a.dy, b.dy) && eq(a.dg, b.dg) && eq(a.dzl, b.dzl) && eq(a.dX, b.dX) &&
           a.dlnw == b.dlnw && a.dlnb == b.dlnb && a.dwz == b.dwz;
}

// Where outputs differ from the reference, by channel mod 16 and position mod 64 (a layout error
// shows as a pattern): printed on a failed comparison.
static void diag(const char *what, const std::vector<bf16> &got, const std::vector<bf16> &ref, int64_t M, bool cm, int64_t ld) {
    int bych[16] = {0}, bypos[64] = {0}, bad = 0;
    for (int64_t i = 0; i < M; i++)
        for (int c = 0; c < 128; c++) {
            const size_t at = (size_t)(cm ? c * ld + i : i * 128 + c);
            const double a = fb(got[at]), b = fb(ref[at]);
            if (!(fabs(a - b) <= 0.02 + 0.02 * fabs(b))) bych[c % 16]++, bypos[i % 64]++, bad++;
        }
    printf("  diag %s: %d of %lld differ; by channel %% 16:", what, bad, (long long)(M * 128));
    for (int c = 0; c < 16; c++) printf(" %d", bych[c]);
    printf("; by position %% 64 (first 16):");
    for (int c = 0; c < 16; c++) printf(" %d", bypos[c]);
    printf("\n");
}

// The outputs against the reference: relative L2 within tol, largest error within 4 tol.
static void check_result(const std::string &name, const problem &p, const result &got, const result &ref, double tol) {
    struct item {
        const char *n;
        const std::vector<bf16> *g, *r;
        bool cm;
    } items[] = {{"out", &got.out, &ref.out, false}, {"xl", &got.xl, &ref.xl, false}, {"dy", &got.dy, &ref.dy, false},
                 {"dg", &got.dg, &ref.dg, false},    {"dzl", &got.dzl, &ref.dzl, false}, {"dX", &got.dX, &ref.dX, true}};
    const bool dwz = !got.dwz.empty();  // k_tm_outbw_dwz: no xl, d y; dW_z instead
    for (auto &it : items) {
        if (dwz && (it.g == &got.xl || it.g == &got.dy)) continue;
        err e = it.cm ? compare(it.g->data(), it.r->data(), 128 * p.ldx, 1, p.ldx, p.M)
                      : compare(it.g->data(), it.r->data(), p.M * 128);
        const bool ok = e.rel_l2 <= tol && e.rel_max <= 4 * tol;
        check(ok, name + " " + it.n, "relative L2 %.3g, largest %.3g (tolerance %.3g)", e.rel_l2, e.rel_max, tol);
        if (!ok) diag(it.n, *it.g, *it.r, p.M, it.cm, p.ldx);
        if (verbose) printf("     %s %s: relative L2 %.3g, largest %.3g\n", name.c_str(), it.n, e.rel_l2, e.rel_max);
    }
    err w = compare_d(got.dlnw, ref.dlnw), b = compare_d(got.dlnb, ref.dlnb);
    check(w.rel_l2 <= tol && b.rel_l2 <= tol, name + " LN_out parameter sums", "d w %.3g, d b %.3g", w.rel_l2, b.rel_l2);
    if (dwz) {  // fp32 sums of bf16 products against float64 ones of the same values: rounding only
        err z = compare_d(got.dwz, ref.dwz);
        check(z.rel_l2 <= 1e-5 && z.rel_max <= 1e-4, name + " dW_z (d y^T xl)", "relative L2 %.3g, largest %.3g",
              z.rel_l2, z.rel_max);
        if (verbose) printf("     %s dW_z: relative L2 %.3g, largest %.3g\n", name.c_str(), z.rel_l2, z.rel_max);
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    const double tol = 1e-2;  // bf16 outputs: ~3e-3 from rounding flips; a layout error is O(1)
    struct shape {
        int64_t M, ldx;
        bool lnb;
    } shapes[] = {{200, 208, true}, {64, 72, false}, {37, 40, true}};
    for (auto &sh : shapes) {
        problem p = make_problem(sh.M, sh.ldx, sh.lnb, (uint64_t)sh.M);
        result ref = reference(p);
        packed k = pack(p);
        char tag[64];
        snprintf(tag, sizeof tag, "M %lld", (long long)sh.M);
        struct variant {
            const char *fam;
            int tm, fwg, bwg, grid;
            bool inplace;
        } vars[] = {{"outb", 2, 0, 0, 1, false}, {"outb", 4, 0, 0, 0, false}, {"outb", 1, 0, 0, 2, true},
                    {"outw", 0, 2, 2, 1, false}, {"outw", 0, 2, 2, 0, true},  {"outw", 0, 3, 2, 1, false},
                    {"outw", 0, 3, 2, 0, false}, {"outw", 0, 3, 3, 1, false}, {"outw", 0, 3, 3, 0, true},
                    {"outw", 0, 2, 3, 2, false}, {"outw", 0, 3, 4, 1, false}, {"outw", 0, 3, 4, 0, true},
                    {"outw", 0, 3, 4, 2, false}, {"outw", 0, 4, 2, 1, false}, {"outw", 0, 4, 3, 0, true},
                    {"outw", 0, 4, 4, 2, false}, {"outw", 0, 3, 5, 2, false}};
        result outw2;  // the first outw variant's (backward with 2 warpgroups)
        for (auto &v : vars) {
            char name[128];
            const bool ob = !strcmp(v.fam, "outb");
            snprintf(name, sizeof name, "%s %s %s %d%s grid %d%s", tag, v.fam, ob ? "teams" : "fwd warpgroups",
                     ob ? v.tm : v.fwg, ob ? "" : v.bwg == 5 ? " bwd dwz no prefetch" : v.bwg == 4 ? " bwd dwz" : v.bwg == 3 ? " bwd 3" : " bwd 2", v.grid, v.inplace ? " in place" : "");
            emu_opts = emu_options{0, 0, 0, 1};
            run_out a = run(p, k, v.fam, v.tm, v.fwg, v.bwg, v.grid, v.inplace);
            check_result(name, p, a.r, ref, tol);
            check(a.guards, std::string(name) + " no write outside the outputs", "%s", "a guard value changed");
            // the same bits with copies and products at issue, threads and blocks in other orders
            emu_opts = emu_options{1, 1, 1, 2};
            run_out b = run(p, k, v.fam, v.tm, v.fwg, v.bwg, v.grid, v.inplace);
            emu_opts = emu_options{0, 2, 0, 7};
            run_out c = run(p, k, v.fam, v.tm, v.fwg, v.bwg, v.grid, v.inplace);
            check(same_bits(a.r, b.r) && same_bits(a.r, c.r), std::string(name) + " the same bits in every order", "eager / descending %d, lazy / shuffled %d", (int)same_bits(a.r, b.r), (int)same_bits(a.r, c.r));
            if (!ob && v.fwg == 4 && !outw2.dX.empty())  // half tiles, zl by descriptor: the same sums per element
                check(same_vec(a.r.out, outw2.out), std::string(name) + " out: the 2-warpgroup forward's bits", "%s",
                      "they differ");
            if (!ob && outw2.dX.empty()) outw2 = a.r;
            else if (!ob && v.bwg == 3)  // per tile the same products and expressions as with 2 warpgroups
                check(same_vec(a.r.xl, outw2.xl) && same_vec(a.r.dy, outw2.dy) && same_vec(a.r.dg, outw2.dg) &&
                          same_vec(a.r.dzl, outw2.dzl) && same_cm(a.r.dX, outw2.dX, p.ldx, p.M),
                      std::string(name) + " xl, d y, d g, dzl, dX: the 2-warpgroup backward's bits", "%s", "they differ");
            else if (!ob && v.bwg >= 4)
                check(same_vec(a.r.dg, outw2.dg) && same_vec(a.r.dzl, outw2.dzl) && same_cm(a.r.dX, outw2.dX, p.ldx, p.M),
                      std::string(name) + " d g, dzl, dX: the 2-warpgroup backward's bits", "%s", "they differ");
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
