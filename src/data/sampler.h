// sampler.h: turning cache entries into training batches. Every draw comes
// from counter-based streams keyed by (seed, step, rank), so a batch is a
// pure function of them: resumed runs and any number of workers agree.
#ifndef PF_SAMPLER_H
#define PF_SAMPLER_H
#include "../core/rng.h"
#include "cache.h"
#include "data.h"

typedef struct {
    pf_cache cache;
    pf_sampler_cfg cfg;
    int n_entries;
    int *train, n_train;  // entry indices
    int *val, n_val;
    double *cum_w;        // (n_train) cumulative sampling weights
} pf_sampler;

int pf_sampler_open(pf_sampler *s, const pf_sampler_cfg *cfg, char *err, size_t errlen);
void pf_sampler_close(pf_sampler *s);

// Entry for (seed, step, rank); weighted by cfg.weighting.
int pf_sampler_pick(const pf_sampler *s, int64_t step, int rank);

// Crops: sel receives the chosen residue indices of the entry, ascending.
// Contiguous (AF-multimer Algorithm 1): chains in random order, each given a
// random window so the total is min(crop, n_res). Spatial (Algorithm 2):
// the crop residues with resolved CA nearest to a centre residue (an
// interface residue, CA within 15 A of another chain's CA, when there is
// one); *center gets it. Both return the number selected.
int pf_crop_contiguous(const pf_entry_view *v, int crop, pf_rng *r, int *sel);
int pf_crop_spatial(const pf_entry_view *v, int crop, pf_rng *r, int *sel, int *center);

// Batch of entry e with the streams of key (crop, MSA sampling, masking).
int pf_sampler_make(const pf_sampler *s, int e, uint64_t key, pf_batch *out);
int pf_sampler_batch(const pf_sampler *s, int64_t step, int rank, pf_batch *out);
// Validation batch i of pf_sampler_n_val: crop i % val_crops of held-out entry i / val_crops.
int pf_sampler_n_val(const pf_sampler *s);
int pf_sampler_val(const pf_sampler *s, int i, pf_batch *out);

#endif
