// test_emu_attn_bwd.cpp: the attention backward's Hopper one-pass kernel (k_bwd_ws, cu_flash_bwd_wg.cu:
// dq, dk, dv on wgmma with a producer warpgroup) on the CPU kernel emulator (docs/EMULATOR.md) against a
// float64 reference, in its four modes. It passed test_cuda on GPUs (sessions 29-50); here it is the CPU test
// bed for changes to it (issue 10: k_bwd_ws is ~40% of the triangle attention module): test_cuda's emulated
// `--only attn_bwd_wg` did not finish in 10 minutes on a 2-core machine (session 50), this takes seconds.
// Cases: L 128 and 192 (a key block's second half past L), the pair bias or none, masked keys, a fully masked row
// (lse = +inf: no gradient), more items than blocks (a block walks several); modes 1-4 bit for bit and the same
// bits in every emulator order; mode 5 (session 52: mode 4 with its tiles by TMA tensor maps, k_bwd_ws_tma, the
// maps built as bwt_launch builds them) the same way. Build and run: make test-emu. Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code needs the backend
#include "cu_flash_bwd_wg.cpp"  // tools/emu_xform.py's rewrite (mk/emu.mk)
#include "emu_check.h"

// The backward in float64 from the saved lse and D: P = exp(s - lse) (0 where lse is +inf or the key is
// masked), dS = P (dO.v - D); dq = scale dS k, dk = scale dS^T q, dv = P^T dO.
static bwd_grads reference(const bwd_problem &p) {
    const double scale = 1 / sqrt((double)p.ch);
    std::vector<double> dq((size_t)(p.B * p.L * p.H * p.ch)), dk(dq.size()), dv(dq.size());
    attn_bwd_each(p, [&](size_t qi, size_t kj, int, int64_t, int64_t, double P, double dS) {
        for (int c = 0; c < p.ch; c++) {
            dq[qi + c] += scale * dS * fb(p.k[kj + c]);
            dk[kj + c] += scale * dS * fb(p.q[qi + c]);
            dv[kj + c] += P * fb(p.dO[qi + c]);
        }
    });
    bwd_grads g;
    for (double x : dq) g.dq.push_back(tob(x));
    for (double x : dk) g.dk.push_back(tob(x));
    for (double x : dv) g.dv.push_back(tob(x));
    return g;
}

// fa_bwd_wg's launch: the bias as bf16 (exact), grid blocks each with an L x 32 fp32 dq slot
static bwd_grads run(const bwd_problem &p, int mode, int grid, bool bias) {
    const int64_t n = p.B * p.L * p.H * p.ch;
    bwd_grads g;
    g.dq.assign((size_t)n, tob(0)), g.dk.assign((size_t)n, tob(0)), g.dv.assign((size_t)n, tob(0));
    std::vector<bf16> b16(p.biasT.size());
    for (size_t i = 0; i < b16.size(); i++) b16[i] = tob(p.biasT[i]);
    std::vector<float> slots((size_t)(grid * p.L * 32), NAN);  // every slot element written before it is read
    fa_args a;
    memset(&a, 0, sizeof a);
    a.q = p.q.data(), a.k = p.k.data(), a.v = p.v.data(), a.o = p.o.data(), a.dO = p.dO.data(), a.mask = p.mask.data();
    a.dq = g.dq.data(), a.dk = g.dk.data(), a.dv = g.dv.data();
    if (bias) a.biasT = p.biasT.data(), a.biasT16 = b16.data(), a.bias_bf16 = 1;
    a.lse = const_cast<float *>(p.lse.data()), a.D = p.D.data();
    a.B = p.B, a.L = p.L, a.HC = (int64_t)p.H * p.ch, a.rstride = p.L, a.pstride = 1, a.H = p.H, a.ch = p.ch;
    a.scale = (float)(1 / sqrt((double)p.ch));
    float *sl = slots.data();
    auto launch = [&](auto kern) { emu_run(dim3((unsigned)grid), dim3(BWS_NTH), bwg_lay::bytes, [&] { kern(a, sl); }); };
    if (mode == 5) {  // bwt_launch's maps
        bwt_maps tm;
        memset(&tm, 0, sizeof tm);
        const uint64_t dims[3] = {(uint64_t)a.HC, (uint64_t)a.L, (uint64_t)a.B};
        const uint64_t strides[2] = {(uint64_t)(a.pstride * a.HC), (uint64_t)(a.rstride * a.HC)};
        const uint32_t box_q[3] = {32, 64, 1}, box_k[3] = {32, BWG_KB, 1};
        const uint64_t L = (uint64_t)a.L;
        if (tma_map_encode(&tm.m[0], a.q, 2, 3, dims, strides, box_q, 64) ||
            tma_map_encode(&tm.m[1], a.dO, 2, 3, dims, strides, box_q, 64) ||
            tma_map_encode(&tm.m[2], a.k, 2, 3, dims, strides, box_k, 64) ||
            tma_map_encode(&tm.m[3], a.v, 2, 3, dims, strides, box_k, 64) ||
            (bias && tma_map_3d(&tm.m[4], a.biasT16, 2, (uint64_t)p.H, L, L, L * L, L, BWG_KB, 64, 128))) {
            check(false, "k_bwd_ws_tma's maps", "%s", "tma_map refused them");
            return g;
        }
        auto kern = bias ? k_bwd_ws_tma<true> : k_bwd_ws_tma<false>;
        emu_run(dim3((unsigned)grid), dim3(BWS_NTH), bwt_lay::bytes + 1024, [&] { kern(a, sl, tm); });
        return g;
    }
    if (bias) {
        if (mode == 1) launch(k_bwd_ws<true, 1>);
        if (mode == 2) launch(k_bwd_ws<true, 2>);
        if (mode == 3) launch(k_bwd_ws<true, 3>);
        if (mode == 4) launch(k_bwd_ws<true, 4>);
    } else {
        if (mode == 1) launch(k_bwd_ws<false, 1>);
        if (mode == 4) launch(k_bwd_ws<false, 4>);
    }
    return g;
}

static bool same(const bwd_grads &x, const bwd_grads &y) {
    return !memcmp(x.dq.data(), y.dq.data(), x.dq.size() * 2) && !memcmp(x.dk.data(), y.dk.data(), x.dk.size() * 2) &&
           !memcmp(x.dv.data(), y.dv.data(), x.dv.size() * 2);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    struct {
        int64_t B, L;
        int H, grid;
        bool bias;
    } shapes[] = {{3, 128, 2, 2, true}, {2, 192, 1, 2, true}, {3, 128, 1, 2, false}};  // items 6 / 2 / 3 over 2 blocks
    for (auto &sh : shapes) {
        bwd_problem p = make(sh.B, sh.L, sh.H, sh.bias, (uint64_t)(sh.L + sh.B + sh.bias));
        bwd_grads ref = reference(p);
        bwd_grads first;
        for (int mode = 1; mode <= 5; mode++) {
            if (!sh.bias && mode != 1 && mode < 4) continue;  // no bias: the first mode, the default and TMA
            char name[96];
            snprintf(name, sizeof name, "B %lld L %lld H %d%s mode %d", (long long)sh.B, (long long)sh.L, sh.H,
                     sh.bias ? "" : " no bias", mode);
            bwd_grads got[3];
            for (int o = 0; o < 3; o++) {
                emu_opts = o == 0 ? emu_options{0, 0, 0, 1} : o == 1 ? emu_options{1, 1, 1, 2} : emu_options{0, 2, 0, 11};
                got[o] = run(p, mode, sh.grid, sh.bias);
            }
            const char *what[3] = {"dq", "dk", "dv"};
            const std::vector<bf16> *gv[3] = {&got[0].dq, &got[0].dk, &got[0].dv}, *rv[3] = {&ref.dq, &ref.dk, &ref.dv};
            for (int w = 0; w < 3; w++) {
                err e = compare(gv[w]->data(), rv[w]->data(), (int64_t)rv[w]->size());
                check(e.rel_l2 <= 1.5e-2 && e.rel_max <= 5e-2, std::string(name) + " " + what[w],
                      "relative L2 %.3g, largest %.3g", e.rel_l2, e.rel_max);
                if (verbose) printf("     %s %s: relative L2 %.3g, largest %.3g\n", name, what[w], e.rel_l2, e.rel_max);
            }
            check(same(got[1], got[0]) && same(got[2], got[0]), std::string(name) + " the same bits in every order", "%s",
                  "gradients differ between emulator orders");
            if (mode == 1) first = got[0];
            else check(same(got[0], first), std::string(name) + " mode 1's bits", "%s", "gradients differ from mode 1's");
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
