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

int cmd_block(int argc, char **argv) {
    static struct option opts[] = {{"kind", required_argument, 0, 0},    {"weights", required_argument, 0, 0},
                                   {"inputs", required_argument, 0, 0},  {"out", required_argument, 0, 0},
                                   {"backward", no_argument, 0, 0},      {"device", required_argument, 0, 0},
                                   {"preset", required_argument, 0, 0},  {"set", required_argument, 0, 0},
                                   {"config", required_argument, 0, 0},  {"prefix", required_argument, 0, 0},
                                   {"train", no_argument, 0, 0},         {"seed", required_argument, 0, 0},
                                   {"help", no_argument, 0, 0},
                                   {0, 0, 0, 0}};
    pf_config cfg;
    pf_config_preset(&cfg, "af3");
    if (cli_preset_first(&cfg, argc, argv) != 0) return 2;
    int have = 0, backward = 0, kind = -1, training = 0;
    uint64_t seed = 1;
    const char *wpath = NULL, *ipath = NULL, *opath = NULL, *prefix = "";
    int idx, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { usage(stderr); return 2; }
        const char *name = opts[idx].name;
        if (!strcmp(name, "help")) { usage(stdout); return 0; }
        if (!strcmp(name, "kind")) {
            if ((kind = kind_by_name(optarg)) < 0) { fprintf(stderr, "pairfold: error: unknown block kind '%s'\n", optarg); return 2; }
            continue;
        }
        if (!strcmp(name, "weights")) { wpath = optarg; continue; }
        if (!strcmp(name, "inputs")) { ipath = optarg; continue; }
        if (!strcmp(name, "out")) { opath = optarg; continue; }
        if (!strcmp(name, "backward")) { backward = 1; continue; }
        if (!strcmp(name, "prefix")) { prefix = optarg; continue; }
        if (!strcmp(name, "train")) { training = 1; continue; }
        if (!strcmp(name, "seed")) {
            char *e = NULL;
            errno = 0;
            unsigned long long v = strtoull(optarg, &e, 10);
            if (!optarg[0] || *e || errno || optarg[0] == '-') {
                fprintf(stderr, "pairfold: error: --seed: '%s' is not a non-negative integer\n", optarg);
                return 2;
            }
            seed = v;
            continue;
        }
        if (cli_config_option(&cfg, &have, name, optarg) < 0) return 2;
    }
    if (kind < 0 || !wpath || !ipath || !opath) { usage(stderr); return 2; }
    char be_err[256];
    pf_backend *be = pf_backend_open(cfg.device, 0, be_err, sizeof be_err);
    if (!be) { fprintf(stderr, "pairfold: error: %s\n", be_err); return 2; }
    char err[1024];
    pf_st_file *W = pf_st_open(wpath, err, sizeof err), *I = W ? pf_st_open(ipath, err, sizeof err) : NULL;
    if (!W || !I) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    const pf_st_tensor *zt = pf_st_find(I, "z");
    if (!zt || zt->ndim != 3) { fprintf(stderr, "pairfold: error: %s: tensor 'z' (N, N, c_z) missing\n", ipath); return 1; }
    int64_t N = zt->shape[0], S = 1;
    const pf_st_tensor *mt = pf_st_find(I, "m");
    if (mt && mt->ndim == 3) S = mt->shape[0];

    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, kind, &cfg, &P, "block");
    // pf_block_bwd always applies each step's dropout mask; in evaluation the
    // forward has none, so the rates go to 0 for both (else the gradients would be
    // those of another forward)
    if (!training)
        for (int i = 0; i < b.n; i++) b.step[i].dropout = 0;
    pf_params_bind(&P, be);
    real *host = pf_calloc((size_t)P.total + 1, sizeof(real));
    int rc = 0;
    for (int i = 0; i < P.n && rc == 0; i++) {
        char wname[512];
        snprintf(wname, sizeof wname, "%s%s", prefix, P.t[i].name + 6);  // drop our "block."
        rc = get_f32(W, wpath, wname, P.t[i].numel, host + P.t[i].offset, 1) < 0 ? 1 : 0;
    }
    if (rc) return 1;
    be->upload(be, P.data, host, sizeof(real) * (size_t)P.total);
    pf_block_plan(&b, be, N, S);

    const char *sn[PF_NSTREAMS] = {"m", "z", "s"}, *dn[PF_NSTREAMS] = {"d_m", "d_z", "d_s"};
    int64_t n[PF_NSTREAMS] = {S * N * b.c[PF_STREAM_M], N * N * b.c[PF_STREAM_Z], N * b.c[PF_STREAM_S]};
    int64_t nm[PF_NMASKS] = {S * N, N * N, N};
    const char *mn[PF_NMASKS] = {"msa_mask", "pair_mask", "seq_mask"};
    pf_streams st = {0}, ds = {0};
    st.N = ds.N = N;
    st.S = ds.S = S;
    real *hx[PF_NSTREAMS];
    int64_t big = 0;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        hx[k] = pf_calloc((size_t)n[k] + 1, sizeof(real));
        if (get_f32(I, ipath, sn[k], n[k], hx[k], 0) < 0) return 1;
        st.x[k] = be->alloc(be, pf_act_size(be, n[k] + 1));
        be->act_from_real(be, st.x[k], hx[k], n[k]);
        big = PF_MAX(big, n[k]);
    }
    for (int k = 0; k < PF_NMASKS; k++) {
        real *hm = pf_malloc(sizeof(real) * (size_t)nm[k]);
        for (int64_t i = 0; i < nm[k]; i++) hm[i] = 1;
        if (get_f32(I, ipath, mn[k], nm[k], hm, 0) < 0) return 1;
        pf_act *dm = be->alloc(be, pf_act_size(be, nm[k]));
        be->act_from_real(be, dm, hm, nm[k]);
        st.mask[k] = ds.mask[k] = dm;
        pf_free(hm);
    }
    void *saved = be->alloc(be, b.saved_bytes + 1), *ws = be->alloc(be, b.ws_bytes + 1);
    pf_act *delta = be->alloc(be, pf_act_size(be, big)), *dd = be->alloc(be, pf_act_size(be, big));
    const uint64_t key = seed;
    pf_block_fwd(&b, be, &st, backward ? saved : NULL, ws, delta, key, training);

    // outputs
    int nt = 0;
    int max_out = 2 * PF_NSTREAMS + P.n + b.n;
    pf_st_tensor *ts = pf_calloc((size_t)max_out, sizeof *ts);
    float **bufs = pf_calloc((size_t)max_out, sizeof(float *));
    char **names = pf_calloc((size_t)max_out, sizeof(char *));
    real *tmp = pf_malloc(sizeof(real) * (size_t)(big > P.total ? big : P.total) + 8);
#define EMIT(nm_, src_, cnt_, nd_, s0, s1, s2)                                     \
    do {                                                                          \
        float *f_ = pf_malloc(sizeof(float) * (size_t)(cnt_) + 4);                 \
        for (int64_t q = 0; q < (cnt_); q++) f_[q] = (float)(src_)[q];            \
        names[nt] = strdup(nm_);                                                  \
        ts[nt] = (pf_st_tensor){names[nt], "F32", nd_, {s0, s1, s2}, f_, sizeof(float) * (size_t)(cnt_)}; \
        bufs[nt++] = f_;                                                          \
    } while (0)
    int64_t shp[PF_NSTREAMS][3] = {{S, N, b.c[0]}, {N, N, b.c[1]}, {N, b.c[2], 0}};
    int nd[PF_NSTREAMS] = {3, 3, 2};
    for (int k = 0; k < PF_NSTREAMS; k++) {
        be->act_to_real(be, tmp, st.x[k], n[k]);
        EMIT(sn[k], tmp, n[k], nd[k], shp[k][0], shp[k][1], shp[k][2]);
    }
    if (training) {
        // Each step's mask as the backend applies it: its dropout backward of all-ones
        // gives the scale of every element. Sizes as in block.c (stream_rc): rows S
        // (M), N (Z) or 1 (S) of N columns.
        real *ones = pf_malloc(sizeof(real) * (size_t)big);
        for (int64_t q = 0; q < big; q++) ones[q] = 1;
        be->act_from_real(be, dd, ones, big);
        pf_free(ones);
        for (int i = 0; i < b.n; i++) {
            const pf_step *sp = &b.step[i];
            if (sp->dropout <= 0) continue;
            int t = sp->target;
            pf_dropout d = {.A = t == PF_STREAM_M ? S : t == PF_STREAM_Z ? N : 1, .B = N, .C = b.c[t],
                            .rate = sp->dropout, .shared_axis = sp->dropout_axis, .key = pf_hash2(key, (uint64_t)i)};
            be->dropout_bwd(be, &d, delta, dd);
            be->act_to_real(be, tmp, delta, n[t]);
            char dname[96];
            snprintf(dname, sizeof dname, "dropout.%s", sp->name);
            EMIT(dname, tmp, n[t], nd[t], shp[t][0], shp[t][1], shp[t][2]);
        }
    }
    if (backward) {
        for (int k = 0; k < PF_NSTREAMS; k++) {
            real *hd = pf_calloc((size_t)n[k] + 1, sizeof(real));
            if (get_f32(I, ipath, dn[k], n[k], hd, 0) < 0) return 1;
            ds.x[k] = be->alloc(be, pf_act_size(be, n[k] + 1));
            be->act_from_real(be, ds.x[k], hd, n[k]);
            pf_free(hd);
        }
        pf_block_bwd(&b, be, &st, &ds, saved, ws, dd, key);
        const char *gn[PF_NSTREAMS] = {"grad.m", "grad.z", "grad.s"};
        for (int k = 0; k < PF_NSTREAMS; k++) {
            be->act_to_real(be, tmp, ds.x[k], n[k]);
            EMIT(gn[k], tmp, n[k], nd[k], shp[k][0], shp[k][1], shp[k][2]);
        }
        be->download(be, tmp, P.grad, sizeof(real) * (size_t)P.total);
        for (int i = 0; i < P.n; i++) {
            char gname[256];
            snprintf(gname, sizeof gname, "grad.%s", P.t[i].name + 6);
            EMIT(gname, tmp + P.t[i].offset, P.t[i].numel, P.t[i].ndim, P.t[i].shape[0], P.t[i].shape[1], 0);
        }
    }
#undef EMIT
    rc = pf_st_write(opath, ts, nt, NULL, err, sizeof err);
    if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
    else printf("block %s (N %lld, S %lld, device %s): wrote %d tensors to %s\n", pf_block_kind_name(kind), (long long)N,
                (long long)S, be->name, nt, opath);
    for (int i = 0; i < nt; i++) { pf_free(bufs[i]); free(names[i]); }
    pf_free(bufs); pf_free(names); pf_free(ts); pf_free(tmp); pf_free(host);
    for (int k = 0; k < PF_NSTREAMS; k++) pf_free(hx[k]);
    pf_st_close(W);
    pf_st_close(I);
    return rc ? 1 : 0;
}
