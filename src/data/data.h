// data.h: the real-data pipeline's public interface: `pairfold prep` (files,
// folders and chain manifests to a feature cache) and the training sampler
// that memory-maps the cache and produces pf_batch'es on worker threads.
// Formats, the MSA naming scheme and the sampler: docs/DATA.md.
#ifndef PF_DATA_H
#define PF_DATA_H
#include <stdint.h>
#include <stdio.h>
#include "batch.h"

// ---- pairfold prep -------------------------------------------------------
// `pairfold prep INPUT... --out CACHE [--threads N] [--manifest TSV]...`
// argv[0] is "prep". Returns the exit status (0 ok, 1 failure, 2 usage).
int pf_prep_main(int argc, char **argv);

// Prepare (or update) a cache. Returns 0 when the cache was written.
int pf_prep_run(const char *const *inputs, int n_inputs, const char *out_cache, int threads, int quiet);

typedef struct {
    const char *const *inputs;     // files, folders, manifests (.tsv)
    int n_inputs;
    const char *const *manifests;  // extra chain manifests (--manifest)
    int n_manifests;
    const char *out;               // cache path
    int threads;                   // worker threads (>= 1)
    int quiet;                     // no report lines, no summary
    int max_msa_rows;              // rows kept per MSA block (0: 16384)
    FILE *report;                  // report stream (NULL: stdout)
} pf_prep_opts;

typedef struct {
    int inputs;          // units (structure files; receptor/ligand pairs count once)
    int parsed;          // units parsed in this run
    int reused;          // units copied unchanged from the previous cache
    int failed;          // units that failed (listed in the report)
    int dropped;         // previous cache inputs no longer given
    int skipped;         // files and manifest rows skipped (listed in the report)
    int unused_msas;     // alignments that match no chain
    int entries, chains, msas;  // msas: MSA blocks with more than the query row
    int64_t residues;
    double seconds;
    uint64_t cache_bytes;
} pf_prep_stats;

int pf_prep(const pf_prep_opts *o, pf_prep_stats *st);

// ---- training sampler ----------------------------------------------------
typedef struct {
    const char *cache;        // path of a prep cache
    int crop_size;            // N_res (e.g. 256)
    int msa_rows;             // S: MSA cluster rows including the query
    int extra_msa_rows;       // E: extra MSA rows (0 allowed)
    uint64_t seed;
    int n_val;                // entries held out for validation (by hash of name)
    int val_crops;            // fixed crops of each held-out entry (>= 1; 0 counts as 1)
    int n_workers;            // producer threads; 0 = produce inside next()
    int prefetch;             // queue depth (>= 1)
    double spatial_crop_prob; // else contiguous cropping (AF-multimer 0.5)
    double bert_mask_prob;    // AF2 masked-MSA replace fraction (0.15)
    int pad_msa;              // 1: always S and E rows (masked padding); 0: fewer when the MSA is small
    int weighting;            // 0 uniform, 1 length (AF2), 2 length / cluster size (default)
} pf_sampler_cfg;

void pf_sampler_cfg_default(pf_sampler_cfg *c);  // crop 256, S 128, E 1024, seed 0, n_val 4, ...

// The cache source: next(step, rank) gives the batch for that step (the
// queue is filled ahead for step+1, step+2, ...; asking for any other step
// restarts production there, deterministically); val(i) the fixed held-out
// batch i. NULL with a message on failure.
pf_batch_source *pf_cache_source_create(const pf_sampler_cfg *cfg, char *err, size_t errlen);

#endif
