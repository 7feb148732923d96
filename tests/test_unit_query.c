// test_unit_query: predict's batch from an alignment (src/data/query_batch.c):
// which rows become cluster rows, extra rows or masked padding, the query's
// tokens and features, and the per-residue ids of AlphaFold 3 input.
#include <string.h>
#include "testlib.h"
#include "../src/data/query_batch.h"

int main(void) {
    enum { L = 4, ROWS = 3 };
    uint8_t tok[ROWS * L] = {0, 1, PF_TOK_GAP, 3,   // query (a gap in the query reads as X)
                             0, 2, 2, PF_TOK_GAP,   // cluster row 1
                             4, 4, 4, 4};           // becomes extra row 0
    uint8_t del[ROWS * L] = {0, 0, 0, 0, 0, 3, 0, 0, 1, 0, 0, 0};
    pf_msa a = {ROWS, L, tok, del};
    pf_batch b;
    pf_batch_from_query(&a, NULL, 2, 2, &b);
    tl_check(b.N == L && b.S == 2 && b.E == 2, "dims", "N %d S %d E %d", b.N, b.S, b.E);
    tl_check(b.aatype[0] == 0 && b.aatype[1] == 1 && b.aatype[2] == PF_TOK_UNK && b.aatype[3] == 3, "query tokens",
             "%d %d %d %d", b.aatype[0], b.aatype[1], b.aatype[2], b.aatype[3]);
    int ok = 1;
    for (int i = 0; i < L; i++) ok &= b.residue_index[i] == i && b.chain_id[i] == 0 && b.seq_mask[i] == 1;
    tl_check(ok, "one chain without ids, residue index = column", "-");
    ok = 1;
    for (int i = 0; i < 2 * L; i++) ok &= b.msa_mask[i] == 1;
    tl_check(ok, "both cluster rows present", "-");
    ok = 1;
    for (int i = 0; i < L; i++) ok &= b.extra_msa_mask[i] == 1 && b.extra_msa_mask[L + i] == 0;
    tl_check(ok, "extra row 0 from alignment row 2, extra row 1 padding", "-");
    tl_check(b.extra_msa_feat[0 * PF_EXTRA_MSA_FEAT + 4] == 1 && b.extra_msa_feat[0 * PF_EXTRA_MSA_FEAT + 23] == 1,
             "extra row features: token one-hot, has_deletion", "-");
    tl_check(b.target_feat[1 * PF_TARGET_FEAT + 1] == 1 && b.target_feat[2 * PF_TARGET_FEAT + PF_TOK_UNK] == 1,
             "target_feat one-hot of the query", "-");
    tl_check(b.msa_feat[(size_t)(1 * L + 1) * PF_MSA_FEAT + 2] == 1 && b.msa_feat[(size_t)(1 * L + 1) * PF_MSA_FEAT + 23] == 1,
             "cluster row 1 column 1: token 2 with a deletion", "-");
    pf_batch_free(&b);

    int32_t chain[L] = {0, 0, 1, 1}, entity[L] = {0, 0, 0, 0}, sym[L] = {0, 0, 1, 1}, ri[L] = {0, 1, 0, 1};
    pf_af3_query q;
    memset(&q, 0, sizeof q);
    q.msa = a, q.chain = chain, q.entity = entity, q.sym = sym, q.residue_index = ri;
    pf_batch_from_query(&a, &q, 4, 0, &b);
    ok = 1;
    for (int i = 0; i < L; i++) ok &= b.chain_id[i] == chain[i] && b.sym_id[i] == sym[i] && b.residue_index[i] == ri[i];
    tl_check(ok, "AF3 ids copied", "-");
    ok = 1;
    for (int i = 0; i < L; i++) ok &= b.msa_mask[3 * L + i] == 0 && b.msa_mask[2 * L + i] == 1;
    tl_check(ok && b.E == 0, "rows beyond the alignment are masked padding", "-");
    pf_batch_free(&b);
    return tl_finish();
}
