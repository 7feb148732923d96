// test_emu_trimul_gdw.cpp: k_tm_gdw (cu_trimul_gdw.cu: dzl += G W and the four weight gradients += G^T zl from one
// read of G; wgmma with K-major and transposed operands by descriptor, cp.async double buffering, the two depth
// halves of dzl meeting in shared memory; G in tile order by bulk copies on mbarriers) on the CPU kernel emulator
// (docs/EMULATOR.md), with k_gdw_pack and k_gdw_add, against a float64 reference. Sizes with a partial last tile, grids of one to three block pairs (so
// pairs loop over tiles). Checks: dzl within bf16 tolerance, the weight gradients within fp32 summation error,
// no write past M (guard rows), and the same bits in every emulator order (copies and products at issue or at
// their wait, threads and blocks ascending, descending, shuffled); dzl also the same bits at every grid (its
// sum order over k does not depend on the blocks). The attention's form (GDW_TMA: G row-major inside a wider buffer,
// G and zl by TMA boxes with the 128-byte swizzle, dzl written, not added) against the float64 reference and bit for
// bit against the row-major form run with dzl's old values zero, in every order, the guard rows and G's
// neighbouring columns untouched.
// Build and run: make test-emu. Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define gdw_sm emu_smem
#include "../../src/cuda/cu_trimul_gdw.cu"
#include "emu_check.h"

struct gdw_problem {
    int64_t M;
    std::vector<bf16> G, zl, wcat, dzl0;  // dzl0: M + 8 rows, the last 8 guard values
    std::vector<float> w0;                // the four gradients' values before (4 x 128 x 128)
};

static gdw_problem make(int64_t M, uint64_t seed) {
    rng = seed * 0x2545F4914F6CDD1Dull + 5;
    gdw_problem p;
    p.M = M;
    p.G.resize((size_t)(M * 512)), p.zl.resize((size_t)(M * 128)), p.wcat.resize(512 * 128);
    p.dzl0.resize((size_t)((M + 8) * 128)), p.w0.resize(4 * 128 * 128);
    for (auto &v : p.G) v = tob(nrand() * (urand() < 0.1 ? 0.0 : 1.0));  // masked positions' zeros among them
    for (auto &v : p.zl) v = tob(nrand());
    for (auto &v : p.wcat) v = tob(0.09 * nrand());
    for (auto &v : p.dzl0) v = tob(nrand());
    for (auto &v : p.w0) v = (float)nrand();
    return p;
}

struct gdw_out {
    std::vector<bf16> dzl;   // M + 8 rows
    std::vector<float> dw;   // 4 x 128 x 128
};

// dzl = bf16(dzl0 + G wcat) in float64; dw[k] = w0[k] + G[:, 128 k ..]^T zl in float64.
static void reference(const gdw_problem &p, std::vector<bf16> &dzl, std::vector<double> &dw) {
    const int64_t M = p.M;
    dzl = p.dzl0;
    for (int64_t i = 0; i < M; i++)
        for (int n = 0; n < 128; n++) {
            double s = 0;
            for (int k = 0; k < 512; k++) s += fb(p.G[(size_t)(i * 512 + k)]) * fb(p.wcat[(size_t)(k * 128 + n)]);
            dzl[(size_t)(i * 128 + n)] = tob(fb(p.dzl0[(size_t)(i * 128 + n)]) + s);
        }
    dw.assign(4 * 128 * 128, 0.0);
    for (int R = 0; R < 512; R++)
        for (int n = 0; n < 128; n++) {
            double s = p.w0[(size_t)(R * 128 + n)];
            for (int64_t i = 0; i < M; i++) s += fb(p.G[(size_t)(i * 512 + R)]) * fb(p.zl[(size_t)(i * 128 + n)]);
            dw[(size_t)(R * 128 + n)] = s;
        }
}

// tiled: G passed in tm_gdw_off's tile order (PF_TRIMUL_GDW=2; M a multiple of 64) and read by bulk copies.
static gdw_out run(const gdw_problem &p, unsigned pairs, bool tiled = false) {
    gdw_out o;
    o.dzl = p.dzl0, o.dw = p.w0;
    std::vector<bf16> wt(512 * 128);
    std::vector<float> slots((size_t)(2 * pairs) * 256 * 128, NAN);  // every slot written before it is read
    std::vector<bf16> gt;
    if (tiled) {
        gt.resize(p.G.size());
        for (int64_t i = 0; i < p.M; i++)
            for (int col = 0; col < 512; col++) gt[(size_t)tm_gdw_off(i, col)] = p.G[(size_t)(i * 512 + col)];
    }
    gdw_args a;
    a.G = tiled ? gt.data() : p.G.data(), a.zl = p.zl.data(), a.wt = wt.data(), a.dzl = o.dzl.data();
    a.dw = slots.data(), a.M = p.M;
    const bf16 *wc = p.wcat.data();
    bf16 *wp = wt.data();
    emu_run(dim3(256), dim3(256), 0, [&] { k_gdw_pack(wc, wp); });
    gdw_maps tm;
    memset(&tm, 0, sizeof tm);
    if (tiled) emu_run(dim3(2 * pairs), dim3(256), GDW_BYTES, [&] { k_tm_gdw<GDW_TILED, true>(a, tm); });
    else emu_run(dim3(2 * pairs), dim3(256), GDW_BYTES, [&] { k_tm_gdw<GDW_ROWS, true>(a, tm); });
    float *w = o.dw.data();
    const float *s = slots.data();
    emu_run(dim3(256), dim3(256), 0, [&] { k_gdw_add(s, (int)pairs, w, w + 16384, w + 32768, w + 49152); });
    return o;
}

// The attention's form: G at column 32 of a buffer with rows of LDG (the other columns NaN: a read of them would show),
// zl by TMA, dzl written (its old values, p.dzl0, must not matter) with the guard rows kept. 1 KB more shared memory:
// the kernel aligns its tiles.
static const int64_t LDG = 576, G0 = 32;
static gdw_out run_tma(const gdw_problem &p, unsigned pairs, bool *maps_ok) {
    gdw_out o;
    o.dzl = p.dzl0, o.dw = p.w0;
    std::vector<bf16> wt(512 * 128), gw((size_t)(p.M * LDG), tob(NAN));
    std::vector<float> slots((size_t)(2 * pairs) * 256 * 128, NAN);
    for (int64_t i = 0; i < p.M; i++)
        memcpy(&gw[(size_t)(i * LDG + G0)], &p.G[(size_t)(i * 512)], 512 * sizeof(bf16));
    gdw_args a;
    a.G = gw.data() + G0, a.zl = p.zl.data(), a.wt = wt.data(), a.dzl = o.dzl.data(), a.dw = slots.data(), a.M = p.M;
    gdw_maps tm;
    memset(&tm, 0, sizeof tm);
    *maps_ok = !tma_map_2d(&tm.g, a.G, 2, (uint64_t)p.M, 512, LDG, 64, 64, 128) &&
               !tma_map_2d(&tm.z, a.zl, 2, (uint64_t)p.M, 128, 128, 64, 64, 128);
    if (!*maps_ok) return o;
    const bf16 *wc = p.wcat.data();
    bf16 *wp = wt.data();
    emu_run(dim3(256), dim3(256), 0, [&] { k_gdw_pack(wc, wp); });
    emu_run(dim3(2 * pairs), dim3(256), GDW_BYTES + 1024, [&] { k_tm_gdw<GDW_TMA, false>(a, tm); });
    float *w = o.dw.data();
    const float *s = slots.data();
    emu_run(dim3(256), dim3(256), 0, [&] { k_gdw_add(s, (int)pairs, w, w + 16384, w + 32768, w + 49152); });
    for (int64_t i = 0; i < p.M; i++)  // G's neighbours still NaN: nothing wrote G
        for (int64_t col = 0; col < LDG; col++)
            if ((col < G0 || col >= G0 + 512) && !std::isnan(fb(gw[(size_t)(i * LDG + col)]))) *maps_ok = false;
    return o;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    const double tol = 1e-2;  // dzl: bf16 outputs
    for (int64_t M : {200, 64, 37, 192}) {
        gdw_problem p = make(M, (uint64_t)M);
        std::vector<bf16> rdzl;
        std::vector<double> rdw;
        reference(p, rdzl, rdw);
        std::vector<bf16> dzl_first;
        for (unsigned pairs : {1u, 2u, 3u}) {
            char tag[96];
            snprintf(tag, sizeof tag, "M %lld, %u block pair%s", (long long)M, pairs, pairs > 1 ? "s" : "");
            gdw_out r[3];
            for (int o = 0; o < 3; o++) {
                emu_opts = o == 0 ? emu_options{0, 0, 0, 1} : o == 1 ? emu_options{1, 1, 1, 2} : emu_options{0, 2, 0, 9};
                r[o] = run(p, pairs);
            }
            err e = compare(r[0].dzl.data(), rdzl.data(), M * 128);
            check(e.rel_l2 <= tol && e.rel_max <= 4 * tol, std::string(tag) + " dzl", "relative L2 %.3g, largest %.3g",
                  e.rel_l2, e.rel_max);
            if (verbose) printf("     %s dzl: relative L2 %.3g, largest %.3g\n", tag, e.rel_l2, e.rel_max);
            bool guard = !memcmp(r[0].dzl.data() + M * 128, p.dzl0.data() + M * 128, 8 * 128 * sizeof(bf16));
            check(guard, std::string(tag) + " no write past M", "%s", "a guard row of dzl changed");
            double num = 0, den = 0, emax = 0;
            for (size_t i = 0; i < rdw.size(); i++) {
                const double d = r[0].dw[i] - rdw[i];
                num += d * d, den += rdw[i] * rdw[i], emax = fmax(emax, fabs(d));
                if (r[0].dw[i] != r[0].dw[i]) emax = INFINITY;
            }
            const double rel = sqrt(num / (den + 1e-300));
            check(rel <= 1e-5 && emax <= 1e-3, std::string(tag) + " weight gradients", "relative L2 %.3g, largest %.3g",
                  rel, emax);
            if (verbose) printf("     %s dW: relative L2 %.3g, largest absolute %.3g\n", tag, rel, emax);
            bool same = true;
            for (int o = 1; o < 3; o++)
                same = same && !memcmp(r[o].dzl.data(), r[0].dzl.data(), r[0].dzl.size() * sizeof(bf16)) &&
                       !memcmp(r[o].dw.data(), r[0].dw.data(), r[0].dw.size() * sizeof(float));
            check(same, std::string(tag) + " the same bits in every order", "%s", "dzl or dW differ between orders");
            if (M % 64 == 0) {  // G in tile order by bulk copies: the same bits in every order as row-major
                bool tsame = true;
                for (int o = 0; o < 3; o++) {
                    emu_opts = o == 0 ? emu_options{0, 0, 0, 1} : o == 1 ? emu_options{1, 1, 1, 2} : emu_options{0, 2, 0, 9};
                    gdw_out t = run(p, pairs, true);
                    tsame = tsame && !memcmp(t.dzl.data(), r[0].dzl.data(), t.dzl.size() * sizeof(bf16)) &&
                            !memcmp(t.dw.data(), r[0].dw.data(), t.dw.size() * sizeof(float));
                }
                check(tsame, std::string(tag) + " G in tile order: the same bits", "%s",
                      "dzl or dW differ from the row-major read");
            }
            {  // the attention's form against the row-major form with dzl's old values zero
                gdw_problem z = p;
                for (int64_t i = 0; i < M * 128; i++) z.dzl0[(size_t)i] = tob(0.0);
                const gdw_out zr = run(z, pairs);
                bool ok = true, same = true;
                for (int o = 0; o < 3; o++) {
                    emu_opts = o == 0 ? emu_options{0, 0, 0, 1} : o == 1 ? emu_options{1, 1, 1, 2} : emu_options{0, 2, 0, 9};
                    bool maps_ok = false;
                    const gdw_out t = run_tma(p, pairs, &maps_ok);
                    ok = ok && maps_ok;
                    same = same && !memcmp(t.dzl.data(), zr.dzl.data(), M * 128 * sizeof(bf16)) &&
                           !memcmp(t.dzl.data() + M * 128, p.dzl0.data() + M * 128, 8 * 128 * sizeof(bf16)) &&
                           !memcmp(t.dw.data(), zr.dw.data(), t.dw.size() * sizeof(float));
                }
                check(ok, std::string(tag) + " TMA form: maps made, G's neighbours untouched", "%s", "a map refused or G written");
                check(same, std::string(tag) + " TMA form: the row-major form's bits (old dzl zero), guard rows kept",
                      "%s", "dzl, dW or a guard row differ");
                std::vector<bf16> zdzl;
                std::vector<double> zdw;
                reference(z, zdzl, zdw);
                err e = compare(zr.dzl.data(), zdzl.data(), M * 128);
                check(e.rel_l2 <= tol && e.rel_max <= 4 * tol, std::string(tag) + " dzl written (old zero)",
                      "relative L2 %.3g, largest %.3g", e.rel_l2, e.rel_max);
            }
            if (dzl_first.empty()) dzl_first = r[0].dzl;
            check(!memcmp(dzl_first.data(), r[0].dzl.data(), dzl_first.size() * sizeof(bf16)),
                  std::string(tag) + " dzl the same bits at every grid", "%s", "dzl differs from one pair's");
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
