// struct_write.c: mmCIF and PDB text from a pf_structure (see struct_write.h).
#include "struct_write.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../core/util.h"
#include "../data/residue.h"

static const char *res_name(const pf_chain *c, int i) {
    return c->resname && c->resname[i][0] ? c->resname[i] : pf_tok_name3(c->tok[i]);
}
static int n_atoms_of(const pf_chain *c, int i) { return c->atom_start ? c->atom_start[i + 1] - c->atom_start[i] : 0; }

// 1 when quote character q may delimit v: CIF 1.1 ends a quoted value at the
// quote character followed by a blank, so v may not hold that pair.
static int quotable_with(const char *v, char q) {
    for (const char *p = strchr(v, q); p; p = strchr(p + 1, q))
        if (p[1] == ' ' || p[1] == '\t') return 0;
    return 1;
}

// A CIF value: bare when it can be, else quoted ('.' and '?' are reserved, and
// bare values may not start with _ # $ ' " [ ] ; or hold blanks). check_name
// has made sure one of the quotes fits.
static void cif_value(pf_strbuf *b, const char *v) {
    int bare = v[0] && strchr("_#$'\"[];", v[0]) == NULL && strpbrk(v, " \t") == NULL && strcmp(v, ".") &&
               strcmp(v, "?") && strncasecmp(v, "data_", 5) && strncasecmp(v, "loop_", 5) &&
               strncasecmp(v, "save_", 5) && strncasecmp(v, "global_", 7) && strncasecmp(v, "stop_", 5);
    if (bare) pf_strbuf_printf(b, "%s ", v);
    else if (quotable_with(v, '\'')) pf_strbuf_printf(b, "'%s' ", v);
    else pf_strbuf_printf(b, "\"%s\" ", v);
}

// Names the formats cannot hold: line breaks, or (mmCIF) both quote characters
// followed by blanks. Blanks inside names are fine (quoted in mmCIF, fixed
// columns in PDB).
static int check_name(const char *what, const char *v, const pf_chain *c, int i, char *err, size_t errlen) {
    if (!strpbrk(v, "\n\r") && (quotable_with(v, '\'') || quotable_with(v, '"'))) return 0;
    if (i >= 0) snprintf(err, errlen, "chain %s residue %d: %s '%s' cannot be written", c->id, c->auth_num[i], what, v);
    else snprintf(err, errlen, "chain id '%s' cannot be written", v);
    return -1;
}

// Entity of each chain (1-based): chains with the same residue names share one.
static int *entities(const pf_structure *s, int *n_ent) {
    int *ent = calloc((size_t)(s->n_chains > 0 ? s->n_chains : 1), sizeof(int));
    if (!ent) pf_die("out of memory");
    *n_ent = 0;
    for (int a = 0; a < s->n_chains; a++) {
        const pf_chain *ca = &s->chains[a];
        for (int b = 0; b < a && !ent[a]; b++) {
            const pf_chain *cb = &s->chains[b];
            int same = ca->n == cb->n;
            for (int i = 0; same && i < ca->n; i++) same = strcmp(res_name(ca, i), res_name(cb, i)) == 0;
            if (same) ent[a] = ent[b];
        }
        if (!ent[a]) ent[a] = ++*n_ent;
    }
    return ent;
}

static void cif_entities(pf_strbuf *b, const pf_structure *s, const int *ent, int n_ent) {
    pf_strbuf_printf(b, "#\nloop_\n_entity.id\n_entity.type\n");
    for (int e = 1; e <= n_ent; e++) pf_strbuf_printf(b, "%d polymer\n", e);
    pf_strbuf_printf(b, "#\nloop_\n_entity_poly.entity_id\n_entity_poly.type\n_entity_poly.pdbx_strand_id\n");
    for (int e = 1; e <= n_ent; e++) {
        pf_strbuf_printf(b, "%d polypeptide(L) ", e);
        pf_strbuf ids = {0};
        for (int c = 0; c < s->n_chains; c++)
            if (ent[c] == e) pf_strbuf_printf(&ids, "%s%s", ids.n ? "," : "", s->chains[c].id);
        cif_value(b, ids.s);
        pf_strbuf_printf(b, "\n");
        free(ids.s);
    }
    pf_strbuf_printf(b, "#\nloop_\n_entity_poly_seq.entity_id\n_entity_poly_seq.num\n_entity_poly_seq.mon_id\n"
                 "_entity_poly_seq.hetero\n");
    for (int e = 1; e <= n_ent; e++) {
        int c = 0;
        while (ent[c] != e) c++;
        for (int i = 0; i < s->chains[c].n; i++) {
            pf_strbuf_printf(b, "%d %d ", e, i + 1);
            cif_value(b, res_name(&s->chains[c], i));
            pf_strbuf_printf(b, "n\n");
        }
    }
    pf_strbuf_printf(b, "#\nloop_\n_struct_asym.id\n_struct_asym.entity_id\n");
    for (int c = 0; c < s->n_chains; c++) {
        cif_value(b, s->chains[c].id);
        pf_strbuf_printf(b, "%d\n", ent[c]);
    }
}

static const char *MOD_COLS[] = {"id", "label_asym_id", "label_seq_id", "label_comp_id", "auth_asym_id",
                                 "auth_seq_id", "auth_comp_id", "PDB_ins_code", "parent_comp_id"};

// _pdbx_struct_mod_residue for residues that are amino acids only through
// their parent (see pdb_modres): it gives them their token when read back.
static void cif_modres(pf_strbuf *b, const pf_structure *s) {
    int n = 0;
    for (int ci = 0; ci < s->n_chains; ci++) {
        const pf_chain *c = &s->chains[ci];
        for (int i = 0; c->parent && i < c->n; i++) {
            if (!c->parent[i][0]) continue;
            if (n++ == 0) {
                pf_strbuf_printf(b, "#\nloop_\n");
                for (size_t k = 0; k < sizeof MOD_COLS / sizeof *MOD_COLS; k++)
                    pf_strbuf_printf(b, "_pdbx_struct_mod_residue.%s\n", MOD_COLS[k]);
            }
            const char *rn = res_name(c, i);  // checked by pf_format_mmcif
            pf_strbuf_printf(b, "%d ", n);
            cif_value(b, c->id);
            pf_strbuf_printf(b, "%d ", i + 1);
            cif_value(b, rn);
            cif_value(b, c->id);
            if (n_atoms_of(c, i) > 0) pf_strbuf_printf(b, "%d ", c->auth_num[i]);
            else pf_strbuf_printf(b, "? ");  // an unresolved residue has no author number
            cif_value(b, rn);
            char icode[2] = {c->icode[i], 0};
            if (icode[0] == ' ') pf_strbuf_printf(b, "? ");
            else cif_value(b, icode);
            cif_value(b, c->parent[i]);
            b->n--;  // no blank at the end of the row
            pf_strbuf_printf(b, "\n");
        }
    }
}

static const char *ATOM_SITE_COLS[] = {"group_PDB", "id", "type_symbol", "label_atom_id", "label_alt_id",
                                       "label_comp_id", "label_asym_id", "label_entity_id", "label_seq_id",
                                       "pdbx_PDB_ins_code", "Cartn_x", "Cartn_y", "Cartn_z", "occupancy",
                                       "B_iso_or_equiv", "auth_seq_id", "auth_asym_id", "pdbx_PDB_model_num"};

static int cif_atoms(pf_strbuf *b, const pf_structure *s, const int *ent, char *err, size_t errlen) {
    pf_strbuf_printf(b, "#\nloop_\n");
    for (size_t k = 0; k < sizeof ATOM_SITE_COLS / sizeof *ATOM_SITE_COLS; k++)
        pf_strbuf_printf(b, "_atom_site.%s\n", ATOM_SITE_COLS[k]);
    int64_t serial = 0;
    for (int ci = 0; ci < s->n_chains; ci++) {
        const pf_chain *c = &s->chains[ci];
        for (int i = 0; i < c->n; i++) {
            const char *rn = res_name(c, i);  // checked by pf_format_mmcif
            for (int32_t k = c->atom_start ? c->atom_start[i] : 0; k < (c->atom_start ? c->atom_start[i + 1] : 0); k++) {
                const pf_atom *a = &c->atoms[k];
                if (check_name("atom name", a->name, c, i, err, errlen) || check_name("element", a->element, c, i, err, errlen))
                    return -1;
                pf_strbuf_printf(b, "%s %lld ", pf_is_standard_name3(rn) ? "ATOM" : "HETATM", (long long)++serial);
                cif_value(b, a->element[0] ? a->element : "X");
                cif_value(b, a->name);
                pf_strbuf_printf(b, ". ");
                cif_value(b, rn);
                cif_value(b, c->id);
                char icode[2] = {c->icode[i], 0};
                pf_strbuf_printf(b, "%d %d ", ent[ci], i + 1);
                if (icode[0] == ' ') pf_strbuf_printf(b, "? ");
                else cif_value(b, icode);
                pf_strbuf_printf(b, "%.3f %.3f %.3f %.2f %.2f %d ", a->xyz[0], a->xyz[1], a->xyz[2], a->occupancy, a->b_factor,
                          c->auth_num[i]);
                cif_value(b, c->id);
                pf_strbuf_printf(b, "1\n");
            }
        }
    }
    pf_strbuf_printf(b, "#\n");
    if (serial == 0) {
        snprintf(err, errlen, "the structure has no atoms to write");
        return -1;
    }
    return 0;
}

char *pf_format_mmcif(const pf_structure *s, const char *name, size_t *len, char *err, size_t errlen) {
    // every residue name is written (entity_poly_seq), with atoms or not
    for (int c = 0; c < s->n_chains; c++) {
        const pf_chain *ch = &s->chains[c];
        if (check_name("chain id", ch->id, ch, -1, err, errlen)) return NULL;
        for (int i = 0; i < ch->n; i++) {
            char icode[2] = {ch->icode[i], 0};  // a PDB column 27 may hold a CR
            if (check_name("residue name", res_name(ch, i), ch, i, err, errlen) ||
                check_name("insertion code", icode, ch, i, err, errlen))
                return NULL;
        }
    }
    pf_strbuf b = {0};
    // the data block name: letters, digits, '-', '_' and '.' only
    char block[64];
    size_t k = 0;
    for (const char *p = name && name[0] ? name : "pairfold"; *p && k + 1 < sizeof block; p++)
        block[k++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                                    *p == '-' || *p == '.' ? *p : '_');
    block[k] = 0;
    pf_strbuf_printf(&b, "data_%s\n#\n_entry.id %s\n", block, block);
    int n_ent;
    int *ent = entities(s, &n_ent);
    cif_entities(&b, s, ent, n_ent);
    cif_modres(&b, s);
    int rc = cif_atoms(&b, s, ent, err, errlen);
    free(ent);
    if (rc) {
        free(b.s);
        return NULL;
    }
    *len = b.n;
    return b.s;
}

// Atom name in columns 13-16: names of four characters and two-letter elements
// start in column 13, others in column 14 (the PDB convention that keeps " CA "
// calcium-free).
static void pdb_atom_name(const pf_atom *a, char out[5]) {
    int at13 = strlen(a->name) >= 4 || strlen(a->element) == 2;
    memset(out, ' ', 4);
    memcpy(out + !at13, a->name, PF_MIN(strlen(a->name), (size_t)(4 - !at13)));  // names checked to fit
    out[4] = 0;
}

static void pdb_seqres(pf_strbuf *b, const pf_chain *c) {
    for (int i = 0, line = 1; i < c->n; i += 13, line++) {
        pf_strbuf_printf(b, "SEQRES%4d %c%5d  ", line % 1000, c->id[0], c->n % 100000);
        for (int k = i; k < i + 13 && k < c->n; k++) pf_strbuf_printf(b, "%3s ", res_name(c, k));
        b->n--;  // no blank after the last name
        pf_strbuf_printf(b, "\n");
    }
}

// MODRES (columns 13-15 the residue, 17 the chain, 19-23 its number and
// insertion code, 25-27 the parent) for every residue that is an amino acid
// only through its parent: without it the reader drops the residue. Names
// that do not fit columns 13-15 are skipped (the writer refuses their atoms).
static void pdb_modres(pf_strbuf *b, const pf_chain *c) {
    for (int i = 0; c->parent && i < c->n; i++) {
        const char *rn = res_name(c, i);
        if (c->parent[i][0] && strlen(rn) <= 3 && !strpbrk(rn, "\n\r"))
            pf_strbuf_printf(b, "MODRES      %3s %c %4d%c %3s\n", rn, c->id[0], c->auth_num[i], c->icode[i], c->parent[i]);
    }
}

static int pdb_residue_ok(const pf_chain *c, int i, char *err, size_t errlen) {
    const char *rn = res_name(c, i);
    if (strlen(rn) > 3 || check_name("residue name", rn, c, i, err, errlen)) {
        snprintf(err, errlen, "chain %s residue %d: residue name '%s' does not fit PDB columns 18-20 (write mmCIF)",
                 c->id, c->auth_num[i], rn);
        return -1;
    }
    if (c->auth_num[i] < -999 || c->auth_num[i] > 9999) {
        snprintf(err, errlen, "chain %s: residue number %d does not fit PDB columns 23-26 (write mmCIF)", c->id,
                 c->auth_num[i]);
        return -1;
    }
    for (int32_t k = c->atom_start[i]; k < c->atom_start[i + 1]; k++) {
        const pf_atom *a = &c->atoms[k];
        int bad_xyz = 0;
        for (int d = 0; d < 3; d++) bad_xyz |= !(a->xyz[d] > -999.9995f && a->xyz[d] < 9999.9995f);
        const char *what = strlen(a->name) > 4 || check_name("atom name", a->name, c, i, err, errlen) ? "atom name"
                           : strlen(a->element) > 2 || check_name("element", a->element, c, i, err, errlen) ? "element"
                           : bad_xyz                                                                ? "coordinates"
                           : !(a->occupancy > -99.995f && a->occupancy < 999.995f)                  ? "occupancy"
                           : !(a->b_factor > -99.995f && a->b_factor < 999.995f)                    ? "B-factor"
                                                                                                    : NULL;
        if (what) {
            snprintf(err, errlen, "chain %s residue %d atom '%s': %s out of the PDB format's range (write mmCIF)",
                     c->id, c->auth_num[i], a->name, what);
            return -1;
        }
    }
    return 0;
}

// 1 when the PDB reader takes residue i for an amino acid (structbuild.c's
// res_tok): waters and nucleotides never, else a known name or a parent.
static int pdb_reads_back(const pf_chain *c, int i) {
    const char *rn = res_name(c, i);
    return !pf_is_water_or_nucleotide(rn) && (pf_tok_from_name3(rn) >= 0 || (c->parent && c->parent[i][0]));
}

// The chain's atom records and TER; *kept counts the residues written that
// the PDB reader keeps.
static int pdb_chain(pf_strbuf *b, const pf_chain *c, int64_t *serial, int *kept, char *err, size_t errlen) {
    int last = -1;
    for (int i = 0; i < c->n; i++) {
        if (n_atoms_of(c, i) == 0) continue;
        if (pdb_residue_ok(c, i, err, errlen)) return -1;
        *kept += pdb_reads_back(c, i);
        const char *rn = res_name(c, i);
        for (int32_t k = c->atom_start[i]; k < c->atom_start[i + 1]; k++) {
            const pf_atom *a = &c->atoms[k];
            char an[5];
            pdb_atom_name(a, an);
            pf_strbuf_printf(b, "%-6s%5lld %4s %3s %c%4d%c   %8.3f%8.3f%8.3f%6.2f%6.2f          %2s\n",
                      pf_is_standard_name3(rn) ? "ATOM" : "HETATM", (long long)(++*serial % 100000), an, rn, c->id[0],
                      c->auth_num[i], c->icode[i], a->xyz[0], a->xyz[1], a->xyz[2], a->occupancy, a->b_factor,
                      a->element);
        }
        last = i;
    }
    if (last >= 0)
        pf_strbuf_printf(b, "TER   %5lld      %3s %c%4d%c\n", (long long)(++*serial % 100000), res_name(c, last), c->id[0],
                  c->auth_num[last], c->icode[last]);
    return 0;
}

char *pf_format_pdb(const pf_structure *s, size_t *len, char *err, size_t errlen) {
    pf_strbuf b = {0};
    for (int ci = 0; ci < s->n_chains; ci++) {
        const pf_chain *c = &s->chains[ci];
        if (strlen(c->id) != 1 || c->id[0] == ' ') {
            snprintf(err, errlen, "chain id '%s' does not fit PDB column 22 (one character; write mmCIF)", c->id);
            free(b.s);
            return NULL;
        }
        pdb_seqres(&b, c);
    }
    for (int ci = 0; ci < s->n_chains; ci++) pdb_modres(&b, &s->chains[ci]);
    int64_t serial = 0;
    int kept = 0;
    for (int ci = 0; ci < s->n_chains; ci++)
        if (pdb_chain(&b, &s->chains[ci], &serial, &kept, err, errlen)) {
            free(b.s);
            return NULL;
        }
    if (serial == 0 || kept == 0) {
        // kept == 0: every residue is a ligand some mmCIF file listed in a
        // protein entity (721P's GNP): the written file would not read back
        if (serial == 0) snprintf(err, errlen, "the structure has no atoms to write");
        else snprintf(err, errlen, "no residue with atoms is an amino acid (or has a MODRES parent), so the PDB "
                                   "reader would find no protein chain (write mmCIF)");
        free(b.s);
        return NULL;
    }
    pf_strbuf_printf(&b, "%-80s\n", "END");  // padded: some readers match "END   " (columns 1-6)
    *len = b.n;
    return b.s;
}

int pf_write_structure(const char *path, const pf_structure *s, const char *name, char *err, size_t errlen) {
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    const char *ext = dot ? dot + 1 : "";
    int cif = !strcasecmp(ext, "cif") || !strcasecmp(ext, "mmcif");
    if (!cif && strcasecmp(ext, "pdb") && strcasecmp(ext, "ent")) {
        snprintf(err, errlen, "%s: unknown structure extension '.%s' (.cif, .mmcif, .pdb or .ent)", path, ext);
        return -1;
    }
    char block[64], msg[512];
    snprintf(block, sizeof block, "%.*s", (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
    size_t len = 0;
    char *text = cif ? pf_format_mmcif(s, name ? name : block, &len, msg, sizeof msg) : pf_format_pdb(s, &len, msg, sizeof msg);
    if (!text) {
        snprintf(err, errlen, "%s: %s", path, msg);
        return -1;
    }
    int rc = pf_write_atomic(path, text, len);
    free(text);
    if (rc) snprintf(err, errlen, "%s: cannot write the file: %s", path, strerror(errno));
    return rc ? -1 : 0;
}
