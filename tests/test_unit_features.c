// test_unit_features: AF2 MSA features (supplement 1.2.7-1.2.9) from tokens:
// target_feat, cluster assignment of extra rows, per-cluster profile and
// deletion mean.
#include <math.h>
#include <string.h>
#include "testlib.h"
#include "../src/data/batch.h"

static double dv(double d) { return 2.0 / M_PI * atan(d / 3.0); }

int main(void) {
    enum { N = 4, S = 3, E = 4 };
    const int A = 0, R = 1, Nn = 2, D = 3, V = 19, G = PF_TOK_GAP, X = PF_TOK_UNK;
    pf_batch b;
    pf_batch_alloc(&b, N, S, E);
    int32_t msa[S * N] = {A, R, Nn, D,   // query
                          V, V, V, V,    // a second centre
                          G, G, G, G};   // padding row (masked)
    real del[S * N] = {0};
    int32_t xt[E * N] = {A, R, V, V,     // ties 2-2 between centres 0 and 1: joins 0
                         V, V, V, D,     // 3 with centre 1: joins 1
                         G, G, X, G,     // agrees with nobody (X vs N, V): joins 0 (first)
                         V, V, V, V};    // masked row: joins nobody
    real xd[E * N] = {3, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 9, 9, 9, 9};
    for (int i = 0; i < N; i++) {
        b.aatype[i] = msa[i];
        b.msa_mask[i] = b.msa_mask[N + i] = 1;
        b.extra_msa_mask[i] = b.extra_msa_mask[N + i] = b.extra_msa_mask[2 * N + i] = 1;
    }
    pf_batch_fill_features(&b, msa, del, xt, xd, E);
    const real *f0 = b.msa_feat, *f1 = b.msa_feat + (size_t)N * PF_MSA_FEAT;
    #define F(row, i, c) b.msa_feat[(((size_t)(row) * N) + (i)) * PF_MSA_FEAT + (c)]
    tl_check(b.target_feat[0 * PF_TARGET_FEAT + A] == 1 && b.target_feat[3 * PF_TARGET_FEAT + D] == 1,
             "target_feat one-hot", NULL);
    tl_check(f0[A] == 1 && f1[V] == 1, "cluster token one-hot", NULL);
    // centre 0 = {query, extra 0, extra 2}: position 0 tokens A, A, G
    tl_check(fabs(F(0, 0, 25 + A) - 2.0 / 3) < 1e-6 && fabs(F(0, 0, 25 + G) - 1.0 / 3) < 1e-6,
             "profile of centre 0, position 0", "%g %g", (double)F(0, 0, 25 + A), (double)F(0, 0, 25 + G));
    // position 2: N, V, X
    tl_check(fabs(F(0, 2, 25 + Nn) - 1.0 / 3) < 1e-6 && fabs(F(0, 2, 25 + V) - 1.0 / 3) < 1e-6 &&
             fabs(F(0, 2, 25 + X) - 1.0 / 3) < 1e-6, "profile of centre 0, position 2", NULL);
    // centre 1 = {V V V V, extra 1}: position 3 tokens V, D; the masked extra row is left out
    tl_check(fabs(F(1, 3, 25 + V) - 0.5) < 1e-6 && fabs(F(1, 3, 25 + D) - 0.5) < 1e-6,
             "profile of centre 1, position 3 (masked extra row ignored)", "%g %g", (double)F(1, 3, 25 + V),
             (double)F(1, 3, 25 + D));
    // deletion means: centre 0 position 0: (0 + 3 + 0) / 3; centre 1 position 3: (0 + 6) / 2
    tl_check(fabs(F(0, 0, 48) - dv(1.0)) < 1e-6 && fabs(F(1, 3, 48) - dv(3.0)) < 1e-6, "cluster deletion mean",
             "%g %g", (double)F(0, 0, 48), (double)F(1, 3, 48));
    // the padding row has no features
    double sum = 0;
    for (int i = 0; i < N; i++)
        for (int c = 0; c < PF_MSA_FEAT; c++) sum += fabs(F(2, i, c));
    tl_check(sum == 0, "masked row has zero features", NULL);
    // without extra rows a centre's profile is its own one-hot
    pf_batch_fill_features(&b, msa, del, NULL, NULL, 0);
    tl_check(F(0, 0, 25 + A) == 1 && F(1, 3, 25 + V) == 1, "profile without extra rows", NULL);
    pf_batch_free(&b);
    return tl_finish();
}
