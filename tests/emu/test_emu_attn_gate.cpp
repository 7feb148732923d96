// test_emu_attn_gate.cpp: the attention module's gate backward on the CPU kernel emulator (src/cuda/emu;
// docs/EMULATOR.md): k_attn_gate_out_wg<128, true, CH> (PF_ATTN_GATE_WG=2: d og = d_out W_o in the wgmma's
// registers, the gate's backward and D in its epilogue; passed test_cuda on an H200 in session 20, so it
// checks the emulator and this test's reference) and k_attn_gate_bwd_dw<CH> (=3, session 41: the same with
// W_o's gradient d_out^T og summed in the kernel by a third warpgroup, og not written), against a float64
// reference with the kernels' bf16 roundings: dO, d g_pre, og (mode 2), D, dW_o (mode 3). Mode 3's dO,
// d g_pre and D must be mode 2's bits (the same products per element and expressions); every variant the
// same bits with asynchronous work at its wait and at issue, threads and blocks in other orders; guard
// values after and between the outputs' rows catch writes outside them.
// The forward's in-place form (k_attn_gate_out_wg<128, false, 8, true>, PF_ATTN_END_INPLACE: out's rows written
// where the ending node's original frame has them, ago_rows_t) must write, for a piece of x^T rows, each position's
// row of the plain form's bits at its transposed row and nothing else (guards), and the same saved o.
//
// Build and run: make test-emu (mk/emu.mk). Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define ago_sm emu_smem
#define agd_sm emu_smem
#include "../../src/cuda/cu_attn_gate_wg.cu"
#include "../../src/cuda/cu_attn_gate_wgd.cu"
#include "emu_check.h"

#define C 128          // c_in = HC
#define LDZ (2 * C)    // g_pre / dO / og / d g_pre rows in a wider buffer, as the module's interleaved rows
#define GUARD_BITS 0x7f81  // a NaN no computation produces

struct problem {
    int64_t M, L, H, pstride;
    int tr;
    std::vector<bf16> dout, gp, o, W;  // W_o (c_in, HC) row-major, bf16 (cu_weight's copy)
};
struct result {
    std::vector<bf16> dO, dg, og;  // (M, C) each (og: mode 2 only)
    std::vector<float> D;          // (R, H, L)
    std::vector<double> dW;        // (c_in, HC): mode 3 (blocks' fp32 sums added in order), the reference's
    std::vector<float> db;         // mode 3: the column sums of d_out (b_o's gradient), then of d g_pre (b_g's)
    bool guards = true;
};

static problem make_problem(int64_t M, int64_t L, int H, int tr, uint64_t seed) {
    rng = seed * 0x2545F4914F6CDD1Dull + 1;
    problem p;
    p.M = M, p.L = L, p.H = H, p.tr = tr, p.pstride = tr ? M / L : 1;
    p.dout.resize((size_t)(M * C)), p.o.resize((size_t)(M * C)), p.gp.resize((size_t)(M * C)), p.W.resize(C * C);
    for (auto &v : p.dout) v = tob(nrand());
    for (auto &v : p.o) v = tob(0.7 * nrand());
    for (auto &v : p.gp) v = tob(1.5 * nrand());
    for (auto &v : p.W) v = tob(0.09 * nrand());
    return p;
}

// The kernels' arithmetic in float64: d og unrounded, dO = bf16(d s), d g_pre = bf16(d o s (1 - s)), og =
// bf16(s o), D = the head's sum of bf16 dO times o, dW_o = d_out^T og.
static result reference(const problem &p) {
    const int64_t M = p.M, R = M / p.L;
    const int ch = C / (int)p.H;
    result r;
    r.dO.resize((size_t)(M * C)), r.dg = r.dO, r.og = r.dO;
    r.D.assign((size_t)(R * p.H * p.L), 0.f), r.dW.assign(C * C, 0.0);
    for (int64_t i = 0; i < M; i++) {
        std::vector<double> hd((size_t)p.H, 0.0);
        for (int n = 0; n < C; n++) {
            double d = 0;
            for (int k = 0; k < C; k++) d += fb(p.dout[(size_t)(i * C + k)]) * fb(p.W[(size_t)(k * C + n)]);
            const double g = fb(p.gp[(size_t)(i * C + n)]), o = fb(p.o[(size_t)(i * C + n)]), s = 1 / (1 + exp(-g));
            r.dO[(size_t)(i * C + n)] = tob(d * s), r.dg[(size_t)(i * C + n)] = tob(d * o * s * (1 - s));
            r.og[(size_t)(i * C + n)] = tob(s * o);
            hd[(size_t)(n / ch)] += fb(r.dO[(size_t)(i * C + n)]) * o;
        }
        const int64_t row = p.tr ? i % p.pstride : i / p.L, l = p.tr ? i / p.pstride : i % p.L;
        for (int h = 0; h < p.H; h++) r.D[(size_t)((row * p.H + h) * p.L + l)] = (float)hd[(size_t)h];
    }
    for (int64_t i = 0; i < M; i++)
        for (int k = 0; k < C; k++) {
            const double d = fb(p.dout[(size_t)(i * C + k)]);
            for (int n = 0; n < C; n++) r.dW[(size_t)(k * C + n)] += d * fb(r.og[(size_t)(i * C + n)]);
        }
    return r;
}

// A (M, C) output in rows LDZ apart, guard values in the rest of each row and after the last.
struct zbuf {
    std::vector<bf16> v;
    int64_t M;
    explicit zbuf(int64_t M_, const std::vector<bf16> *init = NULL) : v((size_t)(M_ * LDZ + 64)), M(M_) {
        uint16_t g = GUARD_BITS;
        for (auto &x : v) memcpy((void *)&x, &g, 2);
        if (init)
            for (int64_t i = 0; i < M; i++) memcpy(&v[(size_t)(i * LDZ)], &(*init)[(size_t)(i * C)], C * sizeof(bf16));
    }
    std::vector<bf16> rows() const {
        std::vector<bf16> r((size_t)(M * C));
        for (int64_t i = 0; i < M; i++) memcpy(&r[(size_t)(i * C)], &v[(size_t)(i * LDZ)], C * sizeof(bf16));
        return r;
    }
    bool guards_ok() const {
        for (size_t i = 0; i < v.size(); i++) {
            if ((int64_t)i < M * LDZ && (int64_t)i % LDZ < C) continue;
            uint16_t g;
            memcpy(&g, &v[i], 2);
            if (g != GUARD_BITS) return false;
        }
        return true;
    }
};

// One backward: mode 2 (k_attn_gate_out_wg, 3 warpgroups as ago_launch picks at KP 128) or 3
// (k_attn_gate_bwd_dw, the next tile's rows prefetched into L2 or not: pf), on `grid` blocks (0: one per tile group).
template <int CH>
static result run(const problem &p, const std::vector<bf16> &wpack, int mode, int grid, int pf) {
    const int64_t M = p.M, T = (M + 63) / 64, R = M / p.L;
    zbuf gp(M, &p.gp), og(M), dg(M);
    result r;
    r.D.assign((size_t)(R * p.H * p.L), NAN);
    if (mode == 2) {
        ago_args a;
        memset(&a, 0, sizeof a);
        a.w = (const unsigned char *)wpack.data(), a.tiles = 2, a.M = M, a.dy = p.dout.data(), a.ob = p.o.data();
        a.gp = gp.v.data(), a.og = og.v.data(), a.dg = dg.v.data(), a.ldz = LDZ, a.HC = C, a.H = (int)p.H;
        a.tr = p.tr, a.D = r.D.data(), a.L = p.L, a.pstride = p.pstride;
        const int nwg = 3;
        const int64_t need = (T + nwg - 1) / nwg;
        const unsigned nb = (unsigned)(grid > 0 && grid < need ? grid : need);
        emu_run(dim3(nb), dim3(128 * nwg), (size_t)ago_bytes(C, 2, 1, nwg), [&] { k_attn_gate_out_wg<C, true, CH>(a); });
        r.og = og.rows();
    } else {
        agd_args a;
        memset(&a, 0, sizeof a);
        a.w = (const unsigned char *)wpack.data(), a.M = M, a.dy = p.dout.data(), a.ob = p.o.data();
        a.gp = gp.v.data(), a.dg = dg.v.data(), a.ldz = LDZ, a.H = (int)p.H, a.tr = p.tr, a.D = r.D.data();
        a.L = p.L, a.pstride = p.pstride, a.prefetch = pf;
        const int64_t need = (T + 1) / 2;
        const unsigned nb = (unsigned)(grid > 0 && grid < need ? grid : need);
        std::vector<float> parts((size_t)nb * C * C, NAN), bparts((size_t)nb * 2 * C, NAN);
        emu_run(dim3(nb), dim3(384), agd_smem::BYTES, [&] { k_attn_gate_bwd_dw<CH>(a, parts.data(), bparts.data()); });
        r.db.assign(2 * C, 0.f);  // k_agd_add's bias sums, blocks in order
        for (unsigned b = 0; b < nb; b++)
            for (int i = 0; i < 2 * C; i++) r.db[(size_t)i] += bparts[(size_t)b * 2 * C + i];
        std::vector<float> sum(C * C, 0.f);  // k_agd_add's fp32 sums, blocks in order
        for (unsigned b = 0; b < nb; b++)
            for (int i = 0; i < C * C; i++) sum[(size_t)i] += parts[(size_t)b * C * C + i];
        r.dW.assign(sum.begin(), sum.end());
        r.guards = og.guards_ok();
        for (auto &x : og.v) {  // mode 3 never writes og
            uint16_t g;
            memcpy(&g, &x, 2);
            if (g != GUARD_BITS) r.guards = false;
        }
    }
    r.dO = gp.rows(), r.dg = dg.rows();
    r.guards = r.guards && gp.guards_ok() && dg.guards_ok();
    return r;
}

static bool same_bits(const result &a, const result &b) {
    auto eq = [](const std::vector<bf16> &x, const std::vector<bf16> &y) {
        return x.size() == y.size() && !memcmp(x.data(), y.data(), x.size() * sizeof(bf16));
    };
    return eq(a.dO, b.dO) && eq(a.dg, b.dg) && eq(a.og, b.og) && a.D.size() == b.D.size() &&
           !memcmp(a.D.data(), b.D.data(), a.D.size() * sizeof(float)) && a.dW == b.dW && a.db == b.db;
}

static err compare_f(const std::vector<float> &got, const std::vector<float> &ref) {
    double num = 0, den = 0, emax = 0, rmax = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        const double a = got[i], b = ref[i];
        num += (a - b) * (a - b), den += b * b;
        emax = fmax(emax, fabs(a - b)), rmax = fmax(rmax, fabs(b));
        if (a != a) emax = INFINITY;
    }
    return err{sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300)};
}

static void check_result(const std::string &name, const problem &p, const result &got, const result &ref, int mode,
                         double tol) {
    struct item {
        const char *n;
        const std::vector<bf16> *g, *r;
    } items[] = {{"dO", &got.dO, &ref.dO}, {"d g_pre", &got.dg, &ref.dg}, {"og", &got.og, &ref.og}};
    for (auto &it : items) {
        if (mode == 3 && it.g == &got.og) continue;
        err e = compare(it.g->data(), it.r->data(), (int64_t)it.r->size());
        check(e.rel_l2 <= tol && e.rel_max <= 4 * tol, name + " " + it.n, "relative L2 %.3g, largest %.3g (tolerance %.3g)",
              e.rel_l2, e.rel_max, tol);
    }
    err d = compare_f(got.D, ref.D);
    check(d.rel_l2 <= tol && d.rel_max <= 4 * tol, name + " D", "relative L2 %.3g, largest %.3g", d.rel_l2, d.rel_max);
    check(got.guards, name + " no write outside the outputs", "%s", "a guard value changed");
    if (mode == 3) {  // fp32 sums of bf16 products against float64 ones: rounding, and og's bf16 flips
        double num = 0, den = 0;
        for (size_t i = 0; i < ref.dW.size(); i++) num += (got.dW[i] - ref.dW[i]) * (got.dW[i] - ref.dW[i]), den += ref.dW[i] * ref.dW[i];
        const double rel = sqrt(num / (den + 1e-300));
        check(rel <= 1e-3, name + " dW_o (d_out^T og)", "relative L2 %.3g", rel);
        // the bias sums: of d_out's values and of the kernel's own d g_pre (its bits are mode 2's, checked), in
        // float64; the kernel's are fp32 sums of the same bf16 numbers (a wrong row or channel is O(1))
        std::vector<double> rb(2 * C, 0.0);
        for (int64_t i = 0; i < p.M; i++)
            for (int n = 0; n < C; n++)
                rb[(size_t)n] += fb(p.dout[(size_t)(i * C + n)]), rb[(size_t)(C + n)] += fb(got.dg[(size_t)(i * C + n)]);
        double bn = 0, bd = 0;
        for (int i = 0; i < 2 * C; i++) bn += (got.db[(size_t)i] - rb[(size_t)i]) * (got.db[(size_t)i] - rb[(size_t)i]), bd += rb[(size_t)i] * rb[(size_t)i];
        check(got.db.size() == (size_t)(2 * C) && sqrt(bn / (bd + 1e-300)) <= 1e-5, name + " b_o's and b_g's gradients (column sums)",
              "relative L2 %.3g", sqrt(bn / (bd + 1e-300)));
        if (verbose) printf("     %s dW_o: relative L2 %.3g\n", name.c_str(), rel);
    }
}

template <int CH>
static void run_shape(int64_t M, int64_t L, int tr, double tol) {
    problem p = make_problem(M, L, C / CH, tr, (uint64_t)(M * 31 + CH));
    result ref = reference(p);
    std::vector<bf16> wpack(2 * 64 * C);
    emu_run(dim3(4), dim3(256), 0, [&] { k_ago_pack(wpack.data(), p.W.data(), C, C, 1, 2); });
    struct variant {
        int mode, grid, pf;
    } vars[] = {{2, 0, 0}, {2, 1, 0}, {3, 0, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 0}};
    result m2;
    for (auto &v : vars) {
        char name[160];
        snprintf(name, sizeof name, "M %lld L %lld%s heads of %d: mode %d grid %d%s", (long long)M, (long long)L,
                 tr ? " transposed" : "", CH, v.mode, v.grid, v.mode == 3 && !v.pf ? " no prefetch" : "");
        emu_opts = emu_options{0, 0, 0, 1};
        result a = run<CH>(p, wpack, v.mode, v.grid, v.pf);
        check_result(name, p, a, ref, v.mode, tol);
        emu_opts = emu_options{1, 1, 1, 2};
        result b = run<CH>(p, wpack, v.mode, v.grid, v.pf);
        emu_opts = emu_options{0, 2, 0, 7};
        result c = run<CH>(p, wpack, v.mode, v.grid, v.pf);
        check(same_bits(a, b) && same_bits(a, c), std::string(name) + " the same bits in every order",
              "eager / descending %d, lazy / shuffled %d", (int)same_bits(a, b), (int)same_bits(a, c));
        if (v.mode == 2 && m2.dO.empty()) m2 = a;
        if (v.mode == 3)
            check(a.dO == m2.dO && a.dg == m2.dg && !memcmp(a.D.data(), m2.D.data(), a.D.size() * sizeof(float)),
                  std::string(name) + " dO, d g_pre, D: mode 2's bits", "%s", "they differ");
    }
}

// The forward, plain and in place: a piece of n rows of x^T from row r0 (M = n L positions), g and o rows 2 C apart.
static void run_forward_inplace(int64_t L, int64_t r0, int64_t n) {
    rng = (uint64_t)(L * 31 + r0) * 0x2545F4914F6CDD1Dull + 7;
    const int64_t M = n * L;
    std::vector<bf16> g((size_t)(M * LDZ)), o((size_t)(M * LDZ)), W(C * C), wpack((size_t)2 * 64 * C);
    std::vector<float> bias(C);
    for (auto &v : g) v = tob(1.5 * nrand());
    for (auto &v : o) v = tob(0.7 * nrand());
    for (auto &v : W) v = tob(0.09 * nrand());
    for (auto &v : bias) v = (float)(0.3 * nrand());
    emu_run(dim3(4), dim3(256), 0, [&] { k_ago_pack(wpack.data(), W.data(), C, C, 0, 2); });
    const uint16_t gb = GUARD_BITS;
    for (int nwg : {3, 1})
        for (int order = 0; order < 2; order++) {
            emu_opts = order ? emu_options{1, 2, 0, 5} : emu_options{0, 0, 0, 1};
            std::vector<bf16> outs[2], ocs[2];
            for (int tr = 0; tr < 2; tr++) {
                outs[tr].resize((size_t)((tr ? L * L : M) * C)), ocs[tr].resize((size_t)(M * C));
                for (auto &x : outs[tr]) memcpy((void *)&x, &gb, 2);
                ago_args a;
                memset(&a, 0, sizeof a);
                a.w = (const unsigned char *)wpack.data(), a.tiles = 2, a.M = M, a.g = g.data(), a.o = o.data();
                a.ldg = LDZ, a.ldo = LDZ, a.bias = bias.data(), a.out = outs[tr].data(), a.oc = ocs[tr].data();
                a.NO = C;
                a.oL = tr ? (uint32_t)L : 0u, a.op0 = tr ? (uint32_t)(r0 * L) : 0u;
                const unsigned nb = (unsigned)(((M + 63) / 64 + nwg - 1) / nwg);
                emu_run(dim3(nb), dim3(128 * nwg), (size_t)ago_bytes(C, 2, 0, nwg), [&] {
                    if (tr) k_attn_gate_out_wg<C, false, 8, true>(a);
                    else k_attn_gate_out_wg<C, false, 8>(a);
                });
            }
            int64_t bad = 0, touched = 0;
            std::vector<char> mine((size_t)(L * L), 0);
            for (int64_t p = 0; p < M; p++) {
                const int64_t P = r0 * L + p, row = (P % L) * L + P / L;
                mine[(size_t)row] = 1;
                bad += memcmp(&outs[1][(size_t)(row * C)], &outs[0][(size_t)(p * C)], C * sizeof(bf16)) != 0;
            }
            for (int64_t row = 0; row < L * L; row++)
                if (!mine[(size_t)row])
                    for (int k = 0; k < C; k++) {
                        uint16_t v;
                        memcpy(&v, &outs[1][(size_t)(row * C + k)], 2);
                        touched += v != GUARD_BITS;
                    }
            char name[160];
            snprintf(name, sizeof name, "forward in place: L %lld, x^T rows %lld..%lld, %d warpgroup%s, order %d",
                     (long long)L, (long long)r0, (long long)(r0 + n - 1), nwg, nwg > 1 ? "s" : "", order);
            check(bad == 0, std::string(name) + ": each row the plain form's bits at its transposed row",
                  "%lld of %lld rows differ", (long long)bad, (long long)M);
            check(touched == 0, std::string(name) + ": no other row written", "%lld values changed",
                  (long long)touched);
            check(ocs[0] == ocs[1], std::string(name) + ": the saved o the plain form's", "%s", "it differs");
        }
    emu_opts = emu_options{0, 0, 0, 1};
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    const double tol = 1e-2;  // bf16 outputs: rounding flips; a layout error is O(1)
    run_shape<32>(208, 16, 0, tol);  // 4 tiles (the last partial), blocks loop at grid 1 / 2
    run_shape<32>(37, 37, 0, tol);   // one partial tile
    run_shape<16>(130, 13, 1, tol);  // transposed D index, heads of 16
    run_shape<64>(64, 8, 0, tol);    // one full tile, heads spanning a whole channel tile
    run_forward_inplace(19, 5, 7);   // a middle piece, a partial last tile
    run_forward_inplace(16, 0, 16);  // the whole grid in one piece
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
