#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "../core/util.h"
#include "msa.h"
#include "prep_int.h"
#include "structure.h"
#include "textio.h"

enum { K_STRUCT = 1, K_MSA = 2, K_MANIFEST = 3 };

typedef struct {
    char *path, *key, *real;
    int kind;
    char id[16], chain[8];  // MSA naming-scheme match key, "" when none
    int used;
} sfile;

typedef struct {
    char *real;  // structure file
    char chain[8];
    char **msa_path, **msa_key;
    int n_msa;
    char *cluster;
} mrow;

typedef struct {
    sfile *f;
    int n, cap;
    mrow *rows;
    int n_rows, cap_rows;
    pf_inputs *in;
} collect;

static char *xstrdup(const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) pf_die("out of memory");
    return d;
}

void pf_inputs_report(pf_inputs *in, const char *fmt, ...) {
    char buf[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    in->report = realloc(in->report, (size_t)(in->n_report + 1) * sizeof(char *));
    in->report[in->n_report++] = xstrdup(buf);
}

static char *join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p) pf_die("out of memory");
    if (a == 0) memcpy(p, name, b + 1);
    else {
        memcpy(p, dir, a);
        size_t k = a;
        if (dir[a - 1] != '/') p[k++] = '/';
        memcpy(p + k, name, b + 1);
    }
    return p;
}

static const char *skip_dot_slash(const char *p) {
    while (p[0] == '.' && p[1] == '/') p += 2;
    return p;
}

static void stem_of(const char *path, char *out, size_t cap) {
    snprintf(out, cap, "%s", pf_basename(path));
    size_t n = strlen(out);
    if (n > 3 && strcasecmp(out + n - 3, ".gz") == 0) out[n -= 3] = 0;
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

void pf_pdb_id_of(const char *path, char *id, size_t cap) {
    char s[256];
    stem_of(path, s, sizeof s);
    size_t n = strlen(s);
    int alnum4 = n >= 4 && isalnum((unsigned char)s[0]) && isalnum((unsigned char)s[1]) &&
                 isalnum((unsigned char)s[2]) && isalnum((unsigned char)s[3]);
    if (n == 7 && s[0] == 'd' && isdigit((unsigned char)s[1]) && isalnum((unsigned char)s[2]) &&
        isalnum((unsigned char)s[3]) && isalnum((unsigned char)s[4]))
        snprintf(id, cap, "%.4s", s + 1);  // SCOPe domain d1abca_
    else if (alnum4 && isdigit((unsigned char)s[0]) && (n == 4 || s[4] == '_'))
        snprintf(id, cap, "%.4s", s);
    else
        snprintf(id, cap, "%s", s);
    for (char *p = id; *p; p++) *p = (char)toupper((unsigned char)*p);
}

// "<ID>_<CHAIN>" from an alignment's folder or file name (naming scheme).
static void msa_match_key(const char *key, char *id, char *chain) {
    id[0] = chain[0] = 0;
    char cand[2][256];
    stem_of(key, cand[1], sizeof cand[1]);
    const char *slash = strrchr(key, '/');
    cand[0][0] = 0;
    if (slash) {
        const char *s = slash;
        while (s > key && s[-1] != '/') s--;
        snprintf(cand[0], sizeof cand[0], "%.*s", (int)(slash - s), s);
    }
    for (int k = 0; k < 2; k++) {
        const char *c = cand[k];
        size_t n = strlen(c);
        if (n < 6 || n > 9 || c[4] != '_') continue;
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++) ok = i == 4 || isalnum((unsigned char)c[i]);
        if (!ok) continue;
        for (int i = 0; i < 4; i++) id[i] = (char)toupper((unsigned char)c[i]);
        id[4] = 0;
        snprintf(chain, 8, "%s", c + 5);
        return;
    }
}

static int add_file(collect *c, const char *path, const char *key, int kind) {
    char *real = realpath(path, NULL);
    if (!real) return -1;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->f[i].real, real) == 0) {
            free(real);
            return i;
        }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->f = realloc(c->f, (size_t)c->cap * sizeof(sfile));
        if (!c->f) pf_die("out of memory");
    }
    sfile *f = &c->f[c->n];
    memset(f, 0, sizeof *f);
    f->path = xstrdup(path);
    f->key = xstrdup(skip_dot_slash(key));
    f->real = real;
    f->kind = kind;
    if (kind == K_MSA) msa_match_key(f->key, f->id, f->chain);
    return c->n++;
}

static int classify(const char *path) {
    if (pf_is_structure_path(path)) return K_STRUCT;
    if (pf_is_msa_path(path)) return K_MSA;
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".tsv") == 0) return K_MANIFEST;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void scan_dir(collect *c, const char *dir, const char *keydir, int depth) {
    DIR *d = opendir(dir);
    if (!d) {
        pf_inputs_report(c->in, "skipped %s: cannot read folder", dir);
        c->in->skipped++;
        return;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) names = realloc(names, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(char *));
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    for (int i = 0; i < n; i++) {
        char *p = join(dir, names[i]), *k = join(keydir, names[i]);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (depth < 16) scan_dir(c, p, k, depth + 1);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            int kind = classify(p);
            if (kind) add_file(c, p, k, kind);
            else {
                pf_inputs_report(c->in, "skipped %s: not a structure, alignment or chain manifest", k);
                c->in->skipped++;
            }
        }
        free(p);
        free(k);
        free(names[i]);
    }
    free(names);
}

static char *dirname_of(const char *p) {
    const char *s = strrchr(p, '/');
    if (!s) return xstrdup("");
    char *d = malloc((size_t)(s - p) + 2);
    memcpy(d, p, (size_t)(s - p) + 1);
    d[s - p + 1] = 0;
    return d;
}

// A chain manifest: TSV with a header naming at least `file` and `chain`;
// optional `msa` (';'-separated) and `c30`/`cluster`. Paths are relative to
// the manifest's folder. Returns 0, or -1 when it is not a chain manifest.
static int read_manifest(collect *c, const char *path, const char *key, int explicit_) {
    const char *shown = explicit_ ? path : key;
    pf_text t;
    char err[600];
    if (pf_text_load(path, &t, err, sizeof err) != 0) {
        pf_inputs_report(c->in, "skipped %s: %s", shown, err);
        c->in->skipped++;
        return -1;
    }
    pf_lineit it = pf_lines(t.data, t.len);
    const char *line;
    size_t n;
    int col_file = -1, col_chain = -1, col_msa = -1, col_cl = -1, header = 0;
    char *dir = dirname_of(path), *kdir = dirname_of(key);
    while (pf_line_next(&it, &line, &n)) {
        if (n == 0 || line[0] == '#') continue;
        char *row = malloc(n + 1);
        memcpy(row, line, n);
        row[n] = 0;
        char *fields[64];
        int nf = 0;
        for (char *s = row;; ) {
            char *tab = strchr(s, '\t');
            if (nf < 64) fields[nf++] = s;
            if (!tab) break;
            *tab = 0;
            s = tab + 1;
        }
        if (!header) {
            header = 1;
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fields[i], "file")) col_file = i;
                else if (!strcmp(fields[i], "chain")) col_chain = i;
                else if (!strcmp(fields[i], "msa")) col_msa = i;
                else if (!strcmp(fields[i], "c30") || !strcmp(fields[i], "cluster")) col_cl = i;
            }
            free(row);
            if (col_file < 0 || col_chain < 0) {
                if (explicit_) pf_inputs_report(c->in, "skipped %s: manifest header needs 'file' and 'chain' columns", shown);
                else pf_inputs_report(c->in, "skipped %s: not a chain manifest (no 'file' and 'chain' columns)", shown);
                c->in->skipped++;
                free(dir);
                free(kdir);
                pf_text_free(&t);
                return -1;
            }
            continue;
        }
        if (col_file >= nf || col_chain >= nf || !fields[col_file][0]) {
            pf_inputs_report(c->in, "skipped %s:%lld: row has too few columns", shown, (long long)it.lineno);
            c->in->skipped++;
            free(row);
            continue;
        }
        char *sp = join(dir, fields[col_file]), *sk = join(kdir, fields[col_file]);
        int fi = add_file(c, sp, sk, K_STRUCT);
        if (fi < 0) {
            pf_inputs_report(c->in, "skipped %s:%lld: structure %s not found", shown, (long long)it.lineno, sp);
            c->in->skipped++;
        } else {
            if (c->n_rows == c->cap_rows) {
                c->cap_rows = c->cap_rows ? c->cap_rows * 2 : 64;
                c->rows = realloc(c->rows, (size_t)c->cap_rows * sizeof(mrow));
            }
            mrow *r = &c->rows[c->n_rows++];
            memset(r, 0, sizeof *r);
            r->real = xstrdup(c->f[fi].real);
            snprintf(r->chain, sizeof r->chain, "%s", fields[col_chain]);
            if (col_cl >= 0 && col_cl < nf && fields[col_cl][0]) r->cluster = xstrdup(fields[col_cl]);
            if (col_msa >= 0 && col_msa < nf) {
                for (char *s = fields[col_msa]; *s;) {
                    char *semi = strchr(s, ';');
                    if (semi) *semi = 0;
                    if (*s) {
                        char *mp = join(dir, s), *mk = join(kdir, s);
                        struct stat st;
                        if (stat(mp, &st) != 0) {  // listed without its .gz suffix
                            char *g = malloc(strlen(mp) + 4), *gk = malloc(strlen(mk) + 4);
                            sprintf(g, "%s.gz", mp);
                            sprintf(gk, "%s.gz", mk);
                            free(mp);
                            free(mk);
                            mp = g;
                            mk = gk;
                        }
                        if (stat(mp, &st) != 0) {
                            pf_inputs_report(c->in, "skipped %s:%lld: alignment %s not found", shown, (long long)it.lineno, mp);
                            c->in->skipped++;
                            free(mp);
                            free(mk);
                        } else {
                            r->msa_path = realloc(r->msa_path, (size_t)(r->n_msa + 1) * sizeof(char *));
                            r->msa_key = realloc(r->msa_key, (size_t)(r->n_msa + 1) * sizeof(char *));
                            r->msa_path[r->n_msa] = mp;
                            r->msa_key[r->n_msa++] = xstrdup(skip_dot_slash(mk));
                            int mi = add_file(c, mp, mk, K_MSA);
                            if (mi >= 0) c->f[mi].used = 1;
                            free(mk);
                        }
                    }
                    if (!semi) break;
                    s = semi + 1;
                }
            }
        }
        free(sp);
        free(sk);
        free(row);
    }
    free(dir);
    free(kdir);
    pf_text_free(&t);
    return 0;
}

static int cmp_sfile_key(const void *a, const void *b) { return strcmp(((const sfile *)a)->key, ((const sfile *)b)->key); }
static int cmp_unit_key(const void *a, const void *b) { return strcmp(((const pf_unit *)a)->key, ((const pf_unit *)b)->key); }

static int ends_pair(const char *stem, const char *suffix) {
    size_t n = strlen(stem), k = strlen(suffix);
    return n > k && strcmp(stem + n - k, suffix) == 0;
}

static void add_cand(pf_unit *u, const char *path, const char *key, const char *chain, int file) {
    for (int i = 0; i < u->n_msa; i++)
        if (!strcmp(u->msa[i].path, path) && !strcmp(u->msa[i].chain, chain) && u->msa[i].file == file) return;
    u->msa = realloc(u->msa, (size_t)(u->n_msa + 1) * sizeof(pf_msa_cand));
    pf_msa_cand *m = &u->msa[u->n_msa++];
    m->path = xstrdup(path);
    m->key = xstrdup(key);
    snprintf(m->chain, sizeof m->chain, "%s", chain);
    m->file = file;
}

// The manifests to read: their paths, keys, and whether each was named by the user.
typedef struct {
    char **path, **key;
    int *explicit_;
    int n;
} manifest_list;

static void manifest_add(manifest_list *ml, const char *path, const char *key, int explicit_) {
    ml->path = realloc(ml->path, (size_t)(ml->n + 1) * sizeof(char *));
    ml->key = realloc(ml->key, (size_t)(ml->n + 1) * sizeof(char *));
    ml->explicit_ = realloc(ml->explicit_, (size_t)(ml->n + 1) * sizeof(int));
    ml->path[ml->n] = xstrdup(path), ml->key[ml->n] = xstrdup(key), ml->explicit_[ml->n++] = explicit_;
}

static void manifest_list_free(manifest_list *ml) {
    for (int i = 0; i < ml->n; i++) free(ml->path[i]), free(ml->key[i]);
    free(ml->path);
    free(ml->key);
    free(ml->explicit_);
}

// The files of the inputs (folders scanned, files classified by name) into c;
// manifests among them go to ml, to be read once all files are known.
static void gather_inputs(collect *c, manifest_list *ml, const char *const *inputs, int n_inputs) {
    pf_inputs *in = c->in;
    for (int i = 0; i < n_inputs; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            pf_inputs_report(in, "skipped %s: no such file or folder", inputs[i]);
            in->skipped++;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            int before = c->n;
            scan_dir(c, inputs[i], "", 0);
            // manifests found in the folder are used, not parsed as data
            int w = before;
            for (int k = before; k < c->n; k++) {
                if (c->f[k].kind == K_MANIFEST) {
                    manifest_add(ml, c->f[k].path, c->f[k].key, 0);
                    free(c->f[k].path), free(c->f[k].key), free(c->f[k].real);
                } else c->f[w++] = c->f[k];
            }
            c->n = w;
        } else {
            int kind = classify(inputs[i]);
            if (kind == K_MANIFEST) manifest_add(ml, inputs[i], pf_basename(inputs[i]), 1);
            else if (kind) add_file(c, inputs[i], inputs[i], kind);
            else {
                pf_inputs_report(in, "skipped %s: not a structure, alignment or chain manifest", inputs[i]);
                in->skipped++;
            }
        }
    }
}

// The other half of a receptor/ligand pair (X_r_b + X_l_b in the same folder)
// with structure file i (stem: its stem), not yet taken; -1 if none.
static int pair_partner(const collect *c, int i, const char *stem, const int *taken) {
    int partner = -1;
    if (!ends_pair(stem, "_r_b") && !ends_pair(stem, "_l_b")) return -1;
    char want[256], *dir = dirname_of(c->f[i].key);
    snprintf(want, sizeof want, "%.*s%s", (int)strlen(stem) - 4, stem, ends_pair(stem, "_r_b") ? "_l_b" : "_r_b");
    for (int k = 0; k < c->n && partner < 0; k++) {
        if (k == i || c->f[k].kind != K_STRUCT || taken[k]) continue;
        char s2[256], *d2 = dirname_of(c->f[k].key);
        stem_of(c->f[k].key, s2, sizeof s2);
        if (!strcmp(s2, want) && !strcmp(d2, dir)) partner = k;
        free(d2);
    }
    free(dir);
    return partner;
}

// A unit's candidate alignments per file: the rows of the manifests that list the
// file, else the alignments named after its PDB id (<PDBID>_<CHAIN>)
static void add_unit_msas(pf_unit *u, collect *c, const int *files) {
    for (int k = 0; k < u->n_files; k++) {
        const sfile *sf = &c->f[files[k]];
        for (int r = 0; r < c->n_rows; r++) {
            if (strcmp(c->rows[r].real, sf->real)) continue;
            u->by_manifest[k] = 1;
            if (!u->cluster && c->rows[r].cluster) u->cluster = xstrdup(c->rows[r].cluster);
            for (int m = 0; m < c->rows[r].n_msa; m++)
                add_cand(u, c->rows[r].msa_path[m], c->rows[r].msa_key[m], c->rows[r].chain, k);
        }
        if (u->by_manifest[k]) continue;
        char id[256];
        pf_pdb_id_of(sf->key, id, sizeof id);
        for (int m = 0; m < c->n; m++)
            if (c->f[m].kind == K_MSA && c->f[m].id[0] && !strcmp(c->f[m].id, id)) {
                add_cand(u, c->f[m].path, c->f[m].key, c->f[m].chain, k);
                c->f[m].used = 1;
            }
    }
}

// A new unit of files[0..n_files) (receptor first): paths, keys ("r+l" for a
// pair), its name (the stem, without _r_b for a pair) and candidate alignments.
static void add_unit(collect *c, const int *files, int n_files, int *cap) {
    pf_inputs *in = c->in;
    if (in->n_units == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        in->units = realloc(in->units, (size_t)*cap * sizeof(pf_unit));
    }
    pf_unit *u = &in->units[in->n_units++];
    memset(u, 0, sizeof *u);
    u->n_files = n_files;
    size_t klen = 0;
    for (int k = 0; k < u->n_files; k++) {
        u->path[k] = xstrdup(c->f[files[k]].path);
        u->fkey[k] = xstrdup(c->f[files[k]].key);
        klen += strlen(u->fkey[k]) + 1;
    }
    u->key = malloc(klen + 1);
    strcpy(u->key, u->fkey[0]);
    if (u->n_files == 2) strcat(strcat(u->key, "+"), u->fkey[1]);
    char stem[256];
    stem_of(u->fkey[0], stem, sizeof stem);
    if (u->n_files == 2) stem[strlen(stem) - 4] = 0;
    u->name = xstrdup(stem);
    add_unit_msas(u, c, files);
}

// units: each structure file, receptor/ligand pairs (X_r_b + X_l_b) joined
static void make_units(collect *c) {
    int *taken = calloc((size_t)c->n + 1, sizeof(int));
    int cap = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->f[i].kind != K_STRUCT || taken[i]) continue;
        char stem[256];
        stem_of(c->f[i].key, stem, sizeof stem);
        int partner = pair_partner(c, i, stem, taken);
        int files[2] = {i, partner};
        if (partner >= 0 && ends_pair(stem, "_l_b")) files[0] = partner, files[1] = i;  // receptor first
        taken[i] = 1;
        if (partner >= 0) taken[partner] = 1;
        add_unit(c, files, partner >= 0 ? 2 : 1, &cap);
    }
    free(taken);
}

static void unit_free(pf_unit *u) {
    for (int k = 0; k < u->n_files; k++) free(u->path[k]), free(u->fkey[k]);
    for (int k = 0; k < u->n_msa; k++) free(u->msa[k].path), free(u->msa[k].key);
    free(u->msa), free(u->key), free(u->name), free(u->cluster);
}

// Units sorted by key; of two with the same key the second is dropped and reported
// ("skipped KEY: duplicate input name"; the run goes on with the first).
static void sort_units_drop_duplicates(pf_inputs *in) {
    qsort(in->units, (size_t)in->n_units, sizeof(pf_unit), cmp_unit_key);
    for (int i = 1; i < in->n_units; i++)
        if (!strcmp(in->units[i].key, in->units[i - 1].key)) {
            pf_inputs_report(in, "skipped %s: duplicate input name (give folders that do not overlap)", in->units[i].key);
            in->skipped++;
            pf_unit tmp = in->units[i];
            memmove(&in->units[i], &in->units[i + 1], (size_t)(in->n_units - i - 1) * sizeof(pf_unit));
            in->units[--in->n_units] = tmp;
            unit_free(&in->units[in->n_units]);
            i--;
        }
}

static void collect_free(collect *c) {
    for (int i = 0; i < c->n; i++) free(c->f[i].path), free(c->f[i].key), free(c->f[i].real);
    free(c->f);
    for (int r = 0; r < c->n_rows; r++) {
        for (int m = 0; m < c->rows[r].n_msa; m++) free(c->rows[r].msa_path[m]), free(c->rows[r].msa_key[m]);
        free(c->rows[r].msa_path), free(c->rows[r].msa_key), free(c->rows[r].real), free(c->rows[r].cluster);
    }
    free(c->rows);
}

int pf_inputs_collect(pf_inputs *in, const char *const *inputs, int n_inputs, const char *const *manifests,
                      int n_manifests, char *err, size_t errlen) {
    memset(in, 0, sizeof *in);
    collect c = {0};
    c.in = in;
    manifest_list ml = {0};
    // keys of an explicit manifest's files are its paths as written (relative to
    // the manifest), so `prep DIR` and `prep DIR/manifest.tsv` name them alike
    for (int i = 0; i < n_manifests; i++) manifest_add(&ml, manifests[i], pf_basename(manifests[i]), 1);
    gather_inputs(&c, &ml, inputs, n_inputs);
    for (int i = 0; i < ml.n; i++) read_manifest(&c, ml.path[i], ml.key[i], ml.explicit_[i]);
    qsort(c.f, (size_t)c.n, sizeof(sfile), cmp_sfile_key);
    make_units(&c);
    for (int m = 0; m < c.n; m++)
        if (c.f[m].kind == K_MSA && !c.f[m].used) {
            pf_inputs_report(in, "unused %s: no chain matches this alignment (name it <PDBID>_<CHAIN> or list it in a manifest)",
                             c.f[m].key);
            in->unused_msas++;
        }
    sort_units_drop_duplicates(in);
    collect_free(&c);
    manifest_list_free(&ml);
    if (err && errlen) err[0] = 0;
    return 0;
}

void pf_inputs_free(pf_inputs *in) {
    for (int i = 0; i < in->n_units; i++) unit_free(&in->units[i]);
    free(in->units);
    for (int i = 0; i < in->n_report; i++) free(in->report[i]);
    free(in->report);
    memset(in, 0, sizeof *in);
}
