// cmd_predict.c: `pairfold predict`: the distogram of one chain from a trained
// checkpoint. Input: an alignment (A3M, Stockholm, or FASTA; row 0 is the query;
// a single-sequence FASTA works too). Output: a safetensors file with
//   distogram_probs (N, N, n_bins), expected_distance (N, N) in Angstrom,
//   contact_probability_8A (N, N) (probability that the pseudo-beta distance is
//   under 8 Angstrom), query (N) int32 tokens,
// and a summary of the most likely long-range contacts on the terminal.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <getopt.h>
#include "cli.h"
#include "../core/util.h"
#include "../model/model.h"
#include "../data/msa.h"
#include "../train/checkpoint.h"
#include "../train/safetensors.h"

static void usage(FILE *f) {
    fprintf(f, "usage: pairfold predict --ckpt DIR --msa FILE --out FILE.safetensors [--device D] [--recycles R]\n\n"
               "Predicts the distogram of the query (row 0) of an alignment (A3M, Stockholm, FASTA;\n"
               ".gz read transparently) with the weights of a checkpoint (run or step directory).\n");
}

// Fill a batch for inference: the first S rows are the cluster rows, the next
// E the extra rows (rows beyond the alignment are masked padding).
static void make_batch(const pf_msa *a, const pf_config *c, pf_batch *b) {
    int N = a->L, S = c->msa_rows;
    int E = c->trunk == PF_TRUNK_EVOFORMER && c->n_extra_blocks > 0 ? c->extra_msa_rows : 0;
    pf_batch_alloc(b, N, S, E);
    snprintf(b->name, sizeof b->name, "query");
    for (int i = 0; i < N; i++) {
        b->aatype[i] = a->tok[i] <= PF_TOK_UNK ? a->tok[i] : PF_TOK_UNK;
        b->residue_index[i] = i;
        b->seq_mask[i] = 1;
    }
    int32_t *tok = pf_calloc((size_t)S * N + 1, sizeof(int32_t)), *xtok = pf_calloc((size_t)E * N + 1, sizeof(int32_t));
    real *del = pf_calloc((size_t)S * N + 1, sizeof(real)), *xdel = pf_calloc((size_t)E * N + 1, sizeof(real));
    for (int r = 0; r < S; r++)
        for (int i = 0; i < N; i++) {
            size_t o = (size_t)r * N + i;
            tok[o] = PF_TOK_GAP;
            if (r >= a->n_seq) continue;
            tok[o] = a->tok[o];
            del[o] = a->del[o];
            b->msa_mask[o] = 1;
        }
    for (int r = 0; r < E; r++)
        for (int i = 0; i < N; i++) {
            size_t o = (size_t)r * N + i, src = (size_t)(S + r) * N + i;
            if (S + r >= a->n_seq) continue;
            real *f = b->extra_msa_feat + o * PF_EXTRA_MSA_FEAT;
            xtok[o] = a->tok[src];
            xdel[o] = a->del[src];
            pf_extra_msa_feat(f, xtok[o], xdel[o]);
            b->extra_msa_mask[o] = 1;
        }
    pf_batch_fill_features(b, tok, del, xtok, xdel, E);
    pf_free(tok); pf_free(xtok); pf_free(del); pf_free(xdel);
}

int cmd_predict(int argc, char **argv) {
    static struct option opts[] = {{"ckpt", required_argument, 0, 0},     {"msa", required_argument, 0, 0},
                                   {"out", required_argument, 0, 0},      {"device", required_argument, 0, 0},
                                   {"recycles", required_argument, 0, 0}, {"help", no_argument, 0, 0},
                                   {0, 0, 0, 0}};
    const char *ckpt = NULL, *msa_path = NULL, *out = NULL, *device = NULL;
    int recycles = -1, idx, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { usage(stderr); return 2; }
        const char *name = opts[idx].name;
        if (!strcmp(name, "help")) { usage(stdout); return 0; }
        if (!strcmp(name, "ckpt")) ckpt = optarg;
        else if (!strcmp(name, "msa")) msa_path = optarg;
        else if (!strcmp(name, "out")) out = optarg;
        else if (!strcmp(name, "device")) device = optarg;
        else if (!strcmp(name, "recycles")) recycles = atoi(optarg);
    }
    if (!ckpt || !msa_path || !out) { usage(stderr); return 2; }
    char err[1024];
    pf_config cfg;
    if (pf_ckpt_read_config(ckpt, &cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    if (cfg.n_bins < 2 || cfg.n_bins > 512) {
        fprintf(stderr, "pairfold: error: %s: n_bins %d outside [2, 512]\n", ckpt, cfg.n_bins);
        return 1;
    }
    if (device) snprintf(cfg.device, sizeof cfg.device, "%s", device);
    if (recycles >= 0) cfg.recycles = recycles;
    pf_msa a;
    if (pf_read_msa(msa_path, &a, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    if (a.L < 2) { fprintf(stderr, "pairfold: error: %s: the query has %d residues\n", msa_path, a.L); return 1; }
    pf_backend *be = pf_backend_create(cfg.device);
    if (!be) { fprintf(stderr, "pairfold: error: device '%s' not available in this build\n", cfg.device); return 2; }
    double t0 = pf_now_ms();
    pf_batch b;
    make_batch(&a, &cfg, &b);
    cfg.crop_size = b.N;  // plan the arenas for this query
    pf_model *M = pf_model_create(&cfg, be);
    if (pf_ckpt_load(ckpt, M, NULL, NULL, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 1; }
    pf_model_eval(M, &b);  // leaves the final pair representation in M->z

    // logits_ij = A_ij + A_ji + b with A = z W^T, on the device; softmax on the host
    int64_t N = b.N, NN = N * N;
    int nb = cfg.n_bins;
    pf_act *A = be->alloc(be, pf_act_size(be, NN * nb));
    pf_linear_p head = {M->p.disto.w, NULL};
    be->linear_fwd(be, NN, cfg.c_z, nb, &head, M->z, A, 0);
    real *hA = pf_malloc(sizeof(real) * (size_t)(NN * nb)), *bias = pf_malloc(sizeof(real) * (size_t)nb);
    be->act_to_real(be, hA, A, NN * nb);
    be->download(be, bias, M->p.disto.b, sizeof(real) * (size_t)nb);
    float *probs = pf_malloc(sizeof(float) * (size_t)(NN * nb)), *dist = pf_malloc(sizeof(float) * (size_t)NN);
    float *cont = pf_malloc(sizeof(float) * (size_t)NN);
    double w = (cfg.max_bin - cfg.min_bin) / nb;
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) {
            double l[512], mx = -INFINITY, se = 0;
            for (int k = 0; k < nb; k++) {
                l[k] = hA[(i * N + j) * nb + k] + hA[(j * N + i) * nb + k] + bias[k];
                mx = fmax(mx, l[k]);
            }
            for (int k = 0; k < nb; k++) se += exp(l[k] - mx);
            double ed = 0, pc = 0;
            for (int k = 0; k < nb; k++) {
                double p = exp(l[k] - mx) / se;
                probs[(i * N + j) * nb + k] = (float)p;
                ed += p * (cfg.min_bin + (k + 0.5) * w);  // bin centres; the last bin stands for "beyond"
                if (k < nb - 1 && cfg.min_bin + (k + 1) * w <= 8.0 + 1e-9) pc += p;
            }
            dist[i * N + j] = (float)ed;
            cont[i * N + j] = (float)pc;
        }
    int32_t *q = pf_malloc(sizeof(int32_t) * (size_t)N);
    for (int64_t i = 0; i < N; i++) q[i] = b.aatype[i];
    char seq[PF_MSA_MAX_COLS + 1];
    for (int64_t i = 0; i < N && i < PF_MSA_MAX_COLS; i++) seq[i] = q[i] < 20 ? PF_AA_ORDER[q[i]] : 'X';
    seq[N < PF_MSA_MAX_COLS ? N : PF_MSA_MAX_COLS] = 0;
    char nrows[32];
    snprintf(nrows, sizeof nrows, "%d", a.n_seq);
    pf_st_tensor ts[4] = {
        {"distogram_probs", "F32", 3, {N, N, nb}, probs, sizeof(float) * (size_t)(NN * nb)},
        {"expected_distance", "F32", 2, {N, N}, dist, sizeof(float) * (size_t)NN},
        {"contact_probability_8A", "F32", 2, {N, N}, cont, sizeof(float) * (size_t)NN},
        {"query", "I32", 1, {N}, q, sizeof(int32_t) * (size_t)N},
    };
    const char *meta[] = {"sequence", seq, "checkpoint", ckpt, "alignment", msa_path, "alignment_rows", nrows, NULL};
    int rc = pf_st_write(out, ts, 4, meta, err, sizeof err);
    if (rc) fprintf(stderr, "pairfold: error: %s\n", err);
    else {
        printf("predicted %lld residues (%d alignment rows) in %.1f s -> %s\n", (long long)N, a.n_seq,
               (pf_now_ms() - t0) / 1e3, out);
        // most likely long-range contacts (|i - j| >= 24), up to N / 5
        int top = (int)(N / 5 > 0 ? N / 5 : 1), shown = 0;
        unsigned char *used = pf_calloc((size_t)NN, 1);
        printf("top long-range contacts (i j P(d < 8 A)):\n");
        while (shown < top) {
            int64_t bi = -1;
            for (int64_t k = 0; k < NN; k++) {
                int64_t i = k / N, j = k % N;
                if (j - i < 24 || used[k]) continue;
                if (bi < 0 || cont[k] > cont[bi]) bi = k;
            }
            if (bi < 0) break;
            used[bi] = 1;
            printf("  %4lld %4lld  %.3f\n", (long long)(bi / N + 1), (long long)(bi % N + 1), cont[bi]);
            shown++;
        }
        pf_free(used);
    }
    be->free(be, A);
    pf_free(hA); pf_free(bias); pf_free(probs); pf_free(dist); pf_free(cont); pf_free(q);
    pf_batch_free(&b);
    pf_msa_free(&a);
    pf_model_free(M);
    return rc ? 1 : 0;
}
