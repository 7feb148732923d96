// mmCIF reader: a CIF 1.1 tokenizer (quoted values, ';' text fields, loops in
// any column order) and the categories a protein chain needs: _atom_site,
// _entity_poly(_seq), _pdbx_poly_seq_scheme, _pdbx_struct_mod_residue.
// Chains are named by auth_asym_id; residues are placed by label_seq_id.
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <strings.h>
#include "../core/util.h"
#include "structbuild.h"
#include "textio.h"

typedef struct {
    const char *p;
    uint32_t n;
    uint8_t quoted;  // 1 for quoted values and text fields ('.'/'?' literal)
    int64_t line;
} ctok;

typedef struct {
    const char *p, *end;
    int64_t line;
    int at_line_start;
    ctok back;
    int has_back;
} lexer;

// 1 token, 0 at end, -1 on error (message in err).
static int lex(lexer *lx, ctok *t, const char *name, char *err, size_t errlen) {
    if (lx->has_back) {
        *t = lx->back;
        lx->has_back = 0;
        return 1;
    }
    for (;;) {
        while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')) {
            if (*lx->p == '\n') lx->line++, lx->at_line_start = 1;
            else lx->at_line_start = 0;
            lx->p++;
        }
        if (lx->p >= lx->end) return 0;
        if (*lx->p == '#') {
            while (lx->p < lx->end && *lx->p != '\n') lx->p++;
            continue;
        }
        break;
    }
    const char *s = lx->p;
    t->line = lx->line;
    t->quoted = 0;
    if (*s == ';' && lx->at_line_start) {
        // text field: up to a line that starts with ';'
        const char *q = s + 1;
        int64_t lines = 0;
        for (;;) {
            const char *nl = memchr(q, '\n', (size_t)(lx->end - q));
            if (!nl) {
                pf_errf(err, errlen, name, t->line, "unterminated ';' text field");
                return -1;
            }
            lines++;
            if (nl + 1 < lx->end && nl[1] == ';') {
                t->p = s + 1;
                t->n = (uint32_t)PF_MIN((size_t)(nl - (s + 1)), (size_t)UINT32_MAX);
                t->quoted = 1;
                lx->p = nl + 2;
                lx->line += lines;
                lx->at_line_start = 0;
                return 1;
            }
            q = nl + 1;
        }
    }
    lx->at_line_start = 0;
    if (*s == '\'' || *s == '"') {
        char qc = *s;
        const char *q = s + 1;
        for (;;) {
            if (q >= lx->end || *q == '\n' || *q == '\r') {
                pf_errf(err, errlen, name, t->line, "unterminated quoted value");
                return -1;
            }
            if (*q == qc && (q + 1 >= lx->end || q[1] == ' ' || q[1] == '\t' || q[1] == '\n' || q[1] == '\r'))
                break;
            q++;
        }
        t->p = s + 1;
        t->n = (uint32_t)(q - (s + 1));
        t->quoted = 1;
        lx->p = q + 1;
        return 1;
    }
    const char *q = s;
    while (q < lx->end && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r') q++;
    t->p = s;
    t->n = (uint32_t)PF_MIN((size_t)(q - s), (size_t)UINT32_MAX);
    lx->p = q;
    return 1;
}

static int tok_is(const ctok *t, const char *w) {
    size_t n = strlen(w);
    return !t->quoted && t->n == n && strncasecmp(t->p, w, n) == 0;
}
static int tok_prefix(const ctok *t, const char *w) {
    size_t n = strlen(w);
    return !t->quoted && t->n >= n && strncasecmp(t->p, w, n) == 0;
}
static int tok_is_keyword(const ctok *t) {
    return !t->quoted && (t->n > 0 && (t->p[0] == '_' || tok_prefix(t, "loop_") || tok_prefix(t, "data_") ||
                                       tok_prefix(t, "save_") || tok_prefix(t, "global_") || tok_prefix(t, "stop_")));
}

// A category of interest: column names and row-major values.
typedef struct {
    const char *cat;
    ctok *tags;
    int ntags;
    ctok *vals;
    int64_t nvals, cap;
} table;

enum { T_ATOM, T_EPS, T_PSS, T_EP, T_MOD, NT };
static const char *CATS[NT] = {"_atom_site.", "_entity_poly_seq.", "_pdbx_poly_seq_scheme.", "_entity_poly.",
                               "_pdbx_struct_mod_residue."};

static int cat_of(const ctok *t) {
    for (int k = 0; k < NT; k++) {
        size_t n = strlen(CATS[k]);
        if (t->n > n && strncasecmp(t->p, CATS[k], n) == 0) return k;
    }
    return -1;
}

static void push(ctok **arr, int64_t *n, int64_t *cap, const ctok *t) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *arr = realloc(*arr, (size_t)*cap * sizeof(ctok));
        if (!*arr) pf_die("out of memory");
    }
    (*arr)[(*n)++] = *t;
}

static int col_of(const table *tb, const char *item) {
    size_t cl = strlen(tb->cat), il = strlen(item);
    for (int i = 0; i < tb->ntags; i++)
        if (tb->tags[i].n == cl + il && strncasecmp(tb->tags[i].p + cl, item, il) == 0) return i;
    return -1;
}

// Value as a C string ("" for missing column, '.' and '?').
static const char *val(const table *tb, int64_t row, int c, char *buf, size_t cap) {
    buf[0] = 0;
    if (c < 0) return buf;
    const ctok *t = &tb->vals[row * tb->ntags + c];
    if (!t->quoted && t->n == 1 && (t->p[0] == '.' || t->p[0] == '?')) return buf;
    size_t n = PF_MIN((size_t)t->n, cap - 1);
    memcpy(buf, t->p, n);
    buf[n] = 0;
    return buf;
}

static void tables_free(table *tb) {
    for (int k = 0; k < NT; k++) free(tb[k].tags), free(tb[k].vals);
}

static int parse_tables(const char *data, size_t len, const char *name, table *tb, char *err, size_t errlen) {
    lexer lx = {data, data + len, 1, 1, {0}, 0};
    ctok t;
    int r, blocks = 0;
    int64_t tag_cap[NT] = {0};
    while ((r = lex(&lx, &t, name, err, errlen)) == 1) {
        if (tok_prefix(&t, "data_")) {
            if (++blocks > 1) return 0;  // first data block only
            continue;
        }
        if (!blocks) {
            pf_errf(err, errlen, name, t.line, "expected 'data_' before '%.*s': not an mmCIF file",
                    (int)PF_MIN(t.n, 20u), t.p);
            return -1;
        }
        if (tok_is(&t, "loop_")) {
            int64_t loop_line = t.line;
            ctok *tags = NULL;
            int64_t nt = 0, ct = 0;
            while ((r = lex(&lx, &t, name, err, errlen)) == 1 && !t.quoted && t.n > 0 && t.p[0] == '_')
                push(&tags, &nt, &ct, &t);
            if (r < 0) { free(tags); return -1; }
            if (nt == 0) {
                free(tags);
                pf_errf(err, errlen, name, loop_line, "loop_ without column names");
                return -1;
            }
            int k = cat_of(&tags[0]);
            table *dst = (k >= 0 && tb[k].ntags == 0) ? &tb[k] : NULL;
            int64_t nv = 0;
            if (r == 1) {
                for (;;) {
                    if (tok_is_keyword(&t)) { lx.back = t; lx.has_back = 1; break; }
                    if (dst) push(&dst->vals, &dst->nvals, &dst->cap, &t);
                    nv++;
                    r = lex(&lx, &t, name, err, errlen);
                    if (r <= 0) break;
                }
                if (r < 0) { free(tags); return -1; }
            }
            if (nv % nt != 0) {
                free(tags);
                pf_errf(err, errlen, name, loop_line, "loop of %lld columns has %lld values (not a multiple; truncated?)",
                        (long long)nt, (long long)nv);
                return -1;
            }
            if (dst) {
                dst->tags = tags;
                dst->ntags = (int)nt;
            } else free(tags);
            continue;
        }
        if (!t.quoted && t.n > 0 && t.p[0] == '_') {
            ctok v;
            int64_t tag_line = t.line;
            r = lex(&lx, &v, name, err, errlen);
            if (r < 0) return -1;
            if (r == 0 || tok_is_keyword(&v)) {
                pf_errf(err, errlen, name, tag_line, "item '%.*s' has no value", (int)PF_MIN(t.n, 60u), t.p);
                return -1;
            }
            int k = cat_of(&t);
            if (k >= 0 && (tb[k].ntags == 0 || tb[k].nvals == tb[k].ntags) && tb[k].ntags < 1000) {
                // key-value form: one row, built column by column
                int64_t nt = tb[k].ntags;
                push(&tb[k].tags, &nt, &tag_cap[k], &t);
                tb[k].ntags = (int)nt;
                push(&tb[k].vals, &tb[k].nvals, &tb[k].cap, &v);
            }
            continue;
        }
        if (tok_prefix(&t, "save_") || tok_prefix(&t, "global_") || tok_is(&t, "stop_")) continue;
        pf_errf(err, errlen, name, t.line, "unexpected value '%.*s' outside a loop", (int)PF_MIN(t.n, 20u), t.p);
        return -1;
    }
    if (r < 0) return -1;
    if (!blocks) {
        pf_errf(err, errlen, name, 0, "no 'data_' block: not an mmCIF file");
        return -1;
    }
    return 0;
}

// Columns of _atom_site that the reader uses (-1: absent), with the auth_/label_
// fallbacks applied.
typedef struct {
    int grp, x, y, z, atom, comp, lasym, asym, ent, seq, num, ins, alt, model, elem, occ, bfac;
} atom_cols;

static int find_atom_cols(const table *at, atom_cols *c, const char *name, char *err, size_t errlen) {
    *c = (atom_cols){col_of(at, "group_PDB"), col_of(at, "Cartn_x"), col_of(at, "Cartn_y"), col_of(at, "Cartn_z"),
                     col_of(at, "label_atom_id"), col_of(at, "label_comp_id"), col_of(at, "label_asym_id"),
                     col_of(at, "auth_asym_id"), col_of(at, "label_entity_id"), col_of(at, "label_seq_id"),
                     col_of(at, "auth_seq_id"), col_of(at, "pdbx_PDB_ins_code"), col_of(at, "label_alt_id"),
                     col_of(at, "pdbx_PDB_model_num"), col_of(at, "type_symbol"), col_of(at, "occupancy"),
                     col_of(at, "B_iso_or_equiv")};
    if (c->atom < 0) c->atom = col_of(at, "auth_atom_id");
    if (c->comp < 0) c->comp = col_of(at, "auth_comp_id");
    if (c->asym < 0) c->asym = c->lasym;
    if (c->num < 0) c->num = c->seq;
    const char *missing = c->x < 0 ? "Cartn_x" : c->y < 0 ? "Cartn_y" : c->z < 0 ? "Cartn_z" : c->atom < 0 ? "label_atom_id"
                          : c->comp < 0 ? "label_comp_id" : c->asym < 0 ? "auth_asym_id" : c->num < 0 ? "auth_seq_id" : NULL;
    if (missing) {
        pf_errf(err, errlen, name, at->tags[0].line, "_atom_site has no column %s", missing);
        return -1;
    }
    return 0;
}

// Row i of _atom_site into a (its strings point into b); -1 with err set on a bad
// value. Coordinates and label_seq_id are range-checked.
// Element, occupancy (1 when absent) and B-factor (0 when absent) of row i.
static int atom_extras(const table *at, int64_t i, const atom_cols *c, char (*b)[40], pf_atom_in *a,
                       const char *name, int64_t line, char *err, size_t errlen) {
    a->element = val(at, i, c->elem, b[12], 40);
    const char *so = val(at, i, c->occ, b[13], 40), *sb = val(at, i, c->bfac, b[14], 40);
    a->occupancy = 1, a->b_factor = 0;
    if (so[0] && pf_parse_double(so, strlen(so), &a->occupancy) != 0) {
        pf_errf(err, errlen, name, line, "bad occupancy '%s'", so);
        return -1;
    }
    if (sb[0] && pf_parse_double(sb, strlen(sb), &a->b_factor) != 0) {
        pf_errf(err, errlen, name, line, "bad B_iso_or_equiv '%s'", sb);
        return -1;
    }
    return 0;
}

static int atom_row(const table *at, int64_t i, const atom_cols *c, char (*b)[40], pf_atom_in *a, const char *name,
                    char *err, size_t errlen) {
    int64_t line = at->vals[i * at->ntags].line;
    double x, y, z;
    const char *sx = val(at, i, c->x, b[1], 40), *sy = val(at, i, c->y, b[2], 40), *sz = val(at, i, c->z, b[3], 40);
    if (pf_parse_double(sx, strlen(sx), &x) || pf_parse_double(sy, strlen(sy), &y) || pf_parse_double(sz, strlen(sz), &z)) {
        pf_errf(err, errlen, name, line, "bad coordinates '%s %s %s'", sx, sy, sz);
        return -1;
    }
    if (!pf_coord_ok(x, y, z)) {
        pf_errf(err, errlen, name, line, "coordinates '%s %s %s' out of range (|x| <= %g Angstrom)", sx, sy, sz,
                PF_COORD_MAX);
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->het = strcmp(val(at, i, c->grp, b[4], 40), "HETATM") == 0;
    a->atom = val(at, i, c->atom, b[5], 40);
    a->resname = val(at, i, c->comp, b[6], 40);
    a->chain = val(at, i, c->asym, b[7], 40);
    a->label = val(at, i, c->lasym, b[8], 40);
    a->entity = val(at, i, c->ent, b[9], 40);
    long q = -1, num = 0;
    const char *sq = val(at, i, c->seq, b[10], 40);
    if (sq[0] && pf_parse_int(sq, strlen(sq), &q) != 0) {
        pf_errf(err, errlen, name, line, "bad label_seq_id '%s'", sq);
        return -1;
    }
    if (sq[0] && (q < 1 || q > PF_SEQ_ID_MAX)) {
        pf_errf(err, errlen, name, line, "label_seq_id %ld out of range (1 to %d; '.' for atoms outside a polymer)", q,
                PF_SEQ_ID_MAX);
        return -1;
    }
    if (!sq[0]) q = -1;
    const char *sn = val(at, i, c->num, b[11], 40);
    if (sn[0] && pf_parse_int(sn, strlen(sn), &num) != 0) {
        pf_errf(err, errlen, name, line, "bad residue number '%s'", sn);
        return -1;
    }
    char ins[8], alt[8];
    val(at, i, c->ins, ins, sizeof ins);
    val(at, i, c->alt, alt, sizeof alt);
    if (!a->chain[0]) a->chain = "_";
    a->seq_id = q;
    a->num = num;
    a->icode = ins[0] ? ins[0] : ' ';
    a->alt = alt[0] ? alt[0] : ' ';
    a->x = x, a->y = y, a->z = z;
    return atom_extras(at, i, c, b, a, name, line, err, errlen);
}

// Entity types (_entity_poly) and full sequences, per chain (A:asym,
// _pdbx_poly_seq_scheme) and per entity (E:entity, _entity_poly_seq). Only usable
// when the atoms carry label_seq_id.
static void add_polymer_info(table *tb, pf_rbuild *rb) {
    table *ep = &tb[T_EP];
    int e_id = col_of(ep, "entity_id"), e_type = col_of(ep, "type");
    for (int64_t i = 0; ep->ntags && e_id >= 0 && i < ep->nvals / ep->ntags; i++) {
        char id[16], ty[64];
        val(ep, i, e_id, id, sizeof id);
        val(ep, i, e_type, ty, sizeof ty);
        pf_rb_entity_type(rb, id, e_type < 0 || strstr(ty, "polypeptide") != NULL);
    }
    for (int which = 0; which < 2; which++) {
        table *sq = which == 0 ? &tb[T_PSS] : &tb[T_EPS];
        int s_key = col_of(sq, which == 0 ? "asym_id" : "entity_id"), s_num = col_of(sq, which == 0 ? "seq_id" : "num"),
            s_mon = col_of(sq, "mon_id");
        for (int64_t i = 0; sq->ntags && s_key >= 0 && s_num >= 0 && s_mon >= 0 && i < sq->nvals / sq->ntags; i++) {
            char id[16], key[20], nb[16], mon[16];
            long num;
            val(sq, i, s_key, id, sizeof id);
            val(sq, i, s_num, nb, sizeof nb);
            val(sq, i, s_mon, mon, sizeof mon);
            snprintf(key, sizeof key, "%c:%s", which == 0 ? 'A' : 'E', id);
            if (pf_parse_int(nb, strlen(nb), &num) == 0 && num >= 1) pf_rb_seq(rb, key, num, mon);
        }
    }
}

int pf_parse_mmcif(const char *data, size_t len, const char *name, pf_structure *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    table tb[NT];
    memset(tb, 0, sizeof tb);
    for (int k = 0; k < NT; k++) tb[k].cat = CATS[k];
    if (parse_tables(data, len, name, tb, err, errlen) != 0) {
        tables_free(tb);
        return -1;
    }
    table *at = &tb[T_ATOM];
    atom_cols c;
    if (at->ntags == 0 || at->nvals == 0) {
        pf_errf(err, errlen, name, 0, "no _atom_site records");
        tables_free(tb);
        return -1;
    }
    if (find_atom_cols(at, &c, name, err, errlen) != 0) {
        tables_free(tb);
        return -1;
    }
    pf_rbuild *rb = pf_rb_new();
    int64_t rows = at->nvals / at->ntags, polymer_rows = 0;
    char first_model[16] = "", b[15][40];
    int rc = 0;
    for (int64_t i = 0; i < rows && rc == 0; i++) {
        if (c.model >= 0) {  // the first model only
            val(at, i, c.model, b[0], sizeof b[0]);
            if (i == 0) memcpy(first_model, b[0], sizeof first_model - 1);
            else if (strncmp(first_model, b[0], sizeof first_model - 1) != 0) continue;
        }
        pf_atom_in a;
        rc = atom_row(at, i, &c, b, &a, name, err, errlen);
        if (rc == 0) {
            if (a.seq_id >= 1) polymer_rows++;
            pf_rb_atom(rb, &a);
        }
    }
    if (rc == 0 && polymer_rows > 0) add_polymer_info(tb, rb);
    table *md = &tb[T_MOD];
    int m_comp = col_of(md, "label_comp_id"), m_par = col_of(md, "parent_comp_id");
    for (int64_t i = 0; md->ntags && m_comp >= 0 && m_par >= 0 && i < md->nvals / md->ntags; i++) {
        char c1[16], c2[16];
        pf_rb_modres(rb, val(md, i, m_comp, c1, sizeof c1), val(md, i, m_par, c2, sizeof c2));
    }
    tables_free(tb);
    if (rc == 0) rc = pf_rb_finish(rb, 1, s, name, err, errlen);
    pf_rb_free(rb);
    return rc;
}
