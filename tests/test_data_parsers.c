// Readers against the real data in ../shared/data (manifest residue and
// sequence counts), small hand-written files for each format feature, and
// bad inputs (truncated, empty, binary, wrong format) that must give a
// message naming the file (and line) instead of a crash.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "../src/data/batch.h"
#include "../src/data/msa.h"
#include "../src/data/residue.h"
#include "../src/data/structure.h"
#include "../src/data/textio.h"
#include "testlib.h"

static char tmpdir[256];

static const char *data_dir(void) {
    const char *e = getenv("PF_DATA_DIR");
    if (e && *e) return e;
    return "../shared/data";
}

static char *tmp_path(const char *name) {
    static char buf[8][512];
    static int k = 0;
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(2); }
    fwrite(data, 1, n, f);
    fclose(f);
}
static void write_text(const char *path, const char *s) { write_file(path, s, strlen(s)); }
static void write_gz(const char *path, const char *s) {
    gzFile g = gzopen(path, "wb");
    gzwrite(g, s, (unsigned)strlen(s));
    gzclose(g);
}

// ---- manifest-driven checks on the shared data ------------------------------

typedef struct { char *f[16]; int n; } row;
static int split_tab(char *line, row *r) {
    r->n = 0;
    for (char *s = line;;) {
        char *t = strchr(s, '\t');
        if (r->n < 16) r->f[r->n++] = s;
        if (!t) break;
        *t = 0;
        s = t + 1;
    }
    size_t n = strlen(r->f[r->n - 1]);
    while (n && (r->f[r->n - 1][n - 1] == '\n' || r->f[r->n - 1][n - 1] == '\r')) r->f[r->n - 1][--n] = 0;
    return r->n;
}
static int col(const row *h, const char *name) {
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->f[i], name)) return i;
    return -1;
}

static void test_all_structures(const char *dd) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s/structures", dd);
    DIR *d = opendir(dir);
    int n = 0, bad = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[1200], err[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        pf_structure s;
        n++;
        if (pf_read_structure(p, &s, err, sizeof err) != 0) {
            bad++;
            // a failure must be one message naming the file
            tl_check(strstr(err, e->d_name) != NULL, "structure error names file", "%s", err);
            printf("  structure %s: %s\n", e->d_name, err);
            continue;
        }
        pf_structure_free(&s);
    }
    if (d) closedir(d);
    tl_check(n == 233 && bad == 0, "every structure file parses", "%d files, %d failed", n, bad);
}

static void test_manifest_chains(const char *dd) {
    char p[600];
    snprintf(p, sizeof p, "%s/manifest_chains.tsv", dd);
    FILE *f = fopen(p, "r");
    if (!f) { tl_check(0, "manifest_chains.tsv", "cannot open %s", p); return; }
    char hl[4096], line[4096];
    row h, r;
    if (!fgets(hl, sizeof hl, f)) { fclose(f); return; }
    split_tab(hl, &h);
    int cf = col(&h, "file"), cc = col(&h, "chain"), cn = col(&h, "n_res");
    char last[600] = "";
    pf_structure s = {0};
    int have = 0, chains = 0, match = 0;
    while (fgets(line, sizeof line, f)) {
        split_tab(line, &r);
        if (r.n <= cn) continue;
        if (strcmp(last, r.f[cf]) != 0) {
            if (have) pf_structure_free(&s);
            char sp[1200], err[1024];
            snprintf(sp, sizeof sp, "%s/%s", dd, r.f[cf]);
            have = pf_read_structure(sp, &s, err, sizeof err) == 0;
            snprintf(last, sizeof last, "%s", r.f[cf]);
        }
        chains++;
        int want = atoi(r.f[cn]), got = -1;
        for (int c = 0; have && c < s.n_chains; c++)
            if (!strcmp(s.chains[c].id, r.f[cc])) got = s.chains[c].n_resolved;
        match += got == want;
        char name[700];
        snprintf(name, sizeof name, "n_res %s chain %s", r.f[cf], r.f[cc]);
        tl_check(got == want, name, "resolved %d, manifest %d", got, want);
    }
    if (have) pf_structure_free(&s);
    fclose(f);
    tl_check(chains == 334 && match == chains, "manifest chains all match", "%d of %d", match, chains);
}

// Resolved-residue sequences against sequences_observed.fasta (CA residues).
static void test_observed_sequences(const char *dd) {
    char p[600], err[1024];
    snprintf(p, sizeof p, "%s/sequences_observed.fasta", dd);
    pf_text t;
    pf_fasta fa;
    if (pf_text_load(p, &t, err, sizeof err) != 0 || pf_parse_fasta(t.data, t.len, p, &fa, err, sizeof err) != 0) {
        tl_check(0, "sequences_observed.fasta", "%s", err);
        return;
    }
    pf_text_free(&t);
    // chain "<PDBID>_<CHAIN>" -> file, from manifest_chains.tsv
    snprintf(p, sizeof p, "%s/manifest_chains.tsv", dd);
    FILE *f = fopen(p, "r");
    char line[4096];
    row h, r;
    if (!f || !fgets(line, sizeof line, f)) { tl_check(0, "manifest", "open"); return; }
    char hl[4096];
    memcpy(hl, line, sizeof hl);
    split_tab(hl, &h);
    int cid = col(&h, "pdb_id"), cc = col(&h, "chain"), cf = col(&h, "file"), cd = col(&h, "distinct");
    int checked = 0, same = 0;
    while (fgets(line, sizeof line, f)) {
        split_tab(line, &r);
        if (r.n <= cd || strcmp(r.f[cd], "1")) continue;
        char key[64];
        snprintf(key, sizeof key, "%s_%s", r.f[cid], r.f[cc]);
        int k = -1;
        for (int i = 0; i < fa.n; i++)
            if (!strcmp(fa.name[i], key)) k = i;
        if (k < 0) continue;
        char sp[1200];
        snprintf(sp, sizeof sp, "%s/%s", dd, r.f[cf]);
        pf_structure s;
        if (pf_read_structure(sp, &s, err, sizeof err) != 0) continue;
        for (int c = 0; c < s.n_chains; c++) {
            if (strcmp(s.chains[c].id, r.f[cc])) continue;
            char obs[4096];
            int m = 0;
            for (int i = 0; i < s.chains[c].n && m < 4095; i++)
                if (s.chains[c].resolved[i]) obs[m++] = pf_tok_letter(s.chains[c].tok[i]);
            obs[m] = 0;
            checked++;
            int ok = !strcmp(obs, fa.seq[k]);
            same += ok;
            if (!ok) tl_check(0, "observed sequence", "%s: got %s want %s", key, obs, fa.seq[k]);
        }
        pf_structure_free(&s);
    }
    fclose(f);
    pf_fasta_free(&fa);
    tl_check(checked >= 250 && same == checked, "observed sequences match", "%d of %d", same, checked);
}

static void test_manifest_msas(const char *dd) {
    char p[600];
    snprintf(p, sizeof p, "%s/manifest_msas.tsv", dd);
    FILE *f = fopen(p, "r");
    char hl[4096], line[4096];
    row h, r;
    if (!f || !fgets(hl, sizeof hl, f)) { tl_check(0, "manifest_msas.tsv", "cannot open"); return; }
    split_tab(hl, &h);
    int cf = col(&h, "file"), cq = col(&h, "query_len"), cn = col(&h, "n_seqs");
    int n = 0, ok = 0;
    while (fgets(line, sizeof line, f)) {
        split_tab(line, &r);
        if (r.n <= cn) continue;
        char mp[1200], err[1024];
        snprintf(mp, sizeof mp, "%s/%s", dd, r.f[cf]);
        pf_msa m;
        int rc = pf_read_msa(mp, &m, err, sizeof err);
        n++;
        int good = rc == 0 && m.n_seq == atoi(r.f[cn]) && m.L == atoi(r.f[cq]);
        ok += good;
        tl_check(good, r.f[cf], "rc %d n_seq %d (want %s) L %d (want %s) %s", rc, rc ? -1 : m.n_seq, r.f[cn],
                 rc ? -1 : m.L, r.f[cq], rc ? err : "");
        if (rc == 0) pf_msa_free(&m);
    }
    fclose(f);
    tl_check(n == 41 && ok == n, "every MSA parses with manifest counts", "%d of %d", ok, n);
}

// ---- format features on small files -------------------------------------------

static const pf_chain *find_chain(const pf_structure *s, const char *id) {
    for (int c = 0; c < s->n_chains; c++)
        if (!strcmp(s->chains[c].id, id)) return &s->chains[c];
    return NULL;
}

static char *chain_seq(const pf_chain *c, int resolved_only) {
    static char buf[4096];
    int m = 0;
    for (int i = 0; i < c->n && m < 4095; i++)
        if (!resolved_only || c->resolved[i]) buf[m++] = pf_tok_letter(c->tok[i]);
    buf[m] = 0;
    return buf;
}

static void pdb_atom(char *buf, size_t cap, const char *rec, int serial, const char *name, char alt, const char *res,
                     char ch, int num, char ic, double x, double y, double z) {
    size_t n = strlen(buf);
    char nm[8];
    snprintf(nm, sizeof nm, strlen(name) < 4 ? " %s" : "%s", name);
    snprintf(buf + n, cap - n, "%-6s%5d %-4s%c%3s %c%4d%c   %8.3f%8.3f%8.3f  1.00 20.00           C\n", rec, serial, nm,
             alt, res, ch, num, ic, x, y, z);
}

static void add_residue(char *buf, size_t cap, const char *rec, const char *res, char ch, int num, char ic, char alt,
                        double x) {
    static int serial = 1;
    const char *names[] = {"N", "CA", "C", "O", "CB"};
    int na = strcmp(res, "GLY") ? 5 : 4;
    for (int a = 0; a < na; a++) pdb_atom(buf, cap, rec, serial++, names[a], alt, res, ch, num, ic, x + a * 0.5, 1.0, 2.0);
}

static void test_pdb_features(void) {
    static char b[65536];
    b[0] = 0;
    strcat(b, "HEADER    TEST\n");
    strcat(b, "SEQRES   1 A    8  MET GLY SER MSE ALA LYS LEU GLU                          \n");
    strcat(b, "MODEL        1\n");
    add_residue(b, sizeof b, "ATOM", "MET", 'A', 1, ' ', ' ', 0);
    add_residue(b, sizeof b, "ATOM", "GLY", 'A', 2, ' ', ' ', 4);
    // residue 3 (SER) is missing: SEQRES position stays unresolved
    add_residue(b, sizeof b, "HETATM", "MSE", 'A', 4, ' ', ' ', 8);
    add_residue(b, sizeof b, "ATOM", "ALA", 'A', 5, ' ', 'A', 12);   // alternate locations A and B
    add_residue(b, sizeof b, "ATOM", "ALA", 'A', 5, ' ', 'B', 40);
    add_residue(b, sizeof b, "ATOM", "LYS", 'A', 5, 'A', ' ', 16);   // insertion code 5A
    add_residue(b, sizeof b, "ATOM", "LEU", 'A', 6, ' ', ' ', 20);
    add_residue(b, sizeof b, "ATOM", "GLU", 'A', 7, ' ', ' ', 24);
    strcat(b, "TER\n");
    pdb_atom(b, sizeof b, "HETATM", 900, "O", ' ', "HOH", 'A', 301, ' ', 1, 1, 1);   // water
    pdb_atom(b, sizeof b, "HETATM", 901, "C1", ' ', "NAG", 'A', 302, ' ', 1, 1, 1);  // ligand
    add_residue(b, sizeof b, "ATOM", "VAL", 'B', 1, ' ', ' ', 30);
    add_residue(b, sizeof b, "ATOM", "TRP", 'B', 2, ' ', ' ', 34);
    strcat(b, "ENDMDL\nMODEL        2\n");
    add_residue(b, sizeof b, "ATOM", "CYS", 'C', 1, ' ', ' ', 0);  // second model: ignored
    strcat(b, "ENDMDL\nEND\n");
    char *p = tmp_path("feat.pdb"), *pg = tmp_path("feat.pdb.gz");
    write_text(p, b);
    write_gz(pg, b);
    pf_structure s, sg;
    char err[1024];
    int rc = pf_read_structure(p, &s, err, sizeof err), rcg = pf_read_structure(pg, &sg, err, sizeof err);
    tl_check(rc == 0 && rcg == 0, "pdb features parse", "%s", err);
    if (rc || rcg) return;
    tl_check(s.n_chains == 2 && sg.n_chains == 2, "pdb: first model only, ligands and waters skipped", "%d chains", s.n_chains);
    const pf_chain *a = find_chain(&s, "A"), *bch = find_chain(&s, "B");
    tl_check(a && a->full_seq && a->n == 8, "pdb: SEQRES gives the full sequence", "n %d", a ? a->n : -1);
    if (a) {
        tl_check(!strcmp(chain_seq(a, 0), "MGSMAKLE"), "pdb: SEQRES tokens (MSE read as MET)", "%s", chain_seq(a, 0));
        tl_check(a->n_resolved == 7 && !a->resolved[2], "pdb: unresolved residue kept in the sequence", "%d", a->n_resolved);
        tl_check(a->icode[5] == 'A' && a->auth_num[5] == 5, "pdb: insertion code residue placed", "icode '%c'", a->icode[5]);
        // altloc: the first conformer (A) was kept, B dropped
        double x = a->xyz[(4 * PF_NUM_BB + PF_AT_CA) * 3];
        tl_check(x > 12.0 && x < 13.0, "pdb: one alternate location", "CA x %.2f", x);
        tl_check((a->atom_mask[1] & (1 << PF_AT_CB)) == 0 && (a->atom_mask[0] & 0x1f) == 0x1f, "pdb: backbone mask", "%x %x",
                 a->atom_mask[0], a->atom_mask[1]);
    }
    tl_check(bch && bch->n == 2 && !bch->full_seq && !strcmp(chain_seq(bch, 0), "VW"), "pdb: chain without SEQRES",
             "%s", bch ? chain_seq(bch, 0) : "-");
    // gzip transparent: identical content
    int same = s.n_chains == sg.n_chains;
    for (int c = 0; same && c < s.n_chains; c++)
        same = s.chains[c].n == sg.chains[c].n &&
               !memcmp(s.chains[c].xyz, sg.chains[c].xyz, sizeof(float) * 15 * (size_t)s.chains[c].n);
    tl_check(same, "pdb: .gz reads the same as plain", NULL);
    pf_structure_free(&s);
    pf_structure_free(&sg);
    // blank chain ids: TER separates chains
    b[0] = 0;
    add_residue(b, sizeof b, "ATOM", "ALA", ' ', 1, ' ', ' ', 0);
    add_residue(b, sizeof b, "ATOM", "GLY", ' ', 2, ' ', ' ', 4);
    strcat(b, "TER\n");
    add_residue(b, sizeof b, "ATOM", "SER", ' ', 1, ' ', ' ', 20);
    write_text(p, b);
    rc = pf_read_structure(p, &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 2 && s.chains[0].n == 2 && s.chains[1].n == 1, "pdb: blank chain ids split at TER",
             "rc %d chains %d", rc, rc ? 0 : s.n_chains);
    if (rc == 0) pf_structure_free(&s);
}

static const char *CIF =
    "data_TEST\n"
    "#\n"
    "_entry.id TEST\n"
    "_struct.title\n"
    ";A multi-line text field\n"
    "with 'quotes' and a loop_ keyword inside\n"
    ";\n"
    "loop_\n"
    "_entity_poly.entity_id\n"
    "_entity_poly.type\n"
    "1 'polypeptide(L)'\n"
    "2 polydeoxyribonucleotide\n"
    "loop_\n"
    "_entity_poly_seq.entity_id\n"
    "_entity_poly_seq.num\n"
    "_entity_poly_seq.mon_id\n"
    "_entity_poly_seq.hetero\n"
    "1 1 MET n\n1 2 ALA n\n1 3 GLY n\n1 4 SER y\n1 4 THR y\n1 5 LYS n\n"
    "2 1 DA n\n2 2 DC n\n"
    "loop_\n"
    "_atom_site.id\n"
    "_atom_site.Cartn_z\n"
    "_atom_site.label_seq_id\n"
    "_atom_site.auth_asym_id\n"
    "_atom_site.label_atom_id\n"
    "_atom_site.group_PDB\n"
    "_atom_site.label_comp_id\n"
    "_atom_site.label_asym_id\n"
    "_atom_site.label_entity_id\n"
    "_atom_site.Cartn_x\n"
    "_atom_site.Cartn_y\n"
    "_atom_site.auth_seq_id\n"
    "_atom_site.label_alt_id\n"
    "_atom_site.pdbx_PDB_ins_code\n"
    "_atom_site.pdbx_PDB_model_num\n"
    "1 3.0 1 P N ATOM MET A 1 1.0 2.0 10 . ? 1\n"
    "2 3.0 1 P CA ATOM MET A 1 2.0 2.0 10 . ? 1\n"
    "3 3.0 2 P CA ATOM ALA A 1 3.0 2.0 11 A ? 1\n"
    "4 3.0 2 P CA ATOM ALA A 1 9.0 2.0 11 B ? 1\n"
    "5 3.0 4 P CA ATOM SER A 1 4.0 2.0 12 . A 1\n"
    "6 3.0 4 P \"CB\" ATOM SER A 1 4.5 2.0 12 . A 1\n"
    "7 3.0 5 P 'CA' ATOM LYS A 1 5.0 2.0 13 . ? 1\n"
    "8 3.0 . P O HETATM HOH C . 6.0 2.0 101 . ? 1\n"
    "9 3.0 1 Q P ATOM DA B 2 6.0 2.0 1 . ? 1\n"
    "10 3.0 1 P CA ATOM MET A 1 50.0 2.0 10 . ? 2\n"
    "#\n";

static void test_mmcif_features(void) {
    char *p = tmp_path("feat.cif");
    write_text(p, CIF);
    pf_structure s;
    char err[1024];
    int rc = pf_read_structure(p, &s, err, sizeof err);
    tl_check(rc == 0, "mmcif features parse", "%s", err);
    if (rc) return;
    tl_check(s.n_chains == 1, "mmcif: DNA and water skipped", "%d chains", s.n_chains);
    const pf_chain *c = find_chain(&s, "P");
    tl_check(c != NULL, "mmcif: chain named by auth_asym_id", "%s", s.chains[0].id);
    if (c) {
        tl_check(c->full_seq && c->n == 5 && !strcmp(chain_seq(c, 0), "MAGSK"), "mmcif: entity_poly_seq (first of hetero)",
                 "%s", chain_seq(c, 0));
        tl_check(c->n_resolved == 4 && !c->resolved[2], "mmcif: residues placed by label_seq_id", "%d", c->n_resolved);
        tl_check(c->xyz[(1 * PF_NUM_BB + PF_AT_CA) * 3] == 3.0f, "mmcif: first alternate location", "%f",
                 c->xyz[(1 * PF_NUM_BB + PF_AT_CA) * 3]);
        tl_check(c->xyz[(0 * PF_NUM_BB + PF_AT_CA) * 3] == 2.0f, "mmcif: first model only", NULL);
        tl_check((c->atom_mask[3] & (1 << PF_AT_CB)) && c->auth_num[3] == 12 && c->icode[3] == 'A',
                 "mmcif: quoted atom names, author numbers, insertion code", "%x %d", c->atom_mask[3], c->auth_num[3]);
    }
    pf_structure_free(&s);
}

static void test_msa_features(void) {
    char err[1024];
    // A3M: lower-case insertions become deletion counts of the next column
    const char *a3m = "#3\t1\n>query desc\nACDE\nFG\n>s1\nA-dDeeEF\nG\n>s2\nxxACDEFGy\n";
    pf_msa m;
    int rc = pf_parse_a3m(a3m, strlen(a3m), "t.a3m", &m, err, sizeof err);
    tl_check(rc == 0 && m.n_seq == 3 && m.L == 6, "a3m parses", "%s", err);
    if (rc == 0) {
        const uint8_t *t1 = m.tok + 6, *d1 = m.del + 6, *d2 = m.del + 12;
        tl_check(t1[1] == PF_TOK_GAP && t1[2] == pf_tok_from_letter('D') && d1[2] == 1 && d1[3] == 2 && d1[4] == 0,
                 "a3m: deletions and gaps", "del %d %d %d", d1[2], d1[3], d1[4]);
        tl_check(d2[0] == 2 && d2[5] == 0, "a3m: leading insertions, trailing dropped", "%d", d2[0]);
        pf_msa_free(&m);
    }
    // Stockholm: wrapped blocks, #=GS/#=GC lines, query gaps are insertions
    const char *sto =
        "# STOCKHOLM 1.0\n\n#=GF ID test\n#=GS s1/1-5 DE something\n\n"
        "query      AC-D\n"
        "s1/1-5     ACKD\n"
        "s2/3-9     -CKK\n"
        "#=GC RF    xx.x\n\n"
        "query      EF\n"
        "s1/1-5     E-\n"
        "s2/3-9     EF\n"
        "#=GC RF    xx\n"
        "//\n";
    rc = pf_parse_stockholm(sto, strlen(sto), "t.sto", &m, err, sizeof err);
    tl_check(rc == 0 && m.n_seq == 3 && m.L == 5, "stockholm parses", "%s", err);
    if (rc == 0) {
        const uint8_t *t1 = m.tok + 5, *d1 = m.del + 5, *t2 = m.tok + 10, *d2 = m.del + 10;
        tl_check(d1[2] == 1 && t1[2] == pf_tok_from_letter('D') && t1[4] == PF_TOK_GAP, "stockholm: insertion column",
                 "%d", d1[2]);
        tl_check(t2[0] == PF_TOK_GAP && d2[2] == 1 && t2[2] == pf_tok_from_letter('K'), "stockholm: wrapped rows", NULL);
        pf_msa_free(&m);
    }
    // FASTA: wrapped records of different lengths
    const char *fa = ">a one\nMKV\nLL\n\n>b\nGG*\n";
    pf_fasta f;
    rc = pf_parse_fasta(fa, strlen(fa), "t.fasta", &f, err, sizeof err);
    tl_check(rc == 0 && f.n == 2 && !strcmp(f.seq[0], "MKVLL") && !strcmp(f.seq[1], "GG") && !strcmp(f.name[0], "a"),
             "fasta parses", "%s", err);
    if (rc == 0) pf_fasta_free(&f);
}

// ---- bad inputs ---------------------------------------------------------------

static void expect_error(const char *what, int rc, const char *err, const char *path, int want_line) {
    int names = strstr(err, path) != NULL;
    int has_line = 0;
    const char *q = strstr(err, path);
    if (q) {
        q += strlen(path);
        has_line = q[0] == ':' && q[1] >= '0' && q[1] <= '9';
    }
    tl_check(rc != 0 && names && (!want_line || has_line), what, "rc %d: %s", rc, err);
}

static void test_bad_inputs(const char *dd) {
    char err[1024];
    pf_structure s;
    pf_msa m;
    int rc;
    // empty
    char *e1 = tmp_path("empty.pdb"), *e2 = tmp_path("empty.a3m"), *e3 = tmp_path("empty.cif.gz");
    write_text(e1, "");
    write_text(e2, "");
    write_gz(e3, "");
    rc = pf_read_structure(e1, &s, err, sizeof err);
    expect_error("empty pdb", rc, err, e1, 0);
    rc = pf_read_msa(e2, &m, err, sizeof err);
    expect_error("empty a3m", rc, err, e2, 0);
    rc = pf_read_structure(e3, &s, err, sizeof err);
    expect_error("empty gzip", rc, err, e3, 0);
    // binary garbage (also with a gzip magic in front)
    unsigned char junk[4096];
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof junk; i++) x ^= x << 13, x ^= x >> 7, x ^= x << 17, junk[i] = (unsigned char)x;
    char *g1 = tmp_path("junk.cif"), *g2 = tmp_path("junk.sto.gz"), *g3 = tmp_path("junk.pdb");
    write_file(g1, junk, sizeof junk);
    junk[0] = 0x1f, junk[1] = 0x8b;
    write_file(g2, junk, sizeof junk);
    rc = pf_read_structure(g1, &s, err, sizeof err);
    expect_error("binary garbage cif", rc, err, g1, 1);
    rc = pf_read_msa(g2, &m, err, sizeof err);
    expect_error("binary garbage gz", rc, err, g2, 0);
    memcpy(junk, "ATOM      1  N   ALA A   1       1.000   2.000   3.000\n", 56);
    write_file(g3, junk, sizeof junk);
    rc = pf_read_structure(g3, &s, err, sizeof err);
    expect_error("pdb with binary tail", rc, err, g3, 1);
    // truncated: a real gzip file cut in half, text cut mid-line
    char src[700];
    snprintf(src, sizeof src, "%s/structures/1UBI.pdb.gz", dd);
    size_t n = 0;
    unsigned char *raw = pf_read_raw(src, &n, err, sizeof err);
    if (raw) {
        char *t1 = tmp_path("trunc.pdb.gz");
        write_file(t1, raw, n / 2);
        rc = pf_read_structure(t1, &s, err, sizeof err);
        expect_error("truncated gzip", rc, err, t1, 0);
        tl_check(strstr(err, "truncated") != NULL, "truncated gzip says so", "%s", err);
        pf_text t;
        if (pf_text_from_bytes(raw, n, "x", &t, err, sizeof err) == 0) {
            char *cut = strstr(t.data, "ATOM    100");
            char *t2 = tmp_path("trunc.pdb");
            if (cut) write_file(t2, t.data, (size_t)(cut - t.data) + 40);
            rc = pf_read_structure(t2, &s, err, sizeof err);
            expect_error("pdb cut mid-line", rc, err, t2, 1);
            pf_text_free(&t);
        }
        free(raw);
    }
    char *t3 = tmp_path("trunc.sto");
    write_text(t3, "# STOCKHOLM 1.0\nq ACDE\ns ACD-\n");
    rc = pf_read_msa(t3, &m, err, sizeof err);
    expect_error("stockholm without //", rc, err, t3, 1);
    char *t4 = tmp_path("trunc.cif");
    write_text(t4, "data_x\nloop_\n_atom_site.id\n_atom_site.Cartn_x\n_atom_site.Cartn_y\n1 2.0\n");
    rc = pf_read_structure(t4, &s, err, sizeof err);
    expect_error("cif loop cut short", rc, err, t4, 1);
    char *t5 = tmp_path("quote.cif");
    write_text(t5, "data_x\n_struct.title 'unterminated\n");
    rc = pf_read_structure(t5, &s, err, sizeof err);
    expect_error("cif unterminated quote", rc, err, t5, 1);
    char *t6 = tmp_path("text.cif");
    write_text(t6, "data_x\n_struct.title\n;never closed\n");
    rc = pf_read_structure(t6, &s, err, sizeof err);
    expect_error("cif unterminated text field", rc, err, t6, 1);
    char *t7 = tmp_path("rows.a3m");
    write_text(t7, ">q\nACDE\n>s\nACD\n");
    rc = pf_read_msa(t7, &m, err, sizeof err);
    expect_error("a3m row of wrong length", rc, err, t7, 1);
    char *t8 = tmp_path("coords.pdb");
    write_text(t8, "ATOM      1  CA  ALA A   1       1.000   abcde   3.000  1.00 20.00           C\n");
    rc = pf_read_structure(t8, &s, err, sizeof err);
    expect_error("pdb bad coordinates", rc, err, t8, 1);
    // coordinates out of range (finite but absurd) and a negative label_seq_id: errors with file:line
    char *t9 = tmp_path("far.pdb");
    write_text(t9, "ATOM      1  CA  ALA A   1       1.000   2.000   3.000  1.00 20.00           C\n"
                   "ATOM      2  CA  GLY A   2       1e30    2.000   3.000  1.00 20.00           C\n");
    rc = pf_read_structure(t9, &s, err, sizeof err);
    expect_error("pdb coordinate 1e30 refused", rc, err, t9, 1);
    tl_check(rc != 0 && strstr(err, ":2:") && strstr(err, "out of range"), "pdb coordinate range: line and reason", "%s", err);
    if (rc == 0) pf_structure_free(&s);
    const char *cif_head = "data_x\nloop_\n_atom_site.group_PDB\n_atom_site.label_atom_id\n_atom_site.label_comp_id\n"
                           "_atom_site.auth_asym_id\n_atom_site.label_seq_id\n_atom_site.auth_seq_id\n"
                           "_atom_site.Cartn_x\n_atom_site.Cartn_y\n_atom_site.Cartn_z\n";
    char cif[1024];
    char *t10 = tmp_path("far.cif"), *t11 = tmp_path("seqid.cif"), *t12 = tmp_path("ok.cif");
    snprintf(cif, sizeof cif, "%sATOM CA ALA A 1 1 1.0 2.0 3.0\nATOM CA GLY A 2 2 1.0 -2e5 3.0\n", cif_head);
    write_text(t10, cif);
    rc = pf_read_structure(t10, &s, err, sizeof err);
    expect_error("mmcif coordinate -2e5 refused", rc, err, t10, 1);
    tl_check(rc != 0 && strstr(err, ":13:") && strstr(err, "out of range"), "mmcif coordinate range: line and reason", "%s", err);
    if (rc == 0) pf_structure_free(&s);
    snprintf(cif, sizeof cif, "%sATOM CA ALA A 1 1 1.0 2.0 3.0\nATOM CA GLY A -5 2 1.0 2.0 3.0\n", cif_head);
    write_text(t11, cif);
    rc = pf_read_structure(t11, &s, err, sizeof err);
    expect_error("mmcif label_seq_id -5 refused", rc, err, t11, 1);
    tl_check(rc != 0 && strstr(err, ":13:") && strstr(err, "label_seq_id -5"), "mmcif label_seq_id range: line and value", "%s", err);
    if (rc == 0) pf_structure_free(&s);
    // the same file with sane values parses (the checks do not reject good input)
    snprintf(cif, sizeof cif, "%sATOM CA ALA A 1 1 1.0 2.0 3.0\nATOM CA GLY A 2 2 -9999.5 2.0 3.0\n", cif_head);
    write_text(t12, cif);
    rc = pf_read_structure(t12, &s, err, sizeof err);
    tl_check(rc == 0 && s.n_chains == 1 && s.chains[0].n == 2, "mmcif with in-range values parses", "rc %d: %s", rc, err);
    if (rc == 0) pf_structure_free(&s);
    // wrong format
    char *w1 = tmp_path("fasta_as.pdb"), *w2 = tmp_path("pdb_as.cif"), *w3 = tmp_path("pdb_as.a3m"),
         *w4 = tmp_path("a3m_as.sto"), *w5 = tmp_path("ligand_only.pdb");
    write_text(w1, ">seq\nMKVLA\n");
    write_text(w2, "HEADER    X\nATOM      1  CA  ALA A   1       1.000   2.000   3.000  1.00 20.00           C\n");
    write_text(w3, "HEADER    X\nATOM      1  CA  ALA A   1       1.000   2.000   3.000  1.00 20.00           C\n");
    write_text(w4, ">q\nACDE\n");
    write_text(w5, "HETATM    1  C1  NAG A   1       1.000   2.000   3.000  1.00 20.00           C\n");
    rc = pf_read_structure(w1, &s, err, sizeof err);
    expect_error("fasta given as pdb", rc, err, w1, 0);
    rc = pf_read_structure(w2, &s, err, sizeof err);
    expect_error("pdb given as cif", rc, err, w2, 1);
    rc = pf_read_msa(w3, &m, err, sizeof err);
    expect_error("pdb given as a3m", rc, err, w3, 1);
    rc = pf_read_msa(w4, &m, err, sizeof err);
    expect_error("a3m given as sto", rc, err, w4, 1);
    rc = pf_read_structure(w5, &s, err, sizeof err);
    expect_error("no protein chain", rc, err, w5, 0);
    char *w6 = tmp_path("missing.pdb");
    rc = pf_read_structure(w6, &s, err, sizeof err);
    expect_error("missing file", rc, err, w6, 0);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pf_test_parsers_%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmpdir);
    if (system(cmd) != 0) return 2;
    test_pdb_features();
    test_mmcif_features();
    test_msa_features();
    const char *dd = data_dir();
    char probe[600];
    snprintf(probe, sizeof probe, "%s/manifest_chains.tsv", dd);
    if (access(probe, R_OK) == 0) {
        test_bad_inputs(dd);
        test_all_structures(dd);
        test_manifest_chains(dd);
        test_observed_sequences(dd);
        test_manifest_msas(dd);
    } else {
        printf("skip: %s not found (real-data checks need ../shared/data beside the repository)\n", dd);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 2;
    return tl_finish();
}
