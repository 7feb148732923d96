// prep_int.h (internal): the input side of `pairfold prep`: scanning files,
// folders and chain manifests into units (one entry each) and the alignment
// files that may belong to each unit's chains.
#ifndef PF_PREP_INT_H
#define PF_PREP_INT_H
#include <stdio.h>
#include <stdint.h>

typedef struct {
    char *path;   // openable path
    char *key;    // stable name recorded in the cache (relative to its input)
    char chain[8];// chain the alignment is for
    int file;     // structure file of the unit it belongs to (0/1), -1 any
} pf_msa_cand;

typedef struct {
    char *key;            // sorted, unique: relative path(s) joined by '+'
    char *name;           // entry name
    char *cluster;        // manifest cluster label or NULL
    int n_files;          // 1, or 2 for a receptor/ligand pair
    char *path[2], *fkey[2];
    int by_manifest[2];   // MSAs come from a manifest (else the naming scheme)
    pf_msa_cand *msa;
    int n_msa;
} pf_unit;

typedef struct {
    pf_unit *units;
    int n_units;
    char **report;  // lines about skipped inputs, in order found
    int n_report, skipped;
    int unused_msas;
} pf_inputs;

// Collects units from files, folders and manifests (.tsv inputs and the
// manifests named in `manifests`). Returns 0; fatal problems return -1.
int pf_inputs_collect(pf_inputs *in, const char *const *inputs, int n_inputs, const char *const *manifests,
                      int n_manifests, char *err, size_t errlen);
void pf_inputs_free(pf_inputs *in);
void pf_inputs_report(pf_inputs *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// "1ABC" for 1abc.cif, 1ABC_A.pdb, 1ABC_r_b.pdb, d1abca_.ent; the stem otherwise.
void pf_pdb_id_of(const char *path, char *id, size_t cap);

#endif
