// config.h: every hyperparameter of a run, presets, JSON overrides.
#ifndef PF_CONFIG_H
#define PF_CONFIG_H
#include <stdint.h>
#include <stdio.h>

enum { PF_TRUNK_EVOFORMER = 0, PF_TRUNK_PAIRFORMER = 1 };

typedef struct {
    char preset[16];
    int trunk;  // PF_TRUNK_*
    // ---- model ----
    int c_m, c_z, c_s, c_e;      // MSA, pair, single, extra-MSA channels
    int n_blocks;                // Evoformer or Pairformer blocks
    int n_extra_blocks;          // AF2 extra-MSA stack
    int n_msa_blocks;            // AF3 MSA module
    int heads_msa, c_h_msa;      // AF2 MSA row / column attention
    int heads_pair, c_h_pair;    // triangle attention
    int heads_single, c_h_single;// AF3 single attention with pair bias
    int heads_extra, c_h_extra;  // AF2 extra-MSA row / global column attention
    int heads_pwavg, c_h_pwavg;  // AF3 MSA pair-weighted averaging
    int c_opm, c_trimul, transition_n;
    float dropout_msa, dropout_pair;
    int n_bins;                  // distogram bins between min_bin and max_bin
    float min_bin, max_bin;
    float disto_weight, msa_weight;  // loss weights: distogram, masked MSA (AF2 1.9.9; AF2 trunk only)
    int structure_module;        // 1: AF2 structure module + pLDDT / PAE heads after the trunk (CPU only for now)
    int sm_layers;               // its layers (AF2: 8, weights shared)
    float fape_weight, torsion_weight, plddt_weight, pae_weight;  // its loss weights (AF2: 0.5, 0.5, 0.01, 0)
    float sidechain_fape_weight;  // side-chain FAPE (AF2: 0.5)
    int recycles;                // extra recycling passes (no gradient through them)
    int recompute;               // 0: off; K >= 1: keep the inputs of every K-th block, re-run forwards in the backward
    int recompute_keep_attn;     // 1 (with recompute): keep the attention cores' outputs, the re-run forwards skip the cores
    int recompute_offload;       // 1 (with recompute): the segment starts' inputs in host memory, copied beside the compute
    int max_tokens;              // tokens the model's arenas are planned for (0: crop_size); larger batches grow them
    // ---- data ----
    int crop_size, msa_rows, extra_msa_rows;
    float spatial_crop_prob, bert_mask_prob;
    char data[512];              // "synthetic", "bundled", or a cache path
    int synthetic_len;           // length of every synthetic protein (0: 40..90 at random)
    int data_workers, prefetch;
    int n_val, val_every;
    int val_crops;               // fixed crops of each held-out entry that validation averages over
    // ---- training ----
    int steps;
    int grad_accum;              // examples per optimizer step (gradients averaged over them)
    int dap;                     // axial parallelism: ranks sharing one structure's pair tensor (1: off)
    float ema_decay;             // weight EMA (AF2: 0.999) used for validation and inference; 0: off
    uint64_t seed;
    float lr, lr_min, weight_decay, beta1, beta2, adam_eps, grad_clip;
    int warmup_steps;
    int lr_decay_steps;          // cosine decay horizon; 0: the run's steps, fixed when a fresh run starts
    int ckpt_every;
    int keep_checkpoints;        // step directories kept in a run directory (the newest); 0: all
    float step_timeout_s;        // a step running longer stops the run as hung: -1 off, 0 automatic, else seconds
    char device[16];             // "cpu", "cuda" (bf16 activations) or "cuda-fp32" (src/backend/device.h)
} pf_config;

// Fill cfg from a named preset ("tiny", "af2", "af3"). Returns 0, or -1 if unknown.
int pf_config_preset(pf_config *cfg, const char *name);
// Apply a JSON object's fields (same names as the struct). Unknown keys are
// errors naming the key and the file. Returns 0 or -1 with a message in err.
int pf_config_apply_json(pf_config *cfg, const char *json, const char *source, char *err, size_t errlen);
// Set one field by name from a string ("c_z", "64"): the whole string must be
// a number of the field's type inside its range (finite for floats). Returns 0,
// or -1 with a message naming the field in err (the caller adds the source).
int pf_config_set(pf_config *cfg, const char *key, const char *value, char *err, size_t errlen);
// The resolved configuration as a JSON object (caller frees).
char *pf_config_to_json(const pf_config *cfg);
// The field reference: one Markdown table row per field (name, type, range,
// meaning), as docs/TRAINING.md lists them.
void pf_config_describe(FILE *out);
// Check ranges and consistency (positive sizes, c_s divisible...). Returns 0 or -1 with err.
int pf_config_validate(const pf_config *cfg, char *err, size_t errlen);
const char *pf_trunk_name(int trunk);

#endif
