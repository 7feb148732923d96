// test_unit_contacts: contact precision (validation metric) on a hand-made chain
// where the answer is known: separation, chain, resolution filters and top-k.
#include <string.h>
#include <math.h>
#include "testlib.h"
#include "../src/data/batch.h"
#include "../src/model/distogram.h"

int main(void) {
    enum { N = 40 };
    pf_batch b;
    pf_batch_alloc(&b, N, 1, 0);
    for (int i = 0; i < N; i++) {
        b.seq_mask[i] = 1;
        b.pseudo_beta_mask[i] = 1;
        b.residue_index[i] = i;
        b.pseudo_beta[3 * i] = (real)(10.0 * i);  // far apart: no contacts by default
    }
    // true contacts (< 8 A): (0, 30) and (2, 35); (5, 33) sits at 8.5 A (not a contact)
    b.pseudo_beta[3 * 30] = 0, b.pseudo_beta[3 * 30 + 1] = 5;
    b.pseudo_beta[3 * 35] = 20, b.pseudo_beta[3 * 35 + 1] = 7;
    b.pseudo_beta[3 * 33] = 50, b.pseudo_beta[3 * 33 + 1] = 8.5;
    float c[N * N];
    memset(c, 0, sizeof c);
    c[0 * N + 30] = 0.9f;   // right
    c[5 * N + 33] = 0.8f;   // wrong (8.5 A)
    c[2 * N + 35] = 0.7f;   // right
    c[1 * N + 10] = 0.99f;  // highest, but |i - j| = 9 < 24: not counted
    // L = 40 -> top L/5 = 8: 2 hits of 8
    double p = pf_contact_precision(c, &b, 24, 0);
    tl_check(fabs(p - 2.0 / 8) < 1e-12, "top L/5: hits / L5", "got %g", p);
    p = pf_contact_precision(c, &b, 24, 1);
    tl_check(p == 1.0, "top 1 is the 0.9 pair (the 0.99 pair is too close)", "got %g", p);
    p = pf_contact_precision(c, &b, 24, 2);
    tl_check(p == 0.5, "top 2: one right, one at 8.5 A", "got %g", p);
    p = pf_contact_precision(c, &b, 5, 1);
    tl_check(p == 0.0, "min separation 5 admits the 0.99 pair (not a contact)", "got %g", p);
    b.pseudo_beta_mask[30] = 0;  // unresolved: its pairs leave the evaluation
    p = pf_contact_precision(c, &b, 24, 1);
    tl_check(p == 0.0, "unresolved residues are skipped (next best is wrong)", "got %g", p);
    b.pseudo_beta_mask[30] = 1;
    for (int i = 20; i < N; i++) b.chain_id[i] = 1, b.residue_index[i] = i - 20;  // two chains of 20
    p = pf_contact_precision(c, &b, 24, 0);
    tl_check(isnan(p), "inter-chain pairs and short chains: no pair qualifies (NAN)", "got %g", p);

    // pf_top_contacts (predict's summary): chain 0 is 0..19, chain 1 is 20..39 now
    int64_t out[8];
    memset(c, 0, sizeof c);
    c[0 * N + 10] = 0.99f;   // same chain, |i - j| = 10 < 24: never listed
    c[3 * N + 25] = 0.5f;    // across chains: listed although |i - j| = 22
    c[1 * N + 39] = 0.7f;    // across chains
    c[2 * N + 30] = 0.7f;    // tie with (1, 39): the lower pair index (1, 39) first
    c[30 * N + 2] = 0.95f;   // lower triangle: not a pair i < j
    int n = pf_top_contacts(c, b.chain_id, N, 24, 3, out);
    tl_check(n == 3 && out[0] == 1 * N + 39 && out[1] == 2 * N + 30 && out[2] == 3 * N + 25, "top contacts: order, ties",
             "n %d: %lld %lld %lld", n, (long long)out[0], (long long)out[1], (long long)out[2]);
    n = pf_top_contacts(c, b.chain_id, N, 5, 1, out);
    tl_check(n == 1 && out[0] == 0 * N + 10, "top contacts: min_sep 5 admits the close pair", "n %d first %lld", n, (long long)out[0]);
    n = pf_top_contacts(c, b.chain_id, 3, 24, 8, out);
    tl_check(n == 0, "top contacts: no pair qualifies in a short single chain", "n %d", n);
    pf_batch_free(&b);
    return tl_finish();
}
