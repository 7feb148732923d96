// config.c: presets and JSON overrides. The field table below is the single
// place that names each field; JSON input, command-line --set and the saved
// configuration all go through it.
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <cjson/cJSON.h>
#include "../core/util.h"
#include "../backend/device.h"

typedef enum { F_INT, F_FLOAT, F_U64, F_STR, F_TRUNK } ftype;
typedef struct { const char *name; ftype type; size_t off, size; } field;
#define FI(n) {#n, F_INT, offsetof(pf_config, n), 0}
#define FF(n) {#n, F_FLOAT, offsetof(pf_config, n), 0}
#define FS(n) {#n, F_STR, offsetof(pf_config, n), sizeof(((pf_config *)0)->n)}
static const field fields[] = {
    FS(preset), {"trunk", F_TRUNK, offsetof(pf_config, trunk), 0},
    FI(c_m), FI(c_z), FI(c_s), FI(c_e), FI(n_blocks), FI(n_extra_blocks), FI(n_msa_blocks),
    FI(heads_msa), FI(c_h_msa), FI(heads_pair), FI(c_h_pair), FI(heads_single), FI(c_h_single),
    FI(heads_extra), FI(c_h_extra), FI(heads_pwavg), FI(c_h_pwavg), FI(c_opm), FI(c_trimul),
    FI(transition_n), FF(dropout_msa), FF(dropout_pair), FI(n_bins), FF(min_bin), FF(max_bin), FF(disto_weight), FF(msa_weight),
    FI(recycles), FI(recompute), FI(max_tokens), FI(crop_size), FI(msa_rows), FI(extra_msa_rows), FF(spatial_crop_prob),
    FF(bert_mask_prob), FS(data), FI(data_workers), FI(prefetch), FI(n_val), FI(val_every),
    FI(steps), FI(grad_accum), FF(ema_decay), {"seed", F_U64, offsetof(pf_config, seed), 0}, FF(lr), FF(lr_min),
    FF(weight_decay), FF(beta1), FF(beta2), FF(adam_eps), FF(grad_clip), FI(warmup_steps), FI(lr_decay_steps),
    FI(ckpt_every), FS(device),
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

const char *pf_trunk_name(int trunk) { return trunk == PF_TRUNK_PAIRFORMER ? "pairformer" : "evoformer"; }

static void common_defaults(pf_config *c) {
    memset(c, 0, sizeof *c);
    c->transition_n = 4;
    c->dropout_msa = 0.15f;
    c->dropout_pair = 0.25f;
    c->n_bins = 64;
    c->min_bin = 2.0f;
    c->max_bin = 22.0f;
    c->disto_weight = 1.0f;
    c->msa_weight = 0.0f;
    c->spatial_crop_prob = 0.5f;
    c->bert_mask_prob = 0.15f;
    snprintf(c->data, sizeof c->data, "bundled");
    c->data_workers = 2;
    c->grad_accum = 1;
    c->prefetch = 4;
    c->n_val = 4;
    c->val_every = 50;
    c->seed = 1;
    c->lr = 1e-3f;
    c->lr_min = 1e-4f;
    c->weight_decay = 0.0f;
    c->beta1 = 0.9f;
    c->beta2 = 0.999f;
    c->adam_eps = 1e-6f;
    c->grad_clip = 0.1f;
    c->warmup_steps = 10;
    c->ckpt_every = 100;
    snprintf(c->device, sizeof c->device, "cpu");
}

int pf_config_preset(pf_config *c, const char *name) {
    common_defaults(c);
    snprintf(c->preset, sizeof c->preset, "%s", name);
    if (!strcmp(name, "tiny")) {
        // Trains on a 2-core CPU in minutes.
        c->trunk = PF_TRUNK_EVOFORMER;
        c->c_m = 32; c->c_z = 32; c->c_s = 32; c->c_e = 16;
        c->n_blocks = 2; c->n_extra_blocks = 1; c->n_msa_blocks = 1;
        c->heads_msa = 4; c->c_h_msa = 8; c->heads_pair = 4; c->c_h_pair = 8;
        c->heads_single = 4; c->c_h_single = 8; c->heads_extra = 4; c->c_h_extra = 4;
        c->heads_pwavg = 4; c->c_h_pwavg = 8;
        c->c_opm = 8; c->c_trimul = 32;
        c->crop_size = 48; c->msa_rows = 16; c->extra_msa_rows = 16;
        c->recycles = 0;
        c->steps = 200;
        c->lr_decay_steps = 200;
        c->lr = 3e-3f; c->lr_min = 3e-4f;
        c->grad_clip = 1.0f;
        c->dropout_msa = 0.0f; c->dropout_pair = 0.0f;
        return 0;
    }
    if (!strcmp(name, "af2")) {
        // AlphaFold2 (Jumper et al. 2021), supplement 1.11 and Table 4 (initial training).
        c->trunk = PF_TRUNK_EVOFORMER;
        c->c_m = 256; c->c_z = 128; c->c_s = 384; c->c_e = 64;
        c->n_blocks = 48; c->n_extra_blocks = 4; c->n_msa_blocks = 0;
        c->heads_msa = 8; c->c_h_msa = 32; c->heads_pair = 4; c->c_h_pair = 32;
        c->heads_single = 12; c->c_h_single = 32; c->heads_extra = 8; c->c_h_extra = 8;
        c->heads_pwavg = 8; c->c_h_pwavg = 8;
        c->c_opm = 32; c->c_trimul = 128;
        c->crop_size = 256; c->msa_rows = 128; c->extra_msa_rows = 1024;
        c->recycles = 3;
        c->recompute = 1;
        c->disto_weight = 0.3f;  // AF2 1.9.9 loss weights
        c->msa_weight = 2.0f;
        c->steps = 100000;
        c->lr_decay_steps = 100000;
        c->lr = 1e-3f; c->lr_min = 1e-4f; c->warmup_steps = 1000;
        c->grad_clip = 0.1f;
        c->ema_decay = 0.999f;  // AF2 supplement 1.11.7
        return 0;
    }
    if (!strcmp(name, "af3")) {
        // AlphaFold3 (Abramson et al. 2024), supplement 3 and 5.
        c->trunk = PF_TRUNK_PAIRFORMER;
        c->c_m = 64; c->c_z = 128; c->c_s = 384; c->c_e = 64;
        c->n_blocks = 48; c->n_extra_blocks = 0; c->n_msa_blocks = 4;
        c->heads_msa = 8; c->c_h_msa = 8; c->heads_pair = 4; c->c_h_pair = 32;
        c->heads_single = 16; c->c_h_single = 24; c->heads_extra = 8; c->c_h_extra = 8;
        c->heads_pwavg = 8; c->c_h_pwavg = 8;
        c->c_opm = 32; c->c_trimul = 128;
        c->crop_size = 384; c->msa_rows = 1024; c->extra_msa_rows = 0;
        c->recycles = 3;
        c->recompute = 1;
        c->steps = 100000;
        c->lr_decay_steps = 100000;
        c->lr = 1.8e-3f; c->lr_min = 1.8e-4f; c->warmup_steps = 1000;
        c->beta2 = 0.95f; c->adam_eps = 1e-8f; c->grad_clip = 10.0f;
        c->ema_decay = 0.999f;  // AF3 supplement 5.4
        return 0;
    }
    return -1;
}

static const field *find_field(const char *key) {
    for (int i = 0; i < NFIELDS; i++)
        if (!strcmp(fields[i].name, key)) return &fields[i];
    return NULL;
}

int pf_config_set(pf_config *c, const char *key, const char *value, char *err, size_t errlen) {
    const field *f = find_field(key);
    if (!f) { snprintf(err, errlen, "unknown configuration key '%s'", key); return -1; }
    char *end = NULL;
    void *p = (char *)c + f->off;
    errno = 0;
    switch (f->type) {
    case F_INT: {
        long v = strtol(value, &end, 10);
        if (errno || !end || *end || end == value || v < -2147483647L || v > 2147483647L) goto bad;
        *(int *)p = (int)v;
        break;
    }
    case F_FLOAT: {
        double v = strtod(value, &end);
        if (errno || !end || *end || end == value) goto bad;
        *(float *)p = (float)v;
        break;
    }
    case F_U64: {
        unsigned long long v = strtoull(value, &end, 10);
        if (errno || !end || *end || end == value) goto bad;
        *(uint64_t *)p = v;
        break;
    }
    case F_STR:
        if (strlen(value) >= f->size) { snprintf(err, errlen, "value of '%s' is too long", key); return -1; }
        snprintf((char *)p, f->size, "%s", value);
        break;
    case F_TRUNK:
        if (!strcmp(value, "evoformer")) c->trunk = PF_TRUNK_EVOFORMER;
        else if (!strcmp(value, "pairformer")) c->trunk = PF_TRUNK_PAIRFORMER;
        else { snprintf(err, errlen, "trunk must be 'evoformer' or 'pairformer', got '%s'", value); return -1; }
        break;
    }
    return 0;
bad:
    snprintf(err, errlen, "bad value '%s' for '%s'", value, key);
    return -1;
}

int pf_config_apply_json(pf_config *c, const char *json, const char *source, char *err, size_t errlen) {
    cJSON *root = cJSON_Parse(json);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *q = json; at && q < at; q++) line += *q == '\n';
        snprintf(err, errlen, "%s:%d: invalid JSON", source, line);
        return -1;
    }
    if (!cJSON_IsObject(root)) {
        snprintf(err, errlen, "%s: the configuration must be a JSON object", source);
        cJSON_Delete(root);
        return -1;
    }
    int rc = 0;
    for (cJSON *it = root->child; it && rc == 0; it = it->next) {
        char buf[600], e2[256];
        if (cJSON_IsString(it)) snprintf(buf, sizeof buf, "%s", it->valuestring);
        else if (cJSON_IsNumber(it)) {
            const field *f = find_field(it->string);
            if (f && (f->type == F_INT || f->type == F_U64)) snprintf(buf, sizeof buf, "%.0f", it->valuedouble);
            else snprintf(buf, sizeof buf, "%.9g", it->valuedouble);
        } else if (cJSON_IsBool(it)) snprintf(buf, sizeof buf, "%d", cJSON_IsTrue(it));
        else {
            snprintf(err, errlen, "%s: field '%s' must be a number or a string", source, it->string);
            rc = -1;
            break;
        }
        if (pf_config_set(c, it->string, buf, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "%s: %s", source, e2);
            rc = -1;
        }
    }
    cJSON_Delete(root);
    return rc;
}

char *pf_config_to_json(const pf_config *c) {
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        const void *p = (const char *)c + f->off;
        switch (f->type) {
        case F_INT: cJSON_AddNumberToObject(o, f->name, *(const int *)p); break;
        case F_FLOAT: {
            char b[32];
            snprintf(b, sizeof b, "%.7g", *(const float *)p);
            cJSON_AddRawToObject(o, f->name, b);
            break;
        }
        case F_U64: {
            char b[32];
            snprintf(b, sizeof b, "%llu", (unsigned long long)*(const uint64_t *)p);
            cJSON_AddRawToObject(o, f->name, b);
            break;
        }
        case F_STR: cJSON_AddStringToObject(o, f->name, (const char *)p); break;
        case F_TRUNK: cJSON_AddStringToObject(o, f->name, pf_trunk_name(c->trunk)); break;
        }
    }
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    return s;
}

int pf_config_validate(const pf_config *c, char *err, size_t errlen) {
    struct { const char *n; int v; } pos[] = {
        {"c_m", c->c_m}, {"c_z", c->c_z}, {"c_s", c->c_s}, {"heads_pair", c->heads_pair},
        {"c_h_pair", c->c_h_pair}, {"c_opm", c->c_opm}, {"c_trimul", c->c_trimul},
        {"transition_n", c->transition_n}, {"n_bins", c->n_bins}, {"crop_size", c->crop_size},
        {"msa_rows", c->msa_rows}, {"heads_msa", c->heads_msa}, {"c_h_msa", c->c_h_msa},
        {"heads_single", c->heads_single}, {"c_h_single", c->c_h_single},
    };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (pos[i].v <= 0) { snprintf(err, errlen, "configuration: %s must be positive (got %d)", pos[i].n, pos[i].v); return -1; }
    if (c->n_blocks < 0 || c->n_extra_blocks < 0 || c->n_msa_blocks < 0 || c->recycles < 0 || c->steps < 0) {
        snprintf(err, errlen, "configuration: block counts, recycles and steps must be >= 0");
        return -1;
    }
    if (c->n_extra_blocks > 0 && (c->c_e <= 0 || c->heads_extra <= 0 || c->c_h_extra <= 0 || c->extra_msa_rows <= 0)) {
        snprintf(err, errlen, "configuration: the extra-MSA stack needs c_e, heads_extra, c_h_extra, extra_msa_rows > 0");
        return -1;
    }
    if (c->dropout_msa < 0 || c->dropout_msa >= 1 || c->dropout_pair < 0 || c->dropout_pair >= 1) {
        snprintf(err, errlen, "configuration: dropout rates must be in [0, 1)");
        return -1;
    }
    if (!(c->ema_decay >= 0 && c->ema_decay < 1)) {
        snprintf(err, errlen, "configuration: ema_decay must be in [0, 1) (0: off; AF2 uses 0.999)");
        return -1;
    }
    if (c->grad_accum < 1 || c->grad_accum > 4096) {
        snprintf(err, errlen, "configuration: grad_accum must be in [1, 4096] (got %d)", c->grad_accum);
        return -1;
    }
    if (c->disto_weight < 0 || c->msa_weight < 0) { snprintf(err, errlen, "configuration: loss weights must be >= 0"); return -1; }
    if (c->msa_weight > 0 && c->trunk != PF_TRUNK_EVOFORMER) {
        snprintf(err, errlen, "configuration: the masked-MSA loss (msa_weight) belongs to the AF2 (evoformer) trunk");
        return -1;
    }
    if (!(c->max_bin > c->min_bin)) { snprintf(err, errlen, "configuration: max_bin must exceed min_bin"); return -1; }
    if (c->max_tokens < 0) { snprintf(err, errlen, "configuration: max_tokens must be >= 0 (0: crop_size)"); return -1; }
    pf_device dev;
    char derr[128];
    if (pf_device_parse(c->device, &dev, derr, sizeof derr) != 0) {
        snprintf(err, errlen, "configuration: %s", derr);
        return -1;
    }
    return 0;
}
