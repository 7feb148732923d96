// score.c: match two structures residue by residue and score them (score.h).
#include "score.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "../data/batch.h"
#include "../data/residue.h"
#include "metrics.h"

// A resolved residue's key: author number and insertion code.
typedef struct {
    int32_t num;
    char icode;
    int idx;  // position in the chain
} rkey;

static int cmp_key(const void *a, const void *b) {
    const rkey *x = a, *y = b;
    if (x->num != y->num) return x->num < y->num ? -1 : 1;
    return (x->icode > y->icode) - (x->icode < y->icode);
}

static void key_text(const rkey *k, char *out, size_t cap) {
    if (k->icode == ' ') snprintf(out, cap, "%d", (int)k->num);
    else snprintf(out, cap, "%d%c", (int)k->num, k->icode);
}

// Sorted keys of chain c's resolved residues; -1 when a key repeats.
static rkey *chain_keys(const pf_chain *c, const char *name, int *n, char *err, size_t errlen) {
    rkey *k = malloc((size_t)(c->n > 0 ? c->n : 1) * sizeof(rkey));
    if (!k) pf_die("out of memory");
    *n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->resolved[i]) k[(*n)++] = (rkey){c->auth_num[i], c->icode[i], i};
    qsort(k, (size_t)*n, sizeof *k, cmp_key);
    for (int i = 1; i < *n; i++)
        if (cmp_key(&k[i - 1], &k[i]) == 0) {
            char t[24];
            key_text(&k[i], t, sizeof t);
            snprintf(err, errlen, "%s: chain %s has residue %s twice; residues are matched by chain and number", name,
                     c->id, t);
            free(k);
            return NULL;
        }
    return k;
}

static const pf_chain *find_chain(const pf_structure *s, const char *id) {
    for (int c = 0; c < s->n_chains; c++)
        if (!strcmp(s->chains[c].id, id)) return &s->chains[c];
    return NULL;
}

static void chain_list(const pf_structure *s, char *out, size_t cap) {
    size_t n = 0;
    out[0] = 0;
    for (int c = 0; c < s->n_chains && n + 12 < cap; c++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s", c ? " " : "", s->chains[c].id);
}

// Both structures have the same chain ids.
static int same_chains(const pf_structure *a, const pf_structure *b, const char *an, const char *bn, char *err,
                       size_t errlen) {
    for (int pass = 0; pass < 2; pass++) {
        const pf_structure *x = pass ? b : a, *y = pass ? a : b;
        for (int c = 0; c < x->n_chains; c++)
            if (!find_chain(y, x->chains[c].id)) {
                char la[256], lb[256];
                chain_list(a, la, sizeof la);
                chain_list(b, lb, sizeof lb);
                snprintf(err, errlen, "chain %s of %s is not in %s (chains of %s: %s; of %s: %s)", x->chains[c].id,
                         pass ? bn : an, pass ? an : bn, an, la, bn, lb);
                return -1;
            }
    }
    return 0;
}

// Matched CA coordinates of every chain, true residues in chain order.
typedef struct {
    double *xt, *xp;  // (n, 3) true and predicted CA; xp is 0 where missing
    uint8_t *pm, *tm; // (n) predicted residue present; true mask (all 1)
    int n;
} matched;

static const float *ca_of(const pf_chain *c, int i) { return c->xyz + ((size_t)i * PF_NUM_BB + PF_AT_CA) * 3; }

static int match_chain(const pf_chain *tc, const pf_chain *pc, const char *pn, const char *tn, matched *m,
                       pf_score_row *row, char *err, size_t errlen) {
    int nk_p, nk_t;
    rkey *kp = chain_keys(pc, pn, &nk_p, err, errlen);
    rkey *kt = kp ? chain_keys(tc, tn, &nk_t, err, errlen) : NULL;
    int rc = kt ? 0 : -1;
    memset(row, 0, sizeof *row);
    snprintf(row->chain, sizeof row->chain, "%s", tc->id);
    row->n_pred = nk_p;
    for (int i = 0; i < tc->n && rc == 0; i++) {
        if (!tc->resolved[i]) continue;
        rkey want = {tc->auth_num[i], tc->icode[i], i};
        const rkey *hit = bsearch(&want, kp, (size_t)nk_p, sizeof *kp, cmp_key);
        int64_t r = m->n++;
        row->n_true++;
        for (int d = 0; d < 3; d++) m->xt[3 * r + d] = ca_of(tc, i)[d], m->xp[3 * r + d] = 0;
        m->tm[r] = 1, m->pm[r] = hit != NULL;
        if (!hit) continue;
        int a = tc->tok[i], b = pc->tok[hit->idx];
        if (a != b && a != PF_TOK_UNK && b != PF_TOK_UNK) {
            char t[24];
            key_text(&want, t, sizeof t);
            snprintf(err, errlen, "chain %s residue %s is %s in %s but %s in %s (residues are matched by chain and "
                     "number: is the numbering offset?)", tc->id, t, pf_tok_name3(b), pn, pf_tok_name3(a), tn);
            rc = -1;
        }
        for (int d = 0; d < 3; d++) m->xp[3 * r + d] = ca_of(pc, hit->idx)[d];
        row->n_common++;
    }
    if (rc == 0 && row->n_common == 0) {
        snprintf(err, errlen, "chain %s: no residue numbers in common between %s (%d residues) and %s (%d residues)",
                 tc->id, pn, nk_p, tn, row->n_true);
        rc = -1;
    }
    free(kp);
    free(kt);
    return rc;
}

// lDDT-Ca, RMSD and TM-score of rows [start, start + n) of m.
static void score_rows(const matched *m, int start, int n, pf_score_row *row) {
    row->lddt_ca = pf_lddt_ca(m->xp + 3 * start, m->xt + 3 * start, m->pm + start, m->tm + start, n, NULL);
    double *cp = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof(double)), *ct = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof(double));
    if (!cp || !ct) pf_die("out of memory");
    int nc = 0;
    for (int i = start; i < start + n; i++)
        if (m->pm[i]) {
            memcpy(cp + 3 * nc, m->xp + 3 * i, 3 * sizeof(double));
            memcpy(ct + 3 * nc, m->xt + 3 * i, 3 * sizeof(double));
            nc++;
        }
    pf_rigid T = pf_superpose(cp, ct, NULL, nc);
    row->rmsd_ca = pf_rmsd_after(&T, cp, ct, nc);
    pf_tm_result tm = pf_tm_score(cp, ct, nc, n);
    row->tm_score = tm.tm, row->tm_d0 = tm.d0;
    free(cp);
    free(ct);
}

int pf_score_structures(const pf_structure *pred, const pf_structure *truth, const char *pred_name,
                        const char *true_name, pf_score *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (same_chains(pred, truth, pred_name, true_name, err, errlen)) return -1;
    int64_t total = 0;
    for (int c = 0; c < truth->n_chains; c++) total += truth->chains[c].n;
    size_t cap = (size_t)(total > 0 ? total : 1);
    matched m = {malloc(cap * 3 * sizeof(double)), malloc(cap * 3 * sizeof(double)), malloc(cap), malloc(cap), 0};
    out->chains = calloc((size_t)truth->n_chains, sizeof(pf_score_row));
    if (!m.xt || !m.xp || !m.pm || !m.tm || !out->chains) pf_die("out of memory");
    out->n_chains = truth->n_chains;
    int rc = 0;
    for (int c = 0; c < truth->n_chains && rc == 0; c++) {
        const pf_chain *tc = &truth->chains[c];
        int start = m.n;
        rc = match_chain(tc, find_chain(pred, tc->id), pred_name, true_name, &m, &out->chains[c], err, errlen);
        if (rc == 0) score_rows(&m, start, m.n - start, &out->chains[c]);
    }
    if (rc == 0) {
        pf_score_row *o = &out->overall;
        for (int c = 0; c < out->n_chains; c++) {
            o->n_true += out->chains[c].n_true;
            o->n_pred += out->chains[c].n_pred;
            o->n_common += out->chains[c].n_common;
        }
        score_rows(&m, 0, m.n, o);
    }
    free(m.xt), free(m.xp), free(m.pm), free(m.tm);
    if (rc) pf_score_free(out);
    return rc;
}

void pf_score_free(pf_score *s) {
    free(s->chains);
    memset(s, 0, sizeof *s);
}
