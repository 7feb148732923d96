#include "rng.h"
#include <math.h>

double pf_normal(uint64_t key, uint64_t i) {
    double u1 = pf_uniform(key, 2 * i), u2 = pf_uniform(key, 2 * i + 1);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t pf_hash_str(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return pf_mix64(h);
}
