#include "batch.h"
#include <math.h>
#include <string.h>
#include "../core/util.h"

void pf_batch_alloc(pf_batch *b, int N, int S, int E) {
    memset(b, 0, sizeof *b);
    b->N = N; b->S = S; b->E = E;
    size_t n = (size_t)N, s = (size_t)S, e = (size_t)E;
    b->aatype = pf_calloc(n, sizeof(int32_t));
    b->residue_index = pf_calloc(n, sizeof(int32_t));
    b->chain_id = pf_calloc(n, sizeof(int32_t));
    b->entity_id = pf_calloc(n, sizeof(int32_t));
    b->sym_id = pf_calloc(n, sizeof(int32_t));
    b->seq_mask = pf_calloc(n, sizeof(real));
    b->target_feat = pf_calloc(n * PF_TARGET_FEAT, sizeof(real));
    b->msa_feat = pf_calloc(s * n * PF_MSA_FEAT, sizeof(real));
    b->msa_mask = pf_calloc(s * n, sizeof(real));
    b->bert_target = pf_calloc(s * n, sizeof(int32_t));
    b->bert_mask = pf_calloc(s * n, sizeof(real));
    b->extra_msa_feat = pf_calloc(e * n * PF_EXTRA_MSA_FEAT + 1, sizeof(real));
    b->extra_msa_mask = pf_calloc(e * n + 1, sizeof(real));
    b->pseudo_beta = pf_calloc(n * 3, sizeof(real));
    b->pseudo_beta_mask = pf_calloc(n, sizeof(real));
    b->crop_start = -1;
}

void pf_batch_free(pf_batch *b) {
    void *ps[] = {b->aatype, b->residue_index, b->chain_id, b->entity_id, b->sym_id, b->seq_mask,
                  b->target_feat, b->msa_feat, b->msa_mask, b->bert_target, b->bert_mask,
                  b->extra_msa_feat, b->extra_msa_mask, b->pseudo_beta, b->pseudo_beta_mask};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) pf_free(ps[i]);
    memset(b, 0, sizeof *b);
}

void pf_batch_copy(pf_batch *d, const pf_batch *s) {
    pf_batch_alloc(d, s->N, s->S, s->E);
    size_t n = (size_t)s->N, S = (size_t)s->S, e = (size_t)s->E;
#define CP(f, cnt) memcpy(d->f, s->f, sizeof(*s->f) * (cnt))
    CP(aatype, n); CP(residue_index, n); CP(chain_id, n); CP(entity_id, n); CP(sym_id, n);
    CP(seq_mask, n); CP(target_feat, n * PF_TARGET_FEAT); CP(msa_feat, S * n * PF_MSA_FEAT);
    CP(msa_mask, S * n); CP(bert_target, S * n); CP(bert_mask, S * n);
    CP(extra_msa_feat, e * n * PF_EXTRA_MSA_FEAT); CP(extra_msa_mask, e * n);
    CP(pseudo_beta, n * 3); CP(pseudo_beta_mask, n);
#undef CP
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
