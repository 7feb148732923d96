// api_int.h: what the files of the C API share (not installed).
#ifndef PF_API_INT_H
#define PF_API_INT_H
#include <stddef.h>
#include "pairfold.h"
#include "../backend/backend.h"

struct pairfold_backend {
    pf_backend *be;
};

// Record the message for pairfold_last_error() and return status (printf-style).
int pf_api_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// The thread's message buffer (for functions that fill it themselves) and its size.
char *pf_api_err_buf(size_t *len);

#endif
