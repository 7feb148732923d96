// cmd_bench.c: `pairfold bench`: each block type of a preset, forward and
// forward+backward, at several sizes: median ms, GFLOP/s (FLOP model in
// block.c: matrix products and attention contractions; backward = 2 x forward),
// and the bytes of the block's saved activations + workspace + streams; with
// --per-module also each step's (module's) time and planned memory.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "../registry/registry.h"
#include "../core/util.h"
#include "../core/rng.h"
#include "../model/block.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    double fwd_ms, fb_ms, flops;
    size_t bytes;
    int n_steps;  // --per-module: the block's steps (below), else 0
    char name[PF_MAX_STEPS][64];
    double step_ms[2][PF_MAX_STEPS];  // medians: [0] the forward (training: the one that saves), [1] the backward
    size_t step_saved[PF_MAX_STEPS], step_ws[PF_MAX_STEPS];  // planned bytes (inference: ws of a forward)
} bench_result;

// One timed pass: the inference forward (fb 0) or the training forward that saves + the backward.
static void run_pass(pf_backend *be, pf_block *b, pf_streams *st, pf_streams *ds, void *saved, void *ws,
                     pf_act *delta, pf_act *dd, int fb) {
    if (fb) {
        pf_block_fwd(b, be, st, saved, ws, delta, 1, 1);
        pf_block_bwd(b, be, st, ds, saved, ws, dd, 1);
    } else {
        pf_block_fwd(b, be, st, NULL, ws, delta, 1, 0);
    }
}

// --per-module: reps more passes with the block's step timer on (pf_block.step_ms: a backend
// sync around each step, so the steps' sum exceeds the pass's time by those syncs); per step
// the median over the passes, and its planned saved / workspace bytes.
static void time_steps(pf_block *b, pf_backend *be, pf_streams *st, pf_streams *ds, void *saved, void *ws,
                       pf_act *delta, pf_act *dd, int reps, int fwd_only, bench_result *res) {
    int n = b->n;
    double *t = pf_malloc(sizeof(double) * 2 * (size_t)n * (size_t)reps);  // [pass][step][rep]
    for (int r = 0; r < reps; r++) {
        double acc[2][PF_MAX_STEPS] = {{0}};
        b->step_ms[0] = acc[0];
        b->step_ms[1] = fwd_only ? NULL : acc[1];
        run_pass(be, b, st, ds, saved, ws, delta, dd, !fwd_only);
        b->step_ms[0] = b->step_ms[1] = NULL;
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < n; i++) t[((size_t)p * n + i) * reps + r] = acc[p][i];
    }
    res->n_steps = n;
    for (int i = 0; i < n; i++) {
        snprintf(res->name[i], sizeof res->name[i], "%s", b->step[i].name);
        for (int p = 0; p < 2; p++) {
            double *v = t + ((size_t)p * n + i) * reps;
            qsort(v, (size_t)reps, sizeof(double), cmp_double);
            res->step_ms[p][i] = v[reps / 2];
        }
        res->step_saved[i] = fwd_only ? 0 : b->step[i].mem.saved;
        res->step_ws[i] = fwd_only ? b->step[i].mem.ws_fwd : b->step[i].mem.ws;
    }
    pf_free(t);
}

static void print_steps(const bench_result *r, int fwd_only) {
    double sum[2] = {0, 0};
    printf("  %-40s %10s %10s %10s %10s\n", "step", "fwd_ms", fwd_only ? "-" : "bwd_ms",
           "saved_MiB", fwd_only ? "wsfwd_MiB" : "ws_MiB");
    for (int i = 0; i < r->n_steps; i++) {
        printf("  %-40s %10.3f %10.3f %10.1f %10.1f\n", r->name[i], r->step_ms[0][i], r->step_ms[1][i],
               r->step_saved[i] / 1048576.0, r->step_ws[i] / 1048576.0);
        sum[0] += r->step_ms[0][i], sum[1] += r->step_ms[1][i];
    }
    printf("  %-40s %10.3f %10.3f\n", "sum of the steps (with a sync each)", sum[0], sum[1]);
}

// dst (n activations) = standard normal values (value = 1 when seed == 0), made
// and uploaded in pieces: a pair stream at N = 10,000 has 1.3e10 elements.
#define BENCH_PIECE ((int64_t)1 << 26)
static void upload_values(pf_backend *be, pf_act *dst, int64_t n, uint64_t seed) {
    int64_t piece = n < BENCH_PIECE ? n : BENCH_PIECE;
    real *h = pf_malloc(sizeof(real) * (size_t)(piece > 0 ? piece : 1));
    for (int64_t i0 = 0; i0 < n; i0 += piece) {
        int64_t k = n - i0 < piece ? n - i0 : piece;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < k; i++) h[i] = seed ? (real)pf_normal(seed, (uint64_t)(i0 + i)) : 1;
        be->act_from_real(be, (pf_act *)((char *)dst + pf_act_size(be, i0)), h, k);
    }
    pf_free(h);
}

// fwd_only: inference, as predict runs it: no saved activations, no gradient
// streams, the workspace of forwards without saved (which the backend may chunk).
// --graph: the timed passes replay recordings of one forward and of one forward + backward
// (backend capture_begin / capture_end, made after the eager warm-up) instead of issuing each
// launch; the same kernels on the same buffers. Dies naming the reason when a pass cannot be
// recorded.
static void *record_pass(pf_backend *be, pf_block *b, pf_streams *st, pf_streams *ds, void *saved, void *ws,
                         pf_act *delta, pf_act *dd, int fb) {
    char err[256] = "";
    be->sync(be);
    if (!be->capture_begin(be)) pf_die("bench --graph: the %s backend could not start recording", be->name);
    run_pass(be, b, st, ds, saved, ws, delta, dd, fb);
    void *g = be->capture_end(be, err, sizeof err);
    if (!g) pf_die("bench --graph: the block's %s could not be recorded: %s", fb ? "forward + backward" : "forward", err);
    return g;
}

static bench_result bench_block(pf_backend *be, const pf_config *cfg, int kind, int64_t N, int64_t S, int reps,
                                int fwd_only, int per_module, int graph) {
    if (be->peak_bytes) be->peak_bytes(be, 1);
    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, kind, cfg, &P, "block");
    pf_params_bind(&P, be);
    pf_params_initialise(&P, 7);
    // random weights everywhere (the zero-initialised output projections would
    // not change the work, but real weights keep the numbers honest)
    real *h = pf_malloc(sizeof(real) * (size_t)P.total);
    for (int64_t i = 0; i < P.total; i++) h[i] = (real)(0.05 * pf_normal(11, (uint64_t)i));
    be->upload(be, P.data, h, sizeof(real) * (size_t)P.total);
    pf_free(h);
    pf_block_plan(&b, be, N, S);
    int64_t n[3] = {S * N * b.c[PF_STREAM_M], N * N * b.c[PF_STREAM_Z], N * b.c[PF_STREAM_S]};
    int64_t big = PF_MAX(n[0], PF_MAX(n[1], n[2]));
    pf_streams st = {0}, ds = {0};
    st.N = ds.N = N;
    st.S = ds.S = S;
    size_t bytes = 0;
    for (int k = 0; k < 3; k++) {
        st.x[k] = be->alloc(be, pf_act_size(be, n[k]));
        upload_values(be, st.x[k], n[k], 13 + k);
        bytes += pf_act_size(be, n[k]);
        if (!fwd_only) {
            ds.x[k] = be->alloc(be, pf_act_size(be, n[k]));
            upload_values(be, ds.x[k], n[k], 13 + k);
            bytes += pf_act_size(be, n[k]);
        }
    }
    int64_t nm[3] = {S * N, N * N, N};
    for (int k = 0; k < 3; k++) {
        pf_act *m = be->alloc(be, pf_act_size(be, nm[k]));
        upload_values(be, m, nm[k], 0);
        st.mask[k] = ds.mask[k] = m;
        bytes += pf_act_size(be, nm[k]);
    }
    size_t n_saved = fwd_only ? 1 : PF_MAX(b.saved_bytes, 1), n_ws = PF_MAX(fwd_only ? b.ws_fwd_bytes : b.ws_bytes, 1);
    void *saved = be->alloc(be, n_saved), *ws = be->alloc(be, n_ws);
    pf_act *delta = be->alloc(be, pf_act_size(be, big)), *dd = fwd_only ? NULL : be->alloc(be, pf_act_size(be, big));
    bytes += n_saved + n_ws + (fwd_only ? 1 : 2) * pf_act_size(be, big);
    double *tf = pf_malloc(sizeof(double) * (size_t)(reps + 1)), *tb = pf_malloc(sizeof(double) * (size_t)(reps + 1));
    void *gf = NULL, *gb = NULL;  // --graph: the recorded passes, made after the warm-up
    for (int r = 0; r <= reps; r++) {  // r == 0 is the warm-up
        if (graph && r == 1) {
            gf = record_pass(be, &b, &st, &ds, saved, ws, delta, dd, 0);
            if (!fwd_only) gb = record_pass(be, &b, &st, &ds, saved, ws, delta, dd, 1);
        }
        be->sync(be);
        double t0 = pf_now_ms();
        if (gf) be->graph_run(be, gf);
        else run_pass(be, &b, &st, &ds, saved, ws, delta, dd, 0);
        be->sync(be);
        double t1 = pf_now_ms();
        if (!fwd_only) {
            if (gb) be->graph_run(be, gb);
            else run_pass(be, &b, &st, &ds, saved, ws, delta, dd, 1);
            be->sync(be);
        }
        double t2 = pf_now_ms();
        tf[r] = t1 - t0;
        tb[r] = t2 - t1;
    }
    if (gf) be->graph_free(be, gf);
    if (gb) be->graph_free(be, gb);
    qsort(tf + 1, (size_t)reps, sizeof(double), cmp_double);
    qsort(tb + 1, (size_t)reps, sizeof(double), cmp_double);
    // memory: the backend's measured peak where it has one, else the sum of our allocations
    if (be->peak_bytes) bytes = be->peak_bytes(be, 0);
    bench_result res;
    memset(&res, 0, sizeof res);
    res.fwd_ms = tf[1 + reps / 2], res.fb_ms = fwd_only ? 0 : tb[1 + reps / 2];
    res.flops = pf_block_flops(&b), res.bytes = bytes;
    if (per_module) time_steps(&b, be, &st, &ds, saved, ws, delta, dd, reps, fwd_only, &res);
    pf_free(tf);
    pf_free(tb);
    for (int k = 0; k < 3; k++) {
        be->free(be, st.x[k]);
        if (ds.x[k]) be->free(be, ds.x[k]);
        be->free(be, (void *)st.mask[k]);
    }
    be->free(be, saved);
    be->free(be, ws);
    be->free(be, delta);
    if (dd) be->free(be, dd);
    pf_params_free(&P);
    return res;
}

static void bench_usage(FILE *f) {
    fprintf(f,
            "usage: pairfold bench [options]\n"
            "\n"
            "Times each block type of a preset (af3: pairformer, msa_module; af2: evoformer,\n"
            "extra_msa) forward and forward+backward with random weights and inputs.\n"
            "\n"
            "  --preset NAME   tiny, af2, af3 (default af3)\n"
            "  --n LIST        token counts in [1, 16384], comma separated (default 64,128)\n"
            "  --msa S         MSA rows for the MSA blocks (default 128)\n"
            "  --reps R        timed repetitions in [1, 1000], median reported (default 3)\n"
            "  --forward-only  inference only: no saved activations or gradients (as predict\n"
            "                  runs the trunk; the CUDA backend chunks long N); fwdbwd_ms is 0\n"
            "  --per-module    also each module's (step's) median time, forward and backward,\n"
            "                  and its planned saved and workspace memory (R more passes, a\n"
            "                  device sync around each step)\n"
            "  --graph         time replays of a recorded forward and forward+backward (CUDA\n"
            "                  graphs: launch overhead off) instead of issuing each launch\n"
            "  --device D      cpu (default) | cuda (bf16) | cuda-fp32\n"
            "  --set KEY=VAL   configuration override (repeatable)\n"
            "  --help, -h      this text\n");
}

int cmd_bench(int argc, char **argv) {
    static struct option opts[] = {{"preset", required_argument, 0, 0}, {"n", required_argument, 0, 0},
                                   {"msa", required_argument, 0, 0},    {"reps", required_argument, 0, 0},
                                   {"device", required_argument, 0, 0}, {"set", required_argument, 0, 0},
                                   {"config", required_argument, 0, 0}, {"trunk", required_argument, 0, 0},
                                   {"help", no_argument, 0, 0},         {"forward-only", no_argument, 0, 0},
                                   {"per-module", no_argument, 0, 0},   {"graph", no_argument, 0, 0},
                                   {0, 0, 0, 0}};
    pf_config cfg;
    pf_config_preset(&cfg, "af3");
    if (cli_preset_first(&cfg, argc, argv) != 0) return 2;
    int have_preset = 0, reps = 3, S = 128, fwd_only = 0, per_module = 0, graph = 0;
    char nlist[256] = "64,128";
    int idx, c;
    optind = 1;
    if (cli_check_exact_options(argc, argv, opts) != 0) return 2;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { bench_usage(stderr); return 2; }
        const char *name = opts[idx].name, *bad = NULL;
        long v = 0;
        if (!strcmp(name, "help")) { bench_usage(stdout); return 0; }
        if (!strcmp(name, "forward-only")) { fwd_only = 1; continue; }
        if (!strcmp(name, "per-module")) { per_module = 1; continue; }
        if (!strcmp(name, "graph")) { graph = 1; continue; }
        if (!strcmp(name, "n")) { snprintf(nlist, sizeof nlist, "%s", optarg); continue; }
        if (!strcmp(name, "msa") && !(bad = pf_parse_long_arg(optarg, 1, 16384, "--msa", &v))) { S = (int)v; continue; }
        if (!strcmp(name, "reps") && !(bad = pf_parse_long_arg(optarg, 1, 1000, "--reps", &v))) { reps = (int)v; continue; }
        if (bad) { fprintf(stderr, "pairfold: error: %s\n", bad); return 2; }
        if (cli_config_option(&cfg, &have_preset, name, optarg) < 0) return 2;
    }
    if (optind < argc) {
        fprintf(stderr, "pairfold: error: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    int Ns[64], nN = 0;  // all of --n checked before the first block runs
    for (char *tok = strtok(nlist, ","); tok; tok = strtok(NULL, ",")) {
        long v;
        const char *bad = nN == 64 ? "--n: at most 64 sizes" : pf_parse_long_arg(tok, 1, 16384, "--n entry", &v);
        if (bad) { fprintf(stderr, "pairfold: error: %s\n", bad); return 2; }
        Ns[nN++] = (int)v;
    }
    if (nN == 0) { fprintf(stderr, "pairfold: error: --n lists no sizes\n"); return 2; }
    char be_err[256];
    pf_backend *be = pf_backend_open(cfg.device, 0, be_err, sizeof be_err);
    if (!be) { fprintf(stderr, "pairfold: error: %s\n", be_err); return 2; }
    if (graph && !be->capture_begin) {
        fprintf(stderr, "pairfold: error: --graph: the %s backend cannot record launches (CUDA devices only)\n", be->name);
        return 2;
    }
    if (graph && per_module) {
        fprintf(stderr, "pairfold: error: --graph and --per-module: the per-step timer syncs inside the pass\n");
        return 2;
    }
    int kinds[2], nk = 0;
    if (cfg.trunk == PF_TRUNK_EVOFORMER) {
        kinds[nk++] = PF_BLOCK_EVOFORMER;
        if (cfg.n_extra_blocks > 0) kinds[nk++] = PF_BLOCK_EXTRA_MSA;
    } else {
        kinds[nk++] = PF_BLOCK_PAIRFORMER;
        if (cfg.n_msa_blocks > 0) kinds[nk++] = PF_BLOCK_MSA_MODULE;
    }
    printf("pairfold bench: preset %s, device %s (%s), MSA rows %d, median of %d\n", cfg.preset, be->name,
           PF_REAL_NAME, S, reps);
    printf("%-11s %6s %5s %10s %10s %12s %12s %10s\n", "block", "N", "S", "fwd_ms", "fwdbwd_ms", "fwd_GFLOP/s",
           "fb_GFLOP/s", "mem_MiB");
    for (int in = 0; in < nN; in++) {
        int N = Ns[in];
        for (int k = 0; k < nk; k++) {
            int rows = kinds[k] == PF_BLOCK_PAIRFORMER ? 1 : kinds[k] == PF_BLOCK_EXTRA_MSA ? PF_MAX(S, 1) : S;
            bench_result r = bench_block(be, &cfg, kinds[k], N, rows, reps, fwd_only, per_module, graph);
            printf("%-11s %6d %5d %10.2f %10.2f %12.2f %12.2f %10.1f\n", pf_block_kind_name(kinds[k]), N,
                   kinds[k] == PF_BLOCK_PAIRFORMER ? 0 : rows, r.fwd_ms, r.fb_ms, r.flops / (r.fwd_ms * 1e6),
                   r.fb_ms > 0 ? 3 * r.flops / (r.fb_ms * 1e6) : 0.0, r.bytes / 1048576.0);
            if (per_module) print_steps(&r, fwd_only);
            fflush(stdout);
        }
    }
    return 0;
}
