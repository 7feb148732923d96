// test_emu_attn_dbias.cpp: the attention backward's bias gradient, k_bwd_dbias_pipe (cu_flash_bwd_dbias.cu: the
// default for 8 rows or more where its TMA form below does not apply; dbias[h, q, k] = sum over rows r of dS[r, h, q, k], dS = p (dP - D), S and dP
// recomputed per row, rows summed in order in registers) on the CPU kernel emulator (docs/EMULATOR.md) against a
// float64 sum. It passed test_cuda on GPUs since session 12; here it is the CPU test bed for changes to it (its tiles
// by tensor maps: NOTES "Open / next" 0). Cases: L 128 (whole tiles: the row-independent copies) and 192 (a key
// tile half past L: the bounds-checked copies), masked keys, a fully masked row (lse = +inf: no gradient), the
// pair bias; one row range (bf16 per-head planes) and two (fp32 partials, summed here in range order); the same
// bits in every emulator order. k_bwd_dbias_tma (session 53: the same kernel with its whole blocks' tiles by TMA
// tensor maps, the maps built as dbt_launch builds them; 2 and 3 ring stages) gives the same bits. Build and run: make test-emu. Ends
// with one verdict line.
#define PF_EMU_NO_HOST 1         // the kernels only: their host code needs the backend
#include "cu_flash_bwd_dbias.cpp"  // tools/emu_xform.py's rewrite (mk/emu.mk)
#include "emu_check.h"

// dbias (H, L query, L key) in float64 from the saved lse and D
static std::vector<double> reference(const bwd_problem &p) {
    const int64_t L = p.L;
    std::vector<double> db((size_t)(p.H * L * L), 0.0);
    attn_bwd_each(p, [&](size_t, size_t, int h, int64_t i, int64_t j, double, double dS) {
        db[(size_t)((h * L + i) * L + j)] += dS;
    });
    return db;
}

// fa_bwd_dbias's launch of k_bwd_dbias_pipe<32, 2, 2> with nsplit row ranges: one range writes the bf16 per-head
// planes, more the fp32 partials (summed here in range order, as k_bwd_dbias_reduce does). dbias as float.
static std::vector<float> run(const bwd_problem &p, int nsplit, int tma) {  // tma: 0, its ring stages (2, 3), 4: wg
    const int64_t n = p.H * p.L * p.L;
    std::vector<bf16> planes((size_t)n + 64, tob(7.0));  // guards after the end
    std::vector<float> part((size_t)(nsplit * n) + 64, 7.f);
    fa_args a;
    memset(&a, 0, sizeof a);
    a.q = p.q.data(), a.k = p.k.data(), a.v = p.v.data(), a.o = p.o.data(), a.dO = p.dO.data(), a.mask = p.mask.data();
    a.biasT = p.biasT.data(), a.bias_bf16 = 1;
    a.lse = const_cast<float *>(p.lse.data()), a.D = p.D.data();
    a.B = p.B, a.L = p.L, a.HC = (int64_t)p.H * p.ch, a.rstride = p.L, a.pstride = 1, a.H = p.H, a.ch = p.ch;
    a.scale = (float)(1 / sqrt((double)p.ch));
    a.nsplit = nsplit;
    if (nsplit > 1) a.dbias_part = part.data();
    else a.dbias_planes = planes.data();
    const int64_t grid = (p.L + 63) / 64 * ((p.L + 127) / 128) * p.H * nsplit;
    if (tma) {  // dbt_launch's maps
        dbt_maps tm;
        if (dbt_maps_encode(&tm, a, 32)) {
            check(false, "k_bwd_dbias_tma's maps", "%s", "tma_map refused them");
            return {};
        }
        if (tma == 2)
            emu_run(dim3((unsigned)grid), dim3(128), dbp_smem<32, 2>() + 8 * 2 + 1024, [&] { k_bwd_dbias_tma<32, 2, 2>(a, tm); });
        else if (tma == 4)  // k_bwd_dbias_wg (wgmma products, L % 128 == 0)
            emu_run(dim3((unsigned)grid), dim3(128), dbp_smem<32, 2>() + 8 * 2 + 1024, [&] { k_bwd_dbias_wg<2>(a, tm); });
        else
            emu_run(dim3((unsigned)grid), dim3(128), dbp_smem<32, 3>() + 8 * 3 + 1024, [&] { k_bwd_dbias_tma<32, 3, 2>(a, tm); });
    } else {
        emu_run(dim3((unsigned)grid), dim3(128), dbp_smem<32, 2>(), [&] { k_bwd_dbias_pipe<32, 2, 2>(a); });
    }
    std::vector<float> out((size_t)n, 0.f);
    bool guards = true;
    for (int i = 0; i < 64; i++) guards &= nsplit > 1 ? part[(size_t)(nsplit * n) + i] == 7.f : fb(planes[(size_t)n + i]) == 7.0;
    check(guards, "dbias guards", "%s", "a write past the output's end");
    for (int64_t i = 0; i < n; i++) {
        if (nsplit == 1) {
            out[(size_t)i] = (float)fb(planes[(size_t)i]);
            continue;
        }
        float s = 0;
        for (int u = 0; u < nsplit; u++) s += part[(size_t)(u * n + i)];
        out[(size_t)i] = s;
    }
    return out;
}

// The three emulator orders every form runs in (each must give the same bits)
static const emu_options orders[3] = {{0, 0, 0, 1, 0}, {1, 1, 1, 2, 0}, {0, 2, 0, 11, 0}};

// dbias against the float64 reference: the relative L2 error and the largest error relative to the largest |ref|
static void rel_err(const std::vector<float> &got, const std::vector<double> &ref, double *rel, double *worst) {
    double num = 0, den = 0, scale = 0;
    *worst = 0;
    for (size_t i = 0; i < ref.size(); i++) scale = fmax(scale, fabs(ref[i]));
    for (size_t i = 0; i < ref.size(); i++) {
        const double d = got[i] - ref[i];
        num += d * d, den += ref[i] * ref[i], *worst = fmax(*worst, fabs(d) / fmax(scale, 1e-30));
    }
    *rel = sqrt(num / fmax(den, 1e-300));
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    struct {
        int64_t B, L;
        int H;
    } shapes[] = {{4, 128, 2}, {3, 192, 1}};
    for (auto &sh : shapes) {
        bwd_problem p = make(sh.B, sh.L, sh.H, true, (uint64_t)(sh.L + 3 * sh.B));
        const std::vector<double> ref = reference(p);
        for (int nsplit = 1; nsplit <= 2; nsplit++) {
            char name[96];
            snprintf(name, sizeof name, "B %lld L %lld H %d, %d row range%s", (long long)sh.B, (long long)sh.L, sh.H,
                     nsplit, nsplit > 1 ? "s" : "");
            const bool wg_runs = sh.L % 128 == 0;  // k_bwd_dbias_wg: every block whole
            std::vector<float> got[3], tma[3], tma3[3], wg[3];
            for (int o = 0; o < 3; o++) {
                emu_opts = orders[o];
                got[o] = run(p, nsplit, 0);
                tma[o] = run(p, nsplit, 2);
                tma3[o] = run(p, nsplit, 3);
                if (wg_runs) wg[o] = run(p, nsplit, 4);
            }
            double rel, worst;
            rel_err(got[0], ref, &rel, &worst);
            const double tol = nsplit > 1 ? 5e-3 : 1.5e-2;  // fp32 partials; bf16 planes
            check(rel <= tol && worst <= 4 * tol, std::string(name) + " dbias", "relative L2 %.3g, largest %.3g", rel,
                  worst);
            if (verbose) printf("     %s: relative L2 %.3g, largest (of the largest |dbias|) %.3g\n", name, rel, worst);
            check(got[1] == got[0] && got[2] == got[0], std::string(name) + " the same bits in every order", "%s",
                  "dbias differs between emulator orders");
            check(tma[0] == got[0] && tma[1] == got[0] && tma[2] == got[0],
                  std::string(name) + " k_bwd_dbias_tma: k_bwd_dbias_pipe's bits", "%s",
                  "the tensor-map form's dbias differs");
            check(tma3[0] == got[0] && tma3[1] == got[0] && tma3[2] == got[0],
                  std::string(name) + " k_bwd_dbias_tma, 3 stages: k_bwd_dbias_pipe's bits", "%s",
                  "the tensor-map form's dbias differs");
            if (wg_runs) {
                double wrel, ww;
                rel_err(wg[0], ref, &wrel, &ww);
                check(wrel <= tol && ww <= 4 * tol, std::string(name) + " k_bwd_dbias_wg dbias", "relative L2 %.3g, largest %.3g",
                      wrel, ww);
                check(wg[1] == wg[0] && wg[2] == wg[0], std::string(name) + " k_bwd_dbias_wg: the same bits in every order",
                      "%s", "dbias differs between emulator orders");
                if (verbose)
                    printf("     %s: k_bwd_dbias_wg relative L2 %.3g; %s k_bwd_dbias_pipe's bits here\n", name, wrel,
                           wg[0] == got[0] ? "the same as" : "not");
            }
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
