#include "entry.h"
#include "atom14.h"
#include <stdlib.h>
#include <string.h>
#include "../core/rng.h"
#include "../core/util.h"
#include "align.h"
#include "batch.h"
#include "textio.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} wbuf;

static size_t wb_reserve(wbuf *w, size_t bytes) {  // 8-aligned, zeroed; returns offset
    size_t off = (w->n + 7) & ~(size_t)7;
    size_t need = off + bytes;
    if (need > w->cap) {
        size_t c = w->cap ? w->cap : 4096;
        while (c < need) c *= 2;
        w->p = realloc(w->p, c);
        if (!w->p) pf_die("out of memory building a cache record");
        memset(w->p + w->cap, 0, c - w->cap);
        w->cap = c;
    }
    w->n = need;
    return off;
}

// Rows of one MSA block under construction, de-duplicated by content.
typedef struct {
    int L, n, cap, max;
    uint8_t *tok, *del;
    int64_t *ht;  // row index + 1
    int ht_cap;
} rowset;

static uint64_t row_hash(const uint8_t *t, int L) {
    uint64_t h = 0x51ED27u;
    for (int i = 0; i < L; i++) h = (h ^ t[i]) * 1099511628211ull;
    return pf_mix64(h);
}

static void rs_grow_ht(rowset *rs) {
    free(rs->ht);
    rs->ht_cap = rs->ht_cap ? rs->ht_cap * 2 : 1024;
    rs->ht = calloc((size_t)rs->ht_cap, sizeof(int64_t));
    for (int r = 0; r < rs->n; r++) {
        uint64_t h = row_hash(rs->tok + (size_t)r * rs->L, rs->L) & (uint64_t)(rs->ht_cap - 1);
        while (rs->ht[h]) h = (h + 1) & (uint64_t)(rs->ht_cap - 1);
        rs->ht[h] = r + 1;
    }
}

static int rs_add(rowset *rs, const uint8_t *t, const uint8_t *d) {
    if (rs->n >= rs->max) return 0;
    int any = 0;
    for (int i = 0; i < rs->L && !any; i++) any = t[i] != PF_TOK_GAP;
    if (!any) return 0;
    if ((rs->n + 1) * 2 > rs->ht_cap) rs_grow_ht(rs);
    uint64_t mask = (uint64_t)(rs->ht_cap - 1), h = row_hash(t, rs->L) & mask;
    while (rs->ht[h]) {
        if (memcmp(rs->tok + (size_t)(rs->ht[h] - 1) * rs->L, t, (size_t)rs->L) == 0) return 0;
        h = (h + 1) & mask;
    }
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 64;
        rs->tok = realloc(rs->tok, (size_t)rs->cap * rs->L);
        rs->del = realloc(rs->del, (size_t)rs->cap * rs->L);
        if (!rs->tok || !rs->del) pf_die("out of memory building an MSA block");
    }
    memcpy(rs->tok + (size_t)rs->n * rs->L, t, (size_t)rs->L);
    memcpy(rs->del + (size_t)rs->n * rs->L, d, (size_t)rs->L);
    rs->ht[h] = ++rs->n;
    return 1;
}

// Block of one entity: the chain's sequence, then each alignment mapped onto it.
static void build_block(rowset *rs, const pf_chain_in *ci, int max_rows) {
    const pf_chain *c = ci->chain;
    int L = c->n;
    memset(rs, 0, sizeof *rs);
    rs->L = L;
    rs->max = max_rows > 0 ? max_rows : 1;
    uint8_t *t = malloc((size_t)L), *d = calloc((size_t)L, 1);
    int *map = malloc((size_t)L * sizeof(int));
    memcpy(t, c->tok, (size_t)L);
    rs_add(rs, t, d);
    for (int k = 0; k < ci->n_msas; k++) {
        const pf_msa *m = ci->msas[k];
        int same = pf_align_global(c->tok, L, m->tok, m->L, map);
        // an alignment whose query is not this chain is ignored
        if (same < 0 || 3 * same < PF_MIN(L, m->L)) continue;
        for (int r = 0; r < m->n_seq && rs->n < rs->max; r++) {
            const uint8_t *mt = m->tok + (size_t)r * m->L, *md = m->del + (size_t)r * m->L;
            for (int i = 0; i < L; i++) {
                int j = map[i];
                t[i] = j < 0 ? PF_TOK_GAP : mt[j];
                d[i] = j < 0 ? 0 : md[j];
            }
            rs_add(rs, t, d);
        }
    }
    free(t);
    free(d);
    free(map);
}

uint8_t *pf_entry_build(const char *name, uint64_t cluster, const pf_chain_in *chains, int n_chains,
                        const pf_build_opts *opts, size_t *bytes) {
    wbuf w = {0};
    size_t oh = wb_reserve(&w, sizeof(pf_rec_header));
    int n_res = 0;
    for (int c = 0; c < n_chains; c++) n_res += chains[c].chain->n;
    // entities by identical sequence, in order of first appearance
    int *entity = calloc((size_t)n_chains + 1, sizeof(int)), *sym = calloc((size_t)n_chains + 1, sizeof(int));
    int *rep = calloc((size_t)n_chains + 1, sizeof(int));  // chain providing each entity's MSA
    int n_ent = 0;
    for (int c = 0; c < n_chains; c++) {
        const pf_chain *a = chains[c].chain;
        entity[c] = -1;
        for (int e = 0; e < n_ent && entity[c] < 0; e++) {
            const pf_chain *b = chains[rep[e]].chain;
            if (a->n == b->n && memcmp(a->tok, b->tok, (size_t)a->n) == 0) entity[c] = e;
        }
        if (entity[c] < 0) rep[n_ent] = c, entity[c] = n_ent++;
        else if (chains[rep[entity[c]]].n_msas == 0 && chains[c].n_msas > 0) rep[entity[c]] = c;
        sym[c] = 0;
        for (int p = 0; p < c; p++) sym[c] += entity[p] == entity[c];
    }
    size_t ochains = wb_reserve(&w, (size_t)n_chains * sizeof(pf_rec_chain));
    size_t ores = wb_reserve(&w, 0);
    size_t o_aat = wb_reserve(&w, (size_t)n_res), o_resv = wb_reserve(&w, (size_t)n_res),
           o_am = wb_reserve(&w, (size_t)n_res), o_ri = wb_reserve(&w, (size_t)n_res * 4),
           o_xyz = wb_reserve(&w, (size_t)n_res * PF_NUM_BB * 3 * sizeof(float));
    size_t omsa = wb_reserve(&w, (size_t)n_ent * sizeof(pf_rec_msa));
    int pos = 0;
    for (int c = 0; c < n_chains; c++) {
        const pf_chain *ch = chains[c].chain;
        pf_rec_chain *rc = (pf_rec_chain *)(w.p + ochains) + c;
        memset(rc, 0, sizeof *rc);
        memcpy(rc->id, ch->id, sizeof rc->id);
        rc->id[7] = 0;
        rc->start = (uint32_t)pos;
        rc->n = (uint32_t)ch->n;
        rc->entity = (uint32_t)entity[c];
        rc->sym = (uint32_t)sym[c];
        rc->msa = (uint32_t)entity[c];
        rc->n_resolved = (uint32_t)ch->n_resolved;
        rc->n_msa_files = (uint32_t)chains[rep[entity[c]]].n_msas;
        for (int i = 0; i < ch->n; i++, pos++) {
            w.p[o_aat + pos] = ch->tok[i] <= PF_TOK_UNK ? ch->tok[i] : PF_TOK_UNK;
            w.p[o_resv + pos] = ch->resolved[i];
            w.p[o_am + pos] = ch->atom_mask[i];
            int32_t ri = i;
            memcpy(w.p + o_ri + (size_t)pos * 4, &ri, 4);
        }
        memcpy(w.p + o_xyz + (size_t)rc->start * PF_NUM_BB * 3 * sizeof(float), ch->xyz,
               (size_t)ch->n * PF_NUM_BB * 3 * sizeof(float));
    }
    for (int e = 0; e < n_ent; e++) {
        rowset rs;
        build_block(&rs, &chains[rep[e]], opts && opts->max_msa_rows > 0 ? opts->max_msa_rows : 16384);
        int L = rs.L;
        size_t cells = (size_t)rs.n * L, c8 = (cells + 7) & ~(size_t)7;
        size_t off = wb_reserve(&w, 2 * c8 + (size_t)L * 24 * sizeof(float));
        pf_rec_msa *rm = (pf_rec_msa *)(w.p + omsa) + e;
        memset(rm, 0, sizeof *rm);
        rm->entity = (uint32_t)e;
        rm->n_rows = (uint32_t)rs.n;
        rm->L = (uint32_t)L;
        rm->off = off;
        memcpy(w.p + off, rs.tok, cells);
        memcpy(w.p + off + c8, rs.del, cells);
        // profile over all rows (AF2 hhblits_profile) and mean deletion count per column
        float *prof = (float *)(w.p + off + 2 * c8), *dmean = prof + (size_t)L * 23;
        for (int i = 0; i < L; i++) {
            double cnt[PF_NUM_TOK] = {0}, dsum = 0;
            for (int r = 0; r < rs.n; r++) {
                cnt[rs.tok[(size_t)r * L + i]] += 1;
                dsum += rs.del[(size_t)r * L + i];
            }
            for (int k = 0; k < 23; k++) prof[(size_t)i * 23 + k] = (float)(cnt[k] / rs.n);
            dmean[i] = (float)(dsum / rs.n);
        }
        free(rs.tok);
        free(rs.del);
        free(rs.ht);
    }
    // every heavy atom in slots, for the structure module's side-chain losses
    const size_t nx = (size_t)n_res * PF_MAX_RES_ATOMS * 3 * sizeof(float);
    size_t oat = wb_reserve(&w, nx + (((size_t)n_res * 2 + 7) & ~(size_t)7));
    for (int c = 0, p = 0; c < n_chains; c++)
        for (int i = 0; i < chains[c].chain->n; i++, p++) {
            float x[PF_MAX_RES_ATOMS * 3];
            uint16_t m = pf_chain_atom14(chains[c].chain, i, x);
            memcpy(w.p + oat + (size_t)p * sizeof x, x, sizeof x);
            memcpy(w.p + oat + nx + (size_t)p * 2, &m, 2);
        }
    pf_rec_header *h = (pf_rec_header *)(w.p + oh);
    memcpy(h->magic, PF_REC_MAGIC, 4);
    h->n_chains = (uint32_t)n_chains;
    h->n_res = (uint32_t)n_res;
    h->n_msa = (uint32_t)n_ent;
    h->cluster = cluster;
    snprintf(h->name, sizeof h->name, "%s", name);
    h->off_chains = ochains;
    h->off_res = ores;
    h->off_msa = omsa;
    h->off_atoms = oat;
    free(entity);
    free(sym);
    free(rep);
    w.n = (w.n + 63) & ~(size_t)63;  // records are 64-byte multiples (w.cap >= w.n by growth in 4K steps)
    if (w.n > w.cap) wb_reserve(&w, 0);
    *bytes = w.n;
    return w.p;
}

int pf_entry_view_init(pf_entry_view *v, const void *rec, size_t bytes, char *err, size_t errlen) {
    memset(v, 0, sizeof *v);
    const uint8_t *b = rec;
    if (bytes < sizeof(pf_rec_header) || ((uintptr_t)b & 7)) {
        pf_errf(err, errlen, "record", 0, "too small or misaligned (%zu bytes)", bytes);
        return -1;
    }
    const pf_rec_header *h = rec;
    if (memcmp(h->magic, PF_REC_MAGIC, 4) != 0 || h->name[63] != 0 || h->n_chains == 0 || h->n_res == 0 ||
        h->n_chains > h->n_res || h->n_msa == 0 || h->n_msa > h->n_chains) {
        pf_errf(err, errlen, "record", 0, "bad header");
        return -1;
    }
    uint64_t nr = h->n_res;
    // sections in the order pf_entry_build writes them
    uint64_t need_chains = h->off_chains + (uint64_t)h->n_chains * sizeof(pf_rec_chain);
    uint64_t o = h->off_res, r8 = (nr + 7) & ~7ull;
    uint64_t o_aat = o, o_resv = o + r8, o_am = o + 2 * r8, o_ri = o + 3 * r8, o_xyz = o_ri + ((nr * 4 + 7) & ~7ull);
    uint64_t end_res = o_xyz + nr * PF_NUM_BB * 3 * 4;
    uint64_t need_msa = h->off_msa + (uint64_t)h->n_msa * sizeof(pf_rec_msa);
    uint64_t need_atoms = h->off_atoms + nr * (PF_MAX_RES_ATOMS * 3 * 4 + 2);
    if ((h->off_chains & 7) || (h->off_res & 7) || (h->off_msa & 7) || need_chains > bytes || end_res > bytes ||
        need_msa > bytes || h->off_chains < sizeof(pf_rec_header) || (h->off_atoms & 7) ||
        (h->off_atoms && (h->off_atoms < sizeof(pf_rec_header) || need_atoms > bytes))) {
        pf_errf(err, errlen, "record", 0, "section offsets out of range");
        return -1;
    }
    v->h = h;
    v->base = b;
    v->bytes = bytes;
    v->chains = (const pf_rec_chain *)(b + h->off_chains);
    v->aatype = b + o_aat;
    v->resolved = b + o_resv;
    v->atom_mask = b + o_am;
    v->residue_index = (const int32_t *)(b + o_ri);
    v->xyz = (const float *)(b + o_xyz);
    if (h->off_atoms) {
        v->atom14_xyz = (const float *)(b + h->off_atoms);
        v->atom14_mask = (const uint16_t *)(b + h->off_atoms + nr * PF_MAX_RES_ATOMS * 3 * 4);
    }
    v->msa = (const pf_rec_msa *)(b + h->off_msa);
    uint64_t next = 0;
    for (uint32_t c = 0; c < h->n_chains; c++) {
        const pf_rec_chain *rc = &v->chains[c];
        if (rc->start != next || rc->n == 0 || (uint64_t)rc->start + rc->n > nr || rc->msa >= h->n_msa ||
            v->msa[rc->msa].L != rc->n || rc->id[7] != 0) {
            pf_errf(err, errlen, "record", 0, "chain %u out of range", c);
            return -1;
        }
        next = (uint64_t)rc->start + rc->n;
    }
    if (next != nr) {
        pf_errf(err, errlen, "record", 0, "chains do not cover the residues");
        return -1;
    }
    for (uint32_t k = 0; k < h->n_msa; k++) {
        const pf_rec_msa *m = &v->msa[k];
        uint64_t c8 = ((uint64_t)m->n_rows * m->L + 7) & ~7ull;
        if (m->n_rows == 0 || m->L == 0 || (m->off & 7) || m->off + 2 * c8 + (uint64_t)m->L * 24 * 4 > bytes) {
            pf_errf(err, errlen, "record", 0, "MSA block %u out of range", k);
            return -1;
        }
    }
    for (uint64_t i = 0; i < nr; i++)
        if (v->aatype[i] > PF_TOK_UNK) {
            pf_errf(err, errlen, "record", 0, "bad residue token");
            return -1;
        }
    return 0;
}
