// query_batch.c: features of one query alignment for inference (query_batch.h).
#include "query_batch.h"
#include <stdio.h>
#include "../core/util.h"

void pf_batch_from_query(const pf_msa *a, const pf_af3_query *ids, int S, int E, pf_batch *b) {
    int N = a->L;
    pf_batch_alloc(b, N, S, E);
    snprintf(b->name, sizeof b->name, "query");
    for (int i = 0; i < N; i++) {
        b->aatype[i] = a->tok[i] <= PF_TOK_UNK ? a->tok[i] : PF_TOK_UNK;
        b->residue_index[i] = ids ? ids->residue_index[i] : i;
        if (ids) b->chain_id[i] = ids->chain[i], b->entity_id[i] = ids->entity[i], b->sym_id[i] = ids->sym[i];
        b->seq_mask[i] = 1;
    }
    int32_t *tok = pf_calloc((size_t)S * N + 1, sizeof(int32_t)), *xtok = pf_calloc((size_t)E * N + 1, sizeof(int32_t));
    real *del = pf_calloc((size_t)S * N + 1, sizeof(real)), *xdel = pf_calloc((size_t)E * N + 1, sizeof(real));
    for (int r = 0; r < S; r++)
        for (int i = 0; i < N; i++) {
            size_t o = (size_t)r * N + i;
            tok[o] = PF_TOK_GAP;
            if (r >= a->n_seq) continue;
            tok[o] = a->tok[o];
            del[o] = a->del[o];
            b->msa_mask[o] = 1;
        }
    for (int r = 0; r < E; r++)
        for (int i = 0; i < N; i++) {
            size_t o = (size_t)r * N + i, src = (size_t)(S + r) * N + i;
            if (S + r >= a->n_seq) continue;
            xtok[o] = a->tok[src];
            xdel[o] = a->del[src];
            pf_extra_msa_feat(b->extra_msa_feat + o * PF_EXTRA_MSA_FEAT, xtok[o], xdel[o]);
            b->extra_msa_mask[o] = 1;
        }
    pf_batch_fill_features(b, tok, del, xtok, xdel, E);
    pf_free(tok); pf_free(xtok); pf_free(del); pf_free(xdel);
}
