// checkpoint.h: checkpoints as safetensors (the files PyTorch users open),
// weights stored [out, in] under OpenFold / OpenFold3 parameter names.
//
// Layout under the run directory DIR:
//   DIR/checkpoints/step_000020/model.safetensors      weights
//   DIR/checkpoints/step_000020/optimizer.safetensors  AdamW moments ("<name>.exp_avg", ".exp_avg_sq")
//   DIR/checkpoints/step_000020/ema.safetensors        weight EMA under the parameter names (ema_decay > 0)
//   DIR/checkpoints/step_000020/config.json            the resolved configuration
//   DIR/latest                                         "checkpoints/step_000020"
// Every file is written atomically (temp, fsync, rename), and `latest` moves
// only after the step directory is complete, so a crash never leaves a
// half-written checkpoint behind `latest`. Both safetensors files carry
// metadata format=pairfold, format_version, step, trunk, real, and the CRC-32
// of their data (data_crc32, verified on load; older files without one load
// with a warning). Weights that are not finite are neither saved nor loaded.
#ifndef PF_CHECKPOINT_H
#define PF_CHECKPOINT_H
#include "../model/model.h"
#include "../optim/optim.h"

#define PF_CKPT_FORMAT "pairfold"
#define PF_CKPT_VERSION "1"

// Save weights (and the optimizer if o != NULL) for step. Returns 0 or -1 with err.
int pf_ckpt_save(const char *run_dir, pf_model *M, const pf_optim *o, int64_t step,
                 char *path_out, size_t path_len, char *err, size_t errlen);
// Resolve DIR (a run directory with `latest`, or a step directory) to the step directory.
int pf_ckpt_resolve(const char *dir, char *step_dir, size_t len, char *err, size_t errlen);
// Read the configuration saved with a checkpoint (step directory or run directory).
int pf_ckpt_read_config(const char *dir, pf_config *cfg, char *err, size_t errlen);
// Load weights (and optimizer state if o != NULL) into an existing model whose
// configuration matches. Every parameter must be present with its shape.
int pf_ckpt_load(const char *dir, pf_model *M, pf_optim *o, int64_t *step, char *err, size_t errlen);
// Load the EMA weights (ema.safetensors) as the model's weights. 0 done, 1 the
// checkpoint has none (weights untouched), -1 error.
int pf_ckpt_load_ema_weights(const char *dir, pf_model *M, char *err, size_t errlen);

#endif
