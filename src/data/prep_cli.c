// `pairfold prep` command line (long options only).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "data.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: pairfold prep INPUT... --out CACHE [--threads N] [--manifest TSV]... [--max-msa-rows N] [--quiet]\n"
            "\n"
            "Parses structures (PDB, mmCIF; .gz read transparently) and their alignments (A3M, Stockholm,\n"
            "FASTA) into a feature cache that `pairfold train` memory-maps. INPUT is a structure file, a\n"
            "folder (searched recursively) or a chain manifest (.tsv with columns file, chain and optionally\n"
            "msa and c30). Alignments are matched to chains by a manifest's msa column or by name:\n"
            "<PDBID>_<CHAIN>/any.a3m or <PDBID>_<CHAIN>.a3m (see docs/DATA.md). Re-running over the same\n"
            "CACHE re-parses only inputs whose content changed; the result is byte identical whatever N.\n"
            "\n"
            "  --out CACHE        cache file to write (updated in place, atomically)\n"
            "  --threads N        parser threads (default: online CPUs, at most 16)\n"
            "  --manifest TSV     chain manifest (may repeat)\n"
            "  --max-msa-rows N   alignment rows kept per chain entity after de-duplication (16384)\n"
            "  --quiet            no report\n"
            "  --help             this text\n");
}

// "--name value" or "--name=value"; returns the value or NULL.
static const char *optval(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != 0) return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

static int parse_count(const char *v, const char *opt, int *out) {
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < 1 || x > 1000000) {
        fprintf(stderr, "pairfold prep: bad value '%s' for %s (a positive integer)\n", v, opt);
        return -1;
    }
    *out = (int)x;
    return 0;
}

int pf_prep_main(int argc, char **argv) {
    const char **inputs = calloc((size_t)argc + 1, sizeof(char *)), **mans = calloc((size_t)argc + 1, sizeof(char *));
    int ni = 0, nm = 0, rc = 2;
    pf_prep_opts o;
    memset(&o, 0, sizeof o);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            rc = 0;
            goto out;
        } else if (!strcmp(argv[i], "--quiet")) o.quiet = 1;
        else if ((v = optval(argc, argv, &i, "--out"))) o.out = v;
        else if ((v = optval(argc, argv, &i, "--manifest"))) mans[nm++] = v;
        else if ((v = optval(argc, argv, &i, "--threads"))) {
            if (parse_count(v, "--threads", &o.threads) != 0) goto out;
        } else if ((v = optval(argc, argv, &i, "--max-msa-rows"))) {
            if (parse_count(v, "--max-msa-rows", &o.max_msa_rows) != 0) goto out;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "pairfold prep: unknown option '%s' (see --help)\n", argv[i]);
            goto out;
        } else inputs[ni++] = argv[i];
    }
    if (!o.out || !o.out[0]) {
        fprintf(stderr, "pairfold prep: --out CACHE is required (see --help)\n");
        goto out;
    }
    if (ni == 0 && nm == 0) {
        fprintf(stderr, "pairfold prep: no inputs (see --help)\n");
        goto out;
    }
    o.inputs = inputs;
    o.n_inputs = ni;
    o.manifests = mans;
    o.n_manifests = nm;
    pf_prep_stats st;
    rc = pf_prep(&o, &st) == 0 && st.entries > 0 ? 0 : 1;
    if (rc && !o.quiet && st.entries == 0) fprintf(stderr, "pairfold prep: no entries could be prepared\n");
out:
    free(inputs);
    free(mans);
    return rc;
}
