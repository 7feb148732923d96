// test_emu_attn_fwd.cpp: the Hopper attention forward kernels (cu_flash_sm90.cu, cu_flash_sm90_tma.cu) on the CPU
// kernel emulator (docs/EMULATOR.md) against a float64 reference: k_s9_fwd_bmma2, k_s9_fwd_tma
// (the default in sessions 52-55), k_s9_fwd_half (the default since session 56), k_s9_fwd_bmma and k_s9_fwd_pipe,
// each after its bias copy (k_s9_bias16). Here they are the CPU test bed for new forward forms
// (issue 10): a variant added to `forms` below is checked the same way. Rows with masked keys,
// a fully masked row (lse = +inf, the saved-lse rule), L not a multiple of the tiles, and the
// same bits in every emulator order. Build and run: make test-emu. Ends with one verdict line.
#define PF_EMU_NO_HOST 1  // the kernels only: their host code launches with <<< >>>
#define s9_sm emu_smem
#include "../../src/cuda/cu_flash_sm90.cu"
#include "../../src/cuda/cu_flash_sm90_tma.cu"
#include "emu_check.h"

struct attn_problem {
    int64_t B, L;
    int H, ch;
    std::vector<bf16> q, k, v, mask;
    std::vector<float> biasT;  // (H, L key, L query), bf16 numbers
};

// ramp: added to the bias along the keys, ramp k / L at key k (rising logits: a row's max grows tile after tile); with
// a ramp no row is fully masked (there the logits -1e9 + bias keep part of the ramp after fp32 rounding, differently
// in each kernel and the reference: session 32)
static attn_problem make(int64_t B, int64_t L, uint64_t seed, double ramp = 0) {
    rng = seed * 0x2545F4914F6CDD1Dull + 5;
    attn_problem p;
    p.B = B, p.L = L, p.H = 4, p.ch = 32;
    const int64_t n = B * L * p.H * p.ch;
    p.q.resize((size_t)n), p.k.resize((size_t)n), p.v.resize((size_t)n), p.mask.resize((size_t)(B * L));
    for (auto &x : p.q) x = tob(nrand());
    for (auto &x : p.k) x = tob(nrand());
    for (auto &x : p.v) x = tob(nrand());
    for (int64_t r = 0; r < B; r++)
        for (int64_t l = 0; l < L; l++)
            p.mask[(size_t)(r * L + l)] =
                tob(r == 1 && !ramp ? 0.0 : (r % 2 == 0 && urand() < 0.2) ? 0.0 : 1.0);  // row 1 fully masked
    p.biasT.resize((size_t)(p.H * L * L));
    for (size_t i = 0; i < p.biasT.size(); i++)  // [h][key][query]
        p.biasT[i] = bfr(1.5 * nrand() + ramp * (double)((int64_t)(i / (size_t)L) % L) / (double)L);
    return p;
}

struct attn_out {
    std::vector<bf16> o;
    std::vector<float> lse;
};

// Softmax over keys of scale q.k + bias + 1e9 (mask - 1), logits in fp32 as the kernels form
// them for masked keys (a fully masked row: every logit -1e9 + O(1), equal in fp32: the keys'
// mean, lse +inf).
static attn_out reference(const attn_problem &p) {
    attn_out r;
    attn_forward_ref(p.q, p.k, p.v, p.mask, p.biasT, p.B, p.L, p.H, p.ch, r.o, r.lse);
    return r;
}

static fa_args base_args(const attn_problem &p, std::vector<bf16> &o, std::vector<float> &lse) {
    fa_args a;
    memset(&a, 0, sizeof a);
    a.q = p.q.data(), a.k = p.k.data(), a.v = p.v.data(), a.mask = p.mask.data();
    a.out_o = o.data(), a.lse = lse.data(), a.biasT = p.biasT.data();
    a.B = p.B, a.L = p.L, a.HC = p.H * p.ch, a.rstride = p.L, a.pstride = 1, a.H = p.H, a.ch = p.ch;
    a.scale = (float)(1 / sqrt((double)p.ch)), a.bias_bf16 = 1;
    return a;
}

// k_s9_bias16's copy of biasT (nat: natural key order, k_s9_fwd_bmma's; else k_s9_fwd's B16 order)
static std::vector<bf16> bias16(const attn_problem &p, int nat) {
    const int64_t Lp = (p.L + 63) & ~(int64_t)63, n = (int64_t)p.H * (nat ? Lp : p.L) * Lp / 8;
    std::vector<bf16> y((size_t)(16 * n / 2));
    const float *bT = p.biasT.data();
    bf16 *yp = y.data();
    emu_run(dim3((unsigned)((n + 255) / 256)), dim3(256), 0, [&] { k_s9_bias16(bT, yp, p.L, Lp, n, nat); });
    return y;
}

// One forward form: its name and how it runs (the launch its host code makes).
struct form {
    const char *name;
    void (*run)(const attn_problem &, fa_args);
};
static void run_bmma2(const attn_problem &p, fa_args a) {
    std::vector<bf16> y = bias16(p, 1);
    a.biasT16 = y.data(), a.lazy_step = 8.f;
    const int64_t nqt = (p.L + S9_Q2 - 1) / S9_Q2;
    emu_run(dim3((unsigned)(nqt * p.B * p.H)), dim3(128), s9d_layout<32>::bytes, [&] { k_s9_fwd_bmma2<32, 3>(a); });
}
static void run_bmma2_every_max(const attn_problem &p, fa_args a) {  // PF_ATTN_FWD_LAZY=0
    std::vector<bf16> y = bias16(p, 1);
    a.biasT16 = y.data(), a.lazy_step = 0.f;
    const int64_t nqt = (p.L + S9_Q2 - 1) / S9_Q2;
    emu_run(dim3((unsigned)(nqt * p.B * p.H)), dim3(128), s9d_layout<32>::bytes, [&] { k_s9_fwd_bmma2<32, 3>(a); });
}
// The TMA forms, one piece each (s9t_piece's maps): F = 3 (PF_ATTN_FWD_BMMA=3, session 51), k_s9_fwd_bmma2's tiles by
// TMA tensor maps; 4 (session 56, the default since), k_s9_fwd_half: each key tile in two halves (other bits); AO:
// k_s9_fwd_half with its ldmatrix offsets held (PF_ATTN_FWD_AO, session 61: the same addresses, so its bits); SB:
// without its block barrier a tile (PF_ATTN_FWD_SB, session 61: only warp 0 waits, its bits again); FX (session 63,
// PF_ATTN_FWD_FX): 1 the reference max fixed after tile 0 (other bits; blocks where a row's sum leaves its range work
// again with the default's arithmetic), 2 every block worked again (k_s9_fwd_half's bits)
template <int F, bool AO = false, bool SB = false, int FX = 0>
static void run_maps(const attn_problem &p, fa_args a) {
    std::vector<bf16> y = bias16(p, 1);
    a.biasT16 = y.data(), a.lazy_step = 8.f;
    const int64_t nqt = (p.L + S9_Q2 - 1) / S9_Q2;
    s9t_maps tm;
    if (s9t_maps_encode(&tm, &a)) {
        check(false, "the TMA forms' maps", "%s", "tma_map refused them");
        return;
    }
    const dim3 grid((unsigned)(nqt * p.B * p.H));
    if (F == 4)
        emu_run(grid, dim3(128), (SB ? s9h_layout::bytes_sb : s9h_layout::bytes) + 1024,
                [&] { k_s9_fwd_half<4, AO, SB, FX>(a, tm); });
    else emu_run(grid, dim3(128), s9t_layout::bytes + 1024, [&] { k_s9_fwd_tma<3>(a, tm); });
}
static void run_bmma(const attn_problem &p, fa_args a) {
    std::vector<bf16> y = bias16(p, 1);
    a.biasT16 = y.data(), a.lazy_step = 8.f;
    const int64_t nqt = (p.L + S9_Q - 1) / S9_Q;
    emu_run(dim3((unsigned)(nqt * p.B * p.H)), dim3(128), s9b_layout<32>::bytes, [&] { k_s9_fwd_bmma<32, 4>(a); });
}
static void run_pipe(const attn_problem &p, fa_args a) {
    std::vector<bf16> y = bias16(p, 0);
    a.biasT16 = y.data();
    const int64_t nqt = (p.L + S9_Q - 1) / S9_Q;
    emu_run(dim3((unsigned)(nqt * p.B * p.H)), dim3(128), s9_smem_layout<32, 1, true>::bytes,
            [&] { k_s9_fwd_pipe<32, true, 4>(a); });
}

// The emulator orders every form runs in (each must give the same bits): ascending, eager and descending, shuffled;
// then shuffled with one warp run one round in four (slow_warp; seed 5: warp 1, a mask writer; 6: warp 2, not), so
// the others run ahead of it up to the next block barrier (session 54's k_s9_fwd_rows, removed in session 55, had
// none in its key loop)
static emu_options order_slow_warp(uint64_t seed) {
    emu_options o = {0, 2, 0, seed};
    o.slow_warp = 4;
    return o;
}
static const emu_options orders[] = {{0, 0, 0, 1}, {1, 1, 1, 2}, {0, 2, 0, 11}, order_slow_warp(5), order_slow_warp(6)};
#define NORD ((int)(sizeof orders / sizeof orders[0]))

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    const form forms[] = {{"k_s9_fwd_bmma2", run_bmma2},
                          {"k_s9_fwd_bmma2 lazy step 0", run_bmma2_every_max},
                          {"k_s9_fwd_tma", run_maps<3>},
                          {"k_s9_fwd_half", run_maps<4>},
                          {"k_s9_fwd_half offsets held", run_maps<4, true>},
                          {"k_s9_fwd_half split barrier", run_maps<4, false, true>},
                          {"k_s9_fwd_half offsets held, split barrier", run_maps<4, true, true>},
                          {"k_s9_fwd_half fixed reference", run_maps<4, false, false, 1>},
                          {"k_s9_fwd_half fixed reference, offsets held, split barrier", run_maps<4, true, true, 1>},
                          {"k_s9_fwd_half fixed reference, every block again", run_maps<4, false, false, 2>},
                          {"k_s9_fwd_half fixed reference, every block again, offsets held, split barrier",
                           run_maps<4, true, true, 2>},
                          {"k_s9_fwd_bmma", run_bmma},
                          {"k_s9_fwd_pipe", run_pipe}};
    // ramp 0: random logits, one row fully masked; 20: each row's max grows by ~29 log2 units over the keys, so
    // k_s9_fwd_half's lazy max moves (steps of 8) and the fixed reference holds (p <= 2^64); 400: ~577 log2 units (p
    // past fp32 in tile 1 without the check), so every block of the fixed-reference forms works again (the default's
    // bits)
    struct {
        int64_t B, L;
        double ramp;
    } shapes[] = {{4, 70, 0}, {3, 130, 0}, {7, 200, 0}, {2, 200, 20}, {2, 130, 400}};
    for (auto &sh : shapes) {
        attn_problem p = make(sh.B, sh.L, (uint64_t)(sh.L * 7 + sh.B), sh.ramp);
        attn_out ref = reference(p), bmma2, half, fixed;
        for (const form &f : forms) {
            if (sh.ramp && !strstr(f.name, "k_s9_fwd_half")) continue;  // the ramps are for the fixed reference
            char name[160];
            snprintf(name, sizeof name, "B %lld L %lld ramp %g %s", (long long)sh.B, (long long)sh.L, sh.ramp, f.name);
            attn_out got[NORD];
            for (int o = 0; o < NORD; o++) {
                emu_opts = orders[o];
                got[o].o.assign(ref.o.size(), tob(0)), got[o].lse.assign(ref.lse.size(), 0.f);
                f.run(p, base_args(p, got[o].o, got[o].lse));
            }
            err e = compare(got[0].o.data(), ref.o.data(), (int64_t)ref.o.size());
            check(e.rel_l2 <= 1e-2 && e.rel_max <= 4e-2, std::string(name) + " output", "relative L2 %.3g, largest %.3g",
                  e.rel_l2, e.rel_max);
            double lw = 0;
            int inf_ok = 1;
            for (size_t i = 0; i < ref.lse.size(); i++) {
                if (isinf(ref.lse[i])) inf_ok &= isinf(got[0].lse[i]) && got[0].lse[i] > 0;
                else lw = fmax(lw, fabs((double)got[0].lse[i] - ref.lse[i]) / fmax(1.0, fabs(ref.lse[i])));
            }
            check(lw <= 2e-3 && inf_ok, std::string(name) + " lse", "largest relative error %.3g; +inf on the masked row %d",
                  lw, inf_ok);
            if (verbose) printf("     %s: output relative L2 %.3g, largest %.3g; lse %.3g\n", name, e.rel_l2, e.rel_max, lw);
            bool same = true;
            for (int o = 1; o < NORD; o++)
                same &= !memcmp(got[o].o.data(), got[0].o.data(), got[0].o.size() * 2) &&
                        !memcmp(got[o].lse.data(), got[0].lse.data(), got[0].lse.size() * 4);
            check(same, std::string(name) + " the same bits in every order", "%s", "outputs differ between emulator orders");
            if (f.run == run_bmma2) bmma2 = got[0];
            if (f.run == run_maps<3>)  // the same arithmetic per score from other tiles' layout: the same bits
                check(!memcmp(got[0].o.data(), bmma2.o.data(), bmma2.o.size() * 2) &&
                          !memcmp(got[0].lse.data(), bmma2.lse.data(), bmma2.lse.size() * 4),
                      std::string(name) + " the same bits as k_s9_fwd_bmma2", "%s", "outputs differ");
            if (f.run == run_maps<4>) half = got[0];
            if (f.run == run_maps<4, false, false, 1>) fixed = got[0];
            // the fixed reference with session 61's forms: the same addresses and order, so its bits
            if (f.run == run_maps<4, true, true, 1>)
                check(!memcmp(got[0].o.data(), fixed.o.data(), fixed.o.size() * 2) &&
                          !memcmp(got[0].lse.data(), fixed.lse.data(), fixed.lse.size() * 4),
                      std::string(name) + " the same bits as the fixed reference alone", "%s", "outputs differ");
            // k_s9_fwd_half's loads from the same addresses, its arithmetic in the same order: its bits
            const bool same_half = !memcmp(got[0].o.data(), half.o.data(), half.o.size() * 2) &&
                                   !memcmp(got[0].lse.data(), half.lse.data(), half.lse.size() * 4);
            if (f.run == run_maps<4, true> || f.run == run_maps<4, false, true> || f.run == run_maps<4, true, true> ||
                f.run == run_maps<4, false, false, 2> || f.run == run_maps<4, true, true, 2> ||
                (sh.ramp > 100 && (f.run == run_maps<4, false, false, 1> || f.run == run_maps<4, true, true, 1>)))
                check(same_half, std::string(name) + " the same bits as k_s9_fwd_half", "%s", "outputs differ");
            // the fixed reference where it holds (ramp 20: k_s9_fwd_half's reference moves, this one does not): other
            // bits, so its own path ran, not the default's arithmetic again
            if (sh.ramp > 0 && sh.ramp < 100 &&
                (f.run == run_maps<4, false, false, 1> || f.run == run_maps<4, true, true, 1>))
                check(!same_half, std::string(name) + " its own bits (no block worked again)", "%s",
                      "k_s9_fwd_half's bits: the blocks worked again");
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
