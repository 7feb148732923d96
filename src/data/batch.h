// batch.h: one training example as the model consumes it, and the interface of
// anything that produces them (synthetic proteins, the feature cache sampler).
// All arrays are host memory owned by the batch; N tokens (residues) after
// cropping, S MSA cluster rows, E extra-MSA rows (AF2 extra-MSA stack).
#ifndef PF_BATCH_H
#define PF_BATCH_H
#include <stdint.h>
#include "../core/real.h"

// Residue tokens: 0..19 amino acids in AF2 order ARNDCQEGHILKMFPSTWYV,
// 20 unknown (X), 21 gap ('-'), 22 mask (BERT corruption).
#define PF_AA_ORDER "ARNDCQEGHILKMFPSTWYV"
#define PF_TOK_UNK 20
#define PF_TOK_GAP 21
#define PF_TOK_MASK 22
#define PF_NUM_TOK 23

// target_feat: one-hot of the residue token over 0..20, plus one zero channel
// (AF2's "between segment" slot) = 22.
#define PF_TARGET_FEAT 22
// msa_feat (AF2 1.2.9): one-hot cluster token (23), has_deletion (1),
// deletion_value = 2/pi atan(d/3) (1), cluster profile (23), cluster
// deletion mean (1, also 2/pi atan(mean/3)) = 49.
#define PF_MSA_FEAT 49
// extra_msa_feat: one-hot token (23), has_deletion, deletion_value = 25.
#define PF_EXTRA_MSA_FEAT 25

typedef struct {
    int N, S, E;
    // per token                                              shapes
    int32_t *aatype;         // (N) tokens 0..20
    int32_t *residue_index;  // (N) author-independent, 0-based within each chain
    int32_t *chain_id;       // (N) asym id, 0-based
    int32_t *entity_id;      // (N) entity (same sequence = same entity)
    int32_t *sym_id;         // (N) copy index within the entity
    real *seq_mask;          // (N) 1 for real tokens
    real *target_feat;       // (N, PF_TARGET_FEAT)
    // MSA clusters (row 0 is the query sequence)
    real *msa_feat;          // (S, N, PF_MSA_FEAT)
    real *msa_mask;          // (S, N)
    int32_t *bert_target;    // (S, N) true token at BERT-corrupted positions
    real *bert_mask;         // (S, N) 1 where the token was corrupted
    // extra MSA (may be E == 0)
    real *extra_msa_feat;    // (E, N, PF_EXTRA_MSA_FEAT)
    real *extra_msa_mask;    // (E, N)
    // structure
    real *pseudo_beta;       // (N, 3) CB, or CA for glycine, Angstrom
    real *pseudo_beta_mask;  // (N) 1 where resolved
    // provenance, for logs
    char name[64];           // entry / chain name
    int64_t crop_start;      // first residue of a contiguous crop, -1 for spatial
} pf_batch;

void pf_batch_alloc(pf_batch *b, int N, int S, int E);  // zeroed arrays
// AF2 deletion_value: 2/pi atan(d / 3).
real pf_deletion_value(double d);
// One extra-MSA feature vector (PF_EXTRA_MSA_FEAT, zeroed by the caller):
// one-hot token, has_deletion, deletion_value.
void pf_extra_msa_feat(real *f, int tok, double del);
void pf_batch_free(pf_batch *b);
void pf_batch_copy(pf_batch *dst, const pf_batch *src);  // deep copy (dst unallocated)

// A producer of batches. next() fills `out` (already allocated by the source,
// freed with pf_batch_free by the caller) for the given global step and rank;
// the result must depend only on (seed, step, rank) so resumed runs see the
// same data. Returns 0 on success, -1 when no batch can be made (and says why).
// data_wait_ms of the last next() call is reported for the log.
typedef struct pf_batch_source pf_batch_source;
struct pf_batch_source {
    const char *name;
    void *impl;
    int (*next)(pf_batch_source *src, int64_t step, int rank, pf_batch *out);
    // A fixed held-out batch for validation loss, index i in [0, n_val).
    int n_val;
    int (*val)(pf_batch_source *src, int i, pf_batch *out);
    void (*destroy)(pf_batch_source *src);
    double last_wait_ms;
    int64_t misses;  // next() calls a prefetching source could not serve from its queue
    // Optional (may be NULL): the steps next() will be asked for, so a prefetching
    // source produces those ahead: rank r of `world`, `accum` consecutive steps
    // per round, i.e. steps ((t / accum) world + r) accum + t % accum + 1 for t = 0, 1, ...
    // (the trainer's example numbers). Default: 1, 2, 3, ...
    void (*schedule)(pf_batch_source *src, int world, int rank, int accum);
};

// Build the AF2 features (AF2 supplement 1.2.7 - 1.2.9) from raw tokens:
// target_feat, and msa_feat with the cluster profile and deletion mean. The S
// rows msa_tok / deletions (S, N) (row 0 the query; BERT corruption already
// applied) are the cluster centres; each of the n_extra extra rows (extra_tok /
// extra_del (n_extra, N), rows with extra_msa_mask 0 ignored; NULL when none)
// joins the centre it agrees with at the most positions (amino acids and X
// count, gaps and mask tokens do not; ties to the first), and a centre's
// profile and deletion mean average over the centre and its members.
// Used by the synthetic source and the cache sampler alike.
void pf_batch_fill_features(pf_batch *b, const int32_t *msa_tok, const real *deletions,
                            const int32_t *extra_tok, const real *extra_del, int n_extra);

#endif
