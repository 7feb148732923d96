// cmd_predict.c: `pairfold predict`: distograms from a trained checkpoint.
// Input: an alignment (A3M, Stockholm, or FASTA; row 0 is the query; a
// single-sequence FASTA works too), or AlphaFold 3 input JSON (one file, or a
// directory of them; protein chains, one or many, with their MSAs; see
// src/data/af3_input.h). Output per query: a safetensors file with
//   distogram_probs (N, N, n_bins), expected_distance (N, N) in Angstrom,
//   contact_probability_8A (N, N) (probability that the pseudo-beta distance is
//   under 8 Angstrom), query (N) int32 tokens, chain_index (N), residue_index (N),
//   bin_edges (n_bins - 1) the distance bins' upper edges in Angstrom (as AF2's),
// and a summary of the most likely long-range contacts on the terminal. A bad
// JSON file or job is reported and skipped; the others are still predicted.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <getopt.h>
#include <errno.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "../registry/registry.h"
#include "../core/util.h"
#include "../model/model.h"
#include "../model/distogram.h"
#include "../data/msa.h"
#include "../data/af3_input.h"
#include "../format/checkpoint.h"
#include "../format/safetensors.h"
#include "../format/prediction.h"
#include "../train/dist.h"
#include "../train/dap_group.h"

static void usage(FILE *f) {
    fprintf(f, "usage: pairfold predict --ckpt DIR --msa FILE --out FILE.safetensors [options]\n"
               "       pairfold predict --ckpt DIR --json FILE|DIR --out DIR [options]\n"
               "options: --device D, --recycles R, --raw-weights, --set KEY=VALUE (msa_rows,\n"
               "extra_msa_rows, recycles: alignment rows used, recycling passes; dap: see below),\n"
               "--formats LIST,\n"
               "--contacts-top K, --seeds LIST, --help / -h\n\n"
               "Predicts the distogram of the query (row 0) of an alignment (A3M, Stockholm, FASTA;\n"
               ".gz read transparently), or of every job in AlphaFold 3 input JSON (a file, or every\n"
               "*.json in a directory; AlphaFold Server job lists too; protein chains with their\n"
               "unpaired / paired MSAs), with the weights of a checkpoint (run or step directory).\n"
               "JSON jobs are written to DIR/<job name>.safetensors; a bad file or job is reported\n"
               "and skipped, and the exit status is 1 if any was. The checkpoint's EMA weights\n"
               "(ema.safetensors) are used when it has them; --raw-weights takes the trained ones.\n"
               "--device D: cpu, cuda (bf16) or cuda-fp32 (default: the checkpoint's device).\n"
               "The first msa_rows rows (query included) are the cluster rows, the next\n"
               "extra_msa_rows the extra rows (AF2 trunk); the output says how many were used.\n"
               "Contacts are listed as CHAIN:RESIDUE pairs, residues numbered from 1 in each chain.\n"
               "--formats rr,csv,npz,png: also write, beside each OUT.safetensors (same stem), the contacts\n"
               "as CASP RR (OUT.rr) and CSV (OUT.contacts.csv: chain, 1-based residue, amino acid of\n"
               "both residues, P(d < 8 A), expected distance) and the distogram in AlphaFold 3's layout\n"
               "(OUT.distogram.npz, key \"distogram\" (N, N, bins) probabilities; also bin_edges,\n"
               "contact_probs, chain_index, residue_index). Contacts: pairs at least 6 apart in a chain\n"
               "or across chains, most likely first; --contacts-top K keeps K of them (default: every\n"
               "pair with P >= 0.01). png: the contact and distance maps (OUT.png, `pairfold plot`;\n"
               "needs python3 with matplotlib). The npz's \"distogram\" is left out (with a note) above\n"
               "PF_PREDICT_NPZ_MAX bytes of probabilities (default 3 GiB: a zip without zip64 holds 4).\n"
               "The probabilities are made and written a block of rows at a time, never held whole\n"
               "(PF_PREDICT_ROWS_BLOCK=K: K rows per block; default 256 MiB of them).\n"
               "A checkpoint trained with structure_module=1 also gives OUT.cif and OUT.pdb (backbone\n"
               "atoms N, CA, C, O, CB from the structure module's frames; pLDDT in the B-factors) and\n"
               "OUT_confidence.json (per-residue pLDDT, mean pLDDT, PAE matrix, pTM).\n"
               "--seeds LIST (comma-separated integers, at most 64; a JSON job's modelSeeds when\n"
               "--seeds is not given): with two or more seeds and a structure module, one model per\n"
               "seed, each seeing the alignment's rows after the query in an order shuffled by its\n"
               "seed (which rows become cluster rows, extra rows, or fall past the row limit), written\n"
               "as OUT_seed<S>.* and ranked by mean pLDDT in OUT_ranking.json. One seed, or none:\n"
               "one model with the rows in file order. Without a structure module --seeds is refused\n"
               "and a job's modelSeeds give one model (nothing to rank by).\n"
               "--set dap=P with P ranks (mpirun -np P, srun -n P, or torchrun-style WORLD_SIZE / RANK /\n"
               "MASTER_ADDR / MASTER_PORT): one structure at a time over all P ranks, its trunk sharded\n"
               "(axial parallelism, docs/PARALLEL.md: each rank holds N / P rows of the pair tensor);\n"
               "rank 0 writes the files and the terminal output, the same predictions as one process.\n");
}

// --formats: the files written beside each safetensors output (same stem).
enum { FMT_RR = 1, FMT_CSV = 2, FMT_NPZ = 4, FMT_PNG = 8 };
static int formats;          // FMT_* bits
static int contacts_top;     // --contacts-top: contacts in the RR / CSV files (0: every pair with P >= 0.01, up to 10 N)
#define CONTACT_MIN_SEP 6    // CASP's shortest contact range (6-11 short, 12-23 medium, >= 24 long)
static int raw_weights;      // --raw-weights: the trained weights even when the checkpoint has an EMA
// Bounds from the environment (read_bounds): rows of the distogram probabilities per block
// (0: pf_distogram_rows_block's 256 MiB; tests force small blocks), and the largest
// probabilities (bytes) the npz's "distogram" takes: 3 GiB by default, what fits beside the
// contact map in a zip without zip64 (4 GiB; N ~ 3500 at 64 bins).
static int64_t rows_block;
static int64_t npz_max = (int64_t)3 << 30;
#define MAX_SEEDS 64
static int64_t cli_seeds[MAX_SEEDS];  // --seeds
static int n_cli_seeds;

// Sharded predict (--set dap=P on P ranks): every rank runs every job with the same
// arguments, the trunk sharded over all of them (pf_predict_query's dap); rank 0 writes
// the files and the terminal output (the others' stdout goes to /dev/null). A job's outcome
// that decides what runs next (its files written or not) is agreed on (agreed_rc), so
// every rank takes the same path and none waits alone in a collective.
static pf_dist g_dist;
static pf_dap_host g_dh;
static const pf_dap_comm *g_dap;  // NULL: one process
static pf_dap_comm *g_dc;         // the backend's own (CUDA: NCCL), when it has them
static int g_lead = 1;

static int agreed_rc(int rc) {
    if (!g_dap) return rc;
    double v = rc ? 1 : 0;
    pf_dist_sum_doubles(&g_dist, &v, 1);
    return v > 0 ? 1 : 0;
}
static void dap_world_sum(void *be, real *x, int64_t n) { pf_dist_sum_reals(&g_dist, be, x, n); }

// What open_ranks opened, in train.c release's order: the ranks' communicators before the
// backend (pf_dist_finalize closes the backend's own collectives); be may be NULL.
static void close_ranks(pf_backend *be) {
    if (g_dc) be->dap_comm_close(be, g_dc);
    g_dc = NULL;
    g_dap = NULL;
    if (g_dist.world > 1) {
        pf_dap_host_free(&g_dh);
        pf_dist_finalize(&g_dist);
    }
    if (be && be->destroy) be->destroy(be);
}

// PF_PREDICT_ROWS_BLOCK (rows per block, >= 1) and PF_PREDICT_NPZ_MAX (bytes, >= 0) when set.
// 0, or -1 with the message printed.
static int read_bounds(void) {
    const char *v = getenv("PF_PREDICT_ROWS_BLOCK"), *e;
    long x;
    if (v && (e = pf_parse_long_arg(v, 1, 1000000000L, "PF_PREDICT_ROWS_BLOCK", &x))) {
        fprintf(stderr, "pairfold: error: %s (rows of the distogram probabilities written at a time)\n", e);
        return -1;
    }
    if (v) rows_block = x;
    v = getenv("PF_PREDICT_NPZ_MAX");
    if (v && (e = pf_parse_long_arg(v, 0, 4294967295L, "PF_PREDICT_NPZ_MAX", &x))) {
        fprintf(stderr, "pairfold: error: %s (bytes of probabilities the npz's distogram takes at most)\n", e);
        return -1;
    }
    if (v) npz_max = x;
    return 0;
}

// "rr,csv,npz" -> FMT_* bits; -1 with the message printed.
static int parse_formats(const char *s) {
    int bits = 0;
    for (const char *q = s; *q;) {
        size_t l = strcspn(q, ",");
        if (l == 2 && !strncmp(q, "rr", 2)) bits |= FMT_RR;
        else if (l == 3 && !strncmp(q, "csv", 3)) bits |= FMT_CSV;
        else if (l == 3 && !strncmp(q, "npz", 3)) bits |= FMT_NPZ;
        else if (l == 3 && !strncmp(q, "png", 3)) bits |= FMT_PNG;
        else {
            fprintf(stderr, "pairfold: error: --formats: unknown format '%.*s' (rr, csv, npz, png)\n", (int)l, q);
            return -1;
        }
        q += l;
        if (*q) q++;
    }
    return bits;
}

// "1,2,3" -> cli_seeds. 0, or -1 with the message printed.
static int parse_seeds(const char *s) {
    n_cli_seeds = 0;
    for (const char *q = s;;) {
        size_t l = strcspn(q, ",");
        char buf[32], *e;
        if (l == 0 || l >= sizeof buf) {
            fprintf(stderr, "pairfold: error: --seeds: expected comma-separated integers, got '%s'\n", s);
            return -1;
        }
        memcpy(buf, q, l);
        buf[l] = 0;
        errno = 0;
        long long v = strtoll(buf, &e, 10);
        if (*e || errno || v < 0) {
            fprintf(stderr, "pairfold: error: --seeds: '%s' is not a non-negative integer\n", buf);
            return -1;
        }
        if (n_cli_seeds == MAX_SEEDS) {
            fprintf(stderr, "pairfold: error: --seeds: at most %d seeds\n", MAX_SEEDS);
            return -1;
        }
        cli_seeds[n_cli_seeds++] = v;
        q += l;
        if (!*q) break;
        q++;
    }
    return 0;
}

// The maps of a written prediction as a PNG: `pairfold plot OUT --out PNG` in a child
// process (tools/plot.py needs Python with matplotlib). 0, or -1 with the reason printed.
static int plot_png(const char *out, const char *png) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char *args[] = {(char *)"pairfold", (char *)"plot", (char *)out, (char *)"--out", (char *)png, NULL};
        execv("/proc/self/exe", args);
        fprintf(stderr, "pairfold: error: cannot run pairfold plot: %s\n", strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "pairfold: error: --formats png: drawing %s failed (above)\n", png);
        return -1;
    }
    return 0;
}

static double mean_plddt(const pf_prediction *p) {
    double m = 0;
    for (int64_t i = 0; i < p->N; i++) m += p->plddt[i];
    return p->N ? m / (double)p->N : 0;
}

// --formats npz: the probabilities read back from OUT (mapped read-only, not copied: rank 0
// never held them whole) when they are at most npz_max bytes; above, the key "distogram" is left
// out with a note (the npz writer holds each array whole, deflated into a second buffer, and a
// zip without zip64 stops at 4 GiB). 0, or -1 with the reason printed.
static int write_npz(const pf_prediction *p, const char *out, const char *path) {
    char err[1024];
    pf_prediction q = *p;
    pf_st_file *f = NULL;
    const double bytes = (double)p->N * (double)p->N * p->n_bins * sizeof(float), gib = 1024.0 * 1024 * 1024;
    if (bytes > (double)npz_max) {
        fprintf(stderr, "pairfold: note: %s: key 'distogram' left out: the (%lld, %lld, %d) probabilities are %.0f bytes "
                        "(%.2f GiB), above the %lld the npz writer takes (PF_PREDICT_NPZ_MAX; it holds an array whole, and "
                        "a zip without zip64 stops at 4 GiB); they are in %s ('distogram_probs')\n",
                path, (long long)p->N, (long long)p->N, p->n_bins, bytes, bytes / gib, (long long)npz_max, out);
    } else {
        const pf_st_tensor *t = (f = pf_st_open(out, err, sizeof err)) ? pf_st_find(f, "distogram_probs") : NULL;
        if (!t) {
            fprintf(stderr, "pairfold: error: --formats npz: %s\n", f ? "no 'distogram_probs' in the written file" : err);
            pf_st_close(f);
            return -1;
        }
        q.probs = (float *)t->data;  // read only (the npz writer takes const data)
    }
    int rc = pf_prediction_write_npz(&q, path, err, sizeof err);
    pf_st_close(f);
    if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
    else if (q.probs) printf("distogram (AlphaFold 3 distogram.npz layout) -> %s\n", path);
    else printf("distogram.npz without its 'distogram' (the note above) -> %s\n", path);
    return rc ? -1 : 0;
}

// The extra files of --formats: OUT without ".safetensors" + ".rr", ".contacts.csv",
// ".distogram.npz", ".png"; with a structure module also ".cif", ".pdb" and
// "_confidence.json".
static int write_formats(const pf_prediction *p, const char *chains, const char *out) {
    char stem[4096], path[4200], err[1024], target[256];
    size_t l = strlen(out);
    if (l > 12 && !strcmp(out + l - 12, ".safetensors")) l -= 12;
    snprintf(stem, sizeof stem, "%.*s", (int)l, out);
    const char *base = strrchr(stem, '/');
    snprintf(target, sizeof target, "%.200s", base ? base + 1 : stem);
    int rc = 0;
    if (p->has_structure) {  // a structure module: the model and its confidence, always
        const char *ext[3] = {".cif", ".pdb", "_confidence.json"};
        for (int k = 0; k < 3 && !rc; k++) {
            snprintf(path, sizeof path, "%s%s", stem, ext[k]);
            rc = k < 2 ? pf_prediction_write_structure(p, chains, path, err, sizeof err)
                       : pf_prediction_write_confidence(p, path, err, sizeof err);
            if (!rc) printf("%s -> %s\n", k < 2 ? "structure (backbone atoms, pLDDT in the B-factors)" : "confidence (pLDDT, PAE, pTM)", path);
        }
        if (!rc) printf("mean pLDDT %.1f, pTM %.3f\n", mean_plddt(p), p->ptm);
    }
    if (!rc && (formats & FMT_RR)) {
        snprintf(path, sizeof path, "%s.rr", stem);
        if (pf_prediction_write_rr(p, chains, target, CONTACT_MIN_SEP, contacts_top, path, err, sizeof err)) rc = -1;
        else printf("contacts (CASP RR) -> %s\n", path);
    }
    if (!rc && (formats & FMT_CSV)) {
        snprintf(path, sizeof path, "%s.contacts.csv", stem);
        if (pf_prediction_write_csv(p, chains, CONTACT_MIN_SEP, contacts_top, path, err, sizeof err)) rc = -1;
        else printf("contacts (CSV) -> %s\n", path);
    }
    if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
    if (!rc && (formats & FMT_NPZ)) {
        snprintf(path, sizeof path, "%s.distogram.npz", stem);
        rc = write_npz(p, out, path);
    }
    if (!rc && (formats & FMT_PNG)) {
        snprintf(path, sizeof path, "%s.png", stem);
        rc = plot_png(out, path);
    }
    return rc;
}

// The terminal summary: rows used, weights, time, memory, the top long-range contacts.
static void print_summary(const pf_prediction *p, const pf_config *cfg, pf_backend *be, const char *chains,
                          double ms, const char *out) {
    int64_t N = p->N;
    printf("predicted %lld residues (%d alignment rows used of %d: msa_rows %d, extra_msa_rows %d; %s weights) in %.1f s -> %s\n",
           (long long)N, p->rows_used, p->rows_total, cfg->msa_rows, pf_extra_msa_rows(cfg), p->ema ? "EMA" : "trained",
           ms / 1e3, out);
    if (be->peak_bytes)  // the backend's own count (CUDA: device memory, weights and arenas included)
        printf("peak %s memory: %.2f GiB\n", be->name, (double)be->peak_bytes(be, 0) / (1u << 30));
    // most likely long-range contacts (|i - j| >= 24 within a chain, any pair across chains), up to N / 5
    // (the file has them all; the terminal shows at most 20)
    int top = (int)(N / 5 > 0 ? (N / 5 < 20 ? N / 5 : 20) : 1);
    int64_t pairs[20];
    int n = pf_top_contacts(p->contact, p->chain_index, N, 24, top, pairs);
    char names[64][8];
    int n_names = pf_chain_names(chains, names, 64);
    const int32_t *ci = p->chain_index, *ri = p->residue_index;
    printf("top long-range contacts (chain:residue chain:residue P(d < 8 A); residues numbered from 1 in each chain):\n");
    for (int t = 0; t < n; t++) {
        int64_t i = pairs[t] / N, j = pairs[t] % N;
        printf("  %s:%-4d %s:%-4d %.3f\n", ci[i] >= 0 && ci[i] < n_names ? names[ci[i]] : "?", ri[i] + 1,
               ci[j] >= 0 && ci[j] < n_names ? names[ci[j]] : "?", ri[j] + 1, p->contact[pairs[t]]);
    }
}

// predict's safetensors file as the distogram is made (pf_probs_sink, on rank 0): the header
// once the forward is done, the probabilities a row block at a time (never held whole: 102 GB
// at N = 20,000), the rest at finish.
typedef struct {
    pf_prediction_file f;
    const char *out, *chains, *ckpt, *source;
    int n_seq;
} out_sink;

static void sink_begin(void *ctx, const pf_prediction *p) {
    out_sink *s = ctx;
    char nrows[32];
    snprintf(nrows, sizeof nrows, "%d", s->n_seq);
    const char *meta[] = {"sequence", p->sequence, "chains", s->chains, "checkpoint", s->ckpt, "weights",
                          p->ema ? "ema" : "trained", "alignment", s->source, "alignment_rows", nrows, NULL};
    pf_prediction_file_begin(&s->f, p, s->out, meta);
}

static void sink_rows(void *ctx, int64_t i0, int64_t n, const float *probs) {
    pf_prediction_file_rows(&((out_sink *)ctx)->f, i0, n, probs);
}

// One query: model sized for it, checkpoint weights, distogram out. 0, or 1 with
// the reason printed. plddt / ptm (may be NULL): the model's mean pLDDT and pTM (0
// without a structure module).
static int predict_model(const char *ckpt, pf_config cfg, pf_backend *be, const pf_msa *a, const pf_af3_query *ids,
                         const char *chains, const char *source, const char *out, double *plddt, double *ptm) {
    char err[1024];
    double t0 = pf_now_ms();
    pf_prediction p;
    out_sink s = {.out = out, .chains = chains, .ckpt = ckpt, .source = source, .n_seq = a->n_seq};
    pf_probs_sink sink = {sink_begin, sink_rows, &s, rows_block};
    if (pf_predict_query_rows(ckpt, &cfg, be, a, ids, raw_weights, g_dap, &sink, &p, err, sizeof err) != 0) {
        pf_prediction_file_abort(&s.f);
        fprintf(stderr, "pairfold: error: %s: %s\n", source, err);
        return agreed_rc(1);
    }
    int rc = g_lead ? pf_prediction_file_finish(&s.f, err, sizeof err) : 0;
    if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
    else if (g_lead) {
        print_summary(&p, &cfg, be, chains, pf_now_ms() - t0, out);
        rc = write_formats(&p, chains, out);
    }
    rc = agreed_rc(rc);
    if (plddt) *plddt = p.has_structure ? mean_plddt(&p) : 0;
    if (ptm) *ptm = p.has_structure ? p.ptm : 0;
    pf_prediction_free(&p);
    return rc ? 1 : 0;
}

// Several seeds: one model per seed (rows after the query shuffled by it), files
// OUT_seed<S>.*, then OUT_ranking.json with the models by mean pLDDT (ties: seed order).
typedef struct { int64_t seed; double plddt, ptm; char path[4200]; } seed_model;

static int write_ranking(const char *stem, const seed_model *m, const int *order, int n) {
    char path[4200];
    snprintf(path, sizeof path, "%s_ranking.json", stem);
    pf_strbuf t = {0};
    pf_strbuf_printf(&t, "{\n  \"ranked_by\": \"mean_plddt\",\n  \"models\": [\n");
    for (int r = 0; r < n; r++) {
        const seed_model *x = &m[order[r]];
        const char *base = strrchr(x->path, '/');
        pf_strbuf_printf(&t, "    {\"rank\": %d, \"seed\": %lld, \"mean_plddt\": %.4f, \"ptm\": %.6f, \"prediction\": \"%s\"}%s\n",
                         r + 1, (long long)x->seed, x->plddt, x->ptm, base ? base + 1 : x->path, r + 1 < n ? "," : "");
    }
    pf_strbuf_printf(&t, "  ]\n}\n");
    int rc = pf_write_atomic(path, t.s, t.n);
    if (rc) fprintf(stderr, "pairfold: error: cannot write %s: %s\n", path, strerror(errno));
    else {
        printf("ranking (mean pLDDT) -> %s\n", path);
        for (int r = 0; r < n; r++)
            printf("  %d. seed %lld: mean pLDDT %.1f, pTM %.3f\n", r + 1, (long long)m[order[r]].seed, m[order[r]].plddt,
                   m[order[r]].ptm);
    }
    free(t.s);
    return rc ? 1 : 0;
}

static int predict_seeds(const char *ckpt, const pf_config *cfg, pf_backend *be, const pf_msa *a, const pf_af3_query *ids,
                         const char *chains, const char *source, const char *out, const int64_t *seeds, int n) {
    for (int k = 0; k < n; k++)
        for (int l = 0; l < k; l++)
            if (seeds[k] == seeds[l]) {
                fprintf(stderr, "pairfold: error: %s: seed %lld given twice\n", source, (long long)seeds[k]);
                return 1;
            }
    char stem[4096];
    size_t sl = strlen(out);
    if (sl > 12 && !strcmp(out + sl - 12, ".safetensors")) sl -= 12;
    snprintf(stem, sizeof stem, "%.*s", (int)sl, out);
    seed_model *m = pf_calloc((size_t)n, sizeof *m);
    int *order = pf_calloc((size_t)n, sizeof *order), rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        pf_msa sh;
        pf_msa_shuffled(a, (uint64_t)seeds[k], &sh);
        m[k].seed = seeds[k];
        snprintf(m[k].path, sizeof m[k].path, "%s_seed%lld.safetensors", stem, (long long)seeds[k]);
        printf("model %d of %d: seed %lld\n", k + 1, n, (long long)seeds[k]);
        rc = predict_model(ckpt, *cfg, be, &sh, ids, chains, source, m[k].path, &m[k].plddt, &m[k].ptm);
        pf_msa_free(&sh);
    }
    if (!rc) {
        for (int k = 0; k < n; k++) {  // insertion sort, stable: higher mean pLDDT first
            int j = k;
            while (j > 0 && m[order[j - 1]].plddt < m[k].plddt) { order[j] = order[j - 1]; j--; }
            order[j] = k;
        }
        rc = agreed_rc(g_lead ? write_ranking(stem, m, order, n) : 0);
    }
    pf_free(m);
    pf_free(order);
    return rc;
}

// A query with its seeds (--seeds, else the JSON job's modelSeeds, else none).
static int predict_one(const char *ckpt, pf_config cfg, pf_backend *be, const pf_msa *a, const pf_af3_query *ids,
                       const char *chains, const char *source, const char *out, const int64_t *seeds, int n_seeds) {
    if (n_cli_seeds) { seeds = cli_seeds; n_seeds = n_cli_seeds; }
    if (n_seeds > 1 && !cfg.structure_module) {
        printf("note: %s: %d model seeds, but the checkpoint has no structure module to rank models by: one model\n", source,
               n_seeds);
        n_seeds = 1;
    }
    if (n_seeds <= 1) return predict_model(ckpt, cfg, be, a, ids, chains, source, out, NULL, NULL);
    return predict_seeds(ckpt, &cfg, be, a, ids, chains, source, out, seeds, n_seeds);
}

static int is_json_name(const char *n) {
    size_t l = strlen(n);
    return (l > 5 && !strcmp(n + l - 5, ".json")) || (l > 8 && !strcmp(n + l - 8, ".json.gz"));
}
static int by_name(const struct dirent **x, const struct dirent **y) { return strcmp((*x)->d_name, (*y)->d_name); }
static int json_entry(const struct dirent *e) { return e->d_name[0] != '.' && is_json_name(e->d_name); }

// Every job of every JSON file: bad files and jobs are reported and skipped.
static int predict_json(const char *ckpt, const pf_config *cfg, pf_backend *be, const char *in, const char *out_dir) {
    struct stat st;
    if (stat(in, &st) != 0) { fprintf(stderr, "pairfold: error: %s: %s\n", in, strerror(errno)); return 1; }
    char **files = NULL;
    int nf = 0;
    if (S_ISDIR(st.st_mode)) {
        struct dirent **ents;
        int n = scandir(in, &ents, json_entry, by_name);
        if (n < 0) { fprintf(stderr, "pairfold: error: %s: %s\n", in, strerror(errno)); return 1; }
        files = pf_calloc((size_t)n + 1, sizeof *files);
        for (int k = 0; k < n; k++) {
            files[nf] = pf_malloc(strlen(in) + strlen(ents[k]->d_name) + 2);
            sprintf(files[nf++], "%s/%s", in, ents[k]->d_name);
            free(ents[k]);
        }
        free(ents);
        if (nf == 0) { fprintf(stderr, "pairfold: error: %s: no *.json files\n", in); pf_free(files); return 1; }
    } else {
        files = pf_calloc(1, sizeof *files);
        files[nf] = pf_malloc(strlen(in) + 1);
        strcpy(files[nf++], in);
    }
    if (pf_mkdir_p(out_dir) != 0) { fprintf(stderr, "pairfold: error: cannot create %s: %s\n", out_dir, strerror(errno)); return 1; }
    int ok = 0, bad = 0, max_rows = 1 + cfg->msa_rows + pf_extra_msa_rows(cfg);
    char (*done)[128] = NULL;
    int n_done = 0, cap_done = 0;
    for (int f = 0; f < nf; f++) {
        char err[1024];
        pf_af3_job *jobs;
        int nj;
        if (pf_af3_read(files[f], &jobs, &nj, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: skipped: %s\n", err);
            bad++;
            continue;
        }
        for (int k = 0; k < nj; k++) {
            pf_af3_job *j = &jobs[k];
            char safe[128], out[4300];
            if (j->error) {
                fprintf(stderr, "pairfold: skipped: job '%s': %s\n", j->name, j->error);
                bad++;
                continue;
            }
            snprintf(safe, sizeof safe, "%s", j->name);
            for (char *p = safe; *p; p++)
                if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_')) *p = '_';
            int dup = 0;
            for (int d = 0; d < n_done; d++) dup |= !strcmp(done[d], safe);
            if (dup) {
                fprintf(stderr, "pairfold: skipped: %s: job '%s': another job of this run has the same name\n", files[f], j->name);
                bad++;
                continue;
            }
            pf_af3_query q;
            if (pf_af3_build_query(j, max_rows, &q, err, sizeof err) != 0) {
                fprintf(stderr, "pairfold: skipped: %s: job '%s': %s\n", files[f], j->name, err);
                bad++;
                continue;
            }
            char chains[512] = "";
            for (int c = 0; c < j->n_chains; c++) {
                size_t o = strlen(chains);
                snprintf(chains + o, sizeof chains - o, "%s%s:%zu", c ? "," : "", j->chains[c].id, strlen(j->chains[c].sequence));
            }
            snprintf(out, sizeof out, "%s/%s.safetensors", out_dir, safe);
            printf("job '%s' (%s): %d chain%s, %d residues\n", j->name, files[f], j->n_chains, j->n_chains > 1 ? "s" : "", q.msa.L);
            if (predict_one(ckpt, *cfg, be, &q.msa, &q, chains, files[f], out, j->seeds, j->n_seeds) == 0) {
                ok++;
                if (n_done == cap_done) {
                    cap_done = cap_done ? 2 * cap_done : 16;
                    char (*g)[128] = pf_calloc((size_t)cap_done, sizeof *g);
                    if (n_done) memcpy(g, done, sizeof *g * (size_t)n_done);
                    pf_free(done);
                    done = g;
                }
                snprintf(done[n_done++], sizeof done[0], "%s", safe);
            } else {
                fprintf(stderr, "pairfold: skipped: %s: job '%s' failed (above)\n", files[f], j->name);
                bad++;
            }
            pf_af3_query_free(&q);
        }
        pf_af3_jobs_free(jobs, nj);
    }
    for (int f = 0; f < nf; f++) pf_free(files[f]);
    pf_free(files);
    pf_free(done);
    printf("predict: %d job%s predicted, %d skipped\n", ok, ok == 1 ? "" : "s", bad);
    return bad ? 1 : 0;
}

// The backend, and with --set dap=P the P ranks the launcher started (all of them one dap
// group: P must be the world size). Every set-up step is agreed on before the next, so a
// rank that fails stops them all. 0, or nonzero with the reason printed.
static int open_ranks(const pf_config *cfg, pf_backend **be) {
    char err[1024];
    const char *which = NULL;
    int world = pf_dist_launched_world(&which);
    if (world > 1 && cfg->dap != world) {
        fprintf(stderr, "pairfold: error: predict was started as one of %d ranks (%s=%d): %s; with several ranks predict "
                        "shards each structure over all of them: add --set dap=%d, or start one process\n",
                world, which, world, cfg->dap > 1 ? "dap must equal the number of ranks" : "--set dap is not given", world);
        return 2;
    }
    if (world <= 1 && cfg->dap > 1) {
        fprintf(stderr, "pairfold: error: --set dap=%d shards each structure over %d ranks, but this process was started "
                        "alone: start %d (mpirun -np %d, srun -n %d, or torchrun-style WORLD_SIZE / RANK / MASTER_ADDR / "
                        "MASTER_PORT)\n", cfg->dap, cfg->dap, cfg->dap, cfg->dap, cfg->dap);
        return 2;
    }
    if (world <= 1) {
        *be = pf_backend_open(cfg->device, 0, err, sizeof err);
        if (!*be) fprintf(stderr, "pairfold: error: %s\n", err);
        return *be ? 0 : 2;
    }
    if (pf_dist_init(&g_dist, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    g_lead = g_dist.rank == 0;
    int ok = (*be = pf_backend_open(cfg->device, g_dist.local_rank, err, sizeof err)) != NULL;
    if (ok && pf_dap_host_init(&g_dh, g_dist.rank, g_dist.world, cfg->dap, dap_world_sum, *be, err, sizeof err) != 0)
        ok = 0;
    if (ok && pf_dist_attach(&g_dist, *be, err, sizeof err) != 0) ok = 0;
    g_dap = &g_dh.c;
    if (ok && (*be)->dap_comm_open) {  // a backend with device collectives (CUDA: NCCL)
        pf_coll_host host = pf_dist_host(&g_dist);
        if (!(g_dc = (*be)->dap_comm_open(*be, &host, cfg->dap, err, sizeof err))) ok = 0;
        g_dap = g_dc;
    }
    if (!ok) fprintf(stderr, "pairfold: error: rank %d: %s\n", g_dist.rank, err);
    double bad = ok ? 0 : 1;
    pf_dist_sum_doubles(&g_dist, &bad, 1);
    if (bad > 0) {
        if (ok) fprintf(stderr, "pairfold: rank %d: stopping: another rank failed to start\n", g_dist.rank);
        close_ranks(*be);
        *be = NULL;
        return 2;
    }
    if (!g_lead && !freopen("/dev/null", "w", stdout)) fprintf(stderr, "pairfold: rank %d: stdout stays open\n", g_dist.rank);
    if (g_lead) printf("predict: %d ranks, each structure's trunk sharded over them (dap %d)\n", g_dist.world, cfg->dap);
    return 0;
}

int cmd_predict(int argc, char **argv) {
    static struct option opts[] = {{"ckpt", required_argument, 0, 0},     {"msa", required_argument, 0, 0},
                                   {"out", required_argument, 0, 0},      {"device", required_argument, 0, 0},
                                   {"recycles", required_argument, 0, 0}, {"json", required_argument, 0, 0},
                                   {"raw-weights", no_argument, 0, 0},    {"set", required_argument, 0, 0},
                                   {"formats", required_argument, 0, 0},  {"contacts-top", required_argument, 0, 0},
                                   {"seeds", required_argument, 0, 0},    {"help", no_argument, 0, 0},
                                   {0, 0, 0, 0}};
    const char *ckpt = NULL, *msa_path = NULL, *json = NULL, *out = NULL, *device = NULL, *recycles = NULL;
    const char *sets[32];
    int n_sets = 0, idx, c;
    optind = 1;
    if (cli_check_exact_options(argc, argv, opts) != 0) return 2;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { usage(stderr); return 2; }
        const char *name = opts[idx].name;
        if (!strcmp(name, "help")) { usage(stdout); return 0; }
        if (!strcmp(name, "ckpt")) ckpt = optarg;
        else if (!strcmp(name, "msa")) msa_path = optarg;
        else if (!strcmp(name, "json")) json = optarg;
        else if (!strcmp(name, "out")) out = optarg;
        else if (!strcmp(name, "device")) device = optarg;
        else if (!strcmp(name, "recycles")) recycles = optarg;
        else if (!strcmp(name, "raw-weights")) raw_weights = 1;
        else if (!strcmp(name, "formats")) {
            if ((formats = parse_formats(optarg)) < 0) return 2;
        } else if (!strcmp(name, "contacts-top")) {
            long v;
            const char *e = pf_parse_long_arg(optarg, 0, 1000000, "--contacts-top", &v);
            if (e) { fprintf(stderr, "pairfold: error: %s\n", e); return 2; }
            contacts_top = (int)v;
        }
        else if (!strcmp(name, "seeds")) {
            if (parse_seeds(optarg) != 0) return 2;
        } else if (!strcmp(name, "set")) {
            if (n_sets == 32) { fprintf(stderr, "pairfold: error: at most 32 --set options\n"); return 2; }
            sets[n_sets++] = optarg;
        }
    }
    if (optind < argc) { fprintf(stderr, "pairfold: error: unexpected argument '%s'\n", argv[optind]); return 2; }
    if (!ckpt || !out || !msa_path == !json) { usage(stderr); return 2; }
    if (read_bounds() != 0) return 2;
    char err[1024];
    pf_config cfg;
    if (pf_ckpt_read_config(ckpt, &cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    if (cfg.n_bins < 2 || cfg.n_bins > 512) {
        fprintf(stderr, "pairfold: error: %s: n_bins %d outside [2, 512]\n", ckpt, cfg.n_bins);
        return 1;
    }
    cfg.dap = 1;  // the training run's sharding is not the prediction's: --set dap=P below
    if (recycles && pf_config_set(&cfg, "recycles", recycles, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: --recycles: %s\n", err);
        return 2;
    }
    // inference-time fields only: the others fix the weights' shapes or only matter in training
    static const char *const settable[] = {"msa_rows", "extra_msa_rows", "recycles", "dap", NULL};
    for (int k = 0; k < n_sets; k++) {
        size_t klen = strcspn(sets[k], "=");
        int ok = 0;
        for (int i = 0; settable[i]; i++) ok |= strlen(settable[i]) == klen && !strncmp(sets[k], settable[i], klen);
        if (!ok) {
            fprintf(stderr, "pairfold: error: --set %.*s: predict takes only msa_rows, extra_msa_rows, recycles, dap\n",
                    (int)klen, sets[k]);
            return 2;
        }
        if (cli_config_option(&cfg, NULL, "set", sets[k]) < 0) return 2;
    }
    // validated as one process's: training refuses a structure module with dap > 1 (its
    // backward is not sharded), inference runs it on the gathered pair tensor (model_dap.c)
    const int dap = cfg.dap;
    cfg.dap = 1;
    if (pf_config_validate(&cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    cfg.dap = dap;
    if (n_cli_seeds > 1 && !cfg.structure_module) {
        fprintf(stderr, "pairfold: error: --seeds: models are ranked by pLDDT, and %s has no structure module "
                        "(train with --set structure_module=1)\n", ckpt);
        return 2;
    }
    if (device) snprintf(cfg.device, sizeof cfg.device, "%s", device);  // any name the backend registry knows
    pf_msa a;
    if (msa_path && pf_read_msa(msa_path, &a, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    pf_backend *be = NULL;
    if (open_ranks(&cfg, &be) != 0) {
        if (msa_path) pf_msa_free(&a);
        return 2;
    }
    int rc;
    if (json) rc = predict_json(ckpt, &cfg, be, json, out);
    else {
        rc = predict_one(ckpt, cfg, be, &a, NULL, "A", msa_path, out, NULL, 0);
        pf_msa_free(&a);
    }
    close_ranks(be);
    return rc;
}
