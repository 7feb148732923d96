// api_block.c: one trunk block through the C API (pairfold.h): the block of
// `pairfold block` (src/cli/cmd_block.c) on caller-provided float32 buffers.
#include <stdlib.h>
#include <string.h>
#include "api_int.h"
#include "../core/util.h"
#include "../model/config.h"
#include "../format/safetensors.h"

static int kind_by_name(const char *s) {
    static const char *const n[] = {"evoformer", "extra_msa", "pairformer", "msa_module"};
    static const int k[] = {PF_BLOCK_EVOFORMER, PF_BLOCK_EXTRA_MSA, PF_BLOCK_PAIRFORMER, PF_BLOCK_MSA_MODULE};
    for (int i = 0; s && i < 4; i++)
        if (!strcmp(s, n[i])) return k[i];
    return -1;
}

// Buffers of the last forward, released before the next one and at free.
void pf_api_release_pass(pairfold_block *h) {
    pf_backend *be = h->be;
    for (int k = 0; k < PF_NSTREAMS; k++)
        if (h->st.x[k]) be->free(be, h->st.x[k]);
    for (int k = 0; k < PF_NMASKS; k++)
        if (h->st.mask[k]) be->free(be, (void *)h->st.mask[k]);
    void *bufs[4] = {h->saved, h->ws, h->delta, h->dd};
    for (int k = 0; k < 4; k++)
        if (bufs[k]) be->free(be, bufs[k]);
    memset(&h->st, 0, sizeof h->st);
    h->saved = h->ws = NULL;
    h->delta = h->dd = NULL;
    h->kept = 0;
}

int pairfold_block_create(pairfold_backend *bh, const char *kind, const char *preset, const char *config_json,
                          pairfold_block **out) {
    if (!out) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_create: out is NULL");
    *out = NULL;
    if (!bh || !bh->be) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_create: no backend");
    int k = kind_by_name(kind), module = pf_api_module_kind(kind);
    if (k < 0 && module < 0)
        return pf_api_fail(PAIRFOLD_ERR_ARG,
                           "unknown block kind '%s' (evoformer, extra_msa, pairformer, msa_module; modules tri_mul_out, tri_mul_in)",
                           kind ? kind : "(null)");
    pf_config cfg;
    if (pf_config_preset(&cfg, preset ? preset : "af3") != 0)
        return pf_api_fail(PAIRFOLD_ERR_ARG, "unknown preset '%s' (tiny, af2, af3)", preset);
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    if (config_json && pf_config_apply_json(&cfg, config_json, "config", err, elen) != 0) return PAIRFOLD_ERR_ARG;
    if (pf_config_validate(&cfg, err, elen) != 0) return PAIRFOLD_ERR_ARG;
    pairfold_block *h = pf_calloc(1, sizeof *h);
    h->be = bh->be;
    h->cfg = cfg;
    pf_params_init_registry(&h->P);
    h->module = module;
    if (module >= 0) pf_api_module_declare(h, module);
    else pf_block_declare(&h->b, k, &cfg, &h->P, "block");
    if (pf_block_check_backend(&h->b, h->be, err, elen) != 0) {
        pf_params_free(&h->P);
        pf_free(h);
        return PAIRFOLD_ERR_DEVICE;
    }
    for (int i = 0; i < h->b.n; i++) h->rates[i] = h->b.step[i].dropout;
    pf_params_bind(&h->P, h->be);  // values and gradients zeroed
    *out = h;
    return PAIRFOLD_OK;
}

void pairfold_block_free(pairfold_block *h) {
    if (!h) return;
    pf_api_release_pass(h);
    pf_params_free(&h->P);
    pf_free(h);
}

int pairfold_block_channels(const pairfold_block *h, int c[3]) {
    if (!h || !c) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_channels: NULL argument");
    for (int k = 0; k < PF_NSTREAMS; k++) c[k] = h->b.c[k];
    return PAIRFOLD_OK;
}

int pairfold_block_param_count(const pairfold_block *h) { return h ? h->P.n : 0; }

int pairfold_block_param_info(const pairfold_block *h, int i, const char **name, int *ndim, int64_t shape[2]) {
    if (!h || i < 0 || i >= h->P.n)
        return pf_api_fail(PAIRFOLD_ERR_ARG, "parameter index %d outside [0, %d)", i, h ? h->P.n : 0);
    const pf_param *t = &h->P.t[i];
    if (name) *name = t->name + NAME_SKIP;
    if (ndim) *ndim = t->ndim;
    if (shape) shape[0] = t->shape[0], shape[1] = t->ndim > 1 ? t->shape[1] : 0;
    return PAIRFOLD_OK;
}

// The parameter `name` (without "block.") with exactly n elements, or NULL with the error set.
static const pf_param *find_param(const pairfold_block *h, const char *name, int64_t n) {
    char full[256];
    if (!h || !name) { pf_api_fail(PAIRFOLD_ERR_ARG, "NULL block or parameter name"); return NULL; }
    snprintf(full, sizeof full, "block.%s", name);
    const pf_param *t = pf_params_find(&h->P, full);
    if (!t) pf_api_fail(PAIRFOLD_ERR_ARG, "the block has no parameter '%s'", name);
    else if (t->numel != n) {
        pf_api_fail(PAIRFOLD_ERR_ARG, "parameter '%s' has %lld elements, not %lld", name, (long long)t->numel,
                    (long long)n);
        t = NULL;
    }
    return t;
}

// Backend `real` memory <-> caller floats (real is float in the library build).
static void put_reals(pf_backend *be, real *dst, const float *src, int64_t n) {
    real *tmp = pf_malloc(sizeof(real) * (size_t)n + 8);
    for (int64_t i = 0; i < n; i++) tmp[i] = (real)src[i];
    be->upload(be, dst, tmp, sizeof(real) * (size_t)n);
    pf_free(tmp);
}
static void get_reals(pf_backend *be, float *dst, const real *src, int64_t n) {
    real *tmp = pf_malloc(sizeof(real) * (size_t)n + 8);
    be->download(be, tmp, src, sizeof(real) * (size_t)n);
    for (int64_t i = 0; i < n; i++) dst[i] = (float)tmp[i];
    pf_free(tmp);
}

int pairfold_block_set_param(pairfold_block *h, const char *name, const float *data, int64_t n) {
    const pf_param *t = find_param(h, name, n);
    if (!t) return PAIRFOLD_ERR_ARG;
    if (!data) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_set_param: data is NULL");
    put_reals(h->be, h->P.data + t->offset, data, n);
    return PAIRFOLD_OK;
}

int pairfold_block_get_param(const pairfold_block *h, const char *name, float *data, int64_t n) {
    const pf_param *t = find_param(h, name, n);
    if (!t) return PAIRFOLD_ERR_ARG;
    if (!data) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_get_param: data is NULL");
    get_reals(h->be, data, h->P.data + t->offset, n);
    return PAIRFOLD_OK;
}

int pairfold_block_get_grad(const pairfold_block *h, const char *name, float *data, int64_t n) {
    const pf_param *t = find_param(h, name, n);
    if (!t) return PAIRFOLD_ERR_ARG;
    if (!data) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_get_grad: data is NULL");
    get_reals(h->be, data, h->P.grad + t->offset, n);
    return PAIRFOLD_OK;
}

int pairfold_block_zero_grad(pairfold_block *h) {
    if (!h) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_zero_grad: block is NULL");
    pf_params_zero_grad(&h->P);
    return PAIRFOLD_OK;
}

int pairfold_block_load_weights(pairfold_block *h, const char *path, const char *prefix) {
    if (!h || !path) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_load_weights: NULL argument");
    size_t elen;
    char *err = pf_api_err_buf(&elen);
    pf_st_file *W = pf_st_open(path, err, elen);
    if (!W) return PAIRFOLD_ERR_IO;
    int rc = PAIRFOLD_OK;
    real *host = pf_calloc((size_t)h->P.total + 1, sizeof(real));  // (P.total) all values, uploaded at once
    for (int i = 0; i < h->P.n && rc == PAIRFOLD_OK; i++) {
        const pf_param *t = &h->P.t[i];
        char wname[512];
        snprintf(wname, sizeof wname, "%s%s", prefix ? prefix : "", t->name + NAME_SKIP);
        const pf_st_tensor *w = pf_st_find(W, wname);
        if (!w) rc = pf_api_fail(PAIRFOLD_ERR_IO, "%s: tensor '%s' missing", path, wname);
        else if (strcmp(w->dtype, "F32") || (int64_t)(w->nbytes / 4) != t->numel)
            rc = pf_api_fail(PAIRFOLD_ERR_IO, "%s: tensor '%s' must be F32 with %lld elements (has %s, %zu bytes)", path,
                             wname, (long long)t->numel, w->dtype, w->nbytes);
        else
            for (int64_t q = 0; q < t->numel; q++) {
                float v;
                memcpy(&v, (const unsigned char *)w->data + 4 * q, 4);
                host[t->offset + q] = (real)v;
            }
    }
    if (rc == PAIRFOLD_OK) h->be->upload(h->be, h->P.data, host, sizeof(real) * (size_t)h->P.total);
    pf_free(host);
    pf_st_close(W);
    return rc;
}

// A new activation buffer of n elements (+1: never a zero-byte allocation) from
// caller floats, or filled with `fill` when src is NULL.
pf_act *pf_api_act_from_floats(pf_backend *be, const float *src, int64_t n, real fill) {
    real *tmp = pf_malloc(sizeof(real) * (size_t)n + 8);
    for (int64_t i = 0; i < n; i++) tmp[i] = src ? (real)src[i] : fill;
    pf_act *a = be->alloc(be, pf_act_size(be, n + 1));
    be->act_from_real(be, a, tmp, n);
    pf_free(tmp);
    return a;
}
void pf_api_act_to_floats(pf_backend *be, float *dst, const pf_act *a, int64_t n) {
    real *tmp = pf_malloc(sizeof(real) * (size_t)n + 8);
    be->act_to_real(be, tmp, a, n);
    for (int64_t i = 0; i < n; i++) dst[i] = (float)tmp[i];
    pf_free(tmp);
}

#define MAX_TOKENS 100000   // as the data readers' residue caps: N * N * c stays far from int64 overflow
#define MAX_ROWS 1000000

int pairfold_block_forward(pairfold_block *h, int64_t N, int64_t S, float *m, float *z, float *s,
                           const float *msa_mask, const float *pair_mask, const float *seq_mask, unsigned flags,
                           uint64_t seed) {
    if (!h) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_forward: block is NULL");
    if (h->module >= 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_forward: a module (use pairfold_module_forward)");
    if (N < 1 || N > MAX_TOKENS || S < 1 || S > MAX_ROWS)
        return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_forward: N %lld outside [1, %d] or S %lld outside [1, %d]",
                           (long long)N, MAX_TOKENS, (long long)S, MAX_ROWS);
    if (flags & ~(PAIRFOLD_TRAIN | PAIRFOLD_KEEP))
        return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_forward: unknown flags 0x%x", flags);
    pf_backend *be = h->be;
    pf_api_release_pass(h);
    h->training = (flags & PAIRFOLD_TRAIN) != 0;
    h->seed = seed;
    // evaluation: no dropout in the forward, and so none in the backward either
    for (int i = 0; i < h->b.n; i++) h->b.step[i].dropout = h->training ? h->rates[i] : 0;
    pf_block_plan(&h->b, be, N, S);
    const int *c = h->b.c;
    int64_t n[PF_NSTREAMS] = {S * N * c[PF_STREAM_M], N * N * c[PF_STREAM_Z], N * c[PF_STREAM_S]};
    int64_t nm[PF_NMASKS] = {S * N, N * N, N}, big = 0;
    float *x[PF_NSTREAMS] = {m, z, s};
    const float *mk[PF_NMASKS] = {msa_mask, pair_mask, seq_mask};
    h->N = N, h->S = S;
    h->st.N = N, h->st.S = S;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        h->n[k] = n[k];
        h->st.x[k] = pf_api_act_from_floats(be, x[k], n[k], 0);  // (S, N, c_m) (N, N, c_z) (N, c_s)
        big = PF_MAX(big, n[k]);
    }
    for (int k = 0; k < PF_NMASKS; k++) h->st.mask[k] = pf_api_act_from_floats(be, mk[k], nm[k], 1);  // (S, N) (N, N) (N)
    if (flags & PAIRFOLD_KEEP) h->saved = be->alloc(be, h->b.saved_bytes + 1);
    h->ws = be->alloc(be, h->b.ws_bytes + 1);
    h->delta = be->alloc(be, pf_act_size(be, big + 1));  // (largest stream) each
    h->dd = be->alloc(be, pf_act_size(be, big + 1));
    pf_block_fwd(&h->b, be, &h->st, h->saved, h->ws, h->delta, seed, h->training);
    for (int k = 0; k < PF_NSTREAMS; k++)
        if (x[k]) pf_api_act_to_floats(be, x[k], h->st.x[k], n[k]);
    h->kept = (flags & PAIRFOLD_KEEP) != 0;
    return PAIRFOLD_OK;
}

int pairfold_block_backward(pairfold_block *h, float *d_m, float *d_z, float *d_s) {
    if (!h) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_backward: block is NULL");
    if (h->module >= 0) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_block_backward: a module (use pairfold_module_backward)");
    if (!h->kept)
        return pf_api_fail(PAIRFOLD_ERR_STATE, "pairfold_block_backward: no forward kept (run the forward with PAIRFOLD_KEEP)");
    pf_backend *be = h->be;
    float *dx[PF_NSTREAMS] = {d_m, d_z, d_s};
    pf_streams d = {.N = h->N, .S = h->S};
    for (int k = 0; k < PF_NMASKS; k++) d.mask[k] = h->st.mask[k];
    for (int k = 0; k < PF_NSTREAMS; k++) d.x[k] = pf_api_act_from_floats(be, dx[k], h->n[k], 0);
    // the ops accumulate into parameter gradients and read `saved` only, so a
    // second backward of the same forward adds the same gradients again
    pf_block_bwd(&h->b, be, &h->st, &d, h->saved, h->ws, h->dd, h->seed);
    for (int k = 0; k < PF_NSTREAMS; k++) {
        if (dx[k]) pf_api_act_to_floats(be, dx[k], d.x[k], h->n[k]);
        be->free(be, d.x[k]);
    }
    return PAIRFOLD_OK;
}
