// cuda_harness.h: helpers for test_cuda.c: paired CPU / GPU buffers with guard
// regions, parameter sets mirrored on both backends, comparisons.
#ifndef PF_CUDA_HARNESS_H
#define PF_CUDA_HARNESS_H
#include <stdint.h>
#include "../../src/backend/backend.h"

extern pf_backend *H_cpu, *H_gpu;
extern double H_tol;      // relative tolerance of this mode (1e-4 fp32, 2e-2 bf16)
extern int H_bf16;

// An activation tensor on both backends: h (CPU, `real`), d (GPU act type).
// The GPU buffer has guard bytes on both sides, checked by h_guards_ok().
typedef struct { real *h; void *d; int64_t n; } hbuf;
// Random values, rounded through the GPU act type so both sides see the same input.
hbuf h_rand(int64_t n, double scale, uint64_t seed);
hbuf h_mask(int64_t n, int64_t row, double frac, uint64_t seed);
hbuf h_poison(int64_t n);  // NaN on both sides (outputs that must be overwritten)
hbuf h_copy(const hbuf *b);  // independent copy on both sides
void h_refresh(hbuf *b);     // re-upload b->h to the GPU (act type)
real *h_download(const hbuf *b);  // GPU contents as real (pool memory)
// Raw GPU memory with guards, filled with 0xFF bytes (NaN in fp32 and bf16).
void *h_gpu_raw(size_t bytes);
int h_guards_ok(void);   // every guard intact
void h_free_all(void);   // releases GPU buffers allocated since the last call

// Parameters mirrored on both backends. Gradients start at random values (the
// same on both sides), so accumulation (+=) is what is compared.
void h_linear(pf_linear_p *P, pf_linear_p *G, pf_linear_p *Pd, pf_linear_p *Gd, int out, int in, int bias,
              uint64_t seed, const char *name);
void h_layernorm(pf_layernorm_p *P, pf_layernorm_p *G, pf_layernorm_p *Pd, pf_layernorm_p *Gd, int c,
                 uint64_t seed, const char *name);
// Compare every registered gradient's increment (GPU vs CPU); label prefixes names.
void h_check_param_grads(const char *label);
// Snapshot GPU gradient increments; after a second backward, check they doubled.
void h_snapshot_grads(void);
void h_check_doubled(const char *label);
// Every GPU gradient back to its starting values (a backward run again from scratch).
void h_reset_grads(void);
// Every GPU gradient has the same bits as at the last h_snapshot_grads (run to run).
void h_check_same_bits(const char *label);
// Every GPU gradient's increment within H_tol of the increment at the last h_snapshot_grads
// (a new path against the old one where the bits differ).
void h_check_near_snapshot(const char *label);
// Input gradient b after two backwards: b - init == 2 (snap - init).
void h_check_input_doubled(const char *name, const hbuf *b, const real *init, const real *snap);
void h_params_reset(void);
// GPU gradients back to their starting values (another backward is then compared
// with h_check_param_grads against the same CPU increments).
void h_grads_restore(void);

// One comparison: rel = max|got - ref| / max|ref|; also fails on any NaN/Inf.
int h_compare(const char *name, const real *got, const real *ref, int64_t n, double tol);
// Compare the increments (got - init) and (ref - init).
int h_compare_delta(const char *name, const real *got, const real *ref, const real *init, int64_t n, double tol);
// Compare an increment accumulated into an activation-type buffer (h_download of
// an hbuf that started at init): in bf16 the rounding of init + increment, which an
// exact kernel also has, is taken out in quadrature (cuda_harness.c says why).
int h_compare_acc(const char *name, const real *got, const real *ref, const real *init, int64_t n, double tol);

// An environment variable's integer in [lo, hi], dflt where unset or empty; anything else stops the
// program with a message naming the variable (the tests' size and diagnostic knobs: PF_BIG_*).
int64_t h_env_int(const char *name, int64_t dflt, int64_t lo, int64_t hi);
#endif
