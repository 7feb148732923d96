#include "batch.h"
#include <math.h>
#include <string.h>
#include <stddef.h>
#include "../core/util.h"

#define PF_DIM_DESC_1 PF_DIM_1
#define PF_DIM_DESC_N PF_DIM_N
#define PF_DIM_DESC_S PF_DIM_S
#define PF_DIM_DESC_E PF_DIM_E
#define PF_ARRAY_DESC(name, type, outer, inner, channels) \
    {#name, _Generic((type)0, int32_t: 1, default: 0), offsetof(pf_batch, name), PF_DIM_DESC_##outer, PF_DIM_DESC_##inner, channels},
const pf_array_desc pf_batch_arrays[] = {PF_BATCH_ARRAYS(PF_ARRAY_DESC)};
#undef PF_ARRAY_DESC
const int pf_batch_n_arrays = (int)(sizeof pf_batch_arrays / sizeof pf_batch_arrays[0]);

static void **array_at(pf_batch *b, const pf_array_desc *a) { return (void **)((char *)b + a->offset); }
static size_t array_bytes(const pf_batch *b, const pf_array_desc *a) {
    return (size_t)pf_array_elems(a->outer, a->inner, a->channels, b->N, b->S, b->E) *
           (a->is_int ? sizeof(int32_t) : sizeof(real));
}

void pf_batch_alloc(pf_batch *b, int N, int S, int E) {
    memset(b, 0, sizeof *b);
    b->N = N; b->S = S; b->E = E;
    for (int k = 0; k < pf_batch_n_arrays; k++)  // one spare element: no zero-size allocation when E == 0
        *array_at(b, &pf_batch_arrays[k]) = pf_calloc(array_bytes(b, &pf_batch_arrays[k]) + sizeof(real), 1);
    b->crop_start = -1;
}

void pf_batch_free(pf_batch *b) {
    for (int k = 0; k < pf_batch_n_arrays; k++) pf_free(*array_at(b, &pf_batch_arrays[k]));
    memset(b, 0, sizeof *b);
}

void pf_batch_copy(pf_batch *d, const pf_batch *s) {
    pf_batch_alloc(d, s->N, s->S, s->E);
    for (int k = 0; k < pf_batch_n_arrays; k++)
        memcpy(*array_at(d, &pf_batch_arrays[k]), *array_at((pf_batch *)s, &pf_batch_arrays[k]),
               array_bytes(s, &pf_batch_arrays[k]));
    memcpy(d->name, s->name, sizeof d->name);
    d->crop_start = s->crop_start;
}

real pf_deletion_value(double d) { return (real)(2.0 / M_PI * atan(d / 3.0)); }

void pf_extra_msa_feat(real *f, int tok, double del) {
    f[tok >= 0 && tok < PF_NUM_TOK ? tok : PF_TOK_UNK] = 1;
    f[23] = del > 0;
    f[24] = pf_deletion_value(del);
}

// Agreement of two tokens for cluster assignment (AF2 1.2.7: weight 1 for the
// 20 amino acids and X, 0 for gaps and the mask token).
static inline int agrees(int a, int b) { return a == b && a >= 0 && a <= PF_TOK_UNK; }

void pf_batch_fill_features(pf_batch *b, const int32_t *msa, const real *del,
                            const int32_t *xtok, const real *xdel, int n_extra) {
    int N = b->N, S = b->S;
    for (int i = 0; i < N; i++) {
        real *t = b->target_feat + (size_t)i * PF_TARGET_FEAT;
        memset(t, 0, sizeof(real) * PF_TARGET_FEAT);
        int a = b->aatype[i];
        t[a >= 0 && a <= PF_TOK_UNK ? a : PF_TOK_UNK] = 1;
    }
    // cluster of each extra row: the centre with the most agreeing positions
    int *owner = pf_calloc((size_t)(n_extra > 0 ? n_extra : 1), sizeof(int));
    for (int e = 0; e < n_extra; e++) {
        owner[e] = -1;
        if (!xtok) continue;
        int best = -1;
        for (int s = 0; s < S; s++) {
            int agree = 0, counted = 0;  // counted: the rows share an unmasked position
            for (int i = 0; i < N; i++) {
                if (b->extra_msa_mask[(size_t)e * N + i] == 0 || b->msa_mask[(size_t)s * N + i] == 0) continue;
                counted = 1;
                agree += agrees(xtok[(size_t)e * N + i], msa[(size_t)s * N + i]);
            }
            if (counted && agree > best) best = agree, owner[e] = s;
        }
    }
    // per-row profile (S, N, 23) and deletion mean (S, N) over centre + members
    real *prof = pf_calloc((size_t)S * N * PF_NUM_TOK, sizeof(real));
    real *dsum = pf_calloc((size_t)S * N, sizeof(real)), *cnt = pf_calloc((size_t)S * N, sizeof(real));
    for (int s = 0; s < S; s++)
        for (int i = 0; i < N; i++) {
            size_t k = (size_t)s * N + i;
            if (b->msa_mask[k] == 0) continue;
            int t = msa[k];
            prof[k * PF_NUM_TOK + (t >= 0 && t < PF_NUM_TOK ? t : PF_TOK_UNK)] += 1;
            dsum[k] += del[k];
            cnt[k] += 1;
        }
    for (int e = 0; e < n_extra; e++) {
        if (owner[e] < 0) continue;
        for (int i = 0; i < N; i++) {
            size_t ke = (size_t)e * N + i, k = (size_t)owner[e] * N + i;
            if (b->extra_msa_mask[ke] == 0 || b->msa_mask[k] == 0) continue;
            int t = xtok[ke];
            prof[k * PF_NUM_TOK + (t >= 0 && t < PF_NUM_TOK ? t : PF_TOK_UNK)] += 1;
            dsum[k] += xdel ? xdel[ke] : 0;
            cnt[k] += 1;
        }
    }
    for (int s = 0; s < S; s++)
        for (int i = 0; i < N; i++) {
            size_t k = (size_t)s * N + i;
            real *f = b->msa_feat + k * PF_MSA_FEAT;
            memset(f, 0, sizeof(real) * PF_MSA_FEAT);
            if (b->msa_mask[k] == 0) continue;
            int t = msa[k];
            f[t >= 0 && t < PF_NUM_TOK ? t : PF_TOK_UNK] = 1;
            f[23] = del[k] > 0;
            f[24] = pf_deletion_value(del[k]);
            for (int c = 0; c < PF_NUM_TOK; c++) f[25 + c] = prof[k * PF_NUM_TOK + c] / cnt[k];
            f[48] = pf_deletion_value(dsum[k] / cnt[k]);
        }
    pf_free(owner);
    pf_free(prof);
    pf_free(dsum);
    pf_free(cnt);
}
