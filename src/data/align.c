#include "align.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "batch.h"
#include "structbuild.h"
#include "../core/util.h"

#define MAX_CELLS 40000000LL  // n*m above this: refuse (fuzzed or absurd inputs)
#define NEG (INT_MIN / 4)

static int score(int a, int b) {
    if (a == PF_TOK_UNK || b == PF_TOK_UNK) return 0;
    return a == b ? 200 : -100;
}

// Fitting alignment: every resolved residue i takes a sequence position
// pos[i], strictly increasing. Skipping k >= 1 sequence residues between
// consecutive residues costs 300 + k, nothing when k equals the jump in
// author numbering; no skip despite a numbering jump costs 50. Skips before
// the first and after the last residue are free.
int pf_fit_to_sequence(const uint8_t *tok, const long *num, int n, const uint8_t *seq, int m, int *pos) {
    if (n == 0) return 0;
    if (n > m || (long long)n * m > MAX_CELLS) return -1;
    int64_t cells = (int64_t)n * m;
    int *M = malloc((size_t)cells * sizeof(int));   // (n, m) best score with i at j
    int *P = malloc((size_t)cells * sizeof(int));   // (n, m) position of i-1 in that path
    if (!M || !P) { free(M); free(P); return -1; }
    for (int j = 0; j < m; j++) M[j] = score(tok[0], seq[j]), P[j] = -1;
    for (int i = 1; i < n; i++) {
        long d = num[i] - num[i - 1] - 1;  // residues missing according to numbering
        const int *Mp = M + (int64_t)(i - 1) * m;
        int *Mi = M + (int64_t)i * m, *Pi = P + (int64_t)i * m;
        int best = NEG, bestk = -1;  // max over k <= j-2 of Mp[k] - (j-1-k): a skip of >= 1
        for (int j = 0; j < m; j++) {
            if (j >= 2) {
                if (best != NEG) best -= 1;
                if (Mp[j - 2] != NEG && Mp[j - 2] - 1 > best) best = Mp[j - 2] - 1, bestk = j - 2;
            }
            int v = NEG, k = -1;
            if (j >= 1 && Mp[j - 1] != NEG) v = Mp[j - 1] - (d > 0 ? 50 : 0), k = j - 1;
            if (best != NEG && best - 300 > v) v = best - 300, k = bestk;
            if (d > 0 && j - 1 - d >= 0 && Mp[j - 1 - d] != NEG && Mp[j - 1 - d] > v) v = Mp[j - 1 - d], k = (int)(j - 1 - d);
            Mi[j] = v == NEG ? NEG : v + score(tok[i], seq[j]);
            Pi[j] = k;
        }
    }
    const int *Ml = M + (int64_t)(n - 1) * m;
    int bj = -1;
    for (int j = 0; j < m; j++)
        if (Ml[j] != NEG && (bj < 0 || Ml[j] > Ml[bj])) bj = j;
    int rc = -1;
    if (bj >= 0) {
        for (int i = n - 1; i >= 0; i--) {
            pos[i] = bj;
            bj = P[(int64_t)i * m + bj];
        }
        int same = 0, known = 0;
        for (int i = 0; i < n; i++)
            if (tok[i] != PF_TOK_UNK && seq[pos[i]] != PF_TOK_UNK) known++, same += tok[i] == seq[pos[i]];
        rc = (known == 0 || 2 * same >= known) ? 0 : -1;
    }
    free(M);
    free(P);
    return rc;
}

// Gotoh with three states; end gaps free on both sequences.
int pf_align_global(const uint8_t *a, int n, const uint8_t *b, int m, int *map) {
    for (int i = 0; i < n; i++) map[i] = -1;
    if (n == 0 || m == 0) return 0;
    if ((long long)(n + 1) * (m + 1) > MAX_CELLS) return -1;
    if (n == m && memcmp(a, b, (size_t)n) == 0) {
        for (int i = 0; i < n; i++) map[i] = i;
        return n;
    }
    const int OPEN = 500, EXT = 20;
    int64_t W = m + 1, cells = (int64_t)(n + 1) * W;
    int *H = malloc((size_t)cells * sizeof(int));  // match state
    int *E = malloc((size_t)cells * sizeof(int));  // gap in a (consumes b)
    int *F = malloc((size_t)cells * sizeof(int));  // gap in b (consumes a)
    if (!H || !E || !F) { free(H); free(E); free(F); return -1; }
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++) {
            int64_t k = i * W + j;
            if (i == 0 || j == 0) {  // free leading gaps
                H[k] = (i == 0 && j == 0) ? 0 : NEG;
                E[k] = i == 0 && j > 0 ? 0 : NEG;
                F[k] = j == 0 && i > 0 ? 0 : NEG;
                continue;
            }
            int diag = H[k - W - 1];
            if (E[k - W - 1] > diag) diag = E[k - W - 1];
            if (F[k - W - 1] > diag) diag = F[k - W - 1];
            H[k] = diag + score(a[i - 1], b[j - 1]);
            int eo = H[k - 1] - OPEN, ee = E[k - 1] - EXT, ef = F[k - 1] - OPEN;
            if (i == n) eo = H[k - 1], ee = E[k - 1], ef = F[k - 1];  // free trailing gap
            E[k] = PF_MAX(eo, PF_MAX(ee, ef));
            int fo = H[k - W] - OPEN, fe = F[k - W] - EXT, fh = E[k - W] - OPEN;
            if (j == m) fo = H[k - W], fe = F[k - W], fh = E[k - W];
            F[k] = PF_MAX(fo, PF_MAX(fe, fh));
        }
    // traceback from (n, m)
    int i = n, j = m, st;
    int64_t k = i * W + j;
    st = (H[k] >= E[k] && H[k] >= F[k]) ? 0 : (E[k] >= F[k] ? 1 : 2);
    int same = 0;
    while (i > 0 && j > 0) {
        k = i * W + j;
        if (st == 0) {
            map[i - 1] = j - 1;
            same += a[i - 1] == b[j - 1] && a[i - 1] != PF_TOK_UNK;
            int64_t p = k - W - 1;
            int want = H[k] - score(a[i - 1], b[j - 1]);
            st = H[p] == want ? 0 : (E[p] == want ? 1 : 2);
            i--, j--;
        } else if (st == 1) {
            int free_end = i == n;
            int o = free_end ? 0 : OPEN, e = free_end ? 0 : EXT;
            st = E[k] == E[k - 1] - e ? 1 : (E[k] == H[k - 1] - o ? 0 : 2);
            j--;
        } else {
            int free_end = j == m;
            int o = free_end ? 0 : OPEN, e = free_end ? 0 : EXT;
            st = F[k] == F[k - W] - e ? 2 : (F[k] == H[k - W] - o ? 0 : 1);
            i--;
        }
    }
    free(H);
    free(E);
    free(F);
    return same;
}
