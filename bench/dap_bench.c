// dap_bench.c: one Pairformer block (AF3 sizes unless --set says otherwise)
// forward + backward with the pair tensor sharded over the ranks of the launch
// (axial parallelism, src/model/dap.h; dap = the world size), or unsharded when
// run as one process. Prints, on rank 0, one line per N: the median time of a
// forward that saves plus the backward, the largest peak of the backend's memory
// over the ranks, and the share of the time the ranks' streams spent in the dap
// group's collectives (pf_dap_comm.comm_ms; 0 unsharded).
//   dap_bench --device cuda --n 2048                       one GPU
//   mpirun -np 2 dap_bench --device cuda --n 2048          2 GPUs, dap = 2
//   mpirun -np 2 dap_bench --device cuda --check 2048      sharded = one GPU?
// --check N: rank 0 also runs the unsharded block on the same weights and inputs
// (dropout on, the same masks) and compares the sharded outputs z, s, the input
// gradients d z, d s (gathered to rank 0) and every parameter gradient (summed over
// the group) with it: L2 relative error per tensor (a parameter's denominator at
// least 1% of the largest gradient's norm), tolerance --tol (default 2e-2, the
// bf16 parity tolerance of tests/cuda; use 1e-4 with cuda-fp32). Ends with
// "dap_check: passed" or "dap_check: FAILED". Exit status 0 when passed.
// --chunk-bytes B (CUDA): the sharded block's ops run with their pieces forced to
// about B bytes (pf_cuda_set_chunk_bytes, on every rank); the unsharded block of
// --check keeps the default pieces. 0: the default.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/core/util.h"
#include "../src/core/rng.h"
#include "../src/model/block.h"
#include "../src/model/config.h"
#include "../src/model/dap.h"
#include "../src/registry/registry.h"
#include "../src/train/dist.h"
#include "../src/train/dap_group.h"
#ifdef PF_WITH_CUDA
#include "../src/cuda/cuda_backend.h"
#endif

typedef struct {
    pf_backend *be;
    pf_dist D;
    pf_dap_comm *comm;  // NULL when unsharded
    pf_dap_host host;   // a backend without device groups (the CPU): collectives on the host
    pf_config cfg;
    int reps;
    long chunk_bytes;  // --chunk-bytes: the sharded block's forced piece size (0: default)
} bench_ctx;

// The CUDA backend's piece size (cu_chunk_units); the CPU has no pieces.
static void set_chunk_bytes(bench_ctx *B, long bytes) {
#ifdef PF_WITH_CUDA
    if (!strncmp(B->be->name, "cuda", 4)) pf_cuda_set_chunk_bytes(B->be, (size_t)bytes);
#else
    (void)B, (void)bytes;
#endif
}

// dst (n activations) = x[off + i] for i < n, x[k] = normal(seed, k) (value 1 when seed == 0),
// made and uploaded in pieces.
static void upload_at(pf_backend *be, pf_act *dst, int64_t n, uint64_t seed, int64_t off) {
    const int64_t piece = (int64_t)1 << 24;
    real *h = pf_malloc(sizeof(real) * (size_t)(n < piece ? (n > 0 ? n : 1) : piece));
    for (int64_t i0 = 0; i0 < n; i0 += piece) {
        int64_t k = n - i0 < piece ? n - i0 : piece;
#pragma omp parallel for schedule(static)  // each value from its own index: any thread count, the same values
        for (int64_t i = 0; i < k; i++) h[i] = seed ? (real)pf_normal(seed, (uint64_t)(off + i0 + i)) : 1;
        be->act_from_real(be, pf_act_at(be, dst, i0), h, k);
    }
    pf_free(h);
}

static pf_act *act_new(pf_backend *be, int64_t n, uint64_t seed, int64_t off) {
    pf_act *a = be->alloc(be, pf_act_size(be, n));
    upload_at(be, a, n, seed, off);
    return a;
}

// The block with its weights: 0.05 normal, LayerNorm scales 1 + that (the same on every rank).
static void make_block(bench_ctx *B, pf_params *P, pf_block *b) {
    pf_params_init_registry(P);
    pf_block_declare(b, PF_BLOCK_PAIRFORMER, &B->cfg, P, "block");
    pf_params_bind(P, B->be);
    real *h = pf_malloc(sizeof(real) * (size_t)P->total);
    for (int64_t i = 0; i < P->total; i++) h[i] = (real)(0.05 * pf_normal(11, (uint64_t)i));
    for (int i = 0; i < P->n; i++)
        if (strstr(P->t[i].name, "layer_norm") && strstr(P->t[i].name, ".weight"))
            for (int64_t j = 0; j < P->t[i].numel; j++) h[P->t[i].offset + j] += 1;
    B->be->upload(B->be, P->data, h, sizeof(real) * (size_t)P->total);
    pf_free(h);
}

typedef struct {
    double fb_ms, comm_share, peak_gib;
} bench_res;

// Results of one pass on rank 0's host: outputs, input gradients, parameter gradients.
typedef struct {
    real *z, *s, *dz, *ds, *grad;
} host_res;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Inputs (seeds 13 z, 15 s) and output gradients (17, 19) of the whole (N, N) problem.
enum { SEED_Z = 13, SEED_S = 15, SEED_DZ = 17, SEED_DS = 19, KEY = 42 };

static real *download_act(pf_backend *be, const pf_act *x, int64_t n) {
    real *h = pf_malloc(sizeof(real) * (size_t)n);
    be->act_to_real(be, h, x, n);
    return h;
}

// Every rank's rows (n, N, C) gathered to rank 0's host (N, N, C) (NULL elsewhere).
static real *gather_rows(bench_ctx *B, const pf_act *rows, int64_t nN_C) {
    pf_backend *be = B->be;
    const pf_dap_comm *c = B->comm;
    pf_act *full = be->alloc(be, pf_act_size(be, nN_C * c->size));
    c->all_gather(c, rows, full, pf_act_size(be, nN_C));
    real *h = c->rank == 0 ? download_act(be, full, nN_C * c->size) : NULL;
    be->sync(be);
    be->free(be, full);
    return h;
}

// Median milliseconds of reps passes (after one warm-up) of pass(arg); comm: the
// share of them spent in the group's collectives.
typedef void (*pass_fn)(void *arg);
static void time_passes(bench_ctx *B, pass_fn pass, void *arg, int reps, bench_res *res) {
    pf_backend *be = B->be;
    const pf_dap_comm *c = B->comm;
    double *t = pf_malloc(sizeof(double) * (size_t)(reps + 1)), comm = 0, total = 0;
    for (int k = 0; k <= reps; k++) {
        be->sync(be);
        if (c && c->comm_ms) c->comm_ms(c, 1);
        double t0 = pf_now_ms();
        pass(arg);
        be->sync(be);
        t[k] = pf_now_ms() - t0;
        if (k > 0) total += t[k], comm += c && c->comm_ms ? c->comm_ms(c, 0) : 0;
    }
    qsort(t + 1, (size_t)reps, sizeof(double), cmp_double);
    res->fb_ms = reps > 0 ? t[1 + reps / 2] : t[0];
    res->comm_share = total > 0 ? comm / total : 0;
    pf_free(t);
}

typedef struct {
    pf_backend *be;
    const pf_dap_comm *c;
    pf_dap_block *db;
    pf_block *b;
    pf_dap_streams st, d;
    pf_streams fst, fd;
    void *saved, *ws;
    pf_act *delta, *dd;
} pass_args;

static void pass_sharded(void *arg) {
    pass_args *a = arg;
    pf_dap_block_fwd(a->db, a->be, a->c, &a->st, a->saved, a->ws, a->delta, KEY, 1);
    pf_dap_block_bwd(a->db, a->be, a->c, &a->st, &a->d, a->saved, a->ws, a->dd, KEY);
}

static void pass_full(void *arg) {
    pass_args *a = arg;
    pf_block_fwd(a->b, a->be, &a->fst, a->saved, a->ws, a->delta, KEY, 1);
    pf_block_bwd(a->b, a->be, &a->fst, &a->fd, a->saved, a->ws, a->dd, KEY);
}

static double peak_gib(pf_backend *be) { return be->peak_bytes ? (double)be->peak_bytes(be, 0) / (1u << 30) : 0; }

// The block on this rank's rows of z (rows [r n, (r + 1) n)). out != NULL: one pass,
// its results gathered to rank 0's host; else reps timed passes.
static bench_res run_sharded(bench_ctx *B, int64_t N, host_res *out) {
    pf_backend *be = B->be;
    if (be->peak_bytes) be->peak_bytes(be, 1);
    set_chunk_bytes(B, B->chunk_bytes);  // before the plan: the pieces set the workspace
    pf_params P;
    pf_block b;
    make_block(B, &P, &b);
    const int cz = b.c[PF_STREAM_Z], cs = b.c[PF_STREAM_S];
    pf_dap_block db = {0};
    pf_dap_block_plan(&db, &b, be, B->comm, N, 1);
    const int64_t n = db.n, r0 = (int64_t)B->comm->rank * n, big = PF_MAX(n * N * cz, N * cs);
    if (db.Np != N) pf_die("dap_bench: N = %lld must be a multiple of the %d ranks", (long long)N, B->comm->size);
    pass_args a = {.be = be, .c = B->comm, .db = &db, .b = &b};
    // the largest buffers first: a size that does not fit fails before the inputs are made
    a.saved = be->alloc(be, PF_MAX(db.saved_bytes, 1));
    a.ws = be->alloc(be, PF_MAX(db.ws_bytes, 1));
    a.delta = be->alloc(be, pf_act_size(be, big));
    a.dd = be->alloc(be, pf_act_size(be, big));
    a.st.z = act_new(be, n * N * cz, SEED_Z, r0 * N * cz);
    a.st.s = act_new(be, N * cs, SEED_S, 0);
    a.st.pair = act_new(be, n * N, 0, 0);
    a.st.pair_t = act_new(be, n * N, 0, 0);
    a.st.seq = act_new(be, N, 0, 0);
    a.d.z = act_new(be, n * N * cz, SEED_DZ, r0 * N * cz);
    a.d.s = act_new(be, N * cs, SEED_DS, 0);
    bench_res res = {0};
    pf_params_zero_grad(&P);
    if (out) {
        time_passes(B, pass_sharded, &a, 0, &res);
        res.peak_gib = peak_gib(be);
        out->z = gather_rows(B, a.st.z, n * N * cz);
        out->dz = gather_rows(B, a.d.z, n * N * cz);
        B->comm->sum(B->comm, P.grad, P.total);  // the group's parameter gradients
        if (B->comm->rank == 0) {
            out->s = download_act(be, a.st.s, N * cs);
            out->ds = download_act(be, a.d.s, N * cs);
            out->grad = pf_malloc(sizeof(real) * (size_t)P.total);
            be->download(be, out->grad, P.grad, sizeof(real) * (size_t)P.total);
        }
    } else {
        time_passes(B, pass_sharded, &a, B->reps, &res);
        res.peak_gib = peak_gib(be);
    }
    pf_act *bufs[] = {a.st.z, a.st.s, (pf_act *)a.st.pair, (pf_act *)a.st.pair_t, (pf_act *)a.st.seq, a.d.z, a.d.s,
                      a.saved, a.ws, a.delta, a.dd};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) be->free(be, bufs[i]);
    pf_dap_block_free(&db, be);
    pf_params_free(&P);
    set_chunk_bytes(B, 0);
    return res;
}

// The unsharded block (one GPU), as `pairfold bench` runs it; out: one pass, downloaded.
static bench_res run_full(bench_ctx *B, int64_t N, host_res *out) {
    pf_backend *be = B->be;
    if (be->peak_bytes) be->peak_bytes(be, 1);
    pf_params P;
    pf_block b;
    make_block(B, &P, &b);
    pf_block_plan(&b, be, N, 1);
    const int cz = b.c[PF_STREAM_Z], cs = b.c[PF_STREAM_S], cm = b.c[PF_STREAM_M];
    const int64_t big = PF_MAX(N * N * cz, PF_MAX(N * cs, N * cm));
    pass_args a = {.be = be, .b = &b};
    a.saved = be->alloc(be, PF_MAX(b.saved_bytes, 1));  // the largest first (as run_sharded)
    a.ws = be->alloc(be, PF_MAX(b.ws_bytes, 1));
    a.delta = be->alloc(be, pf_act_size(be, big));
    a.dd = be->alloc(be, pf_act_size(be, big));
    a.fst.N = a.fd.N = N;
    a.fst.S = a.fd.S = 1;
    a.fst.x[PF_STREAM_Z] = act_new(be, N * N * cz, SEED_Z, 0);
    a.fst.x[PF_STREAM_S] = act_new(be, N * cs, SEED_S, 0);
    a.fst.x[PF_STREAM_M] = act_new(be, N * cm, 0, 0);
    a.fd.x[PF_STREAM_Z] = act_new(be, N * N * cz, SEED_DZ, 0);
    a.fd.x[PF_STREAM_S] = act_new(be, N * cs, SEED_DS, 0);
    a.fd.x[PF_STREAM_M] = act_new(be, N * cm, 0, 0);
    a.fst.mask[PF_MASK_PAIR] = a.fd.mask[PF_MASK_PAIR] = act_new(be, N * N, 0, 0);
    a.fst.mask[PF_MASK_SEQ] = a.fd.mask[PF_MASK_SEQ] = act_new(be, N, 0, 0);
    a.fst.mask[PF_MASK_MSA] = a.fd.mask[PF_MASK_MSA] = act_new(be, N, 0, 0);
    bench_res res = {0};
    pf_params_zero_grad(&P);
    time_passes(B, pass_full, &a, out ? 0 : B->reps, &res);
    res.peak_gib = peak_gib(be);
    if (out) {
        out->z = download_act(be, a.fst.x[PF_STREAM_Z], N * N * cz);
        out->s = download_act(be, a.fst.x[PF_STREAM_S], N * cs);
        out->dz = download_act(be, a.fd.x[PF_STREAM_Z], N * N * cz);
        out->ds = download_act(be, a.fd.x[PF_STREAM_S], N * cs);
        out->grad = pf_malloc(sizeof(real) * (size_t)P.total);
        be->download(be, out->grad, P.grad, sizeof(real) * (size_t)P.total);
    }
    for (int k = 0; k < PF_NSTREAMS; k++) be->free(be, a.fst.x[k]), be->free(be, a.fd.x[k]);
    for (int k = 0; k < PF_NMASKS; k++) be->free(be, (void *)a.fst.mask[k]);
    be->free(be, a.saved), be->free(be, a.ws), be->free(be, a.delta), be->free(be, a.dd);
    pf_params_free(&P);
    return res;
}

static double l2_rel(const real *a, const real *ref, int64_t n, double floor_norm) {
    double d2 = 0, r2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = (double)a[i] - (double)ref[i];
        d2 += d * d;
        r2 += (double)ref[i] * ref[i];
    }
    double r = fmax(sqrt(r2), floor_norm);
    return r > 0 ? sqrt(d2) / r : sqrt(d2);
}

static int check_one(const char *what, double e, double tol, double *worst) {
    int ok = isfinite(e) && e <= tol;
    if (!ok) printf("FAIL %s: L2 rel err %.3e (tol %.1e)\n", what, e, tol);
    *worst = fmax(*worst, e);
    return ok;
}

// Sharded against unsharded at N (rank 0 runs both). Returns 0 when every tensor matches.
static int run_check(bench_ctx *B, int64_t N, double tol) {
    host_res sh = {0}, ref = {0};
    bench_res rs = run_sharded(B, N, &sh);
    int fails = 0;
    if (B->comm->rank == 0) {
        bench_res rf = run_full(B, N, &ref);
        pf_params P;
        pf_block b;
        make_block(B, &P, &b);
        const int64_t nz = N * N * b.c[PF_STREAM_Z], ns = N * b.c[PF_STREAM_S];
        double wa = 0, wg = 0, big = 0;
        fails += !check_one("output z", l2_rel(sh.z, ref.z, nz, 0), tol, &wa);
        fails += !check_one("output s", l2_rel(sh.s, ref.s, ns, 0), tol, &wa);
        fails += !check_one("d z", l2_rel(sh.dz, ref.dz, nz, 0), tol, &wa);
        fails += !check_one("d s", l2_rel(sh.ds, ref.ds, ns, 0), tol, &wa);
        for (int i = 0; i < P.n; i++) {
            double r2 = 0;
            for (int64_t j = 0; j < P.t[i].numel; j++) r2 += (double)ref.grad[P.t[i].offset + j] * ref.grad[P.t[i].offset + j];
            big = fmax(big, sqrt(r2));
        }
        for (int i = 0; i < P.n; i++) {
            char what[300];
            snprintf(what, sizeof what, "gradient of %s", P.t[i].name);
            fails += !check_one(what, l2_rel(sh.grad + P.t[i].offset, ref.grad + P.t[i].offset, P.t[i].numel, 0.01 * big),
                                tol, &wg);
        }
        printf("dap_check N=%lld P=%d (%s): outputs and input gradients worst L2 rel %.3e, parameter gradients "
               "(%d tensors) worst %.3e, tolerance %.1e; one pass %.1f ms sharded, %.1f ms unsharded\n",
               (long long)N, B->comm->size, B->be->name, wa, P.n, wg, tol, rs.fb_ms, rf.fb_ms);
        printf("dap_check: %s\n", fails ? "FAILED" : "passed");
        pf_params_free(&P);
        real *f[] = {sh.z, sh.s, sh.dz, sh.ds, sh.grad, ref.z, ref.s, ref.dz, ref.ds, ref.grad};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) pf_free(f[i]);
    }
    double v = fails;
    pf_dist_sum_doubles(&B->D, &v, 1);
    return v > 0;
}

static void host_sum(void *ctx, real *x, int64_t n) {
    bench_ctx *B = ctx;
    pf_dist_sum_reals(&B->D, B->be, x, n);
}

static void usage(FILE *f) {
    fprintf(f, "usage: [mpirun -np P] dap_bench [--device D] [--n LIST] [--reps R (0: one pass)] [--check N] [--tol T]\n"
               "                 [--chunk-bytes B] [--set KEY=VAL ...]\n"
               "One Pairformer block forward+backward, the pair tensor sharded over the P ranks (dap = P);\n"
               "one process: unsharded. --check N: sharded = unsharded at N tokens (see bench/dap_bench.c).\n");
}

static int parse(bench_ctx *B, int argc, char **argv, int64_t *Ns, int *nN, int64_t *checkN, double *tol) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char err[256];
        long x = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(0); }
        if (!v) { usage(stderr); return -1; }
        i++;
        if (!strcmp(a, "--device")) {
            if (pf_config_set(&B->cfg, "device", v, err, sizeof err)) { fprintf(stderr, "dap_bench: %s\n", err); return -1; }
        } else if (!strcmp(a, "--set")) {
            char key[128];
            const char *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) >= sizeof key) { fprintf(stderr, "dap_bench: --set KEY=VAL (got %s)\n", v); return -1; }
            snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
            if (pf_config_set(&B->cfg, key, eq + 1, err, sizeof err)) { fprintf(stderr, "dap_bench: %s\n", err); return -1; }
        } else if (!strcmp(a, "--n")) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok(buf, ","); t && *nN < 64; t = strtok(NULL, ",")) {
                const char *bad = pf_parse_long_arg(t, 1, 65536, "--n entry", &x);
                if (bad) { fprintf(stderr, "dap_bench: %s\n", bad); return -1; }
                Ns[(*nN)++] = x;
            }
        } else if (!strcmp(a, "--reps") || !strcmp(a, "--check")) {  // --reps 0: one untimed-warm-up pass
            const char *bad = pf_parse_long_arg(v, strcmp(a, "--reps") ? 1 : 0, 65536, a, &x);
            if (bad) { fprintf(stderr, "dap_bench: %s\n", bad); return -1; }
            if (!strcmp(a, "--reps")) B->reps = (int)x;
            else *checkN = x;
        } else if (!strcmp(a, "--chunk-bytes")) {
            const char *bad = pf_parse_long_arg(v, 0, 1L << 40, a, &B->chunk_bytes);
            if (bad) { fprintf(stderr, "dap_bench: %s\n", bad); return -1; }
        } else if (!strcmp(a, "--tol")) {
            *tol = atof(v);
        } else {
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    bench_ctx B;
    memset(&B, 0, sizeof B);
    pf_config_preset(&B.cfg, "af3");
    B.reps = 3;
    int64_t Ns[64], checkN = 0;
    int nN = 0;
    double tol = 2e-2;
    char err[1024];
    if (parse(&B, argc, argv, Ns, &nN, &checkN, &tol)) return 2;
    if (pf_dist_init(&B.D, err, sizeof err)) { fprintf(stderr, "dap_bench: %s\n", err); return 2; }
    B.be = pf_backend_open(B.cfg.device, B.D.local_rank, err, sizeof err);
    if (!B.be) { fprintf(stderr, "dap_bench: %s\n", err); return 2; }
    if (B.D.world > 1 && !B.be->dap_comm_open) {  // CPU ranks: the host collectives of the training loop
        if (pf_dap_host_init(&B.host, B.D.rank, B.D.world, B.D.world, host_sum, &B, err, sizeof err)) return 2;
        B.comm = &B.host.c;
    } else if (B.D.world > 1) {
        pf_coll_host host = pf_dist_host(&B.D);
        B.comm = B.be->dap_comm_open(B.be, &host, B.D.world, err, sizeof err);
        if (!B.comm) { fprintf(stderr, "dap_bench: rank %d: %s\n", B.D.rank, err); return 2; }
    }
    const int P = B.D.world, lead = B.D.rank == 0;
    int rc = 0;
    if (checkN > 0) {
        if (!B.comm) { fprintf(stderr, "dap_bench: --check needs P > 1 ranks\n"); return 2; }
        rc = run_check(&B, checkN, tol);
    }
    if (lead && nN) printf("%-8s %6s %3s %10s %10s %12s\n", "dap_bench", "N", "P", "fb_ms", "peak_GiB", "comm_share");
    for (int i = 0; i < nN; i++) {
        bench_res r = B.comm ? run_sharded(&B, Ns[i], NULL) : run_full(&B, Ns[i], NULL);
        double pk[2] = {r.peak_gib, r.comm_share};  // the largest over the ranks (only for this line)
        double *all = pf_calloc((size_t)(2 * P), sizeof(double));
        all[2 * B.D.rank] = pk[0], all[2 * B.D.rank + 1] = pk[1];
        pf_dist_sum_doubles(&B.D, all, 2 * P);
        for (int q = 0; q < P; q++) pk[0] = fmax(pk[0], all[2 * q]), pk[1] = fmax(pk[1], all[2 * q + 1]);
        pf_free(all);
        if (lead) printf("%-8s %6lld %3d %10.1f %10.2f %12.3f\n", "dap_bench", (long long)Ns[i], P, r.fb_ms, pk[0], pk[1]);
        fflush(stdout);
    }
    if (B.comm && B.comm != &B.host.c) B.be->dap_comm_close(B.be, B.comm);
    pf_dap_host_free(&B.host);
    pf_dist_finalize(&B.D);
    return rc;
}
