// test_model: whole-model checks in float64: end-to-end gradient of the
// distogram loss (both trunks, recycling), the accumulation contract, the
// OpenFold / OpenFold3 parameter names, and checkpoint round trips.
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include "testlib.h"
#include "../src/model/model.h"
#include "../src/model/distogram.h"
#include "../src/train/synthetic.h"
#include "../src/format/checkpoint.h"
#include "../src/optim/optim.h"
#include "../src/core/rng.h"
#include "../src/core/util.h"

static pf_config model_cfg(int trunk) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    c.trunk = trunk;
    c.c_m = 6; c.c_z = 5; c.c_s = 7; c.c_e = 4;
    c.heads_msa = 2; c.c_h_msa = 3; c.heads_pair = 2; c.c_h_pair = 3;
    c.heads_single = 3; c.c_h_single = 2; c.heads_extra = 2; c.c_h_extra = 3;
    c.heads_pwavg = 2; c.c_h_pwavg = 3;
    c.c_opm = 3; c.c_trimul = 4; c.transition_n = 2;
    c.n_blocks = 2; c.n_extra_blocks = 1; c.n_msa_blocks = 1;
    c.crop_size = 9; c.msa_rows = 5; c.extra_msa_rows = 3;
    c.n_bins = 8; c.recycles = 1;
    if (trunk == PF_TRUNK_EVOFORMER) { c.disto_weight = 0.3f; c.msa_weight = 2.0f; }
    c.dropout_msa = 0.15f; c.dropout_pair = 0.25f;
    return c;
}

typedef struct { pf_model *M; pf_batch *b; int64_t step; } mctx;
static double model_loss(void *v) {
    mctx *c = v;
    // the same step: same dropout masks and recycling count; forward only
    pf_params_zero_grad(&c->M->P);
    return pf_model_train_step(c->M, c->b, c->step).loss;
}

// Every parameter's gradient g against central differences of the model's loss,
// max_samples coordinates per tensor, in batches of TL_MAX_TENSORS tensors.
static void gradcheck_all(const char *label, mctx *c, real *g, int max_samples) {
    pf_model *M = c->M;
    tl_tensors ts = {0};
    int start = 0;
    while (start < M->P.n) {
        ts.n = 0;
        for (int i = start; i < M->P.n && ts.n < TL_MAX_TENSORS; i++, start++)
            tl_add(&ts, M->P.t[i].name, M->P.data + M->P.t[i].offset, g + M->P.t[i].offset, M->P.t[i].numel);
        tl_gradcheck(label, model_loss, c, &ts, max_samples, 1e-6);
    }
}

static void randomise(pf_model *M, uint64_t seed) {
    pf_params *P = &M->P;
    for (int i = 0; i < P->n; i++) {
        int ln = strstr(P->t[i].name, "layer_norm") && strstr(P->t[i].name, ".weight");
        for (int64_t j = 0; j < P->t[i].numel; j++)
            P->data[P->t[i].offset + j] = (real)((ln ? 1.0 : 0.0) + 0.3 * pf_normal(seed + (uint64_t)i, (uint64_t)j));
    }
}

static void test_model_grad(int trunk) {
    pf_config cfg = model_cfg(trunk);
    cfg.recycles = 0;
    pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
    randomise(M, 99);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 3, 0, &b);
    for (int i = 0; i < b.N; i += 4) b.seq_mask[i] = 0, b.pseudo_beta_mask[i] = 0;  // padded / unresolved tokens
    for (int k = 0; k < b.S * b.N; k += 3) b.bert_mask[k] = 1, b.bert_target[k] = k % PF_NUM_TOK;  // masked-MSA loss
    // Recycling passes are stop-gradient by design, which central differences
    // cannot see; the check runs one pass (recycles = 0). The recycling
    // embedder still takes part: it normalises the zero initial state.
    mctx c = {M, &b, 3};
    pf_params_zero_grad(&M->P);
    pf_step_result r = pf_model_train_step(M, &b, c.step);
    real *g = tl_copy(M->P.grad, M->P.total);
    char label[64];
    snprintf(label, sizeof label, "model %s", pf_trunk_name(trunk));
    tl_check(r.cycles == 1, label, "one pass");
    gradcheck_all(label, &c, g, 3);
    // accumulation contract: a second backward without zeroing doubles gradients
    pf_params_zero_grad(&M->P);
    pf_model_train_step(M, &b, c.step);
    pf_model_train_step(M, &b, c.step);
    double worst = 0, gmax = tl_max_abs(g, M->P.total);
    for (int64_t i = 0; i < M->P.total; i++) worst = fmax(worst, fabs(M->P.grad[i] - 2 * g[i]));
    snprintf(label, sizeof label, "model %s backward twice doubles gradients", pf_trunk_name(trunk));
    tl_check(worst <= 1e-12 * gmax, label, "max |g2 - 2 g1| %.3e (max |g| %.3e)", worst, gmax);
    pf_batch_free(&b);
    src->destroy(src);
    pf_model_free(M);
}

// Block-level recompute: keeping only each block's input streams and re-running
// its forward in the backward gives bit-identical gradients (dropout on,
// recycling on) with a smaller saved arena; so does keeping the attention cores'
// outputs too (recompute_keep_attn: the re-run forwards skip the cores), and keeping the
// segment starts' inputs in host memory (recompute_offload: two slots in the saved arena).
static void test_recompute(int trunk) {
    pf_config cfg = model_cfg(trunk);
    cfg.n_blocks = 5;  // 6 blocks with the MSA stack's: segments of 2 and 3 keep 4 inputs, not 6
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 5, 0, &b);
    for (int i = 0; i < b.N; i += 3) b.seq_mask[i] = 0;
    // recompute 0 (every block's activations), 1 (each block's input), 2 and 3
    // (segments, the first across the MSA stack and the trunk)
    real *g[4];
    size_t bytes[4], keep_bytes[4] = {0}, off_bytes[4] = {0}, off_host[4] = {0};
    double loss[4];
    char label[128];
    for (int rc = 0; rc < 4; rc++) {
        for (int ka = 0; ka < (rc ? 3 : 1); ka++) {  // 1: keep_attn, 2: offload
            cfg.recompute = rc;
            cfg.recompute_keep_attn = ka == 1;
            cfg.recompute_offload = ka == 2;
            pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
            randomise(M, 7);
            pf_params_zero_grad(&M->P);
            double l = pf_model_train_step(M, &b, 5).loss;
            if (!ka) {
                loss[rc] = l;
                g[rc] = tl_copy(M->P.grad, M->P.total);
                bytes[rc] = M->saved_bytes;
            } else if (ka == 1) {
                keep_bytes[rc] = M->saved_bytes;
            } else {
                off_bytes[rc] = M->saved_bytes;
                off_host[rc] = M->offload_bytes;
            }
            if (rc) {
                snprintf(label, sizeof label, "recompute %d%s: %s gradients bit-identical", rc,
                         ka == 1 ? " keep_attn" : ka == 2 ? " offload" : "", trunk ? "pairformer" : "evoformer");
                tl_check(memcmp(g[0], M->P.grad, sizeof(real) * (size_t)M->P.total) == 0 && loss[0] == l, label,
                         "loss %.17g vs %.17g", loss[0], l);
            }
            pf_model_free(M);
        }
    }
    cfg.recompute_keep_attn = cfg.recompute_offload = 0;
    // 6 blocks: recompute 1 keeps 6 inputs on the device, offloaded 2 (slots); recompute 3 keeps 2
    // starts (one per segment) and offloaded 2 slots of the largest: not more
    tl_check(off_bytes[1] < bytes[1] && off_bytes[3] <= bytes[3] && off_host[1] > off_host[3] && off_host[3] > 0,
             trunk ? "recompute offload: pairformer starts in host memory, two device slots"
                   : "recompute offload: evoformer starts in host memory, two device slots",
             "saved %zu vs %zu, %zu vs %zu bytes; host %zu, %zu bytes", off_bytes[1], bytes[1], off_bytes[3], bytes[3],
             off_host[1], off_host[3]);
    tl_check(keep_bytes[1] > bytes[1] && keep_bytes[3] > bytes[3],
             trunk ? "recompute keep_attn: pairformer saved arena holds the kept outputs"
                   : "recompute keep_attn: evoformer saved arena holds the kept outputs",
             "%zu vs %zu, %zu vs %zu bytes", keep_bytes[1], bytes[1], keep_bytes[3], bytes[3]);
    tl_check(bytes[1] < bytes[0], trunk ? "recompute: pairformer saved arena smaller" : "recompute: evoformer saved arena smaller",
             "%zu vs %zu bytes", bytes[1], bytes[0]);
    tl_check(bytes[3] < bytes[1], trunk ? "recompute 3: pairformer saved arena smaller than 1" : "recompute 3: evoformer saved arena smaller than 1",
             "%zu vs %zu bytes", bytes[3], bytes[1]);
    pf_batch_free(&b);
    src->destroy(src);
}

typedef struct { int calls, total, ordered; } progress_log;
static void log_progress(void *ctx, int done, int total) {
    progress_log *l = ctx;
    l->ordered &= done == l->calls + 1 && (l->total == 0 || total == l->total);
    l->calls++;
    l->total = total;
}

// An inference model (predict) holds no saved arena and no gradient streams, and
// its evaluation is bit-identical to the training model's, recycling included.
static void test_inference(int trunk) {
    const char *t = trunk ? "pairformer" : "evoformer";
    char label[96];
    pf_config cfg = model_cfg(trunk);
    cfg.recompute = 1;
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 3, 0, &b);
    for (int i = 0; i < b.N; i += 4) b.seq_mask[i] = 0;
    pf_model *T = pf_model_create(&cfg, pf_backend_cpu()), *I = pf_model_create_inference(&cfg, pf_backend_cpu());
    randomise(T, 11);
    randomise(I, 11);
    progress_log pl = {0, 0, 1};
    I->progress = log_progress, I->progress_ctx = &pl;  // predict's progress: called, and changes nothing
    pf_step_result rt = pf_model_eval(T, &b), ri = pf_model_eval(I, &b);
    snprintf(label, sizeof label, "inference %s: progress after each block of each pass, in order", t);
    int expect = (1 + cfg.recycles) * (I->n_msa_blocks + I->n_trunk);
    tl_check(pl.ordered && pl.calls == expect && pl.total == expect, label, "%d calls (total %d), expected %d%s", pl.calls,
             pl.total, expect, pl.ordered ? "" : ", out of order");
    int64_t zn = (int64_t)b.N * b.N * cfg.c_z;
    snprintf(label, sizeof label, "inference %s: loss and final pair stream bit-identical", t);
    tl_check(rt.loss == ri.loss && rt.cycles == ri.cycles && memcmp(T->z, I->z, sizeof(real) * (size_t)zn) == 0, label,
             "loss %.17g vs %.17g", rt.loss, ri.loss);
    snprintf(label, sizeof label, "inference %s: no saved arena, smaller activation arena", t);
    tl_check(I->saved_bytes == 0 && T->saved_bytes > 0 && I->act_bytes < T->act_bytes && !I->dz, label,
             "saved %zu / %zu, act %zu / %zu bytes", I->saved_bytes, T->saved_bytes, I->act_bytes, T->act_bytes);
    pf_model_free(T);
    pf_model_free(I);
    pf_batch_free(&b);
    src->destroy(src);
}

static void test_names(void) {
    struct { const char *preset; const char *names[12]; } want[] = {
        {"af2", {"evoformer.blocks.0.msa_att_row.mha.linear_q.weight", "evoformer.blocks.47.pair_stack.tri_mul_out.linear_a_p.weight",
                 "evoformer.blocks.3.msa_att_col._msa_att.mha.linear_o.bias", "evoformer.blocks.0.outer_product_mean.linear_out.weight",
                 "evoformer.blocks.0.pair_stack.tri_att_start.mha.linear_g.bias", "evoformer.blocks.0.pair_stack.pair_transition.linear_1.weight",
                 "extra_msa_stack.blocks.3.msa_att_col.global_attention.linear_k.weight", "input_embedder.linear_relpos.weight",
                 "aux_heads.distogram.linear.weight", "recycling_embedder.layer_norm_z.weight", NULL}},
        {"af3", {"pairformer_stack.blocks.0.pair_stack.tri_att_start.mha.linear_q.weight", "pairformer_stack.blocks.47.attn_pair_bias.mha.linear_q.bias",
                 "pairformer_stack.blocks.0.pair_transition.swiglu.linear_a.weight", "pairformer_stack.blocks.5.pair_stack.tri_mul_in.linear_z.weight",
                 "msa_module.blocks.3.msa_pair_weighted_averaging.linear_b.weight", "msa_module.blocks.0.outer_product_mean.linear_out.bias",
                 "pairformer_stack.blocks.0.single_transition.linear_out.weight", "input_embedder.relpos.linear_relpos.weight", NULL}},
    };
    for (int k = 0; k < 2; k++) {
        pf_config cfg;
        pf_config_preset(&cfg, want[k].preset);
        pf_params P;
        pf_params_init_registry(&P);
        // declare only (no allocation): build the blocks as the model does
        pf_model *M = NULL;
        (void)M;
        pf_block *blocks = calloc((size_t)cfg.n_blocks + cfg.n_msa_blocks + cfg.n_extra_blocks, sizeof(pf_block));
        char pre[64];
        int nb = 0;
        for (int i = 0; i < cfg.n_blocks; i++) {
            snprintf(pre, sizeof pre, cfg.trunk == PF_TRUNK_EVOFORMER ? "evoformer.blocks.%d" : "pairformer_stack.blocks.%d", i);
            pf_block_declare(&blocks[nb++], cfg.trunk == PF_TRUNK_EVOFORMER ? PF_BLOCK_EVOFORMER : PF_BLOCK_PAIRFORMER, &cfg, &P, pre);
        }
        int nx = cfg.trunk == PF_TRUNK_EVOFORMER ? cfg.n_extra_blocks : cfg.n_msa_blocks;
        for (int i = 0; i < nx; i++) {
            snprintf(pre, sizeof pre, cfg.trunk == PF_TRUNK_EVOFORMER ? "extra_msa_stack.blocks.%d" : "msa_module.blocks.%d", i);
            pf_block_declare(&blocks[nb++], cfg.trunk == PF_TRUNK_EVOFORMER ? PF_BLOCK_EXTRA_MSA : PF_BLOCK_MSA_MODULE, &cfg, &P, pre);
        }
        for (int i = 0; want[k].names[i]; i++) {
            const char *n = want[k].names[i];
            int embed = !strncmp(n, "input_", 6) || !strncmp(n, "aux_", 4) || !strncmp(n, "recycling", 9);
            if (embed) continue;  // checked on the full model below
            char label[160];
            snprintf(label, sizeof label, "%s has %s", want[k].preset, n);
            tl_check(pf_params_find(&P, n) != NULL, label, NULL);
        }
        const pf_param *t = pf_params_find(&P, cfg.trunk == PF_TRUNK_EVOFORMER ? "evoformer.blocks.0.msa_att_row.mha.linear_q.weight"
                                                                              : "pairformer_stack.blocks.0.pair_transition.swiglu.linear_a.weight");
        int ok = t && (cfg.trunk == PF_TRUNK_EVOFORMER ? (t->shape[0] == 256 && t->shape[1] == 256) : (t->shape[0] == 512 && t->shape[1] == 128));
        tl_check(ok, "weights stored [out, in]", "%s", want[k].preset);
        pf_params_free(&P);
        free(blocks);
    }
    // embedders and heads on a small full model of each trunk
    for (int trunk = 0; trunk < 2; trunk++) {
        pf_config cfg = model_cfg(trunk);
        pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
        const char *af2n[] = {"input_embedder.linear_relpos.weight", "aux_heads.distogram.linear.weight",
                              "recycling_embedder.layer_norm_z.weight", "extra_msa_embedder.linear.weight",
                              "aux_heads.masked_msa.linear.weight", NULL};
        const char *af3n[] = {"input_embedder.relpos.linear_relpos.weight", "aux_heads.distogram.linear.bias",
                              "recycle.linear_z.weight", "msa_module.linear_m.weight", NULL};
        const char **nm = trunk ? af3n : af2n;
        for (int i = 0; nm[i]; i++) {
            char label[160];
            snprintf(label, sizeof label, "%s has %s", pf_trunk_name(trunk), nm[i]);
            tl_check(pf_params_find(&M->P, nm[i]) != NULL, label, NULL);
        }
        pf_model_free(M);
    }
}

// pf_optim_swap_ema in pieces (the last one short) swaps the weights and their EMA bit for bit, and
// back; the whole-size piece and the default do the same.
static void test_ema_swap(void) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    pf_model *A = pf_model_create(&cfg, pf_backend_cpu());
    randomise(A, 7);
    pf_optim o;
    pf_optim_init(&o, &A->P);
    pf_optim_enable_ema(&o, 0.9);
    const int64_t n = A->P.total;
    const size_t bytes = sizeof(real) * (size_t)n;
    for (int64_t j = 0; j < n; j++) o.ema[j] = (real)(0.25 * (double)j - 3);  // unlike the weights
    real *w0 = malloc(bytes), *e0 = malloc(bytes);
    memcpy(w0, A->P.data, bytes), memcpy(e0, o.ema, bytes);
    const int64_t pieces[] = {7, n - 1, n, 0};
    for (int k = 0; k < 4; k++) {
        char label[96];
        if (pieces[k]) snprintf(label, sizeof label, "EMA swap in pieces of %lld of %lld", (long long)pieces[k], (long long)n);
        else snprintf(label, sizeof label, "EMA swap with the default piece (2^24 elements) of %lld", (long long)n);
        if (pieces[k]) pf_optim_swap_ema_pieces(&o, pieces[k]);
        else pf_optim_swap_ema(&o);
        int ok = memcmp(A->P.data, e0, bytes) == 0 && memcmp(o.ema, w0, bytes) == 0;
        pf_optim_swap_ema_pieces(&o, pieces[k] ? pieces[k] : n);
        ok = ok && memcmp(A->P.data, w0, bytes) == 0 && memcmp(o.ema, e0, bytes) == 0;
        tl_check(ok, label, NULL);
    }
    free(w0), free(e0);
    pf_optim_free(&o);
    pf_model_free(A);
}

static void test_checkpoint(void) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    pf_model *A = pf_model_create(&cfg, pf_backend_cpu());
    randomise(A, 5);
    pf_optim o;
    pf_optim_init(&o, &A->P);
    for (int t = 0; t < A->P.n; t++)  // tensors only: the alignment gaps are not saved
        for (int64_t j = A->P.t[t].offset; j < A->P.t[t].offset + A->P.t[t].numel; j++) {
            o.m[j] = (real)j;
            o.v[j] = (real)(2 * j);
        }
    char dir[] = "/tmp/pf_test_ckpt_XXXXXX", err[1024];
    if (!mkdtemp(dir)) { tl_check(0, "mkdtemp", NULL); return; }
    int rc = pf_ckpt_save(dir, A, &o, 17, NULL, 0, err, sizeof err);
    tl_check(rc == 0, "checkpoint save", "%s", rc ? err : "");
    pf_config cfg2;
    rc = pf_ckpt_read_config(dir, &cfg2, err, sizeof err);
    tl_check(rc == 0 && cfg2.c_z == cfg.c_z && cfg2.trunk == cfg.trunk, "checkpoint config round trip", "%s", rc ? err : "");
    pf_model *B = pf_model_create(&cfg, pf_backend_cpu());
    pf_optim o2;
    pf_optim_init(&o2, &B->P);
    int64_t step = 0;
    rc = pf_ckpt_load(dir, B, &o2, &step, err, sizeof err);
    tl_check(rc == 0 && step == 17, "checkpoint load", "%s step %lld", rc ? err : "", (long long)step);
    tl_check(memcmp(A->P.data, B->P.data, sizeof(real) * (size_t)A->P.total) == 0, "weights identical after load", NULL);
    tl_check(memcmp(o.m, o2.m, sizeof(real) * (size_t)A->P.total) == 0 && memcmp(o.v, o2.v, sizeof(real) * (size_t)A->P.total) == 0 && o2.step == 17,
             "optimizer state identical after load", NULL);
    // a model of another shape refuses the checkpoint with a message naming the tensor
    pf_config cfg3 = cfg;
    cfg3.c_z = 6;
    pf_model *C = pf_model_create(&cfg3, pf_backend_cpu());
    rc = pf_ckpt_load(dir, C, NULL, NULL, err, sizeof err);
    tl_check(rc != 0 && strstr(err, "shape") != NULL, "shape mismatch is a clear error", "%s", err);
    rc = pf_ckpt_load("/nonexistent/dir", C, NULL, NULL, err, sizeof err);
    tl_check(rc != 0 && strstr(err, "/nonexistent/dir") != NULL, "missing checkpoint is a clear error", "%s", err);
    pf_optim_free(&o);
    pf_optim_free(&o2);
    pf_model_free(A);
    pf_model_free(B);
    pf_model_free(C);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {}
}

// pf_disto_bin (direct computation) against its definition: the largest k in
// [1, n_bins) with d > min + k w, else 0, over random distances and the exact edges.
static void test_disto_bins(void) {
    pf_config c;
    pf_config_preset(&c, "af2");
    int bad = 0;
    double w = (c.max_bin - c.min_bin) / c.n_bins;
    for (int t = 0; t < 200000 && !bad; t++) {
        double d = t < 3 * c.n_bins ? c.min_bin + (t / 3) * w + (t % 3 - 1) * 1e-12 * (t % 3 != 1)
                                    : (double)(pf_hash2(9, (uint64_t)t) % 100000) / 2500.0;
        int ref = 0;
        for (int k = 1; k < c.n_bins; k++)
            if (d > c.min_bin + k * w) ref = k;
        if (pf_disto_bin(d, &c) != ref) bad = 1 + t;
    }
    tl_check(!bad, "disto bins match the definition", "first mismatch at sample %d", bad - 1);
}

// The distogram prediction (validation's contact precision, predict's distogram) by blocks of rows,
// in both of its forms (distogram.h): the whole A on the device (small N) and, forced with
// pf_distogram_set_whole_max(0), A a block at a time (its device buffers block-sized since session
// 46). Blocks of 1, 4 (9 rows: a short last block) and N rows: the whole form gives the default's
// bits; every variant matches softmax(A_ij + A_ji + b) with A = z W^T computed here in double from
// the evaluated z. The synthetic source honours n_val (0: no validation) and lengths past 4096.
static void test_disto_predict(void) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    cfg.recycles = 0;
    pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
    pf_backend *be = M->be;
    randomise(M, 17);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 2, 0, &b);
    pf_model_eval(M, &b);  // leaves the final pair representation in M->z
    const int64_t N = b.N, nb = cfg.n_bins, cz = cfg.c_z, row = N * nb;
    real *z = malloc(sizeof(real) * (size_t)(N * N * cz)), *w = malloc(sizeof(real) * (size_t)(nb * cz));
    real *bias = malloc(sizeof(real) * (size_t)nb);
    be->act_to_real(be, z, M->z, N * N * cz);
    be->download(be, w, M->p.disto.w, sizeof(real) * (size_t)(nb * cz));
    be->download(be, bias, M->p.disto.b, sizeof(real) * (size_t)nb);
    double ref_err = 0;
    float *probs[8];
    const int64_t blocks[4] = {0, 1, 4, N};
    int same = 1;
    const int64_t runs0 = pf_distogram_blocked_runs();
    for (int v = 0; v < 8; v++) {  // 0-3 whole, 4-7 blocked
        probs[v] = malloc(sizeof(float) * (size_t)(N * row));
        pf_disto_whole c = {probs[v], row};
        pf_distogram_set_whole_max(v < 4 ? (int64_t)256 << 20 : 0);
        pf_distogram_predict_rows(M, N, blocks[v % 4], pf_disto_into_whole, &c, NULL, NULL);
        if (v && v < 4) same &= !memcmp(probs[v], probs[0], sizeof(float) * (size_t)(N * row));
    }
    pf_distogram_set_whole_max((int64_t)256 << 20);
    const int64_t runs = pf_distogram_blocked_runs() - runs0;
    double *ref = malloc(sizeof(double) * (size_t)(N * row));
    tl_disto_probs(z, w, bias, N, nb, cz, ref);
    for (int v = 0; v < 8; v++)
        for (int64_t q = 0; q < N * row; q++) ref_err = fmax(ref_err, fabs(probs[v][q] - ref[q]));
    free(ref);
    tl_check(same && runs == 4 && ref_err <= 1e-5,
             "distogram prediction, whole and blocked A, blocks of 1, 4, N rows = softmax(A + A^T + b)",
             "whole form's blocks the same bits %d, blocked runs %lld of 4, max |p - reference| %.3e (N %lld)", same,
             (long long)runs, ref_err, (long long)N);
    for (int v = 0; v < 8; v++) free(probs[v]);
    free(z), free(w), free(bias);
    pf_batch_free(&b);
    src->destroy(src);
    pf_model_free(M);
    // n_val: the config's count, 0 included (it was always 4); synthetic_len past 4096
    int nv_ok = 1;
    for (int nv = 0; nv <= 6; nv += 3) {
        pf_config c2 = model_cfg(PF_TRUNK_PAIRFORMER);
        c2.n_val = nv;
        pf_batch_source *s2 = pf_synthetic_source_create(&c2);
        nv_ok &= s2->n_val == nv;
        s2->destroy(s2);
    }
    pf_config c3 = model_cfg(PF_TRUNK_PAIRFORMER);
    c3.synthetic_len = 6000;
    pf_batch_source *s3 = pf_synthetic_source_create(&c3);
    pf_batch b3;
    s3->next(s3, 0, 0, &b3);
    tl_check(nv_ok && b3.N == c3.crop_size, "synthetic source: n_val 0 / 3 / 6 honoured; 6000-residue proteins cropped",
             "n_val %d, N %lld", nv_ok, (long long)b3.N);
    pf_batch_free(&b3);
    s3->destroy(s3);
}

// The structure module after either trunk (structure_module=1): the whole
// model's gradient, FAPE, torsion, pLDDT and PAE losses included, against
// central differences. stop_rot_grad is switched off for the check (central
// differences see no stop-gradient; grad_structure_module checks it).
static void test_model_structure(int trunk) {
    pf_config cfg = model_cfg(trunk);
    cfg.recycles = 0;
    cfg.structure_module = 1;
    cfg.sm_layers = 2;
    cfg.pae_weight = 0.1f;
    pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
    M->sh.d.stop_rot_grad = 0;
    randomise(M, 31);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 4, 0, &b);
    for (int i = 0; i < b.N; i += 4) b.seq_mask[i] = 0;
    // a backbone around each synthetic CA: N, C, O at random offsets; residue 2 has only its N
    for (int i = 0; i < b.N; i++) {
        real *x = b.backbone_xyz + (int64_t)i * 15;
        for (int e = 0; e < 3; e++) {
            x[3 + e] = b.pseudo_beta[3 * i + e];
            x[e] = x[3 + e] + (real)(0.9 * pf_normal(41, (uint64_t)(3 * i + e)));
            x[6 + e] = x[3 + e] + (real)(0.9 * pf_normal(42, (uint64_t)(3 * i + e)));
            x[9 + e] = x[6 + e] + (real)(0.7 * pf_normal(43, (uint64_t)(3 * i + e)));
        }
        b.backbone_mask[i] = i == 2 ? 1 : 15;
    }
    mctx c = {M, &b, 3};
    pf_params_zero_grad(&M->P);
    pf_step_result r = pf_model_train_step(M, &b, c.step);
    real *g = tl_copy(M->P.grad, M->P.total);
    char label[64];
    snprintf(label, sizeof label, "model %s + structure module", pf_trunk_name(trunk));
    tl_check(r.fape > 0 && r.lddt_ca > 0 && isfinite(r.loss), label, "fape %g, lddt_ca %g", r.fape, r.lddt_ca);
    tl_check(pf_params_find(&M->P, "structure_module.ipa.linear_q.weight") &&
                 (trunk != PF_TRUNK_EVOFORMER) == !pf_params_find(&M->P, "evoformer.linear.weight"),
             "structure module parameters declared", "%s", label);
    gradcheck_all(label, &c, g, 2);
    pf_batch_free(&b);
    src->destroy(src);
    pf_model_free(M);
}

int main(void) {
    test_model_grad(PF_TRUNK_EVOFORMER);
    test_model_grad(PF_TRUNK_PAIRFORMER);
    test_model_structure(PF_TRUNK_EVOFORMER);
    test_model_structure(PF_TRUNK_PAIRFORMER);
    test_recompute(PF_TRUNK_EVOFORMER);
    test_recompute(PF_TRUNK_PAIRFORMER);
    test_inference(PF_TRUNK_EVOFORMER);
    test_inference(PF_TRUNK_PAIRFORMER);
    test_names();
    test_checkpoint();
    test_ema_swap();
    test_disto_bins();
    test_disto_predict();
    return tl_finish();
}
