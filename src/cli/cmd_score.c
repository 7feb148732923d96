// cmd_score.c: `pairfold score PRED TRUE [--json OUT]`: lDDT-Ca, CA RMSD and
// TM-score of a predicted structure against the true one, per chain and
// overall, printed as JSON (eval/score.h says how residues are matched).
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/util.h"
#include "../data/structure.h"
#include "../eval/score.h"

static void usage(FILE *f) {
    fprintf(f, "usage: pairfold score PRED TRUE [--json OUT]\n\n"
               "Compares a predicted structure with the true one (mmCIF or PDB, gzip or not):\n"
               "residues are matched by chain id and residue number (CA atoms). Prints JSON with,\n"
               "per chain and overall: lddt_ca (lDDT-Ca as AlphaFold2: no superposition, 15 A\n"
               "radius, thresholds 0.5/1/2/4 A; true residues missing from PRED fail their pairs),\n"
               "rmsd_ca (after optimal superposition of the common residues), tm_score (d0 and\n"
               "normalisation from the true structure's residues, superposition searched as the\n"
               "TMscore program does), and the residue counts n_true, n_pred, n_common.\n\n"
               "  --json OUT   also write the JSON to OUT (atomically)\n");
}

static cJSON *row_json(const pf_score_row *r) {
    cJSON *o = cJSON_CreateObject();
    if (r->chain[0]) cJSON_AddStringToObject(o, "chain", r->chain);
    cJSON_AddNumberToObject(o, "n_true", r->n_true);
    cJSON_AddNumberToObject(o, "n_pred", r->n_pred);
    cJSON_AddNumberToObject(o, "n_common", r->n_common);
    cJSON_AddNumberToObject(o, "lddt_ca", r->lddt_ca);
    cJSON_AddNumberToObject(o, "rmsd_ca", r->rmsd_ca);
    cJSON_AddNumberToObject(o, "tm_score", r->tm_score);
    cJSON_AddNumberToObject(o, "tm_d0", r->tm_d0);
    return o;
}

static char *score_json(const pf_score *s, const char *pred, const char *truth) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "pred", pred);
    cJSON_AddStringToObject(root, "true", truth);
    cJSON_AddItemToObject(root, "overall", row_json(&s->overall));
    cJSON *chains = cJSON_AddArrayToObject(root, "chains");
    for (int c = 0; c < s->n_chains; c++) cJSON_AddItemToArray(chains, row_json(&s->chains[c]));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) pf_die("out of memory");
    return text;
}

int cmd_score(int argc, char **argv) {
    static const struct option opts[] = {{"json", required_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *json_out = NULL;
    if (cli_check_exact_options(argc, argv, opts)) return 2;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'j') json_out = optarg;
        else if (ch == 'h') { usage(stdout); return 0; }
        else { usage(stderr); return 2; }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "pairfold: error: score needs two structure files, PRED and TRUE (got %d)\n\n", argc - optind);
        usage(stderr);
        return 2;
    }
    const char *pred_path = argv[optind], *true_path = argv[optind + 1];
    char err[2048];
    pf_structure pred, truth;
    if (pf_read_structure(pred_path, &pred, err, sizeof err)) {
        fprintf(stderr, "pairfold: error: score: %s\n", err);
        return 1;
    }
    if (pf_read_structure(true_path, &truth, err, sizeof err)) {
        fprintf(stderr, "pairfold: error: score: %s\n", err);
        pf_structure_free(&pred);
        return 1;
    }
    pf_score s;
    int rc = pf_score_structures(&pred, &truth, pred_path, true_path, &s, err, sizeof err);
    pf_structure_free(&pred);
    pf_structure_free(&truth);
    if (rc) {
        fprintf(stderr, "pairfold: error: score: %s\n", err);
        return 1;
    }
    char *text = score_json(&s, pred_path, true_path);
    pf_score_free(&s);
    printf("%s\n", text);
    rc = 0;
    if (json_out) {
        size_t n = strlen(text);
        text[n] = '\n';  // the file ends with a newline too (cJSON's buffer has room for the NUL)
        if (pf_write_atomic(json_out, text, n + 1)) {
            perror(json_out);
            fprintf(stderr, "pairfold: error: score: cannot write %s\n", json_out);
            rc = 1;
        }
    }
    free(text);
    return rc;
}
