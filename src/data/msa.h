// msa.h: sequence and alignment readers. FASTA (any sequences), A3M (row 0
// is the query; upper-case letters and '-' are aligned columns, lower-case
// letters are insertions that become the deletion count of the next
// column, '.' is ignored) and Stockholm as jackhmmer writes it (#=GF/#=GS/
// #=GR/#=GC lines, wrapped blocks, '//' terminator; columns where the query
// has a gap are insertions).
#ifndef PF_MSA_H
#define PF_MSA_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int n;        // records
    char **name;  // (n) header text after '>' up to the first whitespace
    char **seq;   // (n) residues as written, whitespace removed, NUL-terminated
    int *len;     // (n)
    int64_t *line;// (n) line of each header
} pf_fasta;

typedef struct {
    int n_seq;     // rows, query first
    int L;         // aligned columns (query length)
    uint8_t *tok;  // (n_seq, L) tokens 0..21 (batch.h)
    uint8_t *del;  // (n_seq, L) deletions before each column, clamped to 255
} pf_msa;

int pf_parse_fasta(const char *data, size_t len, const char *name, pf_fasta *f, char *err, size_t errlen);
void pf_fasta_free(pf_fasta *f);

int pf_parse_a3m(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen);
int pf_parse_stockholm(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen);
// Stockholm for .sto/.stockholm names or text starting "# STOCKHOLM", else A3M/FASTA.
int pf_parse_msa_text(const char *data, size_t len, const char *name, pf_msa *m, char *err, size_t errlen);
int pf_read_msa(const char *path, pf_msa *m, char *err, size_t errlen);
void pf_msa_free(pf_msa *m);
// A copy of m with rows 1.. in the order of a Fisher-Yates shuffle driven by seed (the
// query, row 0, stays first): `predict` with several seeds gives each model another
// choice of the rows it sees (cluster / extra rows, rows past the model's limit).
void pf_msa_shuffled(const pf_msa *m, uint64_t seed, pf_msa *out);

int pf_is_msa_path(const char *path);  // .a3m .sto .stockholm .fasta .fa .fas .aln (+ .gz)

#define PF_MSA_MAX_ROWS 1000000
#define PF_MSA_MAX_COLS 100000

#endif
