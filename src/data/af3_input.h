// af3_input.h: AlphaFold 3 input JSON (the "alphafold3" dialect, versions 1-4) and
// AlphaFold Server job lists, read into prediction jobs. Protein chains only for
// now: RNA, DNA and ligand entries are a clear error naming the file and field.
#ifndef PF_AF3_INPUT_H
#define PF_AF3_INPUT_H
#include <stddef.h>
#include <stdint.h>

// Size caps, checked while reading, before anything is allocated for the chains:
// residues in one job (all chains and copies; AlphaFold Server's limit) and jobs in
// one file.
#define PF_AF3_MAX_RESIDUES 5000
#define PF_AF3_MAX_JOBS 10000

typedef struct {
    char id[8];          // chain id ("A", "B", ...)
    char *sequence;      // one-letter amino acids
    char *unpaired_msa;  // A3M text, or NULL when not given (single sequence)
    char *paired_msa;    // A3M text, or NULL
    char *msa_origin;    // where the unpaired MSA came from (field or path), for messages
    int entity, sym;     // 0-based: same sequence = same entity; copy index within it
} pf_af3_chain;

typedef struct {
    char name[128];
    int n_chains;
    pf_af3_chain *chains;
    int n_seeds;
    int64_t *seeds;      // modelSeeds (at least one: 1 when absent)
    char *error;         // non-NULL: this job of a Server list is invalid (the message); skip it
} pf_af3_job;

// Read one JSON file: an AF3 input object ({"dialect": "alphafold3", ...}) or an
// AlphaFold Server list of jobs ([{"name":..., "sequences": [{"proteinChain": ...}]}]).
// unpairedMsaPath / pairedMsaPath are read relative to the file's directory.
// Returns 0 and *jobs (n_jobs), or -1 with "path[:line]: field: message" in err.
// In a Server list an invalid job does not fail the file: it comes back with
// `error` set, so a batch run can skip it and go on.
int pf_af3_read(const char *path, pf_af3_job **jobs, int *n_jobs, char *err, size_t errlen);
// The same from text in memory (name is used in messages and as the base of paths).
int pf_af3_parse(const char *text, size_t len, const char *name, pf_af3_job **jobs, int *n_jobs, char *err,
                 size_t errlen);
void pf_af3_jobs_free(pf_af3_job *jobs, int n_jobs);



#include "msa.h"
// A job's query as one alignment over all its chains: row 0 the chains' sequences
// joined; then the paired rows (row r of every chain's paired MSA side by side,
// gaps where a chain has fewer rows); then each chain's unpaired rows in its own
// columns, gaps elsewhere (block diagonal, as AlphaFold-Multimer). At most max_rows
// rows. Per residue: chain (asym), entity and copy ids, residue index in its chain.
typedef struct {
    pf_msa msa;
    int32_t *chain, *entity, *sym, *residue_index;  // (L) each
} pf_af3_query;
int pf_af3_build_query(const pf_af3_job *j, int max_rows, pf_af3_query *q, char *err, size_t errlen);
void pf_af3_query_free(pf_af3_query *q);
#endif
