#include "checkpoint.h"
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "safetensors.h"
#include "../core/util.h"

#ifdef PF_DOUBLE
#define ST_REAL "F64"
#else
#define ST_REAL "F32"
#endif

// Index of the first nan / inf among n values, or -1.
static int64_t first_nonfinite(const real *x, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return i;
    return -1;
}

// Write one safetensors file: every parameter (suffix NULL) or its optimizer moment.
static int write_tensors(const char *path, const pf_params *P, const real *host, const char *suffix,
                         const real *host2, const char *suffix2, const char *const *meta, char *err, size_t errlen) {
    int per = host2 ? 2 : 1, n = P->n * per;
    pf_st_tensor *ts = pf_calloc((size_t)n, sizeof *ts);
    char **names = pf_calloc((size_t)n, sizeof(char *));
    for (int i = 0; i < P->n; i++)
        for (int k = 0; k < per; k++) {
            const pf_param *t = &P->t[i];
            pf_st_tensor *s = &ts[i * per + k];
            const char *suf = k ? suffix2 : suffix;
            size_t len = strlen(t->name) + (suf ? strlen(suf) : 0) + 1;
            names[i * per + k] = malloc(len);
            snprintf(names[i * per + k], len, "%s%s", t->name, suf ? suf : "");
            s->name = names[i * per + k];
            s->dtype = ST_REAL;
            s->ndim = t->ndim;
            s->shape[0] = t->shape[0];
            s->shape[1] = t->shape[1];
            s->data = (k ? host2 : host) + t->offset;
            s->nbytes = sizeof(real) * (size_t)t->numel;
        }
    int rc = pf_st_write(path, ts, n, meta, err, errlen);
    for (int i = 0; i < n; i++) free(names[i]);
    pf_free(names);
    pf_free(ts);
    return rc;
}

int pf_ckpt_save(const char *run_dir, pf_model *M, const pf_optim *o, int64_t step,
                 char *path_out, size_t path_len, char *err, size_t errlen) {
    char rel[64], dir[4096], path[4200];
    snprintf(rel, sizeof rel, "checkpoints/step_%06lld", (long long)step);
    snprintf(dir, sizeof dir, "%s/%s", run_dir, rel);
    if (pf_mkdir_p(dir) != 0) {
        snprintf(err, errlen, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    pf_params *P = &M->P;
    pf_backend *be = M->be;
    size_t bytes = sizeof(real) * (size_t)(P->total ? P->total : 1);
    real *host = pf_malloc(bytes);
    be->download(be, host, P->data, bytes);
    for (int i = 0; i < P->n; i++) {  // a diverged step's weights are never saved
        int64_t bad = first_nonfinite(host + P->t[i].offset, P->t[i].numel);
        if (bad >= 0) {
            snprintf(err, errlen, "step %lld: weight '%s' is not finite (element %lld); checkpoint not written",
                     (long long)step, P->t[i].name, (long long)bad);
            pf_free(host);
            return -1;
        }
    }
    char stepbuf[32];
    snprintf(stepbuf, sizeof stepbuf, "%lld", (long long)step);
    char *cfgjson = pf_config_to_json(&M->cfg);
    const char *meta[] = {"format", PF_CKPT_FORMAT, "format_version", PF_CKPT_VERSION, "step", stepbuf,
                          "trunk", pf_trunk_name(M->cfg.trunk), "real", PF_REAL_NAME, "config", cfgjson, NULL};
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    int rc = write_tensors(path, P, host, NULL, NULL, NULL, meta, err, errlen);
    if (rc == 0 && o) {
        real *host2 = pf_malloc(bytes);
        be->download(be, host, o->m, bytes);
        be->download(be, host2, o->v, bytes);
        snprintf(path, sizeof path, "%s/optimizer.safetensors", dir);
        rc = write_tensors(path, P, host, ".exp_avg", host2, ".exp_avg_sq", meta, err, errlen);
        pf_free(host2);
    }
    if (rc == 0 && o && o->ema) {  // the averaged weights, under the parameter names
        be->download(be, host, o->ema, bytes);
        snprintf(path, sizeof path, "%s/ema.safetensors", dir);
        rc = write_tensors(path, P, host, NULL, NULL, NULL, meta, err, errlen);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/config.json", dir);
        if (pf_write_atomic(path, cfgjson, strlen(cfgjson)) != 0) {
            snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0) {
        char line[80];
        snprintf(line, sizeof line, "%s\n", rel);
        snprintf(path, sizeof path, "%s/latest", run_dir);
        if (pf_write_atomic(path, line, strlen(line)) != 0) {
            snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && path_out) snprintf(path_out, path_len, "%s", dir);
    free(cfgjson);
    pf_free(host);
    return rc;
}

int pf_ckpt_resolve(const char *dir, char *step_dir, size_t len, char *err, size_t errlen) {
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    if (stat(path, &st) == 0) {
        snprintf(step_dir, len, "%s", dir);
        return 0;
    }
    snprintf(path, sizeof path, "%s/latest", dir);
    char *latest = pf_read_file(path, NULL);
    if (!latest) {
        snprintf(err, errlen, "%s: not a checkpoint (no model.safetensors, no latest file)", dir);
        return -1;
    }
    latest[strcspn(latest, "\r\n")] = 0;
    snprintf(step_dir, len, "%s/%s", dir, latest);
    free(latest);
    snprintf(path, sizeof path, "%s/model.safetensors", step_dir);
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: checkpoint named by %s/latest is missing", path, dir);
        return -1;
    }
    return 0;
}

int pf_ckpt_read_config(const char *dir, pf_config *cfg, char *err, size_t errlen) {
    char sd[4096], path[4200];
    if (pf_ckpt_resolve(dir, sd, sizeof sd, err, errlen) != 0) return -1;
    snprintf(path, sizeof path, "%s/config.json", sd);
    char *json = pf_read_file(path, NULL);
    if (!json) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    // "bf16" was a field of the configuration before the device named the CUDA
    // precision ("cuda" / "cuda-fp32"); checkpoints written then still load.
    cJSON *root = cJSON_Parse(json);
    if (root && cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "bf16")) {
        cJSON_DeleteItemFromObjectCaseSensitive(root, "bf16");
        char *text = cJSON_PrintUnformatted(root);
        char *copy = text ? strdup(text) : NULL;
        if (copy) {
            free(json);
            json = copy;
        }
        cJSON_free(text);
    }
    cJSON_Delete(root);
    pf_config_preset(cfg, "tiny");
    int rc = pf_config_apply_json(cfg, json, path, err, errlen);
    free(json);
    return rc;
}

// Copy tensors named <param><suffix> from f into the host buffer.
static int read_tensors(pf_st_file *f, const char *path, const pf_params *P, const char *suffix, real *host,
                        char *err, size_t errlen) {
    for (int i = 0; i < P->n; i++) {
        const pf_param *t = &P->t[i];
        char name[256];
        snprintf(name, sizeof name, "%s%s", t->name, suffix ? suffix : "");
        const pf_st_tensor *s = pf_st_find(f, name);
        if (!s) {
            snprintf(err, errlen, "%s: tensor '%s' missing", path, name);
            return -1;
        }
        int shape_ok = s->ndim == t->ndim && s->shape[0] == t->shape[0] && (t->ndim == 1 || s->shape[1] == t->shape[1]);
        if (!shape_ok) {
            snprintf(err, errlen, "%s: tensor '%s' has shape [%lld%s%lld], the model expects [%lld, %lld]", path, name,
                     (long long)s->shape[0], s->ndim > 1 ? ", " : "", s->ndim > 1 ? (long long)s->shape[1] : 0LL,
                     (long long)t->shape[0], (long long)t->shape[1]);
            return -1;
        }
        real *dst = host + t->offset;
        if (!strcmp(s->dtype, "F32")) {
            const unsigned char *src = s->data;
            for (int64_t j = 0; j < t->numel; j++) { float v; memcpy(&v, src + 4 * j, 4); dst[j] = (real)v; }
        } else if (!strcmp(s->dtype, "F64")) {
            const unsigned char *src = s->data;
            for (int64_t j = 0; j < t->numel; j++) { double v; memcpy(&v, src + 8 * j, 8); dst[j] = (real)v; }
        } else {
            snprintf(err, errlen, "%s: tensor '%s' has dtype %s (F32 or F64 expected)", path, name, s->dtype);
            return -1;
        }
        int64_t bad = first_nonfinite(dst, t->numel);
        if (bad >= 0) {  // a diverged run's weights, or values too large for this build's precision
            snprintf(err, errlen, "%s: tensor '%s' has a non-finite value (element %lld is %g): refusing to use it", path,
                     name, (long long)bad, (double)dst[bad]);
            return -1;
        }
    }
    return 0;
}

static int load_file(const char *path, const pf_params *P, const char *suffix, const char *suffix2,
                     real *host, real *host2, int64_t *step, char *err, size_t errlen) {
    pf_st_file *f = pf_st_open(path, err, errlen);
    if (!f) return -1;
    int rc = 0;
    const char *fmt = pf_st_meta(f, "format");
    if (!fmt || strcmp(fmt, PF_CKPT_FORMAT) != 0) {
        // a plain safetensors file (e.g. weights exported from PyTorch) is fine for weights
        if (suffix) { snprintf(err, errlen, "%s: not a pairfold optimizer file", path); rc = -1; }
    } else if (!pf_st_meta(f, PF_ST_CRC_KEY))  // pf_st_open verified it when present
        pf_warn("%s: no checksum (written by an older pairfold): loaded without verifying it", path);
    if (rc == 0) rc = read_tensors(f, path, P, suffix, host, err, errlen);
    if (rc == 0 && host2) rc = read_tensors(f, path, P, suffix2, host2, err, errlen);
    const char *st = pf_st_meta(f, "step");
    if (rc == 0 && step) *step = st ? strtoll(st, NULL, 10) : 0;
    pf_st_close(f);
    return rc;
}

int pf_ckpt_load(const char *dir, pf_model *M, pf_optim *o, int64_t *step, char *err, size_t errlen) {
    char sd[4096], path[4200];
    if (pf_ckpt_resolve(dir, sd, sizeof sd, err, errlen) != 0) return -1;
    pf_params *P = &M->P;
    pf_backend *be = M->be;
    size_t bytes = sizeof(real) * (size_t)(P->total ? P->total : 1);
    real *host = pf_calloc(bytes, 1), *host2 = NULL;
    int64_t s1 = 0, s2 = 0;
    snprintf(path, sizeof path, "%s/model.safetensors", sd);
    int rc = load_file(path, P, NULL, NULL, host, NULL, &s1, err, errlen);
    if (rc == 0) be->upload(be, P->data, host, bytes);
    if (rc == 0 && o) {
        host2 = pf_calloc(bytes, 1);
        snprintf(path, sizeof path, "%s/optimizer.safetensors", sd);
        rc = load_file(path, P, ".exp_avg", ".exp_avg_sq", host, host2, &s2, err, errlen);
        if (rc == 0 && s1 != s2) {
            snprintf(err, errlen, "%s: optimizer step %lld does not match model step %lld", sd, (long long)s2, (long long)s1);
            rc = -1;
        }
        if (rc == 0) {
            be->upload(be, o->m, host, bytes);
            be->upload(be, o->v, host2, bytes);
            o->step = s1;
        }
        if (rc == 0 && o->ema) {
            struct stat st;
            snprintf(path, sizeof path, "%s/ema.safetensors", sd);
            if (stat(path, &st) != 0) {  // EMA switched on at resume, or an older checkpoint
                pf_warn("%s: no ema.safetensors; the weight average starts from the loaded weights", sd);
                be->copy(be, o->ema, P->data, bytes);
            } else {
                rc = load_file(path, P, NULL, NULL, host, NULL, &s2, err, errlen);
                if (rc == 0 && s1 != s2) {
                    snprintf(err, errlen, "%s: EMA step %lld does not match model step %lld", sd, (long long)s2, (long long)s1);
                    rc = -1;
                }
                if (rc == 0) be->upload(be, o->ema, host, bytes);
            }
        }
    }
    if (rc == 0 && step) *step = s1;
    pf_free(host);
    pf_free(host2);
    return rc;
}

int pf_ckpt_load_ema_weights(const char *dir, pf_model *M, char *err, size_t errlen) {
    char sd[4096], path[4200];
    struct stat st;
    if (pf_ckpt_resolve(dir, sd, sizeof sd, err, errlen) != 0) return -1;
    snprintf(path, sizeof path, "%s/ema.safetensors", sd);
    if (stat(path, &st) != 0) return 1;
    pf_params *P = &M->P;
    size_t bytes = sizeof(real) * (size_t)(P->total ? P->total : 1);
    real *host = pf_calloc(bytes, 1);
    int rc = load_file(path, P, NULL, NULL, host, NULL, NULL, err, errlen);
    if (rc == 0) M->be->upload(M->be, P->data, host, bytes);
    pf_free(host);
    return rc;
}
