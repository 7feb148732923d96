// cmd_eval.c: `pairfold eval --ckpt DIR [CACHE]`: the structure module's predictions of
// a prepared set's held-out entries (the same batches validation uses) scored against
// their true CA atoms: lDDT-Ca (no superposition), CA RMSD after superposition and
// TM-score (src/eval), one row per entry and the means; --json writes the table.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include "cli.h"
#include "../core/util.h"
#include "../registry/registry.h"
#include "../format/checkpoint.h"
#include "../model/model.h"
#include "../eval/metrics.h"
#include "../data/structure.h"
#include "../train/train.h"

typedef struct {
    char name[64];
    int n, n_true;
    double lddt, rmsd, tm;
} eval_row;

static void eval_usage(FILE *f) {
    fprintf(f,
            "usage: pairfold eval --ckpt DIR [CACHE] [--entries K] [--crop N] [--json OUT] [--device D] [--raw-weights]\n\n"
            "Predicts the held-out entries of a feature cache (CACHE: a `pairfold prep` cache, or\n"
            "`bundled`, the default) with a checkpoint trained with structure_module=1, the same\n"
            "batches as training's validation (--entries K of them, default the checkpoint's n_val;\n"
            "crops of --crop N residues, default the checkpoint's crop_size), and scores each against\n"
            "its true CA atoms: lDDT-Ca (no superposition, as AF2), CA RMSD after optimal\n"
            "superposition, TM-score (d0 from the true length). Prints a row per entry and the\n"
            "means; --json OUT also writes them. The checkpoint's EMA weights unless --raw-weights.\n");
}

// Scores of one batch: predicted CA (the structure module's last-layer t) against the true CA.
static eval_row score_batch(pf_model *M, const pf_batch *b) {
    eval_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", b->name);
    int64_t N = b->N;
    real *t = pf_malloc(sizeof(real) * (size_t)(N * 3));
    pf_structure_pred out = {NULL, t, NULL, NULL, NULL, 0};
    pf_model_eval_structure(M, b, &out);
    double *pred = pf_malloc(sizeof(double) * (size_t)(N * 3)), *tru = pf_malloc(sizeof(double) * (size_t)(N * 3));
    uint8_t *pm = pf_malloc((size_t)N), *tm = pf_malloc((size_t)N);
    int *idx = pf_malloc(sizeof(int) * (size_t)N), m = 0;
    for (int64_t i = 0; i < N; i++) {
        pm[i] = b->seq_mask[i] != 0;
        tm[i] = pm[i] && (b->backbone_mask[i] >> PF_AT_CA & 1);
        for (int k = 0; k < 3; k++) {
            pred[i * 3 + k] = t[i * 3 + k];
            tru[i * 3 + k] = b->backbone_xyz[i * 15 + PF_AT_CA * 3 + k];
        }
        if (tm[i]) idx[m++] = (int)i;
    }
    r.n = (int)N;
    r.n_true = m;
    r.lddt = pf_lddt_ca(pred, tru, pm, tm, (int)N, NULL);
    // RMSD and TM-score on the residues with a true CA, packed
    double *pp = pf_malloc(sizeof(double) * (size_t)(m * 3 + 3)), *tt = pf_malloc(sizeof(double) * (size_t)(m * 3 + 3));
    for (int k = 0; k < m; k++)
        for (int d = 0; d < 3; d++) pp[k * 3 + d] = pred[idx[k] * 3 + d], tt[k * 3 + d] = tru[idx[k] * 3 + d];
    pf_rigid sup = pf_superpose(pp, tt, NULL, m);
    r.rmsd = pf_rmsd_after(&sup, pp, tt, m);
    r.tm = m >= 3 ? pf_tm_score(pp, tt, m, m).tm : 0;
    void *bufs[] = {t, pred, tru, pm, tm, idx, pp, tt};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
    return r;
}

static int write_json(const char *path, const eval_row *rows, int n, const double *mean) {
    pf_strbuf b = {0};
    pf_strbuf_printf(&b, "{\"entries\": [");
    for (int i = 0; i < n; i++)
        pf_strbuf_printf(&b, "%s\n  {\"name\": \"%s\", \"n_res\": %d, \"n_true\": %d, \"lddt_ca\": %.6f, \"rmsd_ca\": %.4f, \"tm_score\": %.6f}",
                         i ? "," : "", rows[i].name, rows[i].n, rows[i].n_true, rows[i].lddt, rows[i].rmsd, rows[i].tm);
    pf_strbuf_printf(&b, "],\n \"mean\": {\"lddt_ca\": %.6f, \"rmsd_ca\": %.4f, \"tm_score\": %.6f}}\n", mean[0], mean[1], mean[2]);
    int rc = pf_write_atomic(path, b.s, b.n);
    if (rc) fprintf(stderr, "pairfold: error: cannot write %s: %s\n", path, strerror(errno));
    pf_free(b.s);
    return rc;
}

typedef struct {
    const char *ckpt, *json, *device;
    char data[512];
    long entries, crop;
    int raw;
} eval_opts;

static int parse(int argc, char **argv, eval_opts *o) {
    static struct option opts[] = {{"ckpt", required_argument, 0, 0}, {"entries", required_argument, 0, 0},
                                   {"crop", required_argument, 0, 0}, {"json", required_argument, 0, 0},
                                   {"device", required_argument, 0, 0}, {"raw-weights", no_argument, 0, 0},
                                   {"help", no_argument, 0, 0}, {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    snprintf(o->data, sizeof o->data, "bundled");
    int idx, c;
    optind = 1;
    if (cli_check_exact_options(argc, argv, opts) != 0) return 2;
    while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
        if (c == 'h') { eval_usage(stdout); return 1; }
        if (c != 0) { eval_usage(stderr); return 2; }
        const char *name = opts[idx].name, *bad = NULL;
        if (!strcmp(name, "help")) { eval_usage(stdout); return 1; }
        if (!strcmp(name, "ckpt")) o->ckpt = optarg;
        else if (!strcmp(name, "json")) o->json = optarg;
        else if (!strcmp(name, "device")) o->device = optarg;
        else if (!strcmp(name, "raw-weights")) o->raw = 1;
        else if (!strcmp(name, "entries")) bad = pf_parse_long_arg(optarg, 1, 100000, "--entries", &o->entries);
        else if (!strcmp(name, "crop")) bad = pf_parse_long_arg(optarg, 1, 8192, "--crop", &o->crop);
        if (bad) { fprintf(stderr, "pairfold: error: %s\n", bad); return 2; }
    }
    if (optind < argc) snprintf(o->data, sizeof o->data, "%s", argv[optind++]);
    if (optind < argc) { fprintf(stderr, "pairfold: error: unexpected argument '%s'\n", argv[optind]); return 2; }
    if (!o->ckpt) { eval_usage(stderr); return 2; }
    return 0;
}

// The model and weights for cfg (EMA unless raw); NULL with the reason printed.
static pf_model *load_model(const eval_opts *o, const pf_config *cfg, pf_backend *be) {
    char err[1024];
    pf_model *M = pf_model_create_inference(cfg, be);
    if (pf_ckpt_load(o->ckpt, M, NULL, NULL, err, sizeof err) != 0 ||
        (!o->raw && pf_ckpt_load_ema_weights(o->ckpt, M, err, sizeof err) < 0)) {
        fprintf(stderr, "pairfold: error: %s\n", err);
        pf_model_free(M);
        return NULL;
    }
    return M;
}

int cmd_eval(int argc, char **argv) {
    eval_opts o;
    int prc = parse(argc, argv, &o);
    if (prc) return prc == 1 ? 0 : prc;
    char err[1024];
    pf_config cfg;
    if (pf_ckpt_read_config(o.ckpt, &cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    if (!cfg.structure_module) {
        fprintf(stderr, "pairfold: error: %s: the checkpoint has no structure module (structure_module = 0): nothing to score\n", o.ckpt);
        return 1;
    }
    if (o.device && pf_config_set(&cfg, "device", o.device, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: --device: %s\n", err); return 2; }
    snprintf(cfg.data, sizeof cfg.data, "%s", o.data);
    if (o.entries) cfg.n_val = (int)o.entries;
    if (o.crop) cfg.crop_size = (int)o.crop;
    cfg.max_tokens = cfg.crop_size;
    cfg.data_workers = 0;
    if (pf_config_validate(&cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    pf_batch_source *src = pf_open_source(&cfg, err, sizeof err);
    if (!src) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    pf_backend *be = pf_backend_open(cfg.device, 0, err, sizeof err);
    pf_model *M = be ? load_model(&o, &cfg, be) : NULL;
    if (!be) fprintf(stderr, "pairfold: error: %s\n", err);
    int rc = M ? 0 : 1, n = 0;
    eval_row *rows = pf_calloc((size_t)(src->n_val > 0 ? src->n_val : 1), sizeof *rows);
    double mean[3] = {0, 0, 0};
    if (M) printf("%-24s %6s %7s %9s %9s %9s\n", "entry", "N", "true_CA", "lDDT-Ca", "RMSD_CA", "TM-score");
    for (int i = 0; M && i < src->n_val; i++) {
        pf_batch b;
        if (src->val(src, i, &b) != 0) continue;
        rows[n] = score_batch(M, &b);
        printf("%-24s %6d %7d %9.4f %9.3f %9.4f\n", rows[n].name, rows[n].n, rows[n].n_true, rows[n].lddt, rows[n].rmsd, rows[n].tm);
        fflush(stdout);
        mean[0] += rows[n].lddt, mean[1] += rows[n].rmsd, mean[2] += rows[n].tm;
        n++;
        pf_batch_free(&b);
    }
    if (M && n == 0) { fprintf(stderr, "pairfold: error: %s: no held-out entries to score\n", o.data); rc = 1; }
    if (n) {
        for (int k = 0; k < 3; k++) mean[k] /= n;
        printf("%-24s %6s %7s %9.4f %9.3f %9.4f   (%d entries)\n", "mean", "", "", mean[0], mean[1], mean[2], n);
        if (o.json && write_json(o.json, rows, n, mean) != 0) rc = 1;
    }
    pf_free(rows);
    if (M) pf_model_free(M);
    if (be && be->destroy) be->destroy(be);
    if (src->destroy) src->destroy(src);
    return rc;
}
