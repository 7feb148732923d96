// api_core.c: version, errors and backends of the C API (pairfold.h).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "api_int.h"
#include "../core/version.h"
#include "../registry/registry.h"

static _Thread_local char last_error[2048];

int pf_api_fail(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

char *pf_api_err_buf(size_t *len) {
    *len = sizeof last_error;
    return last_error;
}

const char *pairfold_version(void) { return PF_VERSION; }
int pairfold_api_version(void) { return PAIRFOLD_API_VERSION; }
const char *pairfold_last_error(void) { return last_error; }

int pairfold_backend_create(const char *device, pairfold_backend **out) {
    if (!out) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_backend_create: out is NULL");
    *out = NULL;
    if (!device) return pf_api_fail(PAIRFOLD_ERR_ARG, "pairfold_backend_create: device is NULL");
    char err[512];
    pf_backend *be = pf_backend_open(device, 0, err, sizeof err);
    if (!be) return pf_api_fail(PAIRFOLD_ERR_DEVICE, "%s", err);
    pairfold_backend *h = calloc(1, sizeof *h);
    if (!h) {
        if (be->destroy) be->destroy(be);
        return pf_api_fail(PAIRFOLD_ERR_ARG, "out of memory");
    }
    h->be = be;
    *out = h;
    return PAIRFOLD_OK;
}

const char *pairfold_backend_name(const pairfold_backend *h) { return h && h->be ? h->be->name : ""; }

void pairfold_backend_free(pairfold_backend *h) {
    if (!h) return;
    if (h->be && h->be->destroy) h->be->destroy(h->be);
    free(h);
}
