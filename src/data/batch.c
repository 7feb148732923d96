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

static real deletion_value(double d) { return (real)(2.0 / M_PI * atan(d / 3.0)); }

void pf_batch_fill_features(pf_batch *b, const int32_t *msa, const real *del) {
    int N = b->N, S = b->S;
    for (int i = 0; i < N; i++) {
        real *t = b->target_feat + (size_t)i * PF_TARGET_FEAT;
        memset(t, 0, sizeof(real) * PF_TARGET_FEAT);
        int a = b->aatype[i];
        t[a >= 0 && a <= PF_TOK_UNK ? a : PF_TOK_UNK] = 1;
    }
    // profile and deletion mean over the rows of each column (masked rows excluded)
    real *prof = pf_calloc((size_t)N * PF_NUM_TOK, sizeof(real));
    real *dmean = pf_calloc((size_t)N, sizeof(real));
    for (int i = 0; i < N; i++) {
        double cnt = 0;
        for (int s = 0; s < S; s++) {
            size_t k = (size_t)s * N + i;
            if (b->msa_mask[k] == 0) continue;
            int t = msa[k];
            if (t >= 0 && t < PF_NUM_TOK) prof[(size_t)i * PF_NUM_TOK + t] += 1;
            dmean[i] += del[k];
            cnt += 1;
        }
        if (cnt > 0) {
            for (int t = 0; t < PF_NUM_TOK; t++) prof[(size_t)i * PF_NUM_TOK + t] /= cnt;
            dmean[i] /= cnt;
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
            f[24] = deletion_value(del[k]);
            memcpy(f + 25, prof + (size_t)i * PF_NUM_TOK, sizeof(real) * PF_NUM_TOK);
            f[48] = deletion_value(dmean[i]);
        }
    pf_free(prof);
    pf_free(dmean);
}
