// distogram.h: what the distogram head predicts, on the host: bin probabilities,
// expected distances, contact probabilities, and the contact precision metric
// used in validation (the standard CASP / AlphaFold contact evaluation).
#ifndef PF_DISTOGRAM_H
#define PF_DISTOGRAM_H
#include "model.h"

// From the final pair representation left in M->z by pf_model_eval on an N-token
// batch: probs (N, N, n_bins) (may be NULL), expected distance (N, N) in Angstrom
// (bin centres; may be NULL), contact (N, N) = P(pseudo-beta distance < 8 A).
// Symmetric: the logits are A_ij + A_ji + b with A = z W^T, as the loss uses.
// Whole probs: for validation's contacts (probs NULL) and small N (tests, the C API).
void pf_distogram_predict(pf_model *M, int64_t N, float *probs, float *expected, float *contact);
// The same, the probabilities never held whole: block(ctx, i0, n, probs) for blocks of n <=
// rows_block consecutive rows i0 .. i0 + n - 1, probs (n, N, n_bins) valid during the call. Each
// row comes once; under dap in the gathers' order (rank by rank: rows r0.., n + r0.., ...), else
// in order. block is called on the ranks that pass one (NULL: none wanted). rows_block <= 0: the
// default bound (pf_distogram_rows_block); under dap it must be the same on every rank.
typedef void (*pf_disto_block_fn)(void *ctx, int64_t i0, int64_t n, const float *probs);
void pf_distogram_predict_rows(pf_model *M, int64_t N, int64_t rows_block, pf_disto_block_fn block, void *ctx,
                               float *expected, float *contact);
// A block function that copies each block into probs (N, N, n_bins), rows of `row` floats
// (ctx: pf_disto_whole; pf_distogram_predict's).
typedef struct {
    float *probs;
    int64_t row;
} pf_disto_whole;
void pf_disto_into_whole(void *ctx, int64_t i0, int64_t n, const float *probs);
// Rows per block by default: max(1, 256 MiB / (N n_bins 4 B)), at most N.
int64_t pf_distogram_rows_block(int64_t N, int n_bins);
// One process: the logits A = z W^T whole on the device up to `bytes` (default 256 MiB; the same
// bits whatever the rows block), else made a block of rows at a time (tests force it with 0);
// how many predictions ran blocked so far.
void pf_distogram_set_whole_max(int64_t bytes);
int64_t pf_distogram_blocked_runs(void);
// Whether one process's prediction at N holds A whole; its device bytes with the default rows block
// (bench/mem_plan: validation's share of a training run's peak).
int pf_distogram_whole(const pf_backend *be, int64_t N, int n_bins);
int64_t pf_distogram_predict_device_bytes(const pf_backend *be, int64_t N, int n_bins, int c_z);

// The distance bins (AF2), the one place their geometry is written: n bins of
// `width` from `min`; edge k = min + k width. Bin 0 holds distances up to edge 1,
// bin k (0 < k < n - 1) (edge k, edge k+1], the last bin everything beyond edge n-1.
typedef struct {
    double min, width;
    int n;
} pf_disto_bins;
pf_disto_bins pf_disto_bins_of(const pf_config *cfg);
static inline double pf_disto_edge(const pf_disto_bins *g, int k) { return g->min + k * g->width; }
// The distance a bin stands for in expected distances (the last bin: "beyond").
static inline double pf_disto_centre(const pf_disto_bins *g, int k) { return g->min + (k + 0.5) * g->width; }
// Distogram bin of a distance (the training target).
int pf_disto_bin(double dist, const pf_config *cfg);

// The most likely long-range contacts of a prediction: pairs i < j of different
// chains, or of one chain at least min_sep positions apart, by contact (N, N)
// probability, highest first (ties: the lower pair index i N + j first). Writes
// up to `top` pair indices to out and returns how many.
int pf_top_contacts(const float *contact, const int32_t *chain, int64_t N, int min_sep, int top, int64_t *out);

// Precision of the top `top` predicted contacts among pairs with |i - j| >= min_sep
// in the same chain and both pseudo-beta atoms resolved, against the true
// pseudo-beta distances (< 8 A). top <= 0 means L / 5 (L = resolved residues,
// at least 1). NAN when no pair qualifies.
double pf_contact_precision(const float *contact, const pf_batch *b, int min_sep, int top);

#endif
