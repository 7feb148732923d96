// rng.h: counter-based random numbers. Every random draw in pairfold is a pure
// function of (seed, stream, index), so a resumed run, another thread count or
// another backend sees the same numbers.
#ifndef PF_RNG_H
#define PF_RNG_H
#include <stdint.h>

// 64-bit mix of a counter (splitmix64 finaliser).
static inline uint64_t pf_mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static inline uint64_t pf_hash2(uint64_t a, uint64_t b) { return pf_mix64(a ^ pf_mix64(b)); }
static inline uint64_t pf_hash3(uint64_t a, uint64_t b, uint64_t c) { return pf_hash2(pf_hash2(a, b), c); }

// Uniform in [0, 1) with 53 random bits.
static inline double pf_uniform(uint64_t key, uint64_t i) {
    return (double)(pf_hash2(key, i) >> 11) * (1.0 / 9007199254740992.0);
}
// Uniform as float in [0,1) with 24 random bits: identical on CPU and GPU.
static inline float pf_uniform_f(uint64_t key, uint64_t i) {
    return (float)(pf_hash2(key, i) >> 40) * (1.0f / 16777216.0f);
}
double pf_normal(uint64_t key, uint64_t i);  // standard normal (Box-Muller on two draws)
uint64_t pf_hash_str(const char *s);           // FNV-1a then mixed

// A sequential stream for host code that just wants "the next number".
typedef struct { uint64_t key, ctr; } pf_rng;
static inline pf_rng pf_rng_make(uint64_t seed, uint64_t stream) { pf_rng r = {pf_hash2(seed, stream), 0}; return r; }
static inline double pf_rng_uniform(pf_rng *r) { return pf_uniform(r->key, r->ctr++); }
static inline double pf_rng_normal(pf_rng *r) { double v = pf_normal(r->key, r->ctr); r->ctr += 2; return v; }
static inline uint64_t pf_rng_u64(pf_rng *r) { return pf_hash2(r->key, r->ctr++); }
static inline int pf_rng_int(pf_rng *r, int n) { return (int)(pf_rng_u64(r) % (uint64_t)n); }

#endif
