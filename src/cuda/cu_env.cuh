// cu_env.cuh: the CUDA backend's on/off switches read from the environment (A/B runs of
// a new path against the old one). One parser, so every switch refuses a bad value the
// same way: "NAME=VALUE: expected 0 (...) or 1 (...)".
#ifndef PF_CU_ENV_CUH
#define PF_CU_ENV_CUH
#include "cu_common.cuh"
#include <stdlib.h>
#include <string.h>

// name unset or empty: dflt; "0": 0; "1": 1; anything else stops with the meanings of 0 and 1
static inline int cu_env_flag(const char *name, int dflt, const char *off, const char *on) {
    const char *e = getenv(name);
    if (!e || !*e) return dflt;
    if (!strcmp(e, "0")) return 0;
    if (!strcmp(e, "1")) return 1;
    pf_die("%s=%s: expected 0 (%s) or 1 (%s)", name, e, off, on);
    return dflt;
}
#endif
