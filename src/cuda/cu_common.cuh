// cu_common.cuh: shared state and helpers of the CUDA backend.
//
// Activations are stored as `act_t`: bf16 (training) or float (parity mode);
// every kernel is a template over the storage type T and computes in fp32.
// Parameters, their gradients and optimizer state are fp32 (`real` = float).
// All work runs on one stream, so buffers reused between launches need no
// other synchronisation. Every element offset is int64_t.
#ifndef PF_CU_COMMON_CUH
#define PF_CU_COMMON_CUH
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublasLt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifdef PF_EMU
#include "emu/emu_ptx.h"  // the kernels on the CPU emulator (docs/EMULATOR.md)
#endif
extern "C" {
#include "../backend/backend.h"
#include "../core/util.h"
}

typedef __nv_bfloat16 bf16;

void cu_fail(const char *what, const char *file, int line, const char *msg);
#define CU_CHECK(x)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (x);                                                           \
        if (e_ != cudaSuccess) cu_fail(#x, __FILE__, __LINE__, cudaGetErrorString(e_)); \
    } while (0)
// After every launch: catches bad launch configurations at once (and, with
// PF_CUDA_SYNC_CHECK defined, faults inside the kernel). With PF_CUDA_WATCH=S (seconds) in the
// environment, every launch is also waited for, and one still running after S seconds stops the
// process naming its launch site (cu_launched, cu_launch_watch.cu): a hang becomes a named kernel.
void cu_launched(const char *file, int line);
#ifdef PF_CUDA_SYNC_CHECK
#define CU_LAUNCHED() do { cu_launched(__FILE__, __LINE__); CU_CHECK(cudaDeviceSynchronize()); } while (0)
#else
#define CU_LAUNCHED() cu_launched(__FILE__, __LINE__)
#endif
#define LT_CHECK(x)                                                                       \
    do {                                                                                  \
        cublasStatus_t s_ = (x);                                                          \
        if (s_ != CUBLAS_STATUS_SUCCESS) cu_fail(#x, __FILE__, __LINE__, cublasLt_err(s_)); \
    } while (0)
const char *cublasLt_err(cublasStatus_t s);

// Backend private state.
struct cu_weight_entry { const float *w; size_t n; void *copy; uint64_t gen; };
struct cu_size_entry { void *p; size_t bytes; };
typedef struct {
    int bf16;                  // activation type: 1 bf16, 0 fp32
    cudaStream_t stream;
    cudaStream_t copy_stream;   // download_async / upload_async (created at first use)
    cudaEvent_t copy_ev[2];     // [0]: the compute stream's point a copy waits for; [1]: the copies' end
    cublasLtHandle_t lt;
    void *lt_ws;               // cuBLASLt workspace
    size_t lt_ws_bytes;
    char *pool;                // stack of small scratch (reduction partials)
    size_t pool_bytes, pool_top;
    uint64_t param_gen;        // bumped on every parameter write: invalidates bf16 weight copies
    struct cu_weight_entry *wc;  // open-addressed cache of bf16 weight copies
    int wc_cap, wc_n;
    int n_sm;
    struct cu_size_entry *sz;  // live allocations, for peak_bytes
    int sz_cap, sz_n;
    size_t in_use, peak;
    size_t chunk_bytes;        // 0: the default chunking of forwards without saved (cu_chunk_units)
    int chunk_div;             // > 1: the default limits divided by it (a sharded op's P, cu_dap.cuh)
    int attn_fused;            // attention backward's one-pass dk/dv/dq: 0 by size, 1 always, -1 never
    int attn_dbias;            // attention bias-gradient kernel: 0 by shape, v + 1 variant v (cu_flash_bwd_dbias.cu)
    int trimul_fused;          // triangle multiplication's sides as one kernel (cu_trimul_side.cu): 1 on, 0 off
    int64_t trimul_fused_runs; // its launches so far (tests: the path was taken)
    int tr_fused;              // transition's hidden layer as one kernel (cu_transition_fused.cu): 0 off, 1 with
                               // the LayerNorm in its prologue, 2 after a LayerNorm kernel
    int64_t tr_fused_runs;     // its launches so far (tests)
    int64_t tr_chunk;          // transition: hidden elements per row chunk (cu_transition.cu), 0 the default
} cu_impl;

static inline cu_impl *CU(pf_backend *be) { return (cu_impl *)be->impl; }
static inline size_t cu_esz(const cu_impl *c) { return c->bf16 ? 2 : 4; }

// Scratch from the pool, released in reverse order (cu_pool_mark / cu_pool_release).
void *cu_pool_get(cu_impl *c, size_t bytes);
static inline size_t cu_pool_mark(cu_impl *c) { return c->pool_top; }
static inline void cu_pool_release(cu_impl *c, size_t mark) { c->pool_top = mark; }

// Chunked forwards without saved (inference, pf_mem.ws_fwd). An op splits its
// work into pieces when the buffers of the whole would exceed CU_CHUNK_ABOVE, each
// piece holding at most about CU_CHUNK_TARGET: below that size the forward runs
// as one piece, so it computes the same bits as the forward that saves. The rule
// uses the sizes only (never the free memory), so results are the same run to
// run. pf_cuda_set_chunk_bytes() replaces both limits (tests force small pieces).
// A sharded op holding 1/P of the problem divides the default limits by P
// (chunk_div), so its pieces, and the rank's memory, are 1/P of the unsharded op's.
#define CU_CHUNK_ABOVE ((size_t)8 << 30)
#define CU_CHUNK_TARGET ((size_t)2 << 30)
static inline double cu_chunk_limit(const cu_impl *c, size_t dflt) {
    if (c->chunk_bytes) return (double)c->chunk_bytes;
    return (double)dflt / (double)(c->chunk_div > 1 ? c->chunk_div : 1);
}
// Units per piece (a multiple of align, at least align, at most units) when each
// unit needs per_unit bytes.
static inline int64_t cu_chunk_units(const cu_impl *c, int64_t units, double per_unit, int64_t align) {
    double above = cu_chunk_limit(c, CU_CHUNK_ABOVE), target = cu_chunk_limit(c, CU_CHUNK_TARGET);
    if (units <= 0 || (double)units * per_unit <= above) return units > 0 ? units : 1;
    int64_t u = per_unit > 0 ? (int64_t)(target / per_unit) : units;
    u -= u % align;
    if (u < align) u = align;
    return u < units ? u : units;
}

// Bump allocator for laying out `saved` and `ws` regions (same code sizes and carves).
typedef struct { char *base; size_t off; } cu_carver;
static inline void *cu_carve(cu_carver *cv, size_t bytes) {
    void *p = cv->base ? cv->base + cv->off : NULL;
    cv->off += (bytes + 255) & ~(size_t)255;
    return p;
}

// ---- element access -------------------------------------------------------
__device__ __forceinline__ float ld(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float ld(const bf16 *p, int64_t i) { return __bfloat162float(p[i]); }
__device__ __forceinline__ void st(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void st(bf16 *p, int64_t i, float v) { p[i] = __float2bfloat16(v); }
__device__ __forceinline__ float sigmoidf_(float x) { return 1.0f / (1.0f + expf(-x)); }

// Dispatch a templated launch on the activation type.
#define CU_DISPATCH(c, T, ...)              \
    do {                                    \
        if ((c)->bf16) { typedef bf16 T; __VA_ARGS__; } \
        else { typedef float T; __VA_ARGS__; } \
    } while (0)

static inline unsigned cu_blocks(int64_t n, int threads) {
    int64_t b = (n + threads - 1) / threads;
    if (b > 1048576) b = 1048576;  // grid-stride loops cover the rest
    return (unsigned)(b < 1 ? 1 : b);
}
#define GRID_STRIDE(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)gridDim.x * blockDim.x)

// Mask term added to a logit: masked keys (mask 0) get -1e9 (AF2: 1e9 * (mask - 1)).
// Added, not replacing the logit as the CPU reference does: the same probabilities
// for a row with any unmasked key (exp underflows to 0 in fp32); fully masked rows
// follow the saved-lse = +inf rule (modules.h, MASKING RULE).
#define CU_MASK_INF 1e9f
__device__ __forceinline__ float mask_term(float m) { return CU_MASK_INF * (m - 1.0f); }

// ---- primitives (cu_prim.cu, cu_gemm.cu) ------------------------------------
// Row-major C (M, N) = alpha op(A) op(B) + beta C, batched with element strides.
// Types: 0 = act type, 1 = fp32. bias (fp32, N) or NULL is added per column.
enum { CU_ACT = 0, CU_F32 = 1 };
void cu_gemm(cu_impl *c, int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha,
             const void *A, int tyA, int64_t lda, const void *B, int tyB, int64_t ldb,
             float beta, void *C, int tyC, int64_t ldc,
             int batch, int64_t sA, int64_t sB, int64_t sC, const float *bias);
// C (M, N) act = op(A) op(B) + bias, all act, beta 0, bias (N, may be NULL) already in the act
// type (cu_gemm converts an fp32 bias through cu_weight, cached by its address).
void cu_gemm_bias_act(cu_impl *c, int ta, int tb, int64_t M, int64_t N, int64_t K, const void *A, int64_t lda,
                      const void *B, int64_t ldb, void *C, int64_t ldc, const void *bias);
// Weight w (n floats) in the act type: w itself in fp32 mode, a cached bf16 copy otherwise.
const void *cu_weight(cu_impl *c, const float *w, size_t n);
void cu_weight_cache_free(cu_impl *c);

void cu_linear_fwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p,
                   const void *x, void *y, int accumulate);
// g (may be NULL) += the parameter gradients; dx (may be NULL) += dy W.
void cu_linear_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                   const void *x, const void *dy, void *dx);
// The same with dx = dy W: no fill before it and dx not read (a pass and a read of dx less
// than a fill and cu_linear_bwd); x may be dx (the weight gradient reads it first).
void cu_linear_bwd_set(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                       const void *x, const void *dy, void *dx);
// LayerNorm over rows of c channels; eps LN_EPS; stats in fp32.
#define LN_EPS 1e-5f
void cu_ln_fwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, const void *x, void *y);
// dx += ..., g (may be NULL) += ...; dx may be NULL.
void cu_ln_bwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, pf_layernorm_p *g,
               const void *x, const void *dy, void *dx);
// The same with dx = ... (overwritten, not accumulated); dx may be x itself (in place).
void cu_ln_bwd_set(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, pf_layernorm_p *g,
                   const void *x, const void *dy, void *dx);
// The 16-byte kernels behind them (cu_layernorm_vec.cu) for ch in {32, 64, 128, 256} and
// aligned buffers: 1 when they ran, 0 when the caller's kernels must. The backward writes
// its (nb, 2, ch) parameter-gradient partials to part (or none when part is NULL).
int cu_ln_fwd_vec(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, const void *x, void *y);
int cu_ln_bwd_vec(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, const void *x, const void *dy, void *dx,
                  float *part, int nb, int acc);
// out[col] += sum over rows of x (M, ncol) (x in act type or fp32), deterministic.
void cu_colsum_add(cu_impl *c, int64_t M, int ncol, const void *x, int tyX, float *out, float scale);
void cu_add(cu_impl *c, void *y, const void *x, int64_t n);        // y += x (act)
void cu_fill(cu_impl *c, void *y, float v, int64_t n);            // act
void cu_copy_act(cu_impl *c, void *dst, const void *src, int64_t n);
void cu_bump_params(cu_impl *c);

// ---- elementwise (cu_elem.cu), act type unless noted ------------------------
void cu_sigmoid(cu_impl *c, void *y, int64_t n);                      // in place
void cu_mul(cu_impl *c, void *out, const void *a, const void *b, int64_t n);  // out = a * b
// y = g * x with g = sigmoid(pre) stored: dx = dy * g, dpre = dy * x * g (1 - g) (both written;
// dx may alias dy; either output may be NULL).
void cu_gate_bwd(cu_impl *c, const void *dy, const void *g, const void *x, void *dx, void *dpre, int64_t n);
void cu_scale_act(cu_impl *c, void *y, float s, int64_t n);           // y *= s
// Rows of x (M, C) times mask (M): y = x * mask[row] (y may alias x).
void cu_row_mask(cu_impl *c, void *y, const void *x, const void *mask, int64_t M, int C);
// Device copy of int32 data that may live in host memory (into pool scratch).
const int32_t *cu_dev_i32(cu_impl *c, const int32_t *p, int64_t n);

#endif
