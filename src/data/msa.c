#include "msa.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../core/util.h"
#include "../core/rng.h"
#include "batch.h"
#include "residue.h"
#include "textio.h"

static char *xstrndup(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) pf_die("out of memory");
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

void pf_fasta_free(pf_fasta *f) {
    for (int i = 0; i < f->n; i++) free(f->name[i]), free(f->seq[i]);
    free(f->name);
    free(f->seq);
    free(f->len);
    free(f->line);
    memset(f, 0, sizeof *f);
}

// Records of a FASTA/A3M file; lines before the first '>' may only be blank
// or '#' comments (ColabFold writes "#len\tcard" first).
int pf_parse_fasta(const char *data, size_t len, const char *name, pf_fasta *f, char *err, size_t errlen) {
    memset(f, 0, sizeof *f);
    pf_lineit it = pf_lines(data, len);
    const char *line;
    size_t n;
    int cap = 0;
    size_t scap = 0, slen = 0;
    char *buf = NULL;
    int64_t rec_line = 0;
#define FINISH_RECORD()                                                                          \
    do {                                                                                         \
        if (f->n > 0) {                                                                          \
            if (slen == 0) {                                                                     \
                pf_errf(err, errlen, name, rec_line, "record '%s' has no sequence", f->name[f->n - 1]); \
                goto fail;                                                                       \
            }                                                                                    \
            f->seq[f->n - 1] = xstrndup(buf ? buf : "", slen);                                   \
            f->len[f->n - 1] = (int)slen;                                                        \
        }                                                                                        \
    } while (0)
    while (pf_line_next(&it, &line, &n)) {
        if (n > 0 && line[0] == '>') {
            FINISH_RECORD();
            if (f->n >= PF_MSA_MAX_ROWS) {
                pf_errf(err, errlen, name, it.lineno, "more than %d records", PF_MSA_MAX_ROWS);
                goto fail;
            }
            if (f->n == cap) {
                cap = cap ? cap * 2 : 64;
                f->name = realloc(f->name, (size_t)cap * sizeof(char *));
                f->seq = realloc(f->seq, (size_t)cap * sizeof(char *));
                f->len = realloc(f->len, (size_t)cap * sizeof(int));
                f->line = realloc(f->line, (size_t)cap * sizeof(int64_t));
                if (!f->name || !f->seq || !f->len || !f->line) pf_die("out of memory");
            }
            size_t k = 1;
            while (k < n && line[k] != ' ' && line[k] != '\t') k++;
            f->name[f->n] = xstrndup(line + 1, k - 1);
            f->seq[f->n] = NULL;
            f->len[f->n] = 0;
            f->line[f->n] = it.lineno;
            f->n++;
            slen = 0;
            rec_line = it.lineno;
            continue;
        }
        if (f->n == 0) {
            size_t k = 0;
            while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
            if (k == n || line[k] == '#') continue;
            pf_errf(err, errlen, name, it.lineno, "expected a '>' header line: not a FASTA/A3M file");
            goto fail;
        }
        for (size_t k = 0; k < n; k++) {
            char c = line[k];
            if (c == ' ' || c == '\t') continue;
            if (c == '*' && (k + 1 == n)) continue;  // stop codon marker at line end
            if (pf_tok_from_letter((unsigned char)c) < 0) {
                pf_errf(err, errlen, name, it.lineno, "unexpected character '%c' in sequence '%s'",
                        (c >= 32 && c < 127) ? c : '?', f->name[f->n - 1]);
                goto fail;
            }
            if (slen + 1 >= scap) {
                scap = scap ? scap * 2 : 1024;
                if (scap > ((size_t)1 << 28)) {
                    pf_errf(err, errlen, name, it.lineno, "sequence too long");
                    goto fail;
                }
                buf = realloc(buf, scap);
                if (!buf) pf_die("out of memory");
            }
            buf[slen++] = c;
        }
    }
    FINISH_RECORD();
#undef FINISH_RECORD
    free(buf);
    if (f->n == 0) {
        pf_errf(err, errlen, name, 0, "no '>' records: not a FASTA/A3M file");
        pf_fasta_free(f);
        return -1;
    }
    return 0;
fail:
    free(buf);
    // records whose sequence was not finished have seq NULL: free handles it
    pf_fasta_free(f);
    return -1;
}

void pf_msa_free(pf_msa *m) {
    free(m->tok);
    free(m->del);
    memset(m, 0, sizeof *m);
}

static void msa_alloc(pf_msa *m, int n_seq, int L);

void pf_msa_shuffled(const pf_msa *m, uint64_t seed, pf_msa *out) {
    msa_alloc(out, m->n_seq, m->L);
    int *order = pf_malloc(sizeof(int) * (size_t)(m->n_seq > 0 ? m->n_seq : 1));
    for (int r = 0; r < m->n_seq; r++) order[r] = r;
    pf_rng g = pf_rng_make(seed, 0x5EED5);
    for (int r = m->n_seq - 1; r >= 2; r--) {  // rows 1..r, the query stays
        int k = 1 + pf_rng_int(&g, r);
        int t = order[r];
        order[r] = order[k];
        order[k] = t;
    }
    size_t L = (size_t)m->L;
    for (int r = 0; r < m->n_seq; r++) {
        memcpy(out->tok + (size_t)r * L, m->tok + (size_t)order[r] * L, L);
        memcpy(out->del + (size_t)r * L, m->del + (size_t)order[r] * L, L);
    }
    pf_free(order);
}

static void msa_alloc(pf_msa *m, int n_seq, int L) {
    m->n_seq = n_seq;
    m->L = L;
    size_t cells = (size_t)n_seq * (size_t)(L > 0 ? L : 1);
    m->tok = malloc(cells);
    m->del = calloc(cells, 1);
    if (!m->tok || !m->del) pf_die("out of memory for a %d x %d alignment", n_seq, L);
}

static int a3m_columns(const char *s) {
    int c = 0;
    for (; *s; s++) c += (*s >= 'A' && *s <= 'Z') || *s == '-';
    return c;
}

int pf_parse_a3m(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    pf_fasta f;
    if (pf_parse_fasta(data, len, name, &f, err, errlen) != 0) return -1;
    int L = a3m_columns(f.seq[0]);
    if (L == 0 || L > PF_MSA_MAX_COLS) {
        pf_errf(err, errlen, name, f.line[0], "query '%s' has %d aligned columns", f.name[0], L);
        pf_fasta_free(&f);
        return -1;
    }
    if ((int64_t)f.n * L > ((int64_t)1 << 31)) {
        pf_errf(err, errlen, name, 0, "alignment of %d x %d is too large", f.n, L);
        pf_fasta_free(&f);
        return -1;
    }
    msa_alloc(m, f.n, L);
    for (int r = 0; r < f.n; r++) {
        uint8_t *t = m->tok + (size_t)r * L, *d = m->del + (size_t)r * L;
        int col = 0, pending = 0;
        for (const char *s = f.seq[r]; *s; s++) {
            char c = *s;
            if (c >= 'a' && c <= 'z') {
                pending++;
                continue;
            }
            if (c == '.') continue;
            if (col >= L) { col++; continue; }
            t[col] = (uint8_t)pf_tok_from_letter((unsigned char)c);
            d[col] = (uint8_t)PF_MIN(pending, 255);
            pending = 0;
            col++;
        }
        if (col != L) {
            pf_errf(err, errlen, name, f.line[r], "sequence %d ('%s') has %d aligned columns, the query has %d",
                    r + 1, f.name[r], col, L);
            pf_fasta_free(&f);
            pf_msa_free(m);
            return -1;
        }
    }
    pf_fasta_free(&f);
    return 0;
}

typedef struct {
    char *name;
    char *seq;
    size_t len, cap;
} sto_row;

// The rows of a Stockholm file, gathered by name over its blocks.
typedef struct {
    sto_row *row;
    int n, cap;
    int last;  // row of the previous sequence line (fast path)
} sto_rows;

// The row named rname[0..rlen), added if new. Returns its index, or -1 (err set,
// at line lineno) when there are too many rows.
static int sto_row_of(sto_rows *R, const char *rname, size_t rlen, const char *name, int64_t lineno, char *err,
                      size_t errlen) {
    // blocks repeat the same order, so try the next row first
    int guess = (R->last + 1 < R->n) ? R->last + 1 : 0;
    for (int t = 0; t < R->n; t++) {
        int q = (guess + t) % R->n;
        if (strlen(R->row[q].name) == rlen && memcmp(R->row[q].name, rname, rlen) == 0) return q;
    }
    if (R->n >= PF_MSA_MAX_ROWS) {
        pf_errf(err, errlen, name, lineno, "more than %d sequences", PF_MSA_MAX_ROWS);
        return -1;
    }
    if (R->n == R->cap) {
        R->cap = R->cap ? R->cap * 2 : 64;
        R->row = realloc(R->row, (size_t)R->cap * sizeof(sto_row));
        if (!R->row) pf_die("out of memory");
    }
    int r = R->n++;
    R->row[r].name = xstrndup(rname, rlen);
    R->row[r].seq = NULL;
    R->row[r].len = R->row[r].cap = 0;
    return r;
}

// The residues of a sequence line, s[0..n) (blanks skipped), appended to row w.
// Returns 0, or -1 (err set) on a character that is no residue or gap, or a row too long.
static int sto_row_append(sto_row *w, const char *s, size_t n, const char *name, int64_t lineno, char *err, size_t errlen) {
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (c == ' ' || c == '\t') continue;
        if (pf_tok_from_letter((unsigned char)c) < 0) {
            pf_errf(err, errlen, name, lineno, "unexpected character '%c' in sequence '%s'", (c >= 32 && c < 127) ? c : '?',
                    w->name);
            return -1;
        }
        if (w->len + 1 >= w->cap) {
            w->cap = w->cap ? w->cap * 2 : 256;
            if (w->cap > ((size_t)1 << 24)) {
                pf_errf(err, errlen, name, lineno, "sequence '%s' too long", w->name);
                return -1;
            }
            w->seq = realloc(w->seq, w->cap);
            if (!w->seq) pf_die("out of memory");
        }
        w->seq[w->len++] = c;
    }
    return 0;
}

// The gathered rows, all of the same width, as an alignment: the query's gap
// columns are insertions, counted into the deletions of the next query column.
static int sto_to_msa(const sto_rows *R, const char *name, pf_msa *m, char *err, size_t errlen) {
    const sto_row *rows = R->row;
    const char *q = rows[0].seq;
    size_t W = rows[0].len;
    int L = 0;
    for (size_t c = 0; c < W; c++) L += q[c] != '-' && q[c] != '.';
    if (L == 0 || L > PF_MSA_MAX_COLS || (int64_t)R->n * L > ((int64_t)1 << 31)) {
        pf_errf(err, errlen, name, 0, "query '%s' has %d residues", rows[0].name, L);
        return -1;
    }
    msa_alloc(m, R->n, L);
    for (int r = 0; r < R->n; r++) {
        uint8_t *t = m->tok + (size_t)r * L, *d = m->del + (size_t)r * L;
        int col = 0, pending = 0;
        for (size_t c = 0; c < W; c++) {
            char ch = rows[r].seq[c];
            int gap = ch == '-' || ch == '.';
            if (q[c] == '-' || q[c] == '.') {  // insertion column
                pending += !gap;
                continue;
            }
            t[col] = (uint8_t)pf_tok_from_letter((unsigned char)ch);
            d[col] = (uint8_t)PF_MIN(pending, 255);
            pending = 0;
            col++;
        }
    }
    return 0;
}

int pf_parse_stockholm(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    pf_lineit it = pf_lines(data, len);
    const char *line;
    size_t n;
    int header = 0, terminated = 0, rc = -1;
    sto_rows R = {.row = NULL, .n = 0, .cap = 0, .last = -1};
    while (pf_line_next(&it, &line, &n)) {
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k == n) continue;
        if (!header) {
            if (n - k >= 11 && strncmp(line + k, "# STOCKHOLM", 11) == 0) {
                header = 1;
                continue;
            }
            pf_errf(err, errlen, name, it.lineno, "expected '# STOCKHOLM 1.0': not a Stockholm file");
            goto done;
        }
        if (line[k] == '#') continue;  // #=GF, #=GS, #=GR, #=GC and comments
        if (n - k >= 2 && line[k] == '/' && line[k + 1] == '/') {
            terminated = 1;
            break;
        }
        size_t ns = k;
        while (k < n && line[k] != ' ' && line[k] != '\t') k++;
        size_t ne = k;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k == n) {
            pf_errf(err, errlen, name, it.lineno, "sequence line '%.*s' has no residues", (int)PF_MIN(ne - ns, 40), line + ns);
            goto done;
        }
        int r = sto_row_of(&R, line + ns, ne - ns, name, it.lineno, err, errlen);
        if (r < 0) goto done;
        R.last = r;
        if (sto_row_append(&R.row[r], line + k, n - k, name, it.lineno, err, errlen) != 0) goto done;
    }
    if (!header) {
        pf_errf(err, errlen, name, 0, "no '# STOCKHOLM' header: not a Stockholm file");
        goto done;
    }
    if (!terminated) {
        pf_errf(err, errlen, name, it.lineno, "no '//' terminator: truncated Stockholm file");
        goto done;
    }
    if (R.n == 0) {
        pf_errf(err, errlen, name, it.lineno, "alignment has no sequences");
        goto done;
    }
    for (int r = 1; r < R.n; r++)
        if (R.row[r].len != R.row[0].len) {
            pf_errf(err, errlen, name, 0, "sequence '%s' has %zu alignment columns, '%s' has %zu (truncated block?)",
                    R.row[r].name, R.row[r].len, R.row[0].name, R.row[0].len);
            goto done;
        }
    rc = sto_to_msa(&R, name, m, err, errlen);
done:
    for (int r = 0; r < R.n; r++) free(R.row[r].name), free(R.row[r].seq);
    free(R.row);
    return rc;
}

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

static void strip_gz(const char *path, char *out, size_t cap) {
    snprintf(out, cap, "%s", pf_basename(path));
    if (ends_with(out, ".gz")) out[strlen(out) - 3] = 0;
}

int pf_is_msa_path(const char *path) {
    char b[512];
    strip_gz(path, b, sizeof b);
    static const char *ext[] = {".a3m", ".sto", ".stockholm", ".fasta", ".fa", ".fas", ".aln", ".a2m", NULL};
    for (int i = 0; ext[i]; i++)
        if (ends_with(b, ext[i])) return 1;
    return 0;
}

int pf_parse_msa_text(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen) {
    char b[512];
    strip_gz(name, b, sizeof b);
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t')) i++;
    int sto = ends_with(b, ".sto") || ends_with(b, ".stockholm") ||
              (len - i >= 11 && strncmp(data + i, "# STOCKHOLM", 11) == 0);
    return sto ? pf_parse_stockholm(data, len, name, m, err, errlen) : pf_parse_a3m(data, len, name, m, err, errlen);
}

int pf_read_msa(const char *path, pf_msa *m, char *err, size_t errlen) {
    pf_text t;
    memset(m, 0, sizeof *m);
    if (pf_text_load(path, &t, err, errlen) != 0) return -1;
    int rc = pf_parse_msa_text(t.data, t.len, path, m, err, errlen);
    pf_text_free(&t);
    return rc;
}
