// PDB format reader (fixed columns, wwPDB 3.3). First model only; TER ends a
// chain segment (HETATM groups after it are ligands; with a blank chain id a
// TER starts a new chain); SEQRES gives the full sequence, MODRES parents.
#include <stdio.h>
#include <string.h>
#include "structbuild.h"
#include "textio.h"

// Copy columns [a, b] (1-based, inclusive) of line into out, trimmed.
static void col(const char *line, size_t len, int a, int b, char *out, size_t cap) {
    size_t n = 0;
    for (int c = a; c <= b && (size_t)c <= len; c++)
        if (n + 1 < cap) out[n++] = line[c - 1];
    out[n] = 0;
    size_t s = 0;
    while (out[s] == ' ') s++;
    if (s) memmove(out, out + s, n - s + 1);
    n = strlen(out);
    while (n > 0 && out[n - 1] == ' ') out[--n] = 0;
}

static int starts(const char *line, size_t len, const char *tag) {
    size_t n = strlen(tag);
    return len >= n && memcmp(line, tag, n) == 0;
}

// Occupancy (columns 55-60, 1 when blank) and B-factor (61-66, 0 when blank).
static int occ_b(const char *line, size_t n, pf_atom_in *a, const char *name, int64_t lineno, char *err,
                 size_t errlen) {
    char f[16];
    a->occupancy = 1, a->b_factor = 0;
    col(line, n, 55, 60, f, sizeof f);
    if (f[0] && pf_parse_double(f, strlen(f), &a->occupancy) != 0) {
        pf_errf(err, errlen, name, lineno, "bad occupancy '%s' in columns 55-60", f);
        return -1;
    }
    col(line, n, 61, 66, f, sizeof f);
    if (f[0] && pf_parse_double(f, strlen(f), &a->b_factor) != 0) {
        pf_errf(err, errlen, name, lineno, "bad B-factor '%s' in columns 61-66", f);
        return -1;
    }
    return 0;
}

int pf_parse_pdb(const char *data, size_t len, const char *name, pf_structure *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    pf_rbuild *rb = pf_rb_new();
    pf_lineit it = pf_lines(data, len);
    const char *line;
    size_t n;
    int models = 0, rc = 0, records = 0;
    int ter_blank = 0;          // TERs seen while the chain id was blank
    char ter_seen[256] = {0};   // per chain id character: a TER was seen
    while (pf_line_next(&it, &line, &n)) {
        if (starts(line, n, "ENDMDL")) {
            if (models >= 1) break;
            continue;
        }
        if (starts(line, n, "MODEL ")) {
            if (++models > 1) break;
            continue;
        }
        if (starts(line, n, "END") && (n == 3 || line[3] == ' ')) break;
        if (starts(line, n, "TER")) {
            char ch = n >= 22 ? line[21] : ' ';
            if (ch == ' ') ter_blank++;
            ter_seen[(unsigned char)ch] = 1;
            continue;
        }
        if (starts(line, n, "SEQRES")) {
            records++;
            char chain[4], rn[8];
            col(line, n, 12, 12, chain, sizeof chain);
            if (!chain[0]) strcpy(chain, "_");
            for (int c = 20; c + 2 <= 70 && (size_t)c <= n; c += 4) {
                col(line, n, c, c + 2, rn, sizeof rn);
                if (rn[0]) pf_rb_seq(rb, chain, 0, rn);
            }
            continue;
        }
        if (starts(line, n, "MODRES")) {
            char rn[8], parent[8];
            col(line, n, 13, 15, rn, sizeof rn);
            col(line, n, 25, 27, parent, sizeof parent);
            if (rn[0] && parent[0]) pf_rb_modres(rb, rn, parent);
            continue;
        }
        int het = starts(line, n, "HETATM");
        if (!het && !starts(line, n, "ATOM  ")) continue;
        records++;
        if (n < 54) {
            pf_errf(err, errlen, name, it.lineno, "%s record has %zu columns, coordinates need 54",
                    het ? "HETATM" : "ATOM", n);
            rc = -1;
            break;
        }
        pf_atom_in a;
        memset(&a, 0, sizeof a);
        char atom[8], resname[8], chain[8], num[8];
        col(line, n, 13, 16, atom, sizeof atom);
        col(line, n, 18, 20, resname, sizeof resname);
        col(line, n, 22, 22, chain, sizeof chain);
        col(line, n, 23, 26, num, sizeof num);
        long rnum = 0;
        double x, y, z;
        if (pf_parse_int(num, strlen(num), &rnum) != 0 && !(num[0] == 0)) {
            pf_errf(err, errlen, name, it.lineno, "bad residue number '%s' in columns 23-26", num);
            rc = -1;
            break;
        }
        if (pf_parse_double(line + 30, 8, &x) || pf_parse_double(line + 38, 8, &y) ||
            pf_parse_double(line + 46, 8, &z)) {
            pf_errf(err, errlen, name, it.lineno, "bad coordinates in columns 31-54");
            rc = -1;
            break;
        }
        if (!pf_coord_ok(x, y, z)) {
            pf_errf(err, errlen, name, it.lineno, "coordinates (%g, %g, %g) out of range (|x| <= %g Angstrom)", x, y, z,
                    PF_COORD_MAX);
            rc = -1;
            break;
        }
        if (!chain[0]) {
            // blank chain id: each TER starts a new chain "_", "_2", ...
            if (ter_blank == 0) strcpy(chain, "_");
            else snprintf(chain, sizeof chain, "_%u", (unsigned)(ter_blank + 1 > 999 ? 999 : ter_blank + 1) % 1000u);
        }
        a.chain = chain;
        a.entity = "";
        a.label = "";
        a.resname = resname;
        a.atom = atom;
        a.num = rnum;
        a.icode = line[26] == ' ' ? ' ' : line[26];
        a.seq_id = -1;
        a.alt = line[16];
        a.het = het;
        a.after_ter = chain[0] != '_' && ter_seen[(unsigned char)line[21]];
        a.x = x, a.y = y, a.z = z;
        char element[8];
        col(line, n, 77, 78, element, sizeof element);
        a.element = element;
        if (occ_b(line, n, &a, name, it.lineno, err, errlen) != 0) {
            rc = -1;
            break;
        }
        pf_rb_atom(rb, &a);
    }
    if (rc == 0 && records == 0) {
        pf_errf(err, errlen, name, 0, "no ATOM/HETATM/SEQRES records: not a PDB file");
        rc = -1;
    }
    if (rc == 0) rc = pf_rb_finish(rb, 0, s, name, err, errlen);
    pf_rb_free(rb);
    return rc;
}
