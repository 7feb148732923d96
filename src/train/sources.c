// sources.c: batch sources by name: "synthetic", "bundled" (the real proteins
// shipped under data/, prepared into a cache on first use), or the path of a
// feature cache made by `pairfold prep`.
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include "train.h"
#include "synthetic.h"
#include "../data/data.h"
#include "../model/model.h"
#include "../core/util.h"

// data/ beside the working directory, else beside the executable.
static int find_bundled(char *out, size_t n) {
    struct stat st;
    if (stat("data/manifest.tsv", &st) == 0) {
        snprintf(out, n, "data");
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        snprintf(out, n, "%s/data", dirname(exe));
        char m[PATH_MAX + 32];
        snprintf(m, sizeof m, "%s/manifest.tsv", out);
        if (stat(m, &st) == 0) return 0;
    }
    return -1;
}

pf_batch_source *pf_open_source(const pf_config *cfg, char *err, size_t errlen) {
    if (!strcmp(cfg->data, "synthetic")) return pf_synthetic_source_create(cfg);
    char cache[PATH_MAX];
    if (!strcmp(cfg->data, "bundled")) {
        char dir[PATH_MAX];
        if (find_bundled(dir, sizeof dir) != 0) {
            snprintf(err, errlen, "bundled data not found (data/manifest.tsv in the working directory or beside the binary)");
            return NULL;
        }
        // Prepare (or bring up to date: unchanged inputs are not parsed again)
        // the cache of the bundled set.
        char cdir[PATH_MAX + 16];
        snprintf(cdir, sizeof cdir, "%.*s/../cache", PATH_MAX - 64, dir);
        snprintf(cache, sizeof cache, "%.*s/bundled.pfc", PATH_MAX - 64, cdir);
        pf_mkdir_p(cdir);
        const char *inputs[1] = {dir};
        pf_prep_opts o = {.inputs = inputs, .n_inputs = 1, .out = cache, .threads = 2, .quiet = 1};
        pf_prep_stats st;
        double t0 = pf_now_ms();
        if (pf_prep(&o, &st) != 0) {
            snprintf(err, errlen, "preparing the bundled data from %s into %s failed", dir, cache);
            return NULL;
        }
        printf("data: bundled set %s -> %s: %d entries, %d chains, %lld residues, %d MSAs (%d parsed, %d reused, %.1f s)\n",
               dir, cache, st.entries, st.chains, (long long)st.residues, st.msas, st.parsed, st.reused,
               (pf_now_ms() - t0) / 1e3);
    } else {
        snprintf(cache, sizeof cache, "%s", cfg->data);
    }
    pf_sampler_cfg sc;
    pf_sampler_cfg_default(&sc);
    sc.cache = cache;
    sc.crop_size = cfg->crop_size;
    sc.msa_rows = cfg->msa_rows;
    sc.extra_msa_rows = pf_extra_msa_rows(cfg);
    sc.seed = cfg->seed;
    sc.n_val = cfg->n_val;
    sc.val_crops = cfg->val_crops;
    sc.n_workers = cfg->data_workers;
    sc.prefetch = cfg->prefetch;
    sc.spatial_crop_prob = cfg->spatial_crop_prob;
    sc.bert_mask_prob = cfg->bert_mask_prob;
    sc.pad_msa = 1;  // fixed S and E: the extra-MSA stack always has rows
    return pf_cache_source_create(&sc, err, errlen);
}
