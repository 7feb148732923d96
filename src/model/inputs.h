// inputs.h: the model's inputs, described once. Each is a tensor of the batch
// (pf_batch, copied as is) or derived from it when the batch is staged (masks of
// pairs, distogram targets); real inputs are converted to the backend's
// activation type, int32 inputs are uploaded as they are. The arena carver
// (model.c), the host staging slots and the upload (stage.c) all walk this table,
// in this order.
//   id             int  outer inner channels           source in pf_batch
#ifndef PF_INPUTS_H
#define PF_INPUTS_H
#include "../data/batch.h"

#define PF_MODEL_INPUTS(X)                                                                 \
    X(TARGET_FEAT,   0,   N,    1,    PF_TARGET_FEAT,    PF_FROM_BATCH(target_feat))        \
    X(MSA_FEAT,      0,   S,    N,    PF_MSA_FEAT,       PF_FROM_BATCH(msa_feat))           \
    X(EXTRA_FEAT,    0,   E,    N,    PF_EXTRA_MSA_FEAT, PF_FROM_BATCH(extra_msa_feat))     \
    X(MSA_MASK,      0,   S,    N,    1,                 PF_FROM_BATCH(msa_mask))           \
    X(PAIR_MASK,     0,   N,    N,    1,                 PF_DERIVED) /* seq_mask_i seq_mask_j */ \
    X(SEQ_MASK,      0,   N,    1,    1,                 PF_FROM_BATCH(seq_mask))           \
    X(EXTRA_MASK,    0,   E,    N,    1,                 PF_FROM_BATCH(extra_msa_mask))     \
    X(DISTO_MASK,    0,   N,    N,    1,                 PF_DERIVED) /* both pseudo-betas resolved */ \
    X(BERT_MASK,     0,   S,    N,    1,                 PF_FROM_BATCH(bert_mask))          \
    X(RESIDUE_INDEX, 1,   N,    1,    1,                 PF_FROM_BATCH(residue_index))      \
    X(CHAIN,         1,   N,    1,    1,                 PF_FROM_BATCH(chain_id))           \
    X(ENTITY,        1,   N,    1,    1,                 PF_FROM_BATCH(entity_id))          \
    X(SYM,           1,   N,    1,    1,                 PF_FROM_BATCH(sym_id))             \
    X(DISTO_TARGET,  1,   N,    N,    1,                 PF_DERIVED) /* bin of the pseudo-beta distance */ \
    X(BERT_TARGET,   1,   S,    N,    1,                 PF_DERIVED) /* bert_target, out-of-range -> gap */

#define PF_FROM_BATCH(field) offsetof(pf_batch, field)
#define PF_DERIVED ((size_t)-1)

typedef enum {
#define PF_INPUT_ID(id, is_int, outer, inner, channels, source) PF_IN_##id,
    PF_MODEL_INPUTS(PF_INPUT_ID)
#undef PF_INPUT_ID
    PF_NUM_INPUTS
} pf_input_id;

typedef struct {
    const char *name;
    int is_int;       // int32_t, else real (activation type on the backend)
    pf_dim outer, inner;
    int channels;
    size_t source;    // offset of the array in pf_batch, or PF_DERIVED
} pf_input_desc;
extern const pf_input_desc pf_model_inputs[PF_NUM_INPUTS];

// Elements of input k for N tokens, S cluster rows, E extra rows.
static inline int64_t pf_input_elems(int k, int64_t N, int64_t S, int64_t E) {
    const pf_input_desc *d = &pf_model_inputs[k];
    return pf_array_elems(d->outer, d->inner, d->channels, N, S, E);
}

#endif
