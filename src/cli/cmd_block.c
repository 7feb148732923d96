// cmd_block.c: `pairfold block`: run one trunk block on tensors from a
// safetensors file, forward (and backward), and write the results to another.
// This is how pairfold is compared with other implementations (the PyTorch
// reference in bench/torch_blocks.py): same weights, same inputs, same outputs.
//
// weights: tensors named as inside a block, e.g. "pair_stack.tri_mul_out.linear_a_p.weight"
// inputs:  "m" (S, N, c_m), "z" (N, N, c_z), "s" (N, c_s), "msa_mask" (S, N),
//          "pair_mask" (N, N), "seq_mask" (N); with --backward also "d_m", "d_z", "d_s"
//          (gradients of a loss with respect to the block's outputs). F32.
// output:  "m", "z", "s" after the block; with --backward "grad.m", "grad.z",
//          "grad.s" and "grad.<parameter name>"; with --train "dropout.<step name>"
//          (the mask each step's update was multiplied by: 0 or 1 / (1 - rate), in the
//          shape of the stream it updates), so another implementation can apply the
//          same masks.
// Evaluation (default): no dropout in the forward nor in the backward. --train:
// dropout on in both, with the same masks (key from --seed).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include "cli.h"
#include "../registry/registry.h"
#include "../core/util.h"
#include "../core/rng.h"
#include "../model/block.h"
#include "../format/safetensors.h"

static int kind_by_name(const char *s) {
    const char *n[] = {"evoformer", "extra_msa", "pairformer", "msa_module"};
    int k[] = {PF_BLOCK_EVOFORMER, PF_BLOCK_EXTRA_MSA, PF_BLOCK_PAIRFORMER, PF_BLOCK_MSA_MODULE};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, n[i])) return k[i];
    return -1;
}

// Copy an F32 tensor of exactly n elements into host real memory.
static int get_f32(pf_st_file *f, const char *path, const char *name, int64_t n, real *dst, int required) {
    const pf_st_tensor *t = pf_st_find(f, name);
    if (!t) {
        if (required) fprintf(stderr, "pairfold: error: %s: tensor '%s' missing\n", path, name);
        return required ? -1 : 1;
    }
    if (strcmp(t->dtype, "F32") || (int64_t)(t->nbytes / 4) != n) {
        fprintf(stderr, "pairfold: error: %s: tensor '%s' must be F32 with %lld elements (has %s, %zu bytes)\n", path,
                name, (long long)n, t->dtype, t->nbytes);
        return -1;
    }
    const unsigned char *src = t->data;
    for (int64_t i = 0; i < n; i++) {
        float v;
        memcpy(&v, src + 4 * i, 4);
        dst[i] = (real)v;
    }
    return 0;
}

static void usage(FILE *f) {
    fprintf(f, "usage: pairfold block --kind K --weights W --inputs I --out O [--backward] [--device D]\n"
               "                      [--train [--seed N]] [--prefix NAME.] [--preset P] [--set KEY=VALUE]...\n\n"
               "Runs one block (evoformer, extra_msa, pairformer, msa_module) of the preset's\n"
               "dimensions on the given tensors; writes outputs (and gradients with --backward).\n"
               "Without --train: evaluation, no dropout (forward and backward). With --train: the\n"
               "preset's dropout in both, masks from --seed (default 1), written to the output as\n"
               "dropout.<step> tensors.\n"
               "--prefix selects one block of a checkpoint, e.g. --prefix evoformer.blocks.0.\n");
}

// Command-line arguments of `pairfold block` (the configuration goes to cfg).
typedef struct {
    int kind, backward, training;
    uint64_t seed;
    const char *wpath, *ipath, *opath, *prefix;
} block_args;

// 0: parsed; 1: --help printed; 2: error printed.
static int parse_args(int argc, char **argv, pf_config *cfg, block_args *a) {
    static struct option opts[] = {{"kind", required_argument, 0, 0},    {"weights", required_argument, 0, 0},
                                   {"inputs", required_argument, 0, 0},  {"out", required_argument, 0, 0},
                                   {"backward", no_argument, 0, 0},      {"device", required_argument, 0, 0},
                                   {"preset", required_argument, 0, 0},  {"set", required_argument, 0, 0},
                                   {"config", required_argument, 0, 0},  {"prefix", required_argument, 0, 0},
                                   {"train", no_argument, 0, 0},         {"seed", required_argument, 0, 0},
                                   {"help", no_argument, 0, 0},
                                   {0, 0, 0, 0}};
    *a = (block_args){.kind = -1, .seed = 1, .prefix = ""};
    pf_config_preset(cfg, "af3");
    if (cli_preset_first(cfg, argc, argv) != 0) return 2;
    int have = 0, idx, c;
    optind = 1;
    if (cli_check_exact_options(argc, argv, opts) != 0) return 2;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { usage(stderr); return 2; }
        const char *name = opts[idx].name;
        if (!strcmp(name, "help")) { usage(stdout); return 1; }
        if (!strcmp(name, "kind")) {
            if ((a->kind = kind_by_name(optarg)) < 0) { fprintf(stderr, "pairfold: error: unknown block kind '%s'\n", optarg); return 2; }
            continue;
        }
        if (!strcmp(name, "weights")) { a->wpath = optarg; continue; }
        if (!strcmp(name, "inputs")) { a->ipath = optarg; continue; }
        if (!strcmp(name, "out")) { a->opath = optarg; continue; }
        if (!strcmp(name, "backward")) { a->backward = 1; continue; }
        if (!strcmp(name, "prefix")) { a->prefix = optarg; continue; }
        if (!strcmp(name, "train")) { a->training = 1; continue; }
        if (!strcmp(name, "seed")) {
            char *e = NULL;
            errno = 0;
            unsigned long long v = strtoull(optarg, &e, 10);
            if (!optarg[0] || *e || errno || optarg[0] == '-') {
                fprintf(stderr, "pairfold: error: --seed: '%s' is not a non-negative integer\n", optarg);
                return 2;
            }
            a->seed = v;
            continue;
        }
        if (cli_config_option(cfg, &have, name, optarg) < 0) return 2;
    }
    if (a->kind < 0 || !a->wpath || !a->ipath || !a->opath) { usage(stderr); return 2; }
    return 0;
}

// The block's parameters from the weights file (names without our "block." prefix,
// with --prefix in front), uploaded to the backend. host: (P.total) scratch.
static int load_weights(pf_backend *be, pf_params *P, pf_st_file *W, const block_args *a, real *host) {
    for (int i = 0; i < P->n; i++) {
        char wname[512];
        snprintf(wname, sizeof wname, "%s%s", a->prefix, P->t[i].name + 6);  // drop our "block."
        if (get_f32(W, a->wpath, wname, P->t[i].numel, host + P->t[i].offset, 1) < 0) return -1;
    }
    be->upload(be, P->data, host, sizeof(real) * (size_t)P->total);
    return 0;
}

// Streams and masks of one run: sizes, host copies of the streams, device buffers.
typedef struct {
    int64_t N, S, n[PF_NSTREAMS], nm[PF_NMASKS], big, shp[PF_NSTREAMS][3];
    int nd[PF_NSTREAMS];
    real *hx[PF_NSTREAMS];
    pf_streams st, ds;
} block_io;

static const char *const stream_names[PF_NSTREAMS] = {"m", "z", "s"};

// Streams "m", "z", "s" (absent: zeros) and masks (absent: all ones) onto the backend.
static int upload_inputs(pf_backend *be, const pf_block *b, pf_st_file *I, const char *ipath, block_io *io) {
    static const char *const mn[PF_NMASKS] = {"msa_mask", "pair_mask", "seq_mask"};
    int64_t N = io->N, S = io->S;
    int64_t n[PF_NSTREAMS] = {S * N * b->c[PF_STREAM_M], N * N * b->c[PF_STREAM_Z], N * b->c[PF_STREAM_S]};
    int64_t nm[PF_NMASKS] = {S * N, N * N, N};
    int64_t shp[PF_NSTREAMS][3] = {{S, N, b->c[0]}, {N, N, b->c[1]}, {N, b->c[2], 0}};
    memcpy(io->n, n, sizeof n);
    memcpy(io->nm, nm, sizeof nm);
    memcpy(io->shp, shp, sizeof shp);
    io->nd[0] = io->nd[1] = 3;
    io->nd[2] = 2;
    io->st.N = io->ds.N = N;
    io->st.S = io->ds.S = S;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        io->hx[k] = pf_calloc((size_t)n[k] + 1, sizeof(real));
        if (get_f32(I, ipath, stream_names[k], n[k], io->hx[k], 0) < 0) return -1;
        io->st.x[k] = be->alloc(be, pf_act_size(be, n[k] + 1));
        be->act_from_real(be, io->st.x[k], io->hx[k], n[k]);
        io->big = PF_MAX(io->big, n[k]);
    }
    for (int k = 0; k < PF_NMASKS; k++) {
        real *hm = pf_malloc(sizeof(real) * (size_t)nm[k]);
        for (int64_t i = 0; i < nm[k]; i++) hm[i] = 1;
        int rc = get_f32(I, ipath, mn[k], nm[k], hm, 0);
        pf_act *dm = be->alloc(be, pf_act_size(be, nm[k]));
        be->act_from_real(be, dm, hm, nm[k]);
        io->st.mask[k] = io->ds.mask[k] = dm;
        pf_free(hm);
        if (rc < 0) return -1;
    }
    return 0;
}

// The tensors written to the output file (F32 copies of host `real` data).
typedef struct {
    pf_st_tensor *ts;
    float **bufs;
    char **names;
    int n;
} out_set;

static void emit(out_set *o, const char *name, const real *src, int64_t cnt, int nd, int64_t s0, int64_t s1, int64_t s2) {
    float *f = pf_malloc(sizeof(float) * (size_t)cnt + 4);
    for (int64_t q = 0; q < cnt; q++) f[q] = (float)src[q];
    o->names[o->n] = strdup(name);
    o->ts[o->n] = (pf_st_tensor){o->names[o->n], "F32", nd, {s0, s1, s2}, f, sizeof(float) * (size_t)cnt};
    o->bufs[o->n++] = f;
}
static void emit_stream(out_set *o, const char *name, const block_io *io, int k, const real *src) {
    emit(o, name, src, io->n[k], io->nd[k], io->shp[k][0], io->shp[k][1], io->shp[k][2]);
}

// Each step's mask as the backend applies it: its dropout backward of all-ones gives
// the scale of every element. Sizes as in block.c (stream_rc): rows S (M), N (Z) or
// 1 (S) of N columns. delta, dd: (big) scratch activations; tmp: (big) host scratch.
static void emit_dropout_masks(pf_backend *be, const pf_block *b, const block_io *io, uint64_t key, pf_act *delta,
                               pf_act *dd, real *tmp, out_set *o) {
    real *ones = pf_malloc(sizeof(real) * (size_t)io->big);
    for (int64_t q = 0; q < io->big; q++) ones[q] = 1;
    be->act_from_real(be, dd, ones, io->big);
    pf_free(ones);
    for (int i = 0; i < b->n; i++) {
        const pf_step *sp = &b->step[i];
        if (sp->dropout <= 0) continue;
        int t = sp->target;
        pf_dropout d = {.A = t == PF_STREAM_M ? io->S : t == PF_STREAM_Z ? io->N : 1, .B = io->N, .C = b->c[t],
                        .rate = sp->dropout, .shared_axis = sp->dropout_axis, .key = pf_hash2(key, (uint64_t)i)};
        be->dropout_bwd(be, &d, delta, dd);
        be->act_to_real(be, tmp, delta, io->n[t]);
        char dname[96];
        snprintf(dname, sizeof dname, "dropout.%s", sp->name);
        emit_stream(o, dname, io, t, tmp);
    }
}

// The backward from "d_m", "d_z", "d_s" (absent: zeros); emits the stream and
// parameter gradients.
static int backward_and_emit(pf_backend *be, pf_block *b, pf_params *P, pf_st_file *I, const char *ipath, block_io *io,
                             const void *saved, void *ws, pf_act *dd, uint64_t key, real *tmp, out_set *o) {
    static const char *const dn[PF_NSTREAMS] = {"d_m", "d_z", "d_s"}, *const gn[PF_NSTREAMS] = {"grad.m", "grad.z", "grad.s"};
    for (int k = 0; k < PF_NSTREAMS; k++) {
        real *hd = pf_calloc((size_t)io->n[k] + 1, sizeof(real));
        int rc = get_f32(I, ipath, dn[k], io->n[k], hd, 0);
        io->ds.x[k] = be->alloc(be, pf_act_size(be, io->n[k] + 1));
        be->act_from_real(be, io->ds.x[k], hd, io->n[k]);
        pf_free(hd);
        if (rc < 0) return -1;
    }
    pf_block_bwd(b, be, &io->st, &io->ds, saved, ws, dd, key);
    for (int k = 0; k < PF_NSTREAMS; k++) {
        be->act_to_real(be, tmp, io->ds.x[k], io->n[k]);
        emit_stream(o, gn[k], io, k, tmp);
    }
    be->download(be, tmp, P->grad, sizeof(real) * (size_t)P->total);
    for (int i = 0; i < P->n; i++) {
        char gname[256];
        snprintf(gname, sizeof gname, "grad.%s", P->t[i].name + 6);
        emit(o, gname, tmp + P->t[i].offset, P->t[i].numel, P->t[i].ndim, P->t[i].shape[0], P->t[i].shape[1], 0);
    }
    return 0;
}

int cmd_block(int argc, char **argv) {
    pf_config cfg;
    block_args a;
    int prc = parse_args(argc, argv, &cfg, &a);
    if (prc) return prc == 1 ? 0 : 2;
    char be_err[256];
    pf_backend *be = pf_backend_open(cfg.device, 0, be_err, sizeof be_err);
    if (!be) { fprintf(stderr, "pairfold: error: %s\n", be_err); return 2; }
    char err[1024];
    pf_st_file *W = pf_st_open(a.wpath, err, sizeof err), *I = W ? pf_st_open(a.ipath, err, sizeof err) : NULL;
    if (!W || !I) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    const pf_st_tensor *zt = pf_st_find(I, "z");
    if (!zt || zt->ndim != 3) { fprintf(stderr, "pairfold: error: %s: tensor 'z' (N, N, c_z) missing\n", a.ipath); return 1; }
    block_io io = {.N = zt->shape[0], .S = 1};
    const pf_st_tensor *mt = pf_st_find(I, "m");
    if (mt && mt->ndim == 3) io.S = mt->shape[0];

    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, a.kind, &cfg, &P, "block");
    // pf_block_bwd always applies each step's dropout mask; in evaluation the
    // forward has none, so the rates go to 0 for both (else the gradients would be
    // those of another forward)
    if (!a.training)
        for (int i = 0; i < b.n; i++) b.step[i].dropout = 0;
    pf_params_bind(&P, be);
    real *host = pf_calloc((size_t)P.total + 1, sizeof(real));
    if (load_weights(be, &P, W, &a, host) != 0) return 1;
    pf_block_plan(&b, be, io.N, io.S);
    if (upload_inputs(be, &b, I, a.ipath, &io) != 0) return 1;
    void *saved = be->alloc(be, b.saved_bytes + 1), *ws = be->alloc(be, b.ws_bytes + 1);
    pf_act *delta = be->alloc(be, pf_act_size(be, io.big)), *dd = be->alloc(be, pf_act_size(be, io.big));
    const uint64_t key = a.seed;
    pf_block_fwd(&b, be, &io.st, a.backward ? saved : NULL, ws, delta, key, a.training);

    int max_out = 2 * PF_NSTREAMS + P.n + b.n;
    out_set o = {pf_calloc((size_t)max_out, sizeof(pf_st_tensor)), pf_calloc((size_t)max_out, sizeof(float *)),
                 pf_calloc((size_t)max_out, sizeof(char *)), 0};
    real *tmp = pf_malloc(sizeof(real) * (size_t)(io.big > P.total ? io.big : P.total) + 8);
    for (int k = 0; k < PF_NSTREAMS; k++) {
        be->act_to_real(be, tmp, io.st.x[k], io.n[k]);
        emit_stream(&o, stream_names[k], &io, k, tmp);
    }
    if (a.training) emit_dropout_masks(be, &b, &io, key, delta, dd, tmp, &o);
    int rc = a.backward ? backward_and_emit(be, &b, &P, I, a.ipath, &io, saved, ws, dd, key, tmp, &o) : 0;
    if (rc == 0) {
        rc = pf_st_write(a.opath, o.ts, o.n, NULL, err, sizeof err);
        if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
        else printf("block %s (N %lld, S %lld, device %s): wrote %d tensors to %s\n", pf_block_kind_name(a.kind),
                    (long long)io.N, (long long)io.S, be->name, o.n, a.opath);
    }
    for (int i = 0; i < o.n; i++) { pf_free(o.bufs[i]); free(o.names[i]); }
    pf_free(o.bufs); pf_free(o.names); pf_free(o.ts); pf_free(tmp); pf_free(host);
    for (int k = 0; k < PF_NSTREAMS; k++) pf_free(io.hx[k]);
    pf_st_close(W);
    pf_st_close(I);
    return rc ? 1 : 0;
}
