// af3_query.c: an AlphaFold 3 job's chains and alignments as one query alignment
// (see af3_input.h for the row layout).
#include "af3_input.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "residue.h"
#include "batch.h"

// The chain's alignment from A3M text; NULL or blank text is the sequence alone.
// Row 0 must be the chain's sequence.
static int chain_msa(const pf_af3_chain *c, const char *text, const char *what, pf_msa *m, char *err, size_t errlen) {
    int L = (int)strlen(c->sequence);
    const char *p = text;
    while (p && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    if (!p || !*p) {
        m->n_seq = 1;
        m->L = L;
        m->tok = calloc((size_t)L, 1);
        m->del = calloc((size_t)L, 1);
        if (!m->tok || !m->del) pf_die("out of host memory");
        for (int i = 0; i < L; i++) m->tok[i] = (uint8_t)pf_tok_from_letter(c->sequence[i]);
        return 0;
    }
    char name[600];
    snprintf(name, sizeof name, "%s (chain %s, %s)", c->msa_origin ? c->msa_origin : "alignment", c->id, what);
    if (pf_parse_a3m(text, strlen(text), name, m, err, errlen) != 0) return -1;
    if (m->L != L) {
        snprintf(err, errlen, "%s: the first row has %d columns but the chain's sequence %d residues", name, m->L, L);
        pf_msa_free(m);
        return -1;
    }
    for (int i = 0; i < L; i++)
        if (m->tok[i] != (uint8_t)pf_tok_from_letter(c->sequence[i])) {
            snprintf(err, errlen, "%s: the first row differs from the chain's sequence at residue %d ('%c', sequence '%c')",
                     name, i + 1, pf_tok_letter(m->tok[i]), c->sequence[i]);
            pf_msa_free(m);
            return -1;
        }
    return 0;
}

int pf_af3_build_query(const pf_af3_job *j, int max_rows, pf_af3_query *q, char *err, size_t errlen) {
    memset(q, 0, sizeof *q);
    int nc = j->n_chains, L = 0;
    pf_msa *un = pf_calloc((size_t)nc, sizeof *un), *pa = pf_calloc((size_t)nc, sizeof *pa);
    int *off = pf_calloc((size_t)nc + 1, sizeof(int)), rc = 0, n_paired = 0, n_rows = 1;
    for (int c = 0; c < nc && rc == 0; c++) {
        off[c] = L;
        L += (int)strlen(j->chains[c].sequence);
        rc = chain_msa(&j->chains[c], j->chains[c].unpaired_msa, "unpaired MSA", &un[c], err, errlen);
        if (rc == 0) rc = chain_msa(&j->chains[c], j->chains[c].paired_msa, "paired MSA", &pa[c], err, errlen);
        if (rc == 0) {
            if (pa[c].n_seq - 1 > n_paired) n_paired = pa[c].n_seq - 1;
            n_rows += un[c].n_seq - 1;
        }
    }
    off[nc] = L;
    if (rc == 0 && L > PF_MSA_MAX_COLS) {
        snprintf(err, errlen, "job '%s': %d residues in all (at most %d)", j->name, L, PF_MSA_MAX_COLS);
        rc = -1;
    }
    if (rc == 0) {
        n_rows += n_paired;
        if (max_rows > 0 && n_rows > max_rows) n_rows = max_rows;
        pf_msa *m = &q->msa;
        m->n_seq = n_rows;
        m->L = L;
        m->tok = malloc((size_t)n_rows * L);
        m->del = calloc((size_t)n_rows * L, 1);
        q->chain = pf_malloc(sizeof(int32_t) * (size_t)L);
        q->entity = pf_malloc(sizeof(int32_t) * (size_t)L);
        q->sym = pf_malloc(sizeof(int32_t) * (size_t)L);
        q->residue_index = pf_malloc(sizeof(int32_t) * (size_t)L);
        if (!m->tok || !m->del) pf_die("out of host memory");
        memset(m->tok, PF_TOK_GAP, (size_t)n_rows * L);
        for (int c = 0; c < nc; c++)
            for (int i = off[c]; i < off[c + 1]; i++) {
                q->chain[i] = c;
                q->entity[i] = j->chains[c].entity;
                q->sym[i] = j->chains[c].sym;
                q->residue_index[i] = i - off[c];
            }
        // rows: query, paired (side by side), unpaired (block diagonal)
        int row = 0;
        for (int r = 0; r <= n_paired && row < n_rows; r++, row++)
            for (int c = 0; c < nc; c++) {
                const pf_msa *src = r == 0 ? &un[c] : &pa[c];
                if (r >= src->n_seq) continue;
                int w = off[c + 1] - off[c];
                memcpy(m->tok + (size_t)row * L + off[c], src->tok + (size_t)r * w, (size_t)w);
                memcpy(m->del + (size_t)row * L + off[c], src->del + (size_t)r * w, (size_t)w);
            }
        for (int c = 0; c < nc; c++) {
            int w = off[c + 1] - off[c];
            for (int r = 1; r < un[c].n_seq && row < n_rows; r++, row++) {
                memcpy(m->tok + (size_t)row * L + off[c], un[c].tok + (size_t)r * w, (size_t)w);
                memcpy(m->del + (size_t)row * L + off[c], un[c].del + (size_t)r * w, (size_t)w);
            }
        }
    }
    for (int c = 0; c < nc; c++) {
        pf_msa_free(&un[c]);
        pf_msa_free(&pa[c]);
    }
    pf_free(un);
    pf_free(pa);
    pf_free(off);
    if (rc) pf_af3_query_free(q);
    return rc;
}

void pf_af3_query_free(pf_af3_query *q) {
    pf_msa_free(&q->msa);
    pf_free(q->chain);
    pf_free(q->entity);
    pf_free(q->sym);
    pf_free(q->residue_index);
    memset(q, 0, sizeof *q);
}
