// Structure writer and scoring: every bundled structure (data/structures, or
// the directory given as argv[1]) read -> written as mmCIF and PDB -> read
// again keeps every chain, residue and atom (name, element, xyz, occupancy,
// B-factor) and the full sequence; the writers' format limits give messages;
// superposition, lDDT-Ca and TM-score on cases with known answers; the
// score's errors (chains, numbering, no common residues).
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/core/rng.h"
#include "../src/data/residue.h"
#include "../src/data/structure.h"
#include "../src/eval/metrics.h"
#include "../src/eval/score.h"
#include "../src/format/struct_write.h"
#include "testlib.h"

// First difference between two structures' chains, residues and atoms ("" when the same).
static void diff_structures(const pf_structure *a, const pf_structure *b, char *out, size_t cap) {
    out[0] = 0;
    if (a->n_chains != b->n_chains) { snprintf(out, cap, "%d chains vs %d", a->n_chains, b->n_chains); return; }
    for (int ci = 0; ci < a->n_chains; ci++) {
        const pf_chain *x = &a->chains[ci], *y = &b->chains[ci];
        if (strcmp(x->id, y->id) || x->n != y->n || x->n_resolved != y->n_resolved || !y->full_seq) {
            snprintf(out, cap, "chain %s/%s: n %d/%d resolved %d/%d", x->id, y->id, x->n, y->n, x->n_resolved, y->n_resolved);
            return;
        }
        if (x->atom_start[x->n] != y->atom_start[y->n]) {
            snprintf(out, cap, "chain %s: %d atoms vs %d", x->id, x->atom_start[x->n], y->atom_start[y->n]);
            return;
        }
        for (int i = 0; i < x->n; i++) {
            if (x->tok[i] != y->tok[i] || x->resolved[i] != y->resolved[i] || x->atom_mask[i] != y->atom_mask[i] ||
                strcmp(x->resname[i], y->resname[i]) || strcmp(x->parent[i], y->parent[i]) ||
                x->atom_start[i] != y->atom_start[i] ||
                (x->atom_start[i + 1] > x->atom_start[i] && (x->auth_num[i] != y->auth_num[i] || x->icode[i] != y->icode[i]))) {
                snprintf(out, cap, "chain %s position %d: %s %d%c vs %s %d%c", x->id, i, x->resname[i], x->auth_num[i],
                         x->icode[i], y->resname[i], y->auth_num[i], y->icode[i]);
                return;
            }
            if (memcmp(x->xyz + 15 * i, y->xyz + 15 * i, 15 * sizeof(float))) {
                snprintf(out, cap, "chain %s position %d: backbone coordinates differ", x->id, i);
                return;
            }
        }
        for (int32_t k = 0; k < x->atom_start[x->n]; k++) {
            const pf_atom *p = &x->atoms[k], *q = &y->atoms[k];
            double d = 0;
            for (int t = 0; t < 3; t++) d = fmax(d, fabs(p->xyz[t] - q->xyz[t]));
            if (strcmp(p->name, q->name) || strcmp(p->element, q->element) || d > 0 ||
                fabs(p->occupancy - q->occupancy) > 0 || fabs(p->b_factor - q->b_factor) > 0) {
                snprintf(out, cap, "chain %s atom %d: %s %s (%.3f %.3f %.3f) %.2f %.2f vs %s %s (%.3f %.3f %.3f) %.2f %.2f",
                         x->id, k, p->name, p->element, p->xyz[0], p->xyz[1], p->xyz[2], p->occupancy, p->b_factor,
                         q->name, q->element, q->xyz[0], q->xyz[1], q->xyz[2], q->occupancy, q->b_factor);
                return;
            }
        }
    }
}

// The PDB reader keeps amino acids only (ligands some mmCIF files list inside
// a polymer, like 721P's GNP, are dropped): s without the residues whose names
// are not amino acids (and have no MODRES parent). Returns how many atoms went.
static int strip_non_amino(pf_structure *s) {
    int gone = 0;
    for (int ci = 0; ci < s->n_chains; ci++) {
        pf_chain *c = &s->chains[ci];
        int32_t m = 0;
        for (int i = 0; i < c->n; i++) {
            int32_t a0 = c->atom_start[i], a1 = c->atom_start[i + 1];
            c->atom_start[i] = m;
            if (a1 > a0 && pf_tok_from_name3(c->resname[i]) < 0 && !c->parent[i][0]) {
                gone += a1 - a0;
                if (c->resolved[i]) c->n_resolved--;
                c->resolved[i] = 0, c->atom_mask[i] = 0, c->auth_num[i] = 0, c->icode[i] = ' ';
                memset(c->xyz + 15 * i, 0, 15 * sizeof(float));
                continue;
            }
            memmove(c->atoms + m, c->atoms + a0, (size_t)(a1 - a0) * sizeof(pf_atom));
            m += a1 - a0;
        }
        c->atom_start[c->n] = m;
    }
    return gone;
}

// s written in one format and read back equals s; the written text is
// written and read again byte for byte the same. Returns 0, or 1 when the
// PDB writer refused the structure (reason in why).
static int round_trip(const pf_structure *s, const char *file, int cif, char *why, size_t cap) {
    char name[600], err[1024], diff[512];
    size_t len;
    char *text = cif ? pf_format_mmcif(s, "t", &len, err, sizeof err) : pf_format_pdb(s, &len, err, sizeof err);
    snprintf(name, sizeof name, "%s %s", file, cif ? "mmCIF" : "PDB");
    if (!text) {
        snprintf(why, cap, "%s", err);
        return 1;
    }
    pf_structure b;
    int rc = pf_parse_structure_text(text, len, cif ? "t.cif" : "t.pdb", &b, err, sizeof err);
    tl_check(rc == 0, name, "written file does not parse: %s", err);
    if (rc == 0) {
        pf_structure *want = (pf_structure *)s;
        int gone = cif ? 0 : strip_non_amino(want);
        diff_structures(want, &b, diff, sizeof diff);
        tl_check(diff[0] == 0, name, "round trip differs: %s", diff);
        if (gone) {  // the text held the dropped atoms; written again it does not
            free(text);
            text = pf_format_pdb(want, &len, err, sizeof err);
        }
        size_t len2;
        char *again = cif ? pf_format_mmcif(&b, "t", &len2, err, sizeof err) : pf_format_pdb(&b, &len2, err, sizeof err);
        tl_check(again && len2 == len && !memcmp(again, text, len), name, "written twice differs");
        free(again);
        pf_structure_free(&b);
    }
    free(text);
    return 0;
}

static void test_round_trips(const char *dir) {
    DIR *d = opendir(dir);
    tl_check(d != NULL, "structure dir", "cannot open %s", dir);
    if (!d) return;
    struct dirent *e;
    int files = 0, pdb_refused = 0;
    long atoms = 0;
    while ((e = readdir(d))) {
        if (!pf_is_structure_path(e->d_name)) continue;
        char path[1024], err[1024], why[1024] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        pf_structure s;
        int rc = pf_read_structure(path, &s, err, sizeof err);
        tl_check(rc == 0, path, "%s", err);
        if (rc) continue;
        files++;
        for (int c = 0; c < s.n_chains; c++) atoms += s.chains[c].atom_start[s.chains[c].n];
        round_trip(&s, e->d_name, 1, why, sizeof why);
        if (round_trip(&s, e->d_name, 0, why, sizeof why)) {
            // only chain ids longer than one character may keep a structure out of PDB
            int long_id = 0;
            for (int c = 0; c < s.n_chains; c++) long_id |= strlen(s.chains[c].id) > 1;
            tl_check(long_id && strstr(why, "chain id") != NULL, e->d_name, "PDB writer refused: %s", why);
            pdb_refused++;
        }
        pf_structure_free(&s);
    }
    closedir(d);
    tl_check(files > 0 && atoms > 0, "round trips", "%d files, %ld atoms", files, atoms);
    if (getenv("PF_VERBOSE")) printf("round trips: %d files, %ld atoms, %d refused by the PDB writer\n", files, atoms, pdb_refused);
}

// Residues that are amino acids only through their MODRES parent (ZZM: MET;
// ZZX: GYS, a chromophore whose token is UNK) come back from both writers with
// their parents and tokens, and a chain of nothing else is not lost: the PDB
// writer wrote no MODRES, so the reader dropped them ("no protein chains" for
// chain B alone; found by fuzz_structwrite, fuzz/regress/structwrite_pdb_modres.bin).
static void test_modres_round_trip(void) {
    static const char *pdb[] = {
        "MODRES 1ABC ZZM A    2  MET  MODIFIED METHIONINE",
        "MODRES 1ABC ZZX B    7  GYS",
        "ATOM      1  N   ALA A   1       1.000   2.000   3.000  1.00 10.00           N",
        "ATOM      2  CA  ALA A   1       2.000   2.000   3.000  1.00 10.00           C",
        "HETATM    3  N   ZZM A   2       3.000   2.000   3.000  1.00 20.00           N",
        "HETATM    4  CA  ZZM A   2       4.000   2.000   3.000  1.00 20.00           C",
        "HETATM    5 SE   ZZM A   2       5.000   2.000   3.000  0.50 20.00          SE",
        "TER       6      ZZM A   2",
        "HETATM    7  CA  ZZX B   7       6.000   2.000   3.000  1.00 30.00           C",
        "TER       8      ZZX B   7",
        "END"};
    char text[2048] = "", one[512] = "", err[512], why[512] = "", name[64];
    for (size_t k = 0; k < sizeof pdb / sizeof *pdb; k++) {
        strcat(strcat(text, pdb[k]), "\n");
        if (k == 1 || k >= 8) strcat(strcat(one, pdb[k]), "\n");  // chain B alone
    }
    pf_structure s;
    int rc = pf_parse_structure_text(text, strlen(text), "modres.pdb", &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 2, "modres read", "%s", rc ? err : "not 2 chains");
    if (rc) return;
    tl_check(!strcmp(s.chains[0].parent[1], "MET") && s.chains[0].tok[1] == pf_tok_from_name3("MET") &&
                 !s.chains[0].parent[0][0] && !strcmp(s.chains[1].parent[0], "GYS") && s.chains[1].tok[0] == pf_tok_from_name3("UNK"),
             "modres parents", "%s %s", s.chains[0].parent[1], s.chains[1].parent[0]);
    for (int cif = 0; cif < 2; cif++) {  // same chains, tokens, parents and atoms (round_trip's checks)
        snprintf(name, sizeof name, "modres %s", cif ? "mmCIF" : "PDB");
        tl_check(round_trip(&s, "modres", cif, why, sizeof why) == 0, name, "refused: %s", why);
    }
    pf_structure_free(&s);
    // the fuzz input's case: one residue, its name and its parent's token unknown
    rc = pf_parse_structure_text(one, strlen(one), "modres.pdb", &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 1 && !strcmp(s.chains[0].id, "B"), "modres chain B", "%s", rc ? err : "chains");
    if (rc == 0) {
        size_t len;
        char *t = pf_format_pdb(&s, &len, err, sizeof err);
        pf_structure b;
        rc = t ? pf_parse_structure_text(t, len, "w.pdb", &b, err, sizeof err) : -1;
        tl_check(rc == 0 && b.n_chains == 1 && b.chains[0].atom_start[1] == 1, "modres only residue", "%s", rc ? err : "differs");
        if (rc == 0) pf_structure_free(&b);
        free(t);
        pf_structure_free(&s);
    }
    // a protein entity of nothing but a ligand (mmCIF; 721P's GNP alone): the PDB reader
    // would find no protein chain in the written file, so the PDB writer refuses it
    static const char *cif =
        "data_x\nloop_\n_entity.id\n_entity.type\n1 polymer\nloop_\n_entity_poly.entity_id\n"
        "_entity_poly.type\n1 polypeptide(L)\nloop_\n_atom_site.group_PDB\n_atom_site.id\n"
        "_atom_site.type_symbol\n_atom_site.label_atom_id\n_atom_site.label_comp_id\n_atom_site.label_asym_id\n"
        "_atom_site.label_entity_id\n_atom_site.label_seq_id\n_atom_site.Cartn_x\n_atom_site.Cartn_y\n"
        "_atom_site.Cartn_z\n_atom_site.auth_seq_id\n_atom_site.auth_asym_id\n"
        "HETATM 1 P PG GNP A 1 1 1.0 2.0 3.0 1 A\n";
    rc = pf_parse_structure_text(cif, strlen(cif), "gnp.cif", &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 1, "ligand-only chain read", "%s", rc ? err : "chains");
    if (rc == 0) {
        size_t len;
        char *t = pf_format_pdb(&s, &len, err, sizeof err);
        tl_check(!t && strstr(err, "no protein chain"), "ligand-only chain to PDB", "%s", t ? "written" : err);
        free(t);
        pf_structure_free(&s);
    }
}

// A hand-made two-residue chain (the builder predicted models use).
static void make_small(pf_structure *s, const char *id) {
    memset(s, 0, sizeof *s);
    uint8_t tok[2] = {0, 7};  // ALA GLY
    pf_chain *c = pf_structure_add_chain(s, id, 2, tok);
    const char *names[5] = {"N", "CA", "C", "O", "CB"};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < (i == 0 ? 5 : 4); k++) {
            float x[3] = {(float)(3.8 * i + k), (float)k, 0.5f};
            pf_chain_add_atom(c, i, names[k], NULL, x, 1.0f, 87.25f);
        }
}

static void test_writer_limits(void) {
    pf_structure s;
    char err[512];
    size_t len;
    make_small(&s, "A");
    pf_chain *c = &s.chains[0];
    float x[3] = {0, 0, 0};
    tl_check(pf_chain_add_atom(c, 0, "CB", NULL, x, 1, 0) == -1, "builder", "adding to an earlier residue accepted");
    tl_check(pf_chain_add_atom(c, 2, "CA", NULL, x, 1, 0) == -1, "builder", "residue out of range accepted");
    tl_check(c->n_resolved == 2 && c->atom_start[2] == 9 && !strcmp(c->resname[1], "GLY"), "builder", "n_resolved %d atoms %d",
             c->n_resolved, c->atom_start[2]);
    char *t = pf_format_pdb(&s, &len, err, sizeof err);
    // pLDDT in the B-factor column (61-66) and the element in 77-78
    tl_check(t && strstr(t, "ATOM      2  CA  ALA A   1       1.000   1.000   0.500  1.00 87.25           C\n"), "pdb line",
             "%s", t ? t : err);
    free(t);
    c->auth_num[1] = 10000;
    t = pf_format_pdb(&s, &len, err, sizeof err);
    tl_check(!t && strstr(err, "residue number 10000"), "pdb residue number", "%s", t ? "accepted" : err);
    free(t);
    c->auth_num[1] = 2;
    c->atoms[3].xyz[0] = 12345.0f;
    t = pf_format_pdb(&s, &len, err, sizeof err);
    tl_check(!t && strstr(err, "coordinates"), "pdb coordinates", "%s", t ? "accepted" : err);
    free(t);
    t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
    tl_check(t && strstr(t, "12345.000"), "mmcif coordinates", "%s", t ? "missing" : err);
    free(t);
    pf_structure_free(&s);
    make_small(&s, "AB");
    t = pf_format_pdb(&s, &len, err, sizeof err);
    tl_check(!t && strstr(err, "chain id 'AB'"), "pdb chain id", "%s", t ? "accepted" : err);
    free(t);
    strcpy(s.chains[0].id, "_x");  // a value CIF must quote
    t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
    pf_structure b;
    int rc = t ? pf_parse_structure_text(t, len, "q.cif", &b, err, sizeof err) : -1;
    tl_check(rc == 0 && !strcmp(b.chains[0].id, "_x"), "mmcif quoting", "%s", rc ? err : b.chains[0].id);
    if (rc == 0) pf_structure_free(&b);
    free(t);
    // insertion code '"', a name with a blank, and one with both quotes: quoted so they read back
    s.chains[0].icode[0] = '"';
    strcpy(s.chains[0].atoms[0].name, "N 1");
    strcpy(s.chains[0].atoms[1].name, "C'\"x");
    t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
    rc = t ? pf_parse_structure_text(t, len, "q.cif", &b, err, sizeof err) : -1;
    tl_check(rc == 0 && b.chains[0].icode[0] == '"' && !strcmp(b.chains[0].atoms[0].name, "N 1") &&
                 !strcmp(b.chains[0].atoms[1].name, "C'\"x"), "mmcif quoting of odd names", "%s", rc ? err : "differs");
    if (rc == 0) pf_structure_free(&b);
    free(t);
    strcpy(s.chains[0].atoms[0].name, "a' b\" c");  // both quotes followed by blanks: no CIF quoting fits
    t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
    tl_check(!t && strstr(err, "cannot be written"), "unquotable name", "%s", t ? "accepted" : err);
    free(t);
    pf_structure_free(&s);
    // a residue without atoms is written too (entity_poly_seq): a line break in its name is
    // refused, not written as a loop row that does not read back (found by fuzz_structwrite)
    {
        uint8_t tok3[3] = {0, 7, 0};
        memset(&s, 0, sizeof s);
        pf_chain *c3 = pf_structure_add_chain(&s, "A", 3, tok3);
        float x0[3] = {0, 0, 0};
        pf_chain_add_atom(c3, 0, "CA", NULL, x0, 1.0f, 0.f);
        strcpy(c3->resname[2], "X\rY");
        t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
        tl_check(!t && strstr(err, "residue name") && strstr(err, "cannot be written"), "atomless residue name with CR",
                 "%s", t ? "accepted" : err);
        free(t);
        // a CR as insertion code (PDB column 27 of a fuzzed file) made a row that did not read back
        strcpy(c3->resname[2], "GLY");
        c3->icode[0] = '\r';
        t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
        tl_check(!t && strstr(err, "insertion code") && strstr(err, "cannot be written"), "insertion code CR", "%s",
                 t ? "accepted" : err);
        free(t);
        pf_structure_free(&s);
    }
    memset(&s, 0, sizeof s);
    pf_structure_add_chain(&s, "A", 3, NULL);
    t = pf_format_mmcif(&s, "x", &len, err, sizeof err);
    tl_check(!t && strstr(err, "no atoms"), "no atoms", "%s", t ? "accepted" : err);
    free(t);
    tl_check(pf_write_structure("/nonexistent-dir/x.cif", &s, NULL, err, sizeof err) == -1 && strstr(err, "/nonexistent-dir/x.cif"),
             "write error names the file", "%s", err);
    tl_check(pf_write_structure("x.xyz", &s, NULL, err, sizeof err) == -1 && strstr(err, "extension"), "unknown extension",
             "%s", err);
    pf_structure_free(&s);
}

// Rotation by angle about a unit axis (Rodrigues).
static void rotation(double ang, const double ax[3], double R[3][3]) {
    double c = cos(ang), s = sin(ang), C = 1 - c, x = ax[0], y = ax[1], z = ax[2];
    double M[3][3] = {{c + x * x * C, x * y * C - z * s, x * z * C + y * s},
                      {y * x * C + z * s, c + y * y * C, y * z * C - x * s},
                      {z * x * C - y * s, z * y * C + x * s, c + z * z * C}};
    memcpy(R, M, sizeof M);
}

static void test_superpose(void) {
    enum { N = 40 };
    double x[N * 3], y[N * 3], R[3][3], ax[3] = {0.48, -0.6, 0.64}, t[3] = {5, -7, 11};
    pf_rng rng = pf_rng_make(3, 0);
    for (int i = 0; i < N * 3; i++) x[i] = 10 * pf_rng_normal(&rng);
    for (int trial = 0; trial < 4; trial++) {
        rotation(0.3 + 1.3 * trial, ax, R);  // up to 4.2 rad: past pi too
        for (int i = 0; i < N; i++)
            for (int r = 0; r < 3; r++) y[3 * i + r] = R[r][0] * x[3 * i] + R[r][1] * x[3 * i + 1] + R[r][2] * x[3 * i + 2] + t[r];
        pf_rigid T = pf_superpose(x, y, NULL, N);
        double e = 0;
        for (int r = 0; r < 3; r++) {
            e = fmax(e, fabs(T.t[r] - t[r]));
            for (int k = 0; k < 3; k++) e = fmax(e, fabs(T.R[r][k] - R[r][k]));
        }
        tl_check(e < 1e-9 && pf_rmsd_after(&T, x, y, N) < 1e-9, "superpose exact", "trial %d: error %.3e", trial, e);
    }
    // a mirror image: the best proper rotation, never a reflection (det +1)
    for (int i = 0; i < N; i++) y[3 * i] = -x[3 * i], y[3 * i + 1] = x[3 * i + 1], y[3 * i + 2] = x[3 * i + 2];
    pf_rigid T = pf_superpose(x, y, NULL, N);
    double det = T.R[0][0] * (T.R[1][1] * T.R[2][2] - T.R[1][2] * T.R[2][1]) -
                 T.R[0][1] * (T.R[1][0] * T.R[2][2] - T.R[1][2] * T.R[2][0]) +
                 T.R[0][2] * (T.R[1][0] * T.R[2][1] - T.R[1][1] * T.R[2][0]);
    tl_check(fabs(det - 1) < 1e-9 && pf_rmsd_after(&T, x, y, N) > 1, "superpose mirror", "det %.6f", det);
}

static void test_lddt_tm(void) {
    // three residues on a line, 3.8 A apart; the prediction stretches the last by 0.7 A:
    // pairs (0,1) keep their distance, (0,2) and (1,2) are off by 0.7 (scores 0.75);
    // each of the 3 pairs counts twice: (2 * 1 + 4 * 0.75) / 6
    double t[9] = {0, 0, 0, 3.8, 0, 0, 7.6, 0, 0}, p[9] = {0, 0, 0, 3.8, 0, 0, 8.3, 0, 0}, per[3];
    uint8_t one[3] = {1, 1, 1}, miss[3] = {1, 1, 0};
    double l = pf_lddt_ca(p, t, one, one, 3, per);
    tl_check(fabs(l - 5.0 / 6) < 1e-9 && fabs(per[0] - 0.875) < 1e-9 && fabs(per[2] - 0.75) < 1e-9, "lddt line", "%.9f", l);
    l = pf_lddt_ca(p, t, miss, one, 3, NULL);  // residue 2 missing: its 4 of 6 ordered pairs fail
    tl_check(fabs(l - 2.0 / 6) < 1e-9, "lddt missing residue", "%.9f", l);
    t[6] = 40;  // beyond 15 A: only the pair (0,1), and it is exact
    tl_check(fabs(pf_lddt_ca(p, t, one, one, 3, NULL) - 1) < 1e-9, "lddt cutoff", "pairs beyond 15 A scored");
    tl_check(fabs(pf_tm_d0(100) - (1.24 * cbrt(85) - 1.8)) < 1e-12 && pf_tm_d0(15) == 0.5 && pf_tm_d0(19) == 0.5,
             "tm d0", "%.6f", pf_tm_d0(100));
    // a rigid copy scores 1; normalised by a longer true length it scores n / L
    enum { N = 30 };
    double x[N * 3], y[N * 3], R[3][3], ax[3] = {0, 0.6, 0.8};
    pf_rng rng = pf_rng_make(5, 0);
    for (int i = 0; i < N * 3; i++) x[i] = 8 * pf_rng_normal(&rng);
    rotation(2.0, ax, R);
    for (int i = 0; i < N; i++)
        for (int r = 0; r < 3; r++) y[3 * i + r] = R[r][0] * x[3 * i] + R[r][1] * x[3 * i + 1] + R[r][2] * x[3 * i + 2] - 4;
    pf_tm_result tm = pf_tm_score(x, y, N, N);
    tl_check(fabs(tm.tm - 1) < 1e-9, "tm rigid copy", "%.9f", tm.tm);
    tm = pf_tm_score(x, y, N, 2 * N);
    tl_check(fabs(tm.tm - 0.5) < 1e-9, "tm normalised by true length", "%.9f", tm.tm);
    // half of the residues moved far away: the search finds the other half
    for (int i = N / 2; i < N; i++) y[3 * i] += 50;
    tm = pf_tm_score(x, y, N, N);
    tl_check(tm.tm > 0.49 && tm.tm < 0.51, "tm search", "half moved: %.6f", tm.tm);
}

static void score_err(const pf_structure *p, const pf_structure *t, const char *want, const char *name) {
    pf_score s;
    char err[1024] = "";
    int rc = pf_score_structures(p, t, "P", "T", &s, err, sizeof err);
    tl_check(rc == -1 && strstr(err, want), name, "rc %d: %s", rc, err);
    if (rc == 0) pf_score_free(&s);
}

static void test_score_errors(void) {
    pf_structure a, b;
    make_small(&a, "A");
    make_small(&b, "B");
    score_err(&a, &b, "chain A of P is not in T", "score chains differ");
    pf_structure_free(&b);
    make_small(&b, "A");
    b.chains[0].auth_num[0] = 101, b.chains[0].auth_num[1] = 102;
    score_err(&a, &b, "no residue numbers in common", "score no common residues");
    b.chains[0].auth_num[0] = 2, b.chains[0].auth_num[1] = 3;  // offset by one: ALA 2 against GLY 2
    score_err(&a, &b, "residue 2 is GLY in P but ALA in T", "score numbering offset");
    b.chains[0].auth_num[0] = 1, b.chains[0].auth_num[1] = 1;
    score_err(&a, &b, "has residue 1 twice", "score duplicate number");
    b.chains[0].auth_num[1] = 2;
    pf_score s;
    char err[512];
    int rc = pf_score_structures(&a, &b, "P", "T", &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 1 && s.overall.n_common == 2 && fabs(s.overall.lddt_ca - 1) < 1e-9 &&
                 fabs(s.overall.tm_score - 1) < 1e-9 && s.overall.rmsd_ca < 1e-6,
             "score identical", "%s", rc ? err : "wrong values");
    if (rc == 0) pf_score_free(&s);
    pf_structure_free(&a);
    pf_structure_free(&b);
}

int main(int argc, char **argv) {
    test_round_trips(argc > 1 ? argv[1] : "data/structures");
    test_writer_limits();
    test_modres_round_trip();
    test_superpose();
    test_lddt_tm();
    test_score_errors();
    return tl_finish();
}
