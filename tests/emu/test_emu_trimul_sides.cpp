// test_emu_trimul_sides.cpp: the triangle multiplication's Hopper sides kernels on the CPU kernel
// emulator (docs/EMULATOR.md) against a float64 reference: k_tm_sides_wg (the gated sides; wgmma
// with K-major descriptors, the weight ring's producer warp, bulk copies on mbarriers) and k_tm_sg2
// (both sides' gradients and dzl; the same tiles read N-major by wgmma's transposed B). Both passed
// test_cuda on an H200, so here they check the emulator's reading of wgmma's descriptors and
// fragment layouts, the semantics the untested Hopper kernels (test_emu_trimul_out.cpp) rely on.
// Build and run: make test-emu. Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define tsw_sm emu_smem
#define sg2_sm emu_smem
#include "../../src/cuda/cu_trimul_side.cu"
#include "../../src/cuda/cu_trimul_side_wg.cu"
#include "emu_check.h"

struct sides_problem {
    int64_t M;
    int cz, C;
    std::vector<bf16> zl, mask, dS[2], dzl0;
    std::vector<float> w[2][2], b[2][2];  // [side][p, g]: (C, c_z), (C)
};

static sides_problem make(int64_t M, uint64_t seed) {
    rng = seed * 0x2545F4914F6CDD1Dull + 3;
    sides_problem p;
    p.M = M, p.cz = 128, p.C = 128;
    p.zl.resize((size_t)(M * 128)), p.mask.resize((size_t)M), p.dzl0.resize((size_t)(M * 128));
    for (auto &v : p.zl) v = tob(nrand());
    for (int64_t i = 0; i < M; i++) p.mask[(size_t)i] = tob(urand() < 0.15 ? 0.0 : 1.0);
    for (auto &v : p.dzl0) v = tob(nrand());
    for (int s = 0; s < 2; s++) {
        p.dS[s].resize((size_t)(128 * M));
        for (auto &v : p.dS[s]) v = tob(nrand());
        for (int k = 0; k < 2; k++) {
            p.w[s][k].resize(128 * 128), p.b[s][k].resize(128);
            for (auto &v : p.w[s][k]) v = (float)(0.09 * nrand());
            for (auto &v : p.b[s][k]) v = (float)(0.5 * nrand());
        }
    }
    return p;
}

struct sides_ref {
    std::vector<bf16> A[2], dtp[2], dtg[2], dzl;
};
static sides_ref reference(const sides_problem &p) {
    sides_ref r;
    const int64_t M = p.M;
    std::vector<double> dzl((size_t)(M * 128), 0.0);
    for (int s = 0; s < 2; s++) {
        r.A[s].resize((size_t)(128 * M)), r.dtp[s].resize((size_t)(M * 128)), r.dtg[s].resize((size_t)(M * 128));
        for (int64_t i = 0; i < M; i++) {
            const double m = fb(p.mask[(size_t)i]);
            for (int c = 0; c < 128; c++) {
                double tp = p.b[s][0][(size_t)c], tg = p.b[s][1][(size_t)c];
                for (int k = 0; k < 128; k++) {
                    const double z = fb(p.zl[(size_t)(i * 128 + k)]);
                    tp += z * bfr(p.w[s][0][(size_t)(c * 128 + k)]), tg += z * bfr(p.w[s][1][(size_t)(c * 128 + k)]);
                }
                const double sg = 1 / (1 + exp(-tg)), d = fb(p.dS[s][(size_t)(c * M + i)]) * m;
                r.A[s][(size_t)(c * M + i)] = tob(m * sg * tp);
                const double dp = bfr(d * sg), dg = bfr(d * tp * sg * (1 - sg));
                r.dtp[s][(size_t)(i * 128 + c)] = tob(dp), r.dtg[s][(size_t)(i * 128 + c)] = tob(dg);
                for (int k = 0; k < 128; k++)
                    dzl[(size_t)(i * 128 + k)] += dp * bfr(p.w[s][0][(size_t)(c * 128 + k)]) + dg * bfr(p.w[s][1][(size_t)(c * 128 + k)]);
            }
        }
    }
    r.dzl.resize((size_t)(M * 128));
    for (int64_t i = 0; i < M * 128; i++) r.dzl[(size_t)i] = tob(fb(p.dzl0[(size_t)i]) + dzl[(size_t)i]);
    return r;
}

// ts_pack_weights' form 2 (CT 32, both sides) by k_tm_pack on the emulator.
static void pack(const sides_problem &p, std::vector<bf16> &w, std::vector<float> &bias, ts_args &a) {
    ts_pack q;
    memset(&q, 0, sizeof q);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++) q.w[s][k] = p.w[s][k].data(), q.b[s][k] = p.b[s][k].data();
    q.c_z = 128, q.KP = 128, q.C = 128, q.CT = 32, q.nct = 4, q.form = 2;
    q.n = (int64_t)2 * 4 * 64 * 128;
    w.resize((size_t)q.n), bias.resize(2 * 4 * 64);
    q.wout = w.data(), q.bout = bias.data();
    emu_run(dim3(8), dim3(256), 0, [&] { k_tm_pack(q); });
    a.w = w.data(), a.bias = bias.data(), a.c_z = 128, a.C = 128, a.nct = 4, a.tiles = 8;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    const double tol = 1e-2;
    for (int64_t M : {200, 77}) {
        sides_problem p = make(M, (uint64_t)M);
        sides_ref ref = reference(p);
        std::vector<bf16> w;
        std::vector<float> bias;
        ts_args a;
        memset(&a, 0, sizeof a);
        pack(p, w, bias, a);
        a.zl = p.zl.data(), a.mask = p.mask.data(), a.M = M;
        char tag[64];
        snprintf(tag, sizeof tag, "M %lld", (long long)M);
        std::vector<bf16> out[3][2];  // per emulator order
        std::vector<bf16> dtp[3][2], dtg[3][2], dzl[3];
        for (int o = 0; o < 3; o++) {
            emu_opts = o == 0 ? emu_options{0, 0, 0, 1} : o == 1 ? emu_options{1, 1, 1, 2} : emu_options{0, 2, 0, 9};
            typedef tsw_layout<128, false> LF;
            typedef tsw_layout<128, true> LB;
            const unsigned grid = (unsigned)((M + 127) / 128);
            for (int s = 0; s < 2; s++) out[o][s].assign((size_t)(128 * M), tob(0));
            ts_args f = a;
            f.out[0] = out[o][0].data(), f.out[1] = out[o][1].data(), f.vec = M % 8 == 0;
            emu_run(dim3(grid), dim3(LF::THREADS), LF::bytes, [&] { k_tm_sides_wg<128, false>(f); });
            ts_args b = a;
            dzl[o] = p.dzl0;
            for (int s = 0; s < 2; s++) {
                dtp[o][s].assign((size_t)(M * 128), tob(0)), dtg[o][s].assign((size_t)(M * 128), tob(0));
                b.dtp[s] = dtp[o][s].data(), b.dtg[s] = dtg[o][s].data(), b.ldt[s] = 128;
            }
            b.dS = p.dS[0].data(), b.dS2 = p.dS[1].data(), b.dzl = dzl[o].data();
            b.vec = M % 8 == 0, b.vec_out = 1;
            emu_run(dim3(grid), dim3(LB::THREADS), LB::bytes, [&] { k_tm_sg2<128>(b); });
        }
        for (int s = 0; s < 2; s++) {
            struct {
                const char *n;
                const std::vector<bf16> &g, &r;
            } items[] = {{"A", out[0][s], ref.A[s]}, {"d tp", dtp[0][s], ref.dtp[s]}, {"d tg", dtg[0][s], ref.dtg[s]}};
            for (auto &it : items) {
                err e = compare(it.g.data(), it.r.data(), (int64_t)it.r.size());
                std::string name = std::string(tag) + (s ? " side b " : " side a ") + it.n;
                check(e.rel_l2 <= tol && e.rel_max <= 4 * tol, name, "relative L2 %.3g, largest %.3g", e.rel_l2, e.rel_max);
                if (verbose) printf("     %s: relative L2 %.3g, largest %.3g\n", name.c_str(), e.rel_l2, e.rel_max);
            }
        }
        err e = compare(dzl[0].data(), ref.dzl.data(), (int64_t)ref.dzl.size());
        check(e.rel_l2 <= tol && e.rel_max <= 4 * tol, std::string(tag) + " dzl (k_tm_sg2: transposed B)",
              "relative L2 %.3g, largest %.3g", e.rel_l2, e.rel_max);
        if (verbose) printf("     %s dzl: relative L2 %.3g, largest %.3g\n", tag, e.rel_l2, e.rel_max);
        bool same = true;
        for (int o = 1; o < 3; o++) {
            same &= dzl[o] == dzl[0] ? true : !memcmp(dzl[o].data(), dzl[0].data(), dzl[0].size() * 2);
            for (int s = 0; s < 2; s++)
                same &= !memcmp(out[o][s].data(), out[0][s].data(), out[0][s].size() * 2) &&
                        !memcmp(dtp[o][s].data(), dtp[0][s].data(), dtp[0][s].size() * 2) &&
                        !memcmp(dtg[o][s].data(), dtg[0][s].data(), dtg[0][s].size() * 2);
        }
        check(same, std::string(tag) + " the same bits in every order", "%s", "outputs differ between emulator orders");
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
