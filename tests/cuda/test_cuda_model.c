// test_cuda_model.c: whole training steps on the GPU (the mode test_cuda.c set up):
// recompute 1 and 2 with the attention cores' outputs kept (recompute_keep_attn, the
// re-run forwards skip the cores) give the loss and every parameter gradient with the
// same bits as recompute 1 without (which re-runs the cores: the same inputs, the same
// bits), for both trunks, with dropout and recycling on; so do recompute 1 and 2 with the
// segment starts' inputs in host memory (recompute_offload: copies on a second stream, the
// next segment's fetched during the backward), with and without the kept cores. And the
// distogram prediction on the GPU in both forms (distogram.h: A whole, or a block at a time).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/model/model.h"
#include "../../src/model/distogram.h"
#include "../../src/core/rng.h"
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

// The prediction after a GPU evaluation, whole and blocked (blocks of 0 = the default, 1 and 5
// rows), against softmax(A_ij + A_ji + b) computed on the host in double from the GPU's z and W:
// the logits' only rounding is A's bf16 storage (|A| * 2^-8), far below what a wrong row or
// column of A would change.
static void disto_predict_check(const pf_config *cfg, const pf_batch *b) {
    pf_model *M = pf_model_create(cfg, H_gpu);
    const int64_t N = b->N, nb = cfg->n_bins, cz = cfg->c_z, row = N * nb;
    real *w = malloc(sizeof(real) * (size_t)(nb * cz));
    for (int64_t q = 0; q < nb * cz; q++) w[q] = (real)(0.05 * pf_normal(41, (uint64_t)q));  // the head starts at 0
    H_gpu->upload(H_gpu, M->p.disto.w, w, sizeof(real) * (size_t)(nb * cz));
    pf_model_eval(M, b);
    real *z = malloc(sizeof(real) * (size_t)(N * N * cz));
    real *bias = malloc(sizeof(real) * (size_t)nb);
    H_gpu->act_to_real(H_gpu, z, M->z, N * N * cz);
    H_gpu->download(H_gpu, w, M->p.disto.w, sizeof(real) * (size_t)(nb * cz));
    H_gpu->download(H_gpu, bias, M->p.disto.b, sizeof(real) * (size_t)nb);
    H_gpu->sync(H_gpu);
    float *probs = malloc(sizeof(float) * (size_t)(N * row));
    double *ref = malloc(sizeof(double) * (size_t)(N * row));
    tl_disto_probs(z, w, bias, N, nb, cz, ref);
    const int64_t blocks[3] = {0, 1, 5};
    for (int v = 0; v < 6; v++) {
        const int64_t runs0 = pf_distogram_blocked_runs();
        pf_distogram_set_whole_max(v < 3 ? (int64_t)256 << 20 : 0);
        pf_disto_whole c = {probs, row};
        pf_distogram_predict_rows(M, N, blocks[v % 3], pf_disto_into_whole, &c, NULL, NULL);
        const int blocked = pf_distogram_blocked_runs() - runs0 == 1;
        double e = 0;
        for (int64_t q = 0; q < N * row; q++) e = fmax(e, fabs(probs[q] - ref[q]) / (ref[q] + 1e-3));
        char label[128];
        snprintf(label, sizeof label, "%s distogram prediction, A %s, blocks of %lld rows", H_gpu->name,
                 v < 3 ? "whole" : "blocked", (long long)blocks[v % 3]);
        tl_check(e <= 0.03 && blocked == (v >= 3), label, "max |p - reference| / (reference + 1e-3) %.3e, blocked %d",
                 e, blocked);
    }
    pf_distogram_set_whole_max((int64_t)256 << 20);
    free(z), free(w), free(bias), free(probs), free(ref);
    pf_model_free(M);
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
        if (trunk) disto_predict_check(&cfg, &b);
        free(g0);
        pf_batch_free(&b);
        src->destroy(src);
    }
}
