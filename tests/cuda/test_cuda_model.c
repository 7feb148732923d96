// test_cuda_model.c: whole training steps on the GPU (the mode test_cuda.c set up):
// recompute 1 and 2 with the attention cores' outputs kept (recompute_keep_attn, the
// re-run forwards skip the cores) give the loss and every parameter gradient with the
// same bits as recompute 1 without (which re-runs the cores: the same inputs, the same
// bits), for both trunks, with dropout and recycling on; so do recompute 1 and 2 with the
// segment starts' inputs in host memory (recompute_offload: copies on a second stream, the
// next segment's fetched during the backward), with and without the kept cores.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/model/model.h"
#include "../../src/train/synthetic.h"

static pf_config keep_cfg(int trunk) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    c.trunk = trunk;
    c.n_blocks = 3;
    c.crop_size = 24;
    c.msa_rows = 8;
    c.extra_msa_rows = 8;
    c.recycles = 1;
    c.dropout_msa = 0.15f;
    c.dropout_pair = 0.25f;
    if (trunk == PF_TRUNK_EVOFORMER) c.msa_weight = 2.0f;
    return c;
}

// One training step of a fresh model (parameters from the seed); its gradients on the host.
static size_t g_offload_bytes;  // the last step's host bytes (recompute_offload)
static real *keep_step(const pf_config *cfg, const pf_batch *b, double *loss, size_t *saved, int64_t *total) {
    pf_model *M = pf_model_create(cfg, H_gpu);
    g_offload_bytes = M->offload_bytes;
    pf_params_zero_grad(&M->P);
    *loss = pf_model_train_step(M, b, 3).loss;
    size_t n = sizeof(real) * (size_t)M->P.total;
    real *g = malloc(n ? n : 1);
    H_gpu->download(H_gpu, g, M->P.grad, n);
    H_gpu->sync(H_gpu);
    *saved = M->saved_bytes;
    *total = M->P.total;
    pf_model_free(M);
    return g;
}

void cuda_model(void) {
    for (int trunk = 0; trunk < 2; trunk++) {
        pf_config cfg = keep_cfg(trunk ? PF_TRUNK_PAIRFORMER : PF_TRUNK_EVOFORMER);
        pf_batch_source *src = pf_synthetic_source_create(&cfg);
        pf_batch b;
        src->next(src, 3, 0, &b);
        for (int i = 0; i < b.N; i += 5) b.seq_mask[i] = 0;
        cfg.recompute = 1;
        double l0, l;
        size_t s0, s;
        int64_t total;
        real *g0 = keep_step(&cfg, &b, &l0, &s0, &total);
        for (int K = 1; K <= 2; K++) {
            for (int mode = 0; mode < 3; mode++) {  // keep_attn; offload; both
                cfg.recompute = K;
                cfg.recompute_keep_attn = mode != 1;
                cfg.recompute_offload = mode != 0;
                real *g = keep_step(&cfg, &b, &l, &s, &total);
                char label[128];
                snprintf(label, sizeof label, "%s model %s recompute %d%s%s", H_gpu->name,
                         trunk ? "pairformer" : "evoformer", K, mode != 1 ? " keep_attn" : "", mode ? " offload" : "");
                // saved: the kept cores make it larger at K = 1; offloaded, the starts leave the GPU
                int size_ok = mode == 1 ? (K > 1 || s < s0) && g_offload_bytes > 0 : mode == 2 ? g_offload_bytes > 0
                                                                                               : K > 1 || s > s0;
                tl_check(l == l0 && !memcmp(g, g0, sizeof(real) * (size_t)total) && size_ok, label,
                         "loss %.9g vs %.9g, gradients %s, saved %zu vs %zu bytes, offloaded %zu bytes", l, l0,
                         memcmp(g, g0, sizeof(real) * (size_t)total) ? "differ" : "bit-identical", s, s0,
                         g_offload_bytes);
                free(g);
            }
        }
        cfg.recompute_keep_attn = cfg.recompute_offload = 0;
        free(g0);
        pf_batch_free(&b);
        src->destroy(src);
    }
}
