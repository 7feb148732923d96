// batch.h: one training example as the model consumes it, and the interface of
// anything that produces them (synthetic proteins, the feature cache sampler).
// All arrays are host memory owned by the batch; N tokens (residues) after
// cropping, S MSA cluster rows, E extra-MSA rows (AF2 extra-MSA stack).
#ifndef PF_BATCH_H
#define PF_BATCH_H
#include <stdint.h>
#include <stddef.h>
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

// Every array of a batch, described once: name, element type, shape (outer,
// inner, channels) with outer / inner one of N (tokens after cropping), S (MSA
// cluster rows, row 0 the query), E (extra-MSA rows, may be 0) or 1. The struct
// fields, allocation, copy and free all come from this table.
//   name               type     outer inner channels
#define PF_BATCH_ARRAYS(X)                                                                     \
    X(aatype,           int32_t, N,    1,    1)                 /* tokens 0..20             */ \
    X(residue_index,    int32_t, N,    1,    1)                 /* 0-based within its chain */ \
    X(chain_id,         int32_t, N,    1,    1)                 /* asym id, 0-based         */ \
    X(entity_id,        int32_t, N,    1,    1)                 /* same sequence = same id  */ \
    X(sym_id,           int32_t, N,    1,    1)                 /* copy within the entity   */ \
    X(seq_mask,         real,    N,    1,    1)                 /* 1 for real tokens        */ \
    X(target_feat,      real,    N,    1,    PF_TARGET_FEAT)                                   \
    X(msa_feat,         real,    S,    N,    PF_MSA_FEAT)                                      \
    X(msa_mask,         real,    S,    N,    1)                                                \
    X(bert_target,      int32_t, S,    N,    1)                 /* true token where corrupted */ \
    X(bert_mask,        real,    S,    N,    1)                 /* 1 where corrupted        */ \
    X(extra_msa_feat,   real,    E,    N,    PF_EXTRA_MSA_FEAT)                                \
    X(extra_msa_mask,   real,    E,    N,    1)                                                \
    X(pseudo_beta,      real,    N,    1,    3)                 /* CB (CA for glycine), A   */ \
    X(pseudo_beta_mask, real,    N,    1,    1)                 /* 1 where resolved         */ \
    X(backbone_xyz,     real,    N,    1,    15)                /* N, CA, C, O, CB (A)      */ \
    X(backbone_mask,    int32_t, N,    1,    1)                 /* bit k: atom k present    */ \
    X(atom14_xyz,       real,    N,    1,    42)                /* heavy atoms, atom14.h (A) */ \
    X(atom14_mask,      int32_t, N,    1,    1)                 /* bit a: slot a present    */

typedef struct {
    int N, S, E;
#define PF_BATCH_FIELD(name, type, outer, inner, channels) type *name;
    PF_BATCH_ARRAYS(PF_BATCH_FIELD)
#undef PF_BATCH_FIELD
    // provenance, for logs
    char name[64];           // entry / chain name
    int64_t crop_start;      // first residue of a contiguous crop, -1 for spatial
} pf_batch;

// The table as data, for code that walks every array (allocation, copies, the
// model's input layout).
typedef enum { PF_DIM_1, PF_DIM_N, PF_DIM_S, PF_DIM_E } pf_dim;
typedef struct {
    const char *name;
    int is_int;            // int32_t, else real
    size_t offset;         // of the array pointer in pf_batch
    pf_dim outer, inner;
    int channels;
} pf_array_desc;
extern const pf_array_desc pf_batch_arrays[];
extern const int pf_batch_n_arrays;
static inline int64_t pf_dim_size(pf_dim d, int64_t N, int64_t S, int64_t E) {
    return d == PF_DIM_N ? N : d == PF_DIM_S ? S : d == PF_DIM_E ? E : 1;
}
// Elements of an array of that shape.
static inline int64_t pf_array_elems(pf_dim outer, pf_dim inner, int channels, int64_t N, int64_t S, int64_t E) {
    return pf_dim_size(outer, N, S, E) * pf_dim_size(inner, N, S, E) * channels;
}

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
