// train.h: the training loop behind `pairfold train`.
#ifndef PF_TRAIN_H
#define PF_TRAIN_H
#include "../model/config.h"
#include "../data/batch.h"

typedef struct {
    const char *out_dir;     // checkpoints and config go here
    const char *log_path;    // JSON lines, one per step (NULL: <out_dir>/train.jsonl)
    const char *resume_dir;  // continue from this checkpoint (NULL: fresh run)
    int quiet;               // no progress line
    int force;               // a fresh run may replace an old one in out_dir (else: refused)
} pf_train_opts;

// Open the batch source named by cfg->data ("synthetic", "bundled" or a cache
// path). Returns NULL with a message in err.
pf_batch_source *pf_open_source(const pf_config *cfg, char *err, size_t errlen);

// Run training. Returns the process exit status.
int pf_train_run(const pf_config *cfg, const pf_train_opts *opts);

#endif
