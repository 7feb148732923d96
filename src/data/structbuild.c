#include "structbuild.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "batch.h"
#include "residue.h"
#include "textio.h"

typedef struct {
    char chain[8], label[8], entity[8], name[8];
    long num, seq_id;
    char icode, alt;
    int het, after_ter, natoms;
    uint8_t mask;  // backbone atoms present (PF_AT_* bits)
    float xyz[PF_NUM_BB][3];
} rres;

typedef struct {
    char key[8];
    int n, cap;
    long last_num;
    char (*names)[8];
} seqdef;

// An atom kept for the all-atom arrays, with the index of its residue in r.
typedef struct {
    int res;
    pf_atom a;
} ratom;

struct pf_rbuild {
    ratom *at;
    int64_t n_at, cap_at;
    rres *r;
    int n, cap;
    int *ht;  // open addressing: residue index + 1
    int ht_cap;
    seqdef *seqs;
    int n_seqs;
    struct { char name[8], parent[8]; } *mods;
    int n_mods;
    struct { char id[8]; int protein; } *ents;
    int n_ents;
    long atoms;
};

static void cpy(char *dst, const char *src, size_t cap) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = 0;
}

pf_rbuild *pf_rb_new(void) {
    pf_rbuild *rb = calloc(1, sizeof *rb);
    rb->ht_cap = 1024;
    rb->ht = calloc((size_t)rb->ht_cap, sizeof(int));
    return rb;
}

void pf_rb_free(pf_rbuild *rb) {
    if (!rb) return;
    for (int i = 0; i < rb->n_seqs; i++) free(rb->seqs[i].names);
    free(rb->seqs);
    free(rb->mods);
    free(rb->ents);
    free(rb->r);
    free(rb->at);
    free(rb->ht);
    free(rb);
}

int pf_rb_n_atoms(const pf_rbuild *rb) { return (int)PF_MIN(rb->atoms, 1000000000L); }

static uint64_t key_hash(const char *chain, const char *label, long num, char icode, long seq_id) {
    uint64_t h = 1469598103934665603ull;
    for (const char *s = chain; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
    for (const char *s = label; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    h ^= (uint64_t)num * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(unsigned char)icode << 56;
    h ^= (uint64_t)(seq_id + 7) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}

static int same_key(const rres *r, const char *chain, const char *label, long num, char icode, long seq_id) {
    return r->num == num && r->icode == icode && r->seq_id == seq_id && strcmp(r->chain, chain) == 0 &&
           strcmp(r->label, label) == 0;
}

static void ht_grow(pf_rbuild *rb) {
    free(rb->ht);
    rb->ht_cap *= 2;
    rb->ht = calloc((size_t)rb->ht_cap, sizeof(int));
    for (int i = 0; i < rb->n; i++) {
        rres *r = &rb->r[i];
        uint64_t h = key_hash(r->chain, r->label, r->num, r->icode, r->seq_id) & (uint64_t)(rb->ht_cap - 1);
        while (rb->ht[h]) h = (h + 1) & (uint64_t)(rb->ht_cap - 1);
        rb->ht[h] = i + 1;
    }
}

static int atom_slot(const char *atom) {
    static const char *names[PF_NUM_BB] = {"N", "CA", "C", "O", "CB"};
    for (int k = 0; k < PF_NUM_BB; k++)
        if (strcmp(atom, names[k]) == 0) return k;
    return -1;
}

static void keep_atom(pf_rbuild *rb, int res, const pf_atom_in *a) {
    if (rb->n_at == rb->cap_at) {
        rb->cap_at = rb->cap_at ? rb->cap_at * 2 : 1024;
        rb->at = realloc(rb->at, (size_t)rb->cap_at * sizeof(ratom));
        if (!rb->at) pf_die("out of memory");
    }
    ratom *t = &rb->at[rb->n_at++];
    memset(t, 0, sizeof *t);
    t->res = res;
    cpy(t->a.name, a->atom, sizeof t->a.name);
    if (a->element && a->element[0]) cpy(t->a.element, a->element, sizeof t->a.element);
    else pf_element_from_name(a->atom, a->resname, t->a.element);
    t->a.xyz[0] = (float)a->x, t->a.xyz[1] = (float)a->y, t->a.xyz[2] = (float)a->z;
    t->a.occupancy = (float)a->occupancy;
    t->a.b_factor = (float)a->b_factor;
}

void pf_rb_atom(pf_rbuild *rb, const pf_atom_in *a) {
    char chain[8], label[8];
    cpy(chain, a->chain, sizeof chain);
    cpy(label, a->label, sizeof label);
    if ((rb->n + 1) * 2 > rb->ht_cap) ht_grow(rb);
    uint64_t mask = (uint64_t)(rb->ht_cap - 1);
    uint64_t h = key_hash(chain, label, a->num, a->icode, a->seq_id) & mask;
    int idx = -1;
    while (rb->ht[h]) {
        rres *r = &rb->r[rb->ht[h] - 1];
        if (same_key(r, chain, label, a->num, a->icode, a->seq_id)) {
            idx = rb->ht[h] - 1;
            break;
        }
        h = (h + 1) & mask;
    }
    if (idx < 0) {
        if (rb->n == rb->cap) {
            rb->cap = rb->cap ? rb->cap * 2 : 256;
            rb->r = realloc(rb->r, (size_t)rb->cap * sizeof(rres));
            if (!rb->r) pf_die("out of memory");
        }
        idx = rb->n++;
        rres *r = &rb->r[idx];
        memset(r, 0, sizeof *r);
        memcpy(r->chain, chain, sizeof chain);
        memcpy(r->label, label, sizeof label);
        cpy(r->entity, a->entity, sizeof r->entity);
        cpy(r->name, a->resname, sizeof r->name);
        r->num = a->num;
        r->icode = a->icode;
        r->seq_id = a->seq_id;
        r->het = a->het;
        r->after_ter = a->after_ter;
        r->alt = ' ';
        rb->ht[h] = idx + 1;
    }
    rres *r = &rb->r[idx];
    // One conformer: blank altloc atoms always, else only the first altloc seen.
    if (a->alt != ' ') {
        if (r->alt == ' ') r->alt = a->alt;
        else if (r->alt != a->alt) return;
    }
    rb->atoms++;
    r->natoms++;
    keep_atom(rb, idx, a);
    int k = atom_slot(a->atom);
    if (k >= 0 && !(r->mask & (1u << k))) {
        r->mask |= (uint8_t)(1u << k);
        r->xyz[k][0] = (float)a->x;
        r->xyz[k][1] = (float)a->y;
        r->xyz[k][2] = (float)a->z;
    }
}

static seqdef *find_seq(pf_rbuild *rb, const char *key) {
    for (int i = 0; i < rb->n_seqs; i++)
        if (strcmp(rb->seqs[i].key, key) == 0) return &rb->seqs[i];
    return NULL;
}

void pf_rb_seq(pf_rbuild *rb, const char *key, long num, const char *resname) {
    seqdef *s = find_seq(rb, key);
    if (!s) {
        rb->seqs = realloc(rb->seqs, (size_t)(rb->n_seqs + 1) * sizeof(seqdef));
        s = &rb->seqs[rb->n_seqs++];
        memset(s, 0, sizeof *s);
        cpy(s->key, key, sizeof s->key);
        s->last_num = -1000000000L;
    }
    if (num > 0) {
        if (num == s->last_num) return;  // microheterogeneity: keep the first
        if (num != s->n + 1) return;     // out of order or gapped numbering: ignore the record
        s->last_num = num;
    }
    if (s->n >= 100000) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->names = realloc(s->names, (size_t)s->cap * sizeof *s->names);
        if (!s->names) pf_die("out of memory");
    }
    cpy(s->names[s->n++], resname, 8);
}

void pf_rb_modres(pf_rbuild *rb, const char *name, const char *parent) {
    if (!name[0] || !parent[0]) return;
    rb->mods = realloc(rb->mods, (size_t)(rb->n_mods + 1) * sizeof *rb->mods);
    cpy(rb->mods[rb->n_mods].name, name, 8);
    cpy(rb->mods[rb->n_mods].parent, parent, 8);
    rb->n_mods++;
}

void pf_rb_entity_type(pf_rbuild *rb, const char *entity, int protein) {
    rb->ents = realloc(rb->ents, (size_t)(rb->n_ents + 1) * sizeof *rb->ents);
    cpy(rb->ents[rb->n_ents].id, entity, 8);
    rb->ents[rb->n_ents].protein = protein;
    rb->n_ents++;
}

// The parent amino acid of a residue name the table does not know: the first
// MODRES / _pdbx_struct_mod_residue record for it whose parent is one; NULL
// when none is (or the table knows the name).
static const char *mod_parent(const pf_rbuild *rb, const char *name) {
    if (pf_tok_from_name3(name) >= 0) return NULL;
    for (int i = 0; i < rb->n_mods; i++)
        if (strcmp(rb->mods[i].name, name) == 0 && pf_tok_from_name3(rb->mods[i].parent) >= 0) return rb->mods[i].parent;
    return NULL;
}

// Token of a residue name in a sequence record (unknown names become UNK).
static int seq_tok(const pf_rbuild *rb, const char *name) {
    int t = pf_tok_from_name3(name);
    if (t >= 0) return t;
    const char *p = mod_parent(rb, name);
    return p ? pf_tok_from_name3(p) : PF_TOK_UNK;
}

// Amino-acid token of a resolved residue, -1 when it is not part of a protein chain.
static int res_tok(const pf_rbuild *rb, const rres *r, int cif_mode) {
    if (cif_mode && rb->n_ents > 0 && r->seq_id >= 1) {
        for (int i = 0; i < rb->n_ents; i++)
            if (strcmp(rb->ents[i].id, r->entity) == 0) return rb->ents[i].protein ? seq_tok(rb, r->name) : -1;
    }
    if (cif_mode && r->seq_id < 1 && rb->n_ents > 0) return -1;  // non-polymer entity
    if (pf_is_water_or_nucleotide(r->name)) return -1;
    const char *p = mod_parent(rb, r->name);
    int t = pf_tok_from_name3(p ? p : r->name);
    if (r->het && r->after_ter) return -1;  // ligands after the chain's TER
    // Unknown names are dropped like ligands (their positions stay in the
    // sequence, unresolved, when SEQRES / entity_poly_seq lists them).
    return t;
}

static void chain_alloc(pf_chain *c, int n) {
    size_t m = (size_t)(n > 0 ? n : 1);
    c->n = n;
    c->tok = calloc(m, 1);
    c->resolved = calloc(m, 1);
    c->atom_mask = calloc(m, 1);
    c->xyz = calloc(m * PF_NUM_BB * 3, sizeof(float));
    c->auth_num = calloc(m, sizeof(int32_t));
    c->icode = malloc(m);
    c->resname = calloc(m, sizeof *c->resname);
    c->atom_start = calloc(m + 1, sizeof(int32_t));
    c->parent = calloc(m, sizeof *c->parent);
    if (!c->tok || !c->resolved || !c->atom_mask || !c->xyz || !c->auth_num || !c->icode || !c->resname ||
        !c->atom_start || !c->parent)
        pf_die("out of memory");
    memset(c->icode, ' ', m);
}

// src[pos]: the residue (index into rb->r) placed at pos, -1 for none.
static void place(pf_chain *c, int pos, const rres *r, int tok, int tok_from_res, int *src, int idx) {
    if (c->atom_mask[pos] || src[pos] >= 0) return;
    src[pos] = idx;
    cpy(c->resname[pos], r->name, sizeof c->resname[pos]);
    if (tok_from_res) c->tok[pos] = (uint8_t)tok;
    // resolved means the CA is there (a lone N or O does not place a residue)
    if (r->mask & (1u << PF_AT_CA)) c->resolved[pos] = 1, c->n_resolved++;
    c->atom_mask[pos] = r->mask;
    memcpy(c->xyz + (size_t)pos * PF_NUM_BB * 3, r->xyz, sizeof r->xyz);
    c->auth_num[pos] = (int32_t)r->num;
    c->icode[pos] = r->icode;
}

static int *src_alloc(int n) {
    int *src = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!src) pf_die("out of memory");
    for (int k = 0; k < n; k++) src[k] = -1;
    return src;
}

// The all-atom arrays of chain c from the residues placed on it (src), each
// residue's atoms in file order; a repeated atom name keeps its first record
// (as the backbone arrays do).
static void chain_atoms(const pf_rbuild *rb, pf_chain *c, const int *src, const int64_t *rfirst, const int64_t *order) {
    int64_t total = 0;
    for (int p = 0; p < c->n; p++)
        if (src[p] >= 0) total += rfirst[src[p] + 1] - rfirst[src[p]];
    c->atoms = malloc((size_t)(total > 0 ? total : 1) * sizeof(pf_atom));
    if (!c->atoms) pf_die("out of memory");
    int32_t m = 0;
    for (int p = 0; p < c->n; p++) {
        c->atom_start[p] = m;
        if (src[p] < 0) continue;
        for (int64_t k = rfirst[src[p]]; k < rfirst[src[p] + 1]; k++) {
            const pf_atom *a = &rb->at[order[k]].a;
            int dup = 0;
            for (int32_t j = c->atom_start[p]; j < m && !dup; j++) dup = strcmp(c->atoms[j].name, a->name) == 0;
            if (!dup) c->atoms[m++] = *a;
        }
    }
    c->atom_start[c->n] = m;
}

// Atoms grouped by residue (a stable counting sort): residue i's atoms are
// rb->at[order[rfirst[i] .. rfirst[i + 1])].
static void group_atoms(const pf_rbuild *rb, int64_t **rfirst, int64_t **order) {
    int64_t *first = calloc((size_t)rb->n + 2, sizeof(int64_t)), *ord = malloc((size_t)(rb->n_at + 1) * sizeof(int64_t));
    if (!first || !ord) pf_die("out of memory");
    for (int64_t i = 0; i < rb->n_at; i++) first[rb->at[i].res + 2]++;
    for (int i = 0; i < rb->n; i++) first[i + 2] += first[i + 1];
    for (int64_t i = 0; i < rb->n_at; i++) ord[first[rb->at[i].res + 1]++] = i;
    // first[i + 1] now ends residue i, so first[i] starts it
    *rfirst = first;
    *order = ord;
}

// Place a chain's residues on sequence sd; 0 when they do not fit it.
static int place_on_seq(const pf_rbuild *rb, pf_chain *c, const seqdef *sd, const int *idx, int nres,
                        const int *tok, int cif_mode, int **src) {
    uint8_t *stok = malloc((size_t)sd->n);
    int *pos = malloc((size_t)(nres > 0 ? nres : 1) * sizeof(int));
    for (int k = 0; k < sd->n; k++) stok[k] = (uint8_t)seq_tok(rb, sd->names[k]);
    int ok = 1;
    if (cif_mode) {
        int same = 0, known = 0;
        for (int k = 0; k < nres && ok; k++) {
            long q = rb->r[idx[k]].seq_id;
            if (q < 1 || q > sd->n || (k > 0 && q <= pos[k - 1])) ok = 0;
            else {
                pos[k] = (int)(q - 1);
                if (tok[idx[k]] != PF_TOK_UNK && stok[pos[k]] != PF_TOK_UNK) known++, same += tok[idx[k]] == stok[pos[k]];
            }
        }
        if (ok && known > 0 && 2 * same < known) ok = 0;  // sequence of another chain
    } else {
        uint8_t *rt = malloc((size_t)(nres > 0 ? nres : 1));
        long *num = malloc((size_t)(nres > 0 ? nres : 1) * sizeof(long));
        for (int k = 0; k < nres; k++) rt[k] = (uint8_t)tok[idx[k]], num[k] = rb->r[idx[k]].num;
        ok = pf_fit_to_sequence(rt, num, nres, stok, sd->n, pos) == 0;
        free(rt);
        free(num);
    }
    if (ok) {
        chain_alloc(c, sd->n);
        memcpy(c->tok, stok, (size_t)sd->n);
        c->full_seq = 1;
        *src = src_alloc(sd->n);
        for (int k = 0; k < sd->n; k++) cpy(c->resname[k], sd->names[k], sizeof c->resname[k]);
        for (int k = 0; k < nres; k++) place(c, pos[k], &rb->r[idx[k]], tok[idx[k]], 0, *src, idx[k]);
    }
    free(pos);
    free(stok);
    return ok;
}

int pf_rb_finish(pf_rbuild *rb, int cif_mode, pf_structure *s, const char *name, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    if (rb->n == 0) {
        pf_errf(err, errlen, name, 0, "no atom records found (not a %s file?)", cif_mode ? "mmCIF" : "PDB");
        return -1;
    }
    int *tok = malloc((size_t)rb->n * sizeof(int));
    uint8_t *done = calloc((size_t)rb->n, 1);
    int64_t *rfirst, *order;
    group_atoms(rb, &rfirst, &order);
    for (int i = 0; i < rb->n; i++) tok[i] = res_tok(rb, &rb->r[i], cif_mode);
    int cap = 0;
    for (int i = 0; i < rb->n; i++) {
        if (done[i] || tok[i] < 0) continue;
        // a new chain: every amino-acid residue with this chain id, in file order
        const char *cid = rb->r[i].chain;
        int nres = 0;
        for (int j = i; j < rb->n; j++)
            if (!done[j] && tok[j] >= 0 && strcmp(rb->r[j].chain, cid) == 0) nres++;
        int *idx = malloc((size_t)nres * sizeof(int));
        nres = 0;
        for (int j = i; j < rb->n; j++)
            if (!done[j] && tok[j] >= 0 && strcmp(rb->r[j].chain, cid) == 0) idx[nres++] = j, done[j] = 1;
        if (s->n_chains == cap) {
            cap = cap ? cap * 2 : 8;
            s->chains = realloc(s->chains, (size_t)cap * sizeof(pf_chain));
        }
        pf_chain *c = &s->chains[s->n_chains++];
        memset(c, 0, sizeof *c);
        cpy(c->id, cid, sizeof c->id);
        // full sequence: _pdbx_poly_seq_scheme or entity_poly_seq (mmCIF), SEQRES (PDB)
        int placed = 0, *src = NULL;
        for (int cand = 0; cand < (cif_mode ? 2 : 1) && !placed; cand++) {
            char key[24];
            if (!cif_mode) snprintf(key, sizeof key, "%s", cid);
            else snprintf(key, sizeof key, "%c:%s", cand == 0 ? 'A' : 'E', cand == 0 ? rb->r[i].label : rb->r[i].entity);
            const seqdef *sd = find_seq(rb, key);
            if (sd && sd->n > 0) placed = place_on_seq(rb, c, sd, idx, nres, tok, cif_mode, &src);
        }
        if (!placed) {
            chain_alloc(c, nres);
            src = src_alloc(nres);
            for (int k = 0; k < nres; k++) place(c, k, &rb->r[idx[k]], tok[idx[k]], 1, src, idx[k]);
        }
        chain_atoms(rb, c, src, rfirst, order);
        for (int k = 0; k < c->n; k++) {
            const char *p = mod_parent(rb, c->resname[k]);
            if (p) cpy(c->parent[k], p, sizeof c->parent[k]);
        }
        free(src);
        free(idx);
    }
    free(tok);
    free(done);
    free(rfirst);
    free(order);
    if (s->n_chains == 0) {
        pf_errf(err, errlen, name, 0, "no protein chains (%d residues, none an amino acid)", rb->n);
        return -1;
    }
    return 0;
}

void pf_structure_free(pf_structure *s) {
    for (int i = 0; i < s->n_chains; i++) {
        pf_chain *c = &s->chains[i];
        free(c->tok);
        free(c->resolved);
        free(c->atom_mask);
        free(c->xyz);
        free(c->auth_num);
        free(c->icode);
        free(c->resname);
        free(c->atom_start);
        free(c->atoms);
        free(c->parent);
    }
    free(s->chains);
    memset(s, 0, sizeof *s);
}

pf_chain *pf_structure_add_chain(pf_structure *s, const char *id, int n, const uint8_t *tok) {
    pf_chain *chains = realloc(s->chains, (size_t)(s->n_chains + 1) * sizeof(pf_chain));
    if (!chains) pf_die("out of memory");
    s->chains = chains;
    pf_chain *c = &s->chains[s->n_chains++];
    memset(c, 0, sizeof *c);
    cpy(c->id, id, sizeof c->id);
    chain_alloc(c, n);
    c->full_seq = 1;
    c->atoms = malloc(sizeof(pf_atom));
    if (!c->atoms) pf_die("out of memory");
    for (int i = 0; i < n; i++) {
        c->tok[i] = tok ? tok[i] : PF_TOK_UNK;
        cpy(c->resname[i], pf_tok_name3(c->tok[i]), sizeof c->resname[i]);
        c->auth_num[i] = i + 1;
    }
    return c;
}

int pf_chain_add_atom(pf_chain *c, int i, const char *name, const char *element, const float xyz[3],
                      float occupancy, float b_factor) {
    int32_t m = c->atom_start[c->n];
    if (i < 0 || i >= c->n || (i + 1 < c->n && c->atom_start[i + 1] != m)) return -1;  // out of range or backwards
    // atoms grow one at a time: double the array at powers of two
    if (m >= 1 && (m & (m - 1)) == 0) {
        pf_atom *a = realloc(c->atoms, (size_t)m * 2 * sizeof(pf_atom));
        if (!a) pf_die("out of memory");
        c->atoms = a;
    }
    pf_atom *a = &c->atoms[m];
    memset(a, 0, sizeof *a);
    cpy(a->name, name, sizeof a->name);
    if (element && element[0]) cpy(a->element, element, sizeof a->element);
    else pf_element_from_name(name, c->resname[i], a->element);
    memcpy(a->xyz, xyz, sizeof a->xyz);
    a->occupancy = occupancy;
    a->b_factor = b_factor;
    // residues before i (if empty) and after end at m + 1; residue i now ends there too
    for (int k = i + 1; k <= c->n; k++) c->atom_start[k] = m + 1;
    int k = atom_slot(name);
    if (k >= 0 && !(c->atom_mask[i] & (1u << k))) {
        c->atom_mask[i] |= (uint8_t)(1u << k);
        memcpy(c->xyz + ((size_t)i * PF_NUM_BB + k) * 3, xyz, 3 * sizeof(float));
        if (k == PF_AT_CA && !c->resolved[i]) c->resolved[i] = 1, c->n_resolved++;
    }
    return 0;
}
