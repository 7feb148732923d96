/* pairfold.h: the C API of libpairfold.so (`make lib`; installed by `make install`).
 *
 * Stable: functions and enum values are only ever added; PAIRFOLD_API_VERSION counts
 * the additions (pairfold_api_version() tells what a loaded library has). Plain C,
 * no engine headers, so ctypes / cffi / other languages bind it directly.
 *
 * Errors: every function that can fail returns a pairfold_status (PAIRFOLD_OK = 0)
 * and leaves a message naming the file, tensor or field for pairfold_last_error()
 * (per thread, until the next failing call). Bad input never ends the process.
 * The exception is running out of memory: the engine's allocator then prints a
 * message and aborts.
 *
 * Tensors: float32, C order (row-major), caller-owned host memory (or, with
 * PAIRFOLD_DEVICE_PTR where a function takes it, the backend's memory); shapes as in
 * AlphaFold (docs/PARAMETERS.md): m (S, N, c_m) MSA, z (N, N, c_z) pair, s (N, c_s)
 * single; masks msa (S, N), pair (N, N), seq (N) of 0 / 1.
 */
#ifndef PAIRFOLD_H
#define PAIRFOLD_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAIRFOLD_API_VERSION 2 /* 2: attention core, PAIRFOLD_DEVICE_PTR */

typedef enum {
    PAIRFOLD_OK = 0,
    PAIRFOLD_ERR_ARG = 1,     /* a bad argument: NULL, unknown name, wrong size or shape */
    PAIRFOLD_ERR_IO = 2,      /* a file could not be read or written, or its content is bad */
    PAIRFOLD_ERR_DEVICE = 3,  /* the device is not in this build or not available */
    PAIRFOLD_ERR_STATE = 4    /* called out of order (a backward without a kept forward) */
} pairfold_status;

const char *pairfold_version(void);   /* "0.1.0" */
int pairfold_api_version(void);       /* PAIRFOLD_API_VERSION of the library */
const char *pairfold_last_error(void); /* "" when none */

/* ---- backends ------------------------------------------------------------ */
typedef struct pairfold_backend pairfold_backend;
/* device: "cpu", "cuda" (bf16 activations) or "cuda-fp32" (builds with CUDA). */
int pairfold_backend_create(const char *device, pairfold_backend **out);
const char *pairfold_backend_name(const pairfold_backend *be);
void pairfold_backend_free(pairfold_backend *be); /* NULL is fine; after every block using it */

/* ---- one trunk block (what `pairfold block` runs) ------------------------ */
typedef struct pairfold_block pairfold_block;
/* kind: "evoformer", "extra_msa", "pairformer", "msa_module". preset: "tiny", "af2",
 * "af3" (NULL: "af3", as `pairfold block`). config_json: NULL or a JSON object of
 * configuration fields that override the preset (as --config: c_z, heads_pair, ...).
 * Parameters start at zero: set them (set_param / load_weights) before a forward. */
int pairfold_block_create(pairfold_backend *be, const char *kind, const char *preset, const char *config_json,
                          pairfold_block **out);
void pairfold_block_free(pairfold_block *b);
/* Channels of the streams m, z, s (a stream the block does not use still has its preset's). */
int pairfold_block_channels(const pairfold_block *b, int c[3]);
int pairfold_block_param_count(const pairfold_block *b);
/* Parameter i: name inside the block ("pair_stack.tri_mul_out.linear_a_p.weight",
 * OpenFold / OpenFold3 names), ndim (1 or 2) and shape (weights [out, in]). */
int pairfold_block_param_info(const pairfold_block *b, int i, const char **name, int *ndim, int64_t shape[2]);
/* Copy n elements (the parameter's size) in or out. */
int pairfold_block_set_param(pairfold_block *b, const char *name, const float *data, int64_t n);
int pairfold_block_get_param(const pairfold_block *b, const char *name, float *data, int64_t n);
/* Gradients accumulate over backwards until zero_grad. */
int pairfold_block_get_grad(const pairfold_block *b, const char *name, float *data, int64_t n);
int pairfold_block_zero_grad(pairfold_block *b);
/* Every parameter from a safetensors file (F32), named prefix + parameter name
 * (prefix NULL or "": a block's own weights file; "pairformer_stack.blocks.3.": one
 * block of a checkpoint's model.safetensors). */
int pairfold_block_load_weights(pairfold_block *b, const char *path, const char *prefix);

#define PAIRFOLD_TRAIN 1u /* dropout on (masks from seed); default: evaluation, no dropout */
#define PAIRFOLD_KEEP 2u  /* keep what a backward needs */
/* Tensors are the backend's own memory (API 2): on a CUDA backend, device pointers of
 * its device holding activations in its type (bfloat16 for "cuda", float32 for
 * "cuda-fp32"), float32 where a function says so; on "cpu", float32 host memory as
 * without the flag. Nothing is copied through the host. Work runs on the backend's
 * own stream and the call returns after it finished; the caller makes its inputs
 * ready first (PyTorch: torch.cuda.current_stream().synchronize()). */
#define PAIRFOLD_DEVICE_PTR 4u
/* Run the block on N tokens and S MSA rows (S >= 1; 1 for blocks without an MSA).
 * m, z, s: the input streams, overwritten with the outputs; NULL: zeros in, output
 * not returned. Masks NULL: all ones. */
int pairfold_block_forward(pairfold_block *b, int64_t N, int64_t S, float *m, float *z, float *s,
                           const float *msa_mask, const float *pair_mask, const float *seq_mask, unsigned flags,
                           uint64_t seed);
/* After a forward with PAIRFOLD_KEEP: d_m, d_z, d_s hold the gradients of a loss with
 * respect to the outputs on entry (NULL: zero) and with respect to the inputs on
 * return; parameter gradients accumulate. Same dropout masks as the forward. */
int pairfold_block_backward(pairfold_block *b, float *d_m, float *d_z, float *d_s);

/* ---- one module alone -----------------------------------------------------
 * pairfold_block_create with kind "tri_mul_out" or "tri_mul_in" gives one triangle
 * multiplication (outgoing / incoming edges) of the configuration's c_z and c_trimul:
 * parameters "layer_norm_in.*", "linear_a_p.*", "linear_a_g.*", "linear_b_p.*",
 * "linear_b_g.*", "linear_g.*", "layer_norm_out.*", "linear_z.*" (Linear biases with
 * an Evoformer-trunk preset (tiny, af2), none with a Pairformer one (af3)). The
 * param / grad / weights functions above apply; the pass is: */
/* out (N, N, c_z) = the module's update of x (N, N, c_z) (not added to x); mask (N, N) or NULL.
 * flags: PAIRFOLD_KEEP, PAIRFOLD_DEVICE_PTR (x, mask, out; then also the backward's d_out, d_x). */
int pairfold_module_forward(pairfold_block *b, int64_t N, const void *x, const void *mask, void *out,
                            unsigned flags);
/* After a forward with PAIRFOLD_KEEP: d_x (overwritten) = dL/dx from d_out = dL/dout;
 * parameter gradients accumulate. */
int pairfold_module_backward(pairfold_block *b, const void *d_out, void *d_x);

/* ---- the attention core alone (API 2): triangle attention ------------------
 * cuEquivariance's triangle_attention(q, k, v, bias, mask, scale) layout, for batch b,
 * row n, head h, query i:
 *   out[b,n,h,i,:] = sum_j softmax_j(scale q[b,n,h,i,:] . k[b,n,h,j,:] + bias[b,h,i,j]) v[b,n,h,j,:]
 * q, k, v, out (B, N, H, L, D); bias (B, H, L, L) float32 or NULL; mask (B, N, L) over
 * keys, 0 / 1, or NULL. A masked key gets probability 0; a fully masked row is the
 * mean of v (cuEquivariance's -1e9 logit). Queries and keys have the same length L.
 * lse (B, N, H, L) float32: written by the forward, handed back to the backward.
 * Host float32 arrays by default; PAIRFOLD_DEVICE_PTR: the backend's memory (above;
 * bias, lse, d_bias float32). CUDA: D <= 64. */
int pairfold_attention_forward(pairfold_backend *be, int64_t B, int64_t N, int H, int64_t L, int D, float scale,
                               const void *q, const void *k, const void *v, const float *bias, const void *mask,
                               void *out, float *lse, unsigned flags);
/* Gradients from d_out = dL/dout, WRITTEN (not accumulated): dq, dk, dv (as q) and
 * d_bias (as bias, the sum over the N rows); any of them may be NULL. */
int pairfold_attention_backward(pairfold_backend *be, int64_t B, int64_t N, int H, int64_t L, int D, float scale,
                                const void *q, const void *k, const void *v, const float *bias, const void *mask,
                                const void *out, const float *lse, const void *d_out, void *dq, void *dk, void *dv,
                                float *d_bias, unsigned flags);

/* ---- predict (what `pairfold predict` runs) ------------------------------ */
typedef struct pairfold_prediction pairfold_prediction;
/* The distogram of a query with a checkpoint's weights (run or step directory; EMA
 * weights when it has them unless raw_weights). alignment: a file (A3M, Stockholm,
 * FASTA, .gz; row 0 the query) or NULL, then sequence: one-letter codes of a single
 * chain (no MSA). be: NULL opens the checkpoint's device. settings: NULL or
 * "msa_rows=16,extra_msa_rows=0,recycles=1" (the inference-time fields). */
int pairfold_predict(pairfold_backend *be, const char *ckpt, const char *alignment, const char *sequence,
                     const char *settings, int raw_weights, pairfold_prediction **out);
int64_t pairfold_prediction_length(const pairfold_prediction *p); /* N */
int pairfold_prediction_bins(const pairfold_prediction *p);       /* n_bins */
/* Views valid until pairfold_prediction_free: (N, N, bins), (N, N), (N, N), (bins - 1). */
const float *pairfold_prediction_distogram(const pairfold_prediction *p);
const float *pairfold_prediction_contact_probs(const pairfold_prediction *p); /* P(d < 8 A) */
const float *pairfold_prediction_expected_distance(const pairfold_prediction *p);
const float *pairfold_prediction_bin_edges(const pairfold_prediction *p);
const int32_t *pairfold_prediction_chain_index(const pairfold_prediction *p);   /* (N) 0-based */
const int32_t *pairfold_prediction_residue_index(const pairfold_prediction *p); /* (N) 0-based in its chain */
const char *pairfold_prediction_sequence(const pairfold_prediction *p);
/* format: "safetensors", "npz" (AlphaFold 3 distogram.npz), "rr" (CASP RR contacts),
 * "csv" (contacts); contacts at least 6 apart in a chain, top 0: every pair with P >= 0.01. */
int pairfold_prediction_write(const pairfold_prediction *p, const char *path, const char *format, int top);
void pairfold_prediction_free(pairfold_prediction *p);

#ifdef __cplusplus
}
#endif
#endif
