// cmd_inspect.c: `pairfold inspect CHECKPOINT`: name, dtype, shape of every tensor.
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "../train/safetensors.h"
#include "../train/checkpoint.h"

int cmd_inspect(int argc, char **argv) {
    if (argc != 2 || !strcmp(argv[1], "--help")) {
        FILE *f = argc == 2 ? stdout : stderr;
        fprintf(f, "usage: pairfold inspect PATH\n\n"
                   "Lists the tensors (name, dtype, shape) and metadata of a safetensors file,\n"
                   "or of the latest checkpoint of a run directory / a checkpoint directory.\n");
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
