// cmd_inspect.c: `pairfold inspect CHECKPOINT`: name, dtype, shape of every tensor.
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "../format/safetensors.h"
#include "../format/checkpoint.h"
#include "../core/env_names.h"

// `pairfold inspect --preset NAME [--trunk T]`: the parameters a configuration declares.
static int inspect_preset(int argc, char **argv) {
    pf_config cfg;
    int have = 0;
    pf_config_preset(&cfg, "af3");
    if (cli_preset_first(&cfg, argc, argv) != 0) return 2;
    for (int i = 1; i + 1 < argc; i += 2)
        if (cli_config_option(&cfg, &have, argv[i] + 2, argv[i + 1]) <= 0) {
            fprintf(stderr, "pairfold: error: inspect: unexpected option '%s'\n", argv[i]);
            return 2;
        }
    pf_model *M = pf_model_declare(&cfg);
    long long total = 0;
    printf("# preset %s, trunk %s\n", cfg.preset, pf_trunk_name(cfg.trunk));
    for (int i = 0; i < M->P.n; i++) {
        const pf_param *t = &M->P.t[i];
        if (t->ndim == 2) printf("%-80s F32   [%lld, %lld]\n", t->name, (long long)t->shape[0], (long long)t->shape[1]);
        else printf("%-80s F32   [%lld]\n", t->name, (long long)t->shape[0]);
        total += t->numel;
    }
    printf("# %d tensors, %lld elements\n", M->P.n, total);  // the parameter count `pairfold train` prints
    pf_model_free(M);
    return 0;
}

int cmd_inspect(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--fields")) {  // the field reference of docs/TRAINING.md
        printf("| field | type | range | meaning |\n|---|---|---|---|\n");
        pf_config_describe(stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--env")) {  // the PF_* variables pairfold reads (env_names.c)
        int n;
        const char *const *names = pf_env_names(&n);
        for (int i = 0; i < n; i++) printf("%s\n", names[i]);
        return 0;
    }
    if (argc >= 3 && !strncmp(argv[1], "--", 2) && strcmp(argv[1], "--help")) return inspect_preset(argc, argv);
    if (argc != 2 || !strcmp(argv[1], "--help")) {
        FILE *f = argc == 2 ? stdout : stderr;
        fprintf(f, "usage: pairfold inspect PATH\n\n"
                   "Lists the tensors (name, dtype, shape) and metadata of a safetensors file,\n"
                   "or of the latest checkpoint of a run directory / a checkpoint directory.\n"
                   "       pairfold inspect --preset NAME [--trunk T] [--set K=V]\n\n"
                   "Lists the parameters a configuration declares (no checkpoint needed).\n"
                   "       pairfold inspect --fields\n\n"
                   "Lists every configuration field: type, accepted range, meaning.\n"
                   "       pairfold inspect --env\n\n"
                   "Lists the PF_* environment variables pairfold reads (any other stops it).\n");
        return argc == 2 ? 0 : 2;
    }
    char err[1024], path[4200];
    struct stat st;
    if (stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
        char sd[4096];
        if (pf_ckpt_resolve(argv[1], sd, sizeof sd, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: error: %s\n", err);
            return 1;
        }
        snprintf(path, sizeof path, "%s/model.safetensors", sd);
    } else {
        snprintf(path, sizeof path, "%s", argv[1]);
    }
    pf_st_file *f = pf_st_open(path, err, sizeof err);
    if (!f) {
        fprintf(stderr, "pairfold: error: %s\n", err);
        return 1;
    }
    printf("# %s\n", path);
    for (int i = 0; i < pf_st_meta_count(f); i++) {
        const char *k, *v;
        pf_st_meta_at(f, i, &k, &v);
        if (strcmp(k, "config")) printf("# %s = %s\n", k, v);
    }
    long long total = 0;
    for (int i = 0; i < pf_st_count(f); i++) {
        const pf_st_tensor *t = pf_st_at(f, i);
        long long n = 1;
        printf("%-80s %-5s [", t->name, t->dtype);
        for (int k = 0; k < t->ndim; k++) {
            printf("%s%lld", k ? ", " : "", (long long)t->shape[k]);
            n *= t->shape[k];
        }
        printf("]\n");
        total += n;
    }
    printf("# %d tensors, %lld elements\n", pf_st_count(f), total);
    pf_st_close(f);
    return 0;
}
