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

// An integer setting: name unset or empty: dflt; an integer in [lo, hi]: it; anything else stops
// with "NAME=VALUE: expected WHAT, an integer from LO to HI (default DFLT)".
static inline long cu_env_int(const char *name, long lo, long hi, long dflt, const char *what) {
    const char *e = getenv(name);
    if (!e || !*e) return dflt;
    char *end = NULL;
    long v = strtol(e, &end, 10);
    if (*end || v < lo || v > hi)
        pf_die("%s=%s: expected %s, an integer from %ld to %ld (default %ld)", name, e, what, lo, hi, dflt);
    return v;
}

// A process-wide on/off switch: the environment's value (cu_env_flag) read at the first use,
// or what a test set (cu_switch_set: 0 or 1; anything else returns it to the environment's).
typedef struct {
    int v;  // -1 until read or set
    const char *name;
    int dflt;
    const char *off, *on;  // the meanings of 0 and 1, for the error message
} cu_switch;
static inline int cu_switch_on(cu_switch *s) {
    if (s->v < 0) s->v = cu_env_flag(s->name, s->dflt, s->off, s->on);
    return s->v;
}
static inline void cu_switch_set(cu_switch *s, int on) { s->v = on == 0 || on == 1 ? on : -1; }

// A process-wide integer setting (lo >= 0), cu_switch's twin: cu_env_int's value read at the first use, or
// what a test set (cu_setting_set: in [lo, hi]; anything else returns it to the environment's; returns the
// value before the call).
typedef struct {
    int v;  // -1 until read or set
    const char *name;
    int lo, hi, dflt;
    const char *what;  // for the error message
} cu_setting;
static inline int cu_setting_get(cu_setting *s) {
    if (s->v < 0) s->v = (int)cu_env_int(s->name, s->lo, s->hi, s->dflt, s->what);
    return s->v;
}
static inline int cu_setting_set(cu_setting *s, int n) {
    const int was = cu_setting_get(s);
    s->v = n >= s->lo && n <= s->hi ? n : -1;
    return was;
}
#endif
