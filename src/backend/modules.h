// modules.h: parameter structs and shape descriptors of the trunk modules.
// Shared by the model code (which declares and owns the parameters) and by every
// backend (which computes with them). A params struct holds pointers into the
// backend's parameter buffer; the same struct type, pointing into the gradient
// buffer, carries the gradients. Weights are stored [out, in] as PyTorch stores
// them; a NULL bias pointer means the Linear has no bias.
//
// Each module op of ops.def also has, next to its dims struct:
//   void pf_NAME_sizes(dims *d, int64_t rows, int64_t cols): the sizes of the op
//       when its input stream x is a (rows, cols, channels) tensor (MSA (S, N),
//       pair (N, N), single (1, N)); the channels are set when a block declares it.
//   double pf_NAME_flops(const dims *d): 2 x the multiply-adds of the forward's
//       matrix products and attention contractions (elementwise work, LayerNorm
//       and softmax are not counted), the FLOP model of benchmarks.
#ifndef PF_MODULES_H
#define PF_MODULES_H
#include <stdint.h>
#include "../core/real.h"

typedef struct { real *w, *b; } pf_linear_p;     // w (out, in), b (out) or NULL
typedef struct { real *w, *b; } pf_layernorm_p;  // (c), (c)

// ---------------------------------------------------------------------------
// Gated multi-head self-attention with optional pair bias. One op serves:
//   MSA row attention with pair bias   AF2 Alg. 7   x = m (S, N, c_m), bias from z
//   MSA column attention               AF2 Alg. 8   x = m, transposed, no bias
//   triangle attention, starting node  AF2 Alg. 13  x = z (N, N, c_z), bias from x
//   triangle attention, ending node    AF2 Alg. 14  x = z transposed, bias from x
//   single attention with pair bias    AF3 Alg. 24  x = s (1, N, c_s), bias from z
// Row r of the batch attends over its L positions. With transpose=0, x is stored
// (B, L, c_in) and row r, position l is x[r, l, :]; with transpose=1, x is stored
// (L, B, c_in) and row r, position l is x[l, r, :] (attention along the first
// axis, as the column and ending-node modules do). The output has x's layout.
// key_mask has x's layout without channels: (B, L), or (L, B) when transposed.
// MASKING RULE (every softmax in pairfold), as the results define it: a masked
// key gets probability 0 when its row has any unmasked key, and a fully masked
// row is the exact uniform average over its L keys, independent of q, k and the
// bias, sending them no gradient. The CPU reference gets there by REPLACING the
// logit of a masked key with -1e9 (adding 1e9, as AF2 code does, would destroy
// the digits of a fully masked row in float64). The CUDA kernels ADD
// 1e9 * (mask - 1) (cu_common.cuh: mask_term): for a row with any unmasked key
// the masked exponentials underflow to exactly 0 in fp32, the same result; a
// fully masked row is caught by its saved log-sum-exp (+inf: the forward writes
// the uniform average, the backward gives p = 0 and a separate kernel the values'
// gradient), so both backends follow the same rule. The pair bias for query l, key l' and head h is
//   PF_BIAS_PAIR: sum_c W_bias[h, c] * LN_z(z)[l, l', c]     z (L, L, c_z)
//   PF_BIAS_SELF: sum_c W_bias[h, c] * LN(x)[l, l', c]       x is square: B == L
//                 (in the transposed layout, the transposed LN(x), as in Alg. 14)
// q = (LN(x) W_q^T + b_q) / sqrt(c_h); k, v = LN(x) W_k^T, W_v^T (+ bias if set);
// g = sigmoid(LN(x) W_g^T + b_g); out = (g * attn) W_o^T + b_o.
// ---------------------------------------------------------------------------
enum { PF_BIAS_NONE = 0, PF_BIAS_PAIR = 1, PF_BIAS_SELF = 2 };

typedef struct {
    int64_t B, L;   // rows, attended length
    int c_in;       // channels of x (and of the output)
    int H, c_h;     // heads, channels per head
    int c_z;        // channels of the bias source (PF_BIAS_PAIR: z; PF_BIAS_SELF: = c_in)
    int bias;       // PF_BIAS_*
    int transpose;  // 1: x stored (L, B, c_in)
    // Selective recompute (the model's recompute_keep_attn; NULL / 0 everywhere else):
    // keep (be->attn_keep_bytes bytes, the backend's layout) holds the core's outputs (o
    // and its softmax statistics) from a block's first forward to its backward, in place
    // of saved's copy of them. kept 0: the forward computes them into keep (saved or not);
    // kept 1: keep holds them already for these inputs (the core is deterministic: same
    // inputs, same bits), so the forward skips the core. The backward reads them there.
    void *keep;
    int kept;
} pf_attn_dims;

typedef struct {
    pf_layernorm_p ln;    // LN on x                    (c_in)
    pf_layernorm_p ln_z;  // LN on z (PF_BIAS_PAIR only) (c_z)
    pf_linear_p q, k, v;  // (H*c_h, c_in)
    pf_linear_p g;        // (H*c_h, c_in), bias set: gating
    pf_linear_p o;        // (c_in, H*c_h)
    pf_linear_p bias;     // (H, c_z), no bias term (PF_BIAS_NONE: unused)
} pf_attn_p;

static inline void pf_attn_sizes(pf_attn_dims *d, int64_t rows, int64_t cols) {
    d->B = d->transpose ? cols : rows;
    d->L = d->transpose ? rows : cols;
}
static inline double pf_attn_flops(const pf_attn_dims *d) {
    double f = 0, BL = (double)d->B * d->L, hc = (double)d->H * d->c_h;
    f += 2 * BL * d->c_in * hc * 4;                            // q, k, v, g
    f += 2 * BL * hc * d->c_in;                                // output
    f += 2 * 2 * (double)d->B * d->H * d->L * d->L * d->c_h;  // QK^T, PV
    if (d->bias != PF_BIAS_NONE) f += 2 * (double)d->L * d->L * d->c_z * d->H;
    return f;
}

// ---------------------------------------------------------------------------
// The attention core alone (backend.h core_attn_*; the C API's triangle
// attention), in cuEquivariance's triangle_attention layout, for batch b, row n,
// head h, query i (keys j):
//   o[b,n,h,i,:] = sum_j softmax_j(s q[b,n,h,i,:] . k[b,n,h,j,:] + bias[b,h,i,j]) v[b,n,h,j,:]
// q, k, v, o (B, N, H, L, D) activations; bias (B, H, L, L) `real` (fp32 on a GPU),
// shared by the N rows of a batch element (NULL: none); mask (B, N, L) over keys
// (NULL: all ones) under the masking rule above. Queries and keys have the same
// length L (triangle attention: both run over the N residues). The bias gradient
// sums over the N rows. No parameters: the projections stay in the caller's model.
// ---------------------------------------------------------------------------
typedef struct {
    int64_t B, N, L;  // batch, rows, attended length
    int H, D;         // heads, channels per head
    float scale;      // s (cuEquivariance: 1 / sqrt(D) by default)
} pf_core_attn_dims;

static inline double pf_core_attn_flops(const pf_core_attn_dims *d) {
    return 2 * 2 * (double)d->B * d->N * d->H * d->L * d->L * d->D;  // QK^T, PV
}

// ---------------------------------------------------------------------------
// MSA column-wise global attention, AF2 Alg. 19 (extra-MSA stack).
// m (S, N, c) attended along S for each column n, mask (S, N).
// ---------------------------------------------------------------------------
typedef struct {
    int64_t S, N;
    int c_in, H, c_h;
} pf_global_attn_dims;

typedef struct {
    pf_layernorm_p ln;  // (c_in)
    pf_linear_p q;      // (H*c_h, c_in) no bias
    pf_linear_p k, v;   // (c_h, c_in) no bias (one shared key/value head)
    pf_linear_p g;      // (H*c_h, c_in) with bias
    pf_linear_p o;      // (c_in, H*c_h) with bias
} pf_global_attn_p;

static inline void pf_global_attn_sizes(pf_global_attn_dims *d, int64_t rows, int64_t cols) {
    d->S = rows;
    d->N = cols;
}
static inline double pf_global_attn_flops(const pf_global_attn_dims *d) {
    double f = 0, SN = (double)d->S * d->N, hc = (double)d->H * d->c_h;
    f += 2 * SN * d->c_in * (2 * d->c_h + 2 * hc) + 2 * (double)d->N * d->c_in * hc;
    f += 2 * 2 * SN * hc;
    return f;
}

// ---------------------------------------------------------------------------
// Transition: LN, Linear(c -> n*c), activation, Linear(n*c -> c), AF2 Alg. 9/15
// (ReLU) and AF3 Alg. 11 (SwiGLU: silu(a) * b with a, b = two Linears, no biases).
// x (M, c) with M positions; optional mask (M) multiplies the output.
// ---------------------------------------------------------------------------
enum { PF_ACT_RELU = 0, PF_ACT_SWIGLU = 1 };
typedef struct {
    int64_t M;
    int c, n;
    int act;  // PF_ACT_*
} pf_transition_dims;

typedef struct {
    pf_layernorm_p ln;     // (c)
    pf_linear_p lin_a;     // (n*c, c): ReLU: linear_1 with bias; SwiGLU: linear_a no bias
    pf_linear_p lin_b;     // SwiGLU only: (n*c, c) no bias
    pf_linear_p lin_out;   // (c, n*c): ReLU: linear_2 with bias; SwiGLU: linear_out no bias
} pf_transition_p;

static inline void pf_transition_sizes(pf_transition_dims *d, int64_t rows, int64_t cols) { d->M = rows * cols; }
static inline double pf_transition_flops(const pf_transition_dims *d) {
    return 2 * (double)d->M * d->c * d->c * d->n * (d->act == PF_ACT_SWIGLU ? 3 : 2);
}

// ---------------------------------------------------------------------------
// Outer product mean, AF2 Alg. 10: m (S, N, c_m), mask (S, N) -> z update (N, N, c_z).
// a, b = (LN(m) W^T + bias) * mask, (S, N, c); o_ij = flatten(mean_s a_si (x) b_sj);
// out_ij = (o_ij W_o^T + b_o) / (eps + sum_s mask_si mask_sj), eps = 1e-3.
// ---------------------------------------------------------------------------
typedef struct {
    int64_t S, N;
    int c_m, c, c_z;
} pf_opm_dims;

typedef struct {
    pf_layernorm_p ln;   // (c_m)
    pf_linear_p a, b;    // (c, c_m) with bias
    pf_linear_p o;       // (c_z, c*c) with bias; the flattened index is c1*c + c2
} pf_opm_p;

static inline void pf_opm_sizes(pf_opm_dims *d, int64_t rows, int64_t cols) {
    d->S = rows;
    d->N = cols;
}
static inline double pf_opm_flops(const pf_opm_dims *d) {
    double f = 0, NN = (double)d->N * d->N;
    f += 2 * (double)d->S * d->N * d->c_m * d->c * 2;
    f += 2 * NN * d->S * d->c * d->c + 2 * NN * d->c * d->c * d->c_z;
    return f;
}

// ---------------------------------------------------------------------------
// Triangle multiplicative update, AF2 Alg. 11 (outgoing) / 12 (incoming), AF3
// Alg. 12/13 (same, Linears without biases). z (N, N, c_z), mask (N, N).
// a = sigmoid(LN(z) Wag^T) * (LN(z) Wap^T) * mask, (N, N, c); b likewise;
// outgoing: x_ij = sum_k a_ik b_jk; incoming: x_ij = sum_k a_ki b_kj;
// out = sigmoid(LN(z) Wg^T) * (LN_out(x) Wz^T).
// ---------------------------------------------------------------------------
typedef struct {
    int64_t N;
    int c_z, c;
    int incoming;  // 0: outgoing edges, 1: incoming edges
} pf_trimul_dims;

typedef struct {
    pf_layernorm_p ln_in;        // (c_z)
    pf_linear_p a_p, a_g;        // (c, c_z)
    pf_linear_p b_p, b_g;        // (c, c_z)
    pf_linear_p g;               // (c_z, c_z)
    pf_layernorm_p ln_out;       // (c)
    pf_linear_p z;               // (c_z, c)
} pf_trimul_p;

// The input is the pair stream: rows == cols == N.
static inline void pf_trimul_sizes(pf_trimul_dims *d, int64_t rows, int64_t cols) { (void)rows; d->N = cols; }
static inline double pf_trimul_flops(const pf_trimul_dims *d) {
    double f = 0, NN = (double)d->N * d->N;
    f += 2 * NN * d->c_z * (4.0 * d->c + d->c_z) + 2 * NN * d->c * d->c_z;
    f += 2 * NN * d->N * d->c;
    return f;
}

// ---------------------------------------------------------------------------
// MSA pair-weighted averaging, AF3 Alg. 10. m (S, N, c_m), z (N, N, c_z), mask (N)
// on the averaged position j. v = LN(m) Wv^T (S, N, H, c); b = LN_z(z) Wb^T (N, N, H);
// w_ij = softmax_j(mask_j ? b_ij : -1e9); g = sigmoid(LN(m) Wg^T);
// o_si = g_si * sum_j w_ij v_sj; out = o Wo^T. No Linear has a bias.
// ---------------------------------------------------------------------------
typedef struct {
    int64_t S, N;
    int c_m, c_z, H, c_h;
} pf_pwavg_dims;

typedef struct {
    pf_layernorm_p ln;    // (c_m)
    pf_layernorm_p ln_z;  // (c_z)
    pf_linear_p v;        // (H*c_h, c_m)
    pf_linear_p b;        // (H, c_z)
    pf_linear_p g;        // (H*c_h, c_m)
    pf_linear_p o;        // (c_m, H*c_h)
} pf_pwavg_p;

static inline void pf_pwavg_sizes(pf_pwavg_dims *d, int64_t rows, int64_t cols) {
    d->S = rows;
    d->N = cols;
}
static inline double pf_pwavg_flops(const pf_pwavg_dims *d) {
    double f = 0, SN = (double)d->S * d->N, hc = (double)d->H * d->c_h;
    f += 2 * SN * d->c_m * hc * 3 + 2 * (double)d->N * d->N * d->c_z * d->H;
    f += 2 * SN * d->N * hc;
    return f;
}

// ---------------------------------------------------------------------------
// Distogram head and loss: logits_ij = ((z_ij + z_ji) W^T + b), 64 bins.
// loss = sum_ij mask_ij * CE(logits_ij, target_ij) / (eps + sum_ij mask_ij).
// ---------------------------------------------------------------------------
typedef struct {
    int64_t N;
    int c_z, n_bins;
} pf_disto_dims;

// Relative position encoding, AF2 Alg. 4/5 (af3=0) and AF3 Alg. 3 (af3=1).
// AF2: one-hot of clip(r_i - r_j, -32, 32) (65 bins) -> Linear(c_z) with bias;
//      residues of different chains get the extra bin 65 (66 features).
// AF3: [onehot(d_res, 66), onehot(d_tok, 66), same_entity, onehot(d_chain, 6)]
//      = 139 features -> Linear(c_z) without bias.
// A row range (dap > 1, the rank's rows of the pair tensor; zero fields: all of
// it): the output holds rows i0 .. i0 + rows - 1 (those below N) with a row
// stride of ld positions (ld >= N); only its pairs (i, j < N) are read or written.
typedef struct {
    int64_t N;
    int c_z, af3;
    int64_t i0, rows, ld;
} pf_relpos_dims;

// The rows of a relpos output that hold tokens, and its row stride.
static inline int64_t pf_relpos_nrows(const pf_relpos_dims *d) {
    int64_t r = d->rows > 0 ? d->rows : d->N;
    return d->i0 + r > d->N ? (d->N > d->i0 ? d->N - d->i0 : 0) : r;
}
static inline int64_t pf_relpos_ld(const pf_relpos_dims *d) { return d->ld > 0 ? d->ld : d->N; }

#define PF_RELPOS_AF2_FEATS 66
#define PF_RELPOS_AF3_FEATS 139
#define PF_RELPOS_MAX 32

#endif
