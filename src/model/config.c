// config.c: presets and JSON overrides. The field table below is the single
// place that names each field; JSON input, command-line --set and the saved
// configuration all go through it.
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <cjson/cJSON.h>
#include "../core/util.h"
#include "../backend/device.h"

typedef enum { F_INT, F_FLOAT, F_U64, F_STR, F_TRUNK } ftype;
// One row per field: name, type, place in pf_config, the accepted range of a
// number (lo_open / hi_open: that end excluded) and what it means. Parsing,
// validation, config.json and the field reference in docs/TRAINING.md
// (`pairfold inspect --fields`) all come from this table. The integer bounds keep
// every size product of the model (at most crop_size^2 x msa_rows x heads x 8
// bytes, times n_blocks) far inside int64_t; they are generous, not advice.
typedef struct {
    const char *name;
    ftype type;
    size_t off, size;
    double lo, hi;
    int lo_open, hi_open;
    const char *doc;
} field;
#define FI(n, lo, hi, doc) {#n, F_INT, offsetof(pf_config, n), 0, lo, hi, 0, 0, doc}
#define FF(n, lo, hi, doc) {#n, F_FLOAT, offsetof(pf_config, n), 0, lo, hi, 0, 0, doc}
#define FFX(n, lo, hi, lo_open, hi_open, doc) {#n, F_FLOAT, offsetof(pf_config, n), 0, lo, hi, lo_open, hi_open, doc}
#define FS(n, doc) {#n, F_STR, offsetof(pf_config, n), sizeof(((pf_config *)0)->n), 0, 0, 0, 0, doc}
#define BIG 1000000000  // steps and step counts
static const field fields[] = {
    FS(preset, "the preset the run started from: tiny, af2, af3"),
    {"trunk", F_TRUNK, offsetof(pf_config, trunk), 0, 0, 0, 0, 0, "evoformer (AF2) or pairformer (AF3)"},
    FI(c_m, 1, 4096, "MSA channels"),
    FI(c_z, 1, 4096, "pair channels"),
    FI(c_s, 1, 4096, "single channels"),
    FI(c_e, 1, 4096, "extra-MSA channels (AF2)"),
    FI(n_blocks, 0, 512, "Evoformer or Pairformer blocks"),
    FI(n_extra_blocks, 0, 64, "AF2 extra-MSA stack blocks"),
    FI(n_msa_blocks, 0, 64, "AF3 MSA module blocks"),
    FI(heads_msa, 1, 64, "MSA row / column attention heads"),
    FI(c_h_msa, 1, 1024, "channels per MSA attention head"),
    FI(heads_pair, 1, 64, "triangle attention heads"),
    FI(c_h_pair, 1, 1024, "channels per triangle attention head"),
    FI(heads_single, 1, 64, "AF3 single attention (with pair bias) heads"),
    FI(c_h_single, 1, 1024, "channels per single attention head"),
    FI(heads_extra, 1, 64, "AF2 extra-MSA row / global column attention heads"),
    FI(c_h_extra, 1, 1024, "channels per extra-MSA attention head"),
    FI(heads_pwavg, 1, 64, "AF3 MSA pair-weighted averaging heads"),
    FI(c_h_pwavg, 1, 1024, "channels per pair-weighted averaging head"),
    FI(c_opm, 1, 1024, "outer product mean channels"),
    FI(c_trimul, 1, 4096, "triangle multiplication channels"),
    FI(transition_n, 1, 16, "transition widening factor"),
    FFX(dropout_msa, 0, 1, 0, 1, "dropout rate on MSA-stream updates (training only)"),
    FFX(dropout_pair, 0, 1, 0, 1, "dropout rate on pair-stream updates (training only)"),
    FI(n_bins, 2, 512, "distogram bins"),
    FF(min_bin, 0, 1000, "lower edge of the first finite distogram bin (Angstrom)"),
    FF(max_bin, 0, 1000, "upper edge of the last finite bin (Angstrom; above min_bin)"),
    FF(disto_weight, 0, 1000, "weight of the distogram loss"),
    FF(msa_weight, 0, 1000, "weight of the AF2 masked-MSA loss (Evoformer trunk only)"),
    FI(structure_module, 0, 1, "1: AF2 structure module, pLDDT and PAE heads after the trunk"),
    FI(sm_layers, 1, 64, "structure module layers (weights shared)"),
    FF(fape_weight, 0, 1000, "weight of backbone FAPE (mean over the structure module's layers)"),
    FF(torsion_weight, 0, 1000, "weight of the torsion-angle loss (pre-omega, phi, psi; mean over the layers)"),
    FF(plddt_weight, 0, 1000, "weight of the pLDDT head's loss"),
    FF(pae_weight, 0, 1000, "weight of the predicted aligned error head's loss (AF2: 0.1 when fine-tuning)"),
    FF(sidechain_fape_weight, 0, 1000, "weight of side-chain (all-atom) FAPE of the last layer; 0 while batches carry no side-chain atoms"),
    FI(recycles, 0, 32, "extra recycling passes (training samples 0..recycles per example)"),
    FI(recompute, 0, 512, "0: keep every block's activations; K >= 1: keep the inputs of every K-th block and re-run the forwards in the backward (1: each block once; K > 1: one more forward per block, about K times fewer kept inputs)"),
    FI(recompute_keep_attn, 0, 1, "1 (needs recompute >= 1): keep every attention module's core output (o and its softmax statistics; per Pairformer block about two pair-sized bf16 tensors) from the first forward, so the re-run forwards skip the attention cores: faster, same bits"),
    FI(recompute_offload, 0, 1, "1 (needs recompute >= 1, dap = 1): keep the segment starts' inputs (the pair and single streams of every recompute-th block) in page-locked host memory instead of on the GPU, copied out during the forward and back one segment ahead during the backward, beside the compute; the device keeps two of them: same bits"),
    FI(max_tokens, 0, 16384, "tokens the model's arenas are planned for (0: crop_size; predict: each query's length)"),
    FI(crop_size, 1, 8192, "residues per training crop"),
    FI(msa_rows, 1, 16384, "MSA cluster rows (the query included)"),
    FI(extra_msa_rows, 0, 16384, "AF2 extra MSA rows"),
    FF(spatial_crop_prob, 0, 1, "probability of a spatial (not contiguous) crop"),
    FF(bert_mask_prob, 0, 1, "probability that an MSA position is BERT-corrupted"),
    FS(data, "bundled, synthetic, or the path of a feature cache"),
    FI(synthetic_len, 0, 16384, "residues of each synthetic protein (0: 40 to 90, drawn per protein)"),
    FI(data_workers, 0, 64, "data worker threads (0: on the training thread)"),
    FI(prefetch, 0, 1024, "batches prepared ahead"),
    FI(n_val, 0, 4096, "held-out validation entries"),
    FI(val_crops, 1, 64, "fixed crops of each held-out entry that validation averages over"),
    FI(val_every, 0, BIG, "validate every N steps, at the first and at the last (0: only at the last)"),
    FI(steps, 0, BIG, "train until this step"),
    FI(grad_accum, 1, 4096, "examples per optimizer step (per process)"),
    FI(dap, 1, 4096, "axial parallelism: ranks that share one structure, each holding rows of its pair tensor "
                     "(must divide the number of ranks; 1: off; docs/PARALLEL.md)"),
    FFX(ema_decay, 0, 1, 0, 1, "weight EMA decay (0: off; AF2 0.999)"),
    {"seed", F_U64, offsetof(pf_config, seed), 0, 0, 0, 0, 0, "one seed for weights, data, dropout, recycling"},
    FF(lr, 0, 1, "peak learning rate"),
    FF(lr_min, 0, 1, "learning rate at the end of the cosine decay"),
    FF(weight_decay, 0, 1, "AdamW decoupled weight decay"),
    FFX(beta1, 0, 1, 0, 1, "AdamW first-moment decay"),
    FFX(beta2, 0, 1, 0, 1, "AdamW second-moment decay"),
    FFX(adam_eps, 0, 1, 1, 0, "AdamW epsilon"),
    FF(grad_clip, 0, 1e6, "global gradient-norm clip (0: off)"),
    FI(warmup_steps, 0, BIG, "linear learning-rate warmup steps"),
    FI(lr_decay_steps, 0, BIG, "cosine decay horizon in steps (0: the run's --steps, fixed when the run starts; a resume keeps it)"),
    FI(ckpt_every, 0, BIG, "checkpoint every N steps (0: only at the end and on a signal)"),
    FI(keep_checkpoints, 0, 1000000, "step directories kept in a run directory: the newest ones (0: keep all)"),
    FF(step_timeout_s, -1, 1e7, "seconds a training step may run before the run stops as hung (exit 3), naming the checkpoint to resume from: -1 off, 0 automatic (10 x the slowest step so far, at least 1800 s)"),
    FS(device, "cpu, cuda (bf16 activations) or cuda-fp32 (`--device`; CUDA needs `make CUDA=1`)"),
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
    c->sm_layers = 8;  // AF2 supplement 1.8 and loss weights (1.9): FAPE and torsions 0.5 each, pLDDT 0.01
    c->fape_weight = 0.5f;
    c->torsion_weight = 0.5f;
    c->plddt_weight = 0.01f;
    c->pae_weight = 0.0f;
    c->sidechain_fape_weight = 0.5f;  // AF2 1.9.2
    c->spatial_crop_prob = 0.5f;
    c->bert_mask_prob = 0.15f;
    snprintf(c->data, sizeof c->data, "bundled");
    c->data_workers = 2;
    c->grad_accum = 1;
    c->dap = 1;
    c->prefetch = 4;
    c->n_val = 4;
    c->val_every = 50;
    c->val_crops = 1;
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
    c->keep_checkpoints = 3;
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
        c->lr_decay_steps = 0;  // the decay spans the run, however many --steps it has
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

// "[lo, hi]", "[0, 1)", ... for messages and the field reference.
static void range_text(const field *f, char *buf, size_t n) {
    snprintf(buf, n, "%s%.10g, %.10g%s", f->lo_open ? "(" : "[", f->lo, f->hi, f->hi_open ? ")" : "]");
}

// Whether a number is inside f's range.
static int in_range(const field *f, double v) {
    if (!isfinite(v)) return 0;
    if (f->lo_open ? !(v > f->lo) : !(v >= f->lo)) return 0;
    if (f->hi_open ? !(v < f->hi) : !(v <= f->hi)) return 0;
    return 1;
}

static int out_of_range(const field *f, const char *value, char *err, size_t errlen) {
    char r[64];
    range_text(f, r, sizeof r);
    snprintf(err, errlen, "field '%s': %s is outside %s", f->name, value, r);
    return -1;
}

int pf_config_set(pf_config *c, const char *key, const char *value, char *err, size_t errlen) {
    const field *f = find_field(key);
    if (!f) { snprintf(err, errlen, "unknown configuration key '%s'", key); return -1; }
    char *end = NULL;
    void *p = (char *)c + f->off;
    errno = 0;
    switch (f->type) {
    case F_INT: {
        if (!*value || isspace((unsigned char)*value)) goto bad;
        long v = strtol(value, &end, 10);
        if (!end || *end || end == value) {
            snprintf(err, errlen, "field '%s': '%s' is not an integer", key, value);
            return -1;
        }
        if (errno || !in_range(f, (double)v)) return out_of_range(f, value, err, errlen);
        *(int *)p = (int)v;
        break;
    }
    case F_FLOAT: {
        if (!*value || isspace((unsigned char)*value)) goto bad;
        double v = strtod(value, &end);
        if (!end || *end || end == value) goto bad;
        if (errno == ERANGE && fabs(v) > 1) v = INFINITY;  // 1e400: an overflow, not a number to round
        if (!isfinite(v)) {
            snprintf(err, errlen, "field '%s': '%s' is not a finite number", key, value);
            return -1;
        }
        if (!in_range(f, v)) return out_of_range(f, value, err, errlen);
        *(float *)p = (float)v;
        break;
    }
    case F_U64: {
        if (*value < '0' || *value > '9') goto bad;  // strtoull would take "-1" as 2^64 - 1
        unsigned long long v = strtoull(value, &end, 10);
        if (errno || !end || *end || end == value) goto bad;
        *(uint64_t *)p = v;
        break;
    }
    case F_STR:
        if (strlen(value) >= f->size) { snprintf(err, errlen, "field '%s': value is too long (at most %zu characters)", key, f->size - 1); return -1; }
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
    snprintf(err, errlen, "field '%s': bad value '%s' (%s expected)", key, value,
             f->type == F_U64 ? "a non-negative integer" : f->type == F_INT ? "an integer" : "a number");
    return -1;
}

// The text pf_config_set takes for a JSON value of field f, or -1 with err when
// the JSON type does not fit the field (as strict as the command line: no
// booleans for numbers, no fractions for integers, no numbers for strings).
static int json_value_text(const field *f, const cJSON *it, char *buf, size_t n, char *err, size_t errlen) {
    const char *want = NULL;
    switch (f->type) {
    case F_INT:
    case F_U64:
        if (f->type == F_U64 && cJSON_IsString(it)) {  // seeds above 2^53 travel as strings
            snprintf(buf, n, "%s", it->valuestring);
            return 0;
        }
        if (!cJSON_IsNumber(it)) { want = "an integer"; break; }
        if (!isfinite(it->valuedouble)) { want = "a finite integer"; break; }
        if (it->valuedouble != floor(it->valuedouble)) {
            snprintf(err, errlen, "field '%s': %.17g is not an integer", f->name, it->valuedouble);
            return -1;
        }
        if (f->type == F_U64 && (it->valuedouble < 0 || it->valuedouble > 9007199254740992.0)) {
            snprintf(err, errlen, "field '%s': %.17g is not an exact non-negative integer (write seeds above 2^53 as strings)",
                     f->name, it->valuedouble);
            return -1;
        }
        snprintf(buf, n, "%.0f", it->valuedouble);
        return 0;
    case F_FLOAT:
        if (!cJSON_IsNumber(it)) { want = "a number"; break; }
        if (!isfinite(it->valuedouble)) {
            snprintf(err, errlen, "field '%s': not a finite number (overflow?)", f->name);
            return -1;
        }
        snprintf(buf, n, "%.17g", it->valuedouble);
        return 0;
    case F_STR:
    case F_TRUNK:
        if (!cJSON_IsString(it)) { want = "a string"; break; }
        snprintf(buf, n, "%s", it->valuestring);
        return 0;
    }
    const char *got = cJSON_IsBool(it) ? "a boolean" : cJSON_IsNull(it) ? "null" : cJSON_IsString(it) ? "a string"
                    : cJSON_IsNumber(it) ? "a number" : cJSON_IsArray(it) ? "an array" : "an object";
    snprintf(err, errlen, "field '%s' must be %s, not %s", f->name, want, got);
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
        char buf[600], e2[512];
        const field *f = find_field(it->string);
        if (!f) snprintf(e2, sizeof e2, "unknown configuration key '%s'", it->string), rc = -1;
        else if (json_value_text(f, it, buf, sizeof buf, e2, sizeof e2) != 0) rc = -1;
        else if (pf_config_set(c, it->string, buf, e2, sizeof e2) != 0) rc = -1;
        if (rc) snprintf(err, errlen, "%s: %s", source, e2);
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
            // the float's shortest round-trip text; a non-finite value (never
            // valid, see pf_config_validate) is written as null, not as "nan"
            float v = *(const float *)p;
            char b[32];
            if (isfinite(v)) {
                for (int prec = 6; prec <= 9; prec++) {
                    snprintf(b, sizeof b, "%.*g", prec, v);
                    if (strtof(b, NULL) == v) break;
                }
                cJSON_AddRawToObject(o, f->name, b);
            } else cJSON_AddNullToObject(o, f->name);
            break;
        }
        case F_U64: {
            uint64_t v = *(const uint64_t *)p;
            char b[32];
            snprintf(b, sizeof b, "%llu", (unsigned long long)v);
            if (v <= 9007199254740992ull) cJSON_AddRawToObject(o, f->name, b);
            else cJSON_AddStringToObject(o, f->name, b);  // exact in any JSON reader
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

void pf_config_describe(FILE *out) {
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        char r[64] = "";
        const char *type = "text";
        switch (f->type) {
        case F_INT: type = "integer"; range_text(f, r, sizeof r); break;
        case F_FLOAT: type = "number"; range_text(f, r, sizeof r); break;
        case F_U64: type = "integer"; snprintf(r, sizeof r, "[0, 2^64 - 1]"); break;
        case F_TRUNK: snprintf(r, sizeof r, "evoformer, pairformer"); break;
        case F_STR: break;
        }
        fprintf(out, "| `%s` | %s | %s | %s |\n", f->name, type, r, f->doc);
    }
}

int pf_config_validate(const pf_config *c, char *err, size_t errlen) {
    // every number in its range (a configuration built in code, or one of an older checkpoint)
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        const void *p = (const char *)c + f->off;
        char v[64];
        if (f->type == F_INT && !in_range(f, *(const int *)p)) snprintf(v, sizeof v, "%d", *(const int *)p);
        else if (f->type == F_FLOAT && !in_range(f, *(const float *)p)) snprintf(v, sizeof v, "%.9g", *(const float *)p);
        else continue;
        char e2[256];
        out_of_range(f, v, e2, sizeof e2);
        snprintf(err, errlen, "configuration: %s", e2);
        return -1;
    }
    if (c->trunk == PF_TRUNK_EVOFORMER && c->n_extra_blocks > 0 && c->extra_msa_rows <= 0) {
        snprintf(err, errlen, "configuration: the extra-MSA stack (n_extra_blocks > 0) needs extra_msa_rows > 0");
        return -1;
    }
    if (c->msa_weight > 0 && c->trunk != PF_TRUNK_EVOFORMER) {
        snprintf(err, errlen, "configuration: the masked-MSA loss (msa_weight) belongs to the AF2 (evoformer) trunk");
        return -1;
    }
    if (c->step_timeout_s < 0 && c->step_timeout_s != -1) {
        snprintf(err, errlen, "configuration: step_timeout_s = %g: expected -1 (off), 0 (automatic) or a positive number of seconds",
                 (double)c->step_timeout_s);
        return -1;
    }
    if (c->recompute_keep_attn && !c->recompute) {
        snprintf(err, errlen, "configuration: recompute_keep_attn = 1 needs recompute >= 1 (it keeps what the re-run forwards would recompute)");
        return -1;
    }
    if (c->recompute_offload && !c->recompute) {
        snprintf(err, errlen, "configuration: recompute_offload = 1 needs recompute >= 1 (it moves recompute's kept block inputs to host memory)");
        return -1;
    }
    if (c->recompute_offload && c->dap > 1) {
        snprintf(err, errlen, "configuration: recompute_offload = 1 with dap = %d is not implemented yet (the sharded trunk keeps its own block inputs; use dap = 1)", c->dap);
        return -1;
    }
    if (c->dap > c->crop_size) {
        snprintf(err, errlen, "configuration: dap = %d exceeds crop_size = %d (each rank needs at least one row)",
                 c->dap, c->crop_size);
        return -1;
    }
    if (!(c->max_bin > c->min_bin)) { snprintf(err, errlen, "configuration: max_bin must exceed min_bin"); return -1; }
    if (c->structure_module && c->dap > 1) {
        snprintf(err, errlen, "configuration: structure_module with dap = %d is not implemented yet (use dap = 1)", c->dap);
        return -1;
    }
    pf_device dev;
    char derr[128];
    if (pf_device_parse(c->device, &dev, derr, sizeof derr) != 0) {
        snprintf(err, errlen, "configuration: %s", derr);
        return -1;
    }
    return 0;
}
