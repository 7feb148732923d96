// train.c: the training loop: batches from a source, forward/backward,
// clipping, AdamW, one JSON log line per step, a progress line, periodic
// validation and atomic checkpoints, exact resume.
#include "train.h"
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <signal.h>
#include "../core/util.h"
#include "../model/model.h"
#include "../model/distogram.h"
#include "optim.h"
#include "checkpoint.h"

// SIGINT / SIGTERM: finish the step in flight, write a checkpoint, stop.
static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

// Validation: the distogram loss, and the precision of the top L/5 long-range
// (|i - j| >= 24) predicted contacts, means over the held-out batches.
typedef struct {
    double loss, contact_p;
} val_result;

static val_result validate(pf_model *M, pf_batch_source *src) {
    val_result v = {NAN, NAN};
    if (!src->val || src->n_val <= 0) return v;
    double sum = 0, psum = 0;
    int n = 0, np = 0;
    for (int i = 0; i < src->n_val; i++) {
        pf_batch b;
        if (src->val(src, i, &b) != 0) continue;
        sum += pf_model_eval(M, &b).disto;  // leaves the final pair representation in M->z
        n++;
        float *contact = pf_malloc(sizeof(float) * (size_t)b.N * (size_t)b.N);
        pf_distogram_predict(M, b.N, NULL, NULL, contact);
        double p = pf_contact_precision(contact, &b, 24, 0);
        if (!isnan(p)) psum += p, np++;
        pf_free(contact);
        pf_batch_free(&b);
    }
    if (n) v.loss = sum / n;
    if (np) v.contact_p = psum / np;
    return v;
}

static void fmt_eta(double s, char *buf, size_t n) {
    if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
    else snprintf(buf, n, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

int pf_train_run(const pf_config *cfg_in, const pf_train_opts *opts) {
    pf_config cfg = *cfg_in;
    char err[1024];
    if (pf_config_validate(&cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    pf_backend *be = pf_backend_create(cfg.device);
    if (!be) {
        fprintf(stderr, "pairfold: error: device '%s' is not available in this build%s\n", cfg.device,
                strcmp(cfg.device, "cuda") == 0 ? " (rebuild with `make CUDA=1`)" : "");
        return 2;
    }
    if (pf_mkdir_p(opts->out_dir) != 0) {
        fprintf(stderr, "pairfold: error: cannot create %s: %s\n", opts->out_dir, strerror(errno));
        return 2;
    }
    char *cj = pf_config_to_json(&cfg);
    printf("pairfold train: configuration\n%s\n", cj);
    char path[4200];
    snprintf(path, sizeof path, "%s/config.json", opts->out_dir);
    if (pf_write_atomic(path, cj, strlen(cj)) != 0) pf_warn("cannot write %s: %s", path, strerror(errno));
    free(cj);

    pf_batch_source *src = pf_open_source(&cfg, err, sizeof err);
    if (!src) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    pf_model *M = pf_model_create(&cfg, be);
    pf_optim opt;
    pf_optim_init(&opt, &M->P);
    if (cfg.ema_decay > 0) pf_optim_enable_ema(&opt, cfg.ema_decay);
    int64_t start = 0;
    if (opts->resume_dir) {
        if (pf_ckpt_load(opts->resume_dir, M, &opt, &start, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: error: cannot resume: %s\n", err);
            return 2;
        }
        printf("resumed from %s at step %lld\n", opts->resume_dir, (long long)start);
    }
    printf("model: %s trunk, %d parameters tensors, %lld parameters; data: %s; device: %s\n",
           pf_trunk_name(cfg.trunk), M->P.n, (long long)M->P.total, src->name, be->name);
    fflush(stdout);

    char logp[4200];
    if (opts->log_path) snprintf(logp, sizeof logp, "%s", opts->log_path);
    else snprintf(logp, sizeof logp, "%s/train.jsonl", opts->out_dir);
    FILE *log = fopen(logp, opts->resume_dir ? "a" : "w");
    if (!log) { fprintf(stderr, "pairfold: error: cannot open log %s: %s\n", logp, strerror(errno)); return 2; }

    int tty = isatty(2) && !opts->quiet;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double t_start = pf_now_ms(), loss_ema = NAN;
    int rc = 0;
    int64_t done_steps = 0;
    // Example e = (step - 1) * grad_accum + k + 1 is micro-batch k of a step; it selects
    // the data and the dropout masks, so a step is the same whether or not it follows
    // a resume. The next example is fetched and staged during the current backward.
    const int A = cfg.grad_accum;
    const int64_t last_example = (int64_t)cfg.steps * A;
    pf_batch next;
    int64_t next_e = -1;  // example held in `next`, -1 if none
    double next_wait = 0;
    int failed = 0;
    for (int64_t step = start + 1; step <= cfg.steps; step++) {
        double t0 = pf_now_ms(), wait = 0;
        pf_step_result r = {0};
        int N = 0;
        pf_params_zero_grad(&M->P);
        for (int k = 0; k < A && !failed; k++) {
            int64_t e = (step - 1) * A + k + 1;
            pf_batch b;
            if (next_e == e) {
                b = next;
                wait += next_wait;
                next_e = -1;
            } else {
                if (next_e >= 0) pf_batch_free(&next), next_e = -1;
                if (src->next(src, e, 0, &b) != 0) {
                    fprintf(stderr, "pairfold: error: the data source could not produce a batch for step %lld\n", (long long)step);
                    failed = 1;
                    break;
                }
                wait += src->last_wait_ms;
            }
            pf_step_result rk = pf_model_train_step(M, &b, e);
            if (!isfinite(rk.loss)) {
                fprintf(stderr, "\npairfold: error: loss is %f at step %lld (%s); stopping without saving\n", rk.loss,
                        (long long)step, b.name);
                failed = 1;
                pf_batch_free(&b);
                break;
            }
            // The backward is queued on the device: take the next example from the source
            // and pack it into the free staging slot now, so the device does not wait for it.
            // (A failure here is reported when that example's turn comes and it is asked again.)
            if (e < last_example && !stop_requested && src->next(src, e + 1, 0, &next) == 0) {
                next_wait = src->last_wait_ms;
                next_e = e + 1;
                pf_model_stage(M, &next);
            }
            r.loss += rk.loss / A;
            r.disto += rk.disto / A;
            r.msa += rk.msa / A;
            r.flops += rk.flops;
            r.upload_ms += rk.upload_ms;
            r.cycles = rk.cycles;
            N += b.N;
            pf_batch_free(&b);
        }
        if (failed) {
            rc = 1;
            break;
        }
        if (A > 1) pf_params_scale_grad(&M->P, 1.0 / A);  // the mean over the step's examples
        double lr = 0, gnorm = pf_optim_step(&opt, &cfg, &lr);
        done_steps++;
        be->sync(be);
        double ms = pf_now_ms() - t0;
        val_result vr = {NAN, NAN};
        // validation at the first step (the baseline), every val_every steps and at the end
        if ((cfg.val_every > 0 && (step % cfg.val_every == 0 || step == start + 1)) || step == cfg.steps) {
            pf_optim_swap_ema(&opt);  // validate the averaged weights (no-op without EMA)
            vr = validate(M, src);
            pf_optim_swap_ema(&opt);
        }
        double val = vr.loss;
        fprintf(log, "{\"step\":%lld,\"loss\":%.17g,\"lr\":%.9g,\"grad_norm\":%.9g,\"ms\":%.3f,\"tokens_per_s\":%.2f,"
                     "\"data_wait_ms\":%.4f,\"upload_ms\":%.4f,\"n_res\":%d,\"cycles\":%d,\"tflops\":%.6f,\"disto_loss\":%.9g,\"msa_loss\":%.9g",
                (long long)step, r.loss, lr, gnorm, ms, N / (ms / 1e3), wait, r.upload_ms, N, r.cycles, 3 * r.flops / (ms * 1e9),
                r.disto, r.msa);
        if (!isnan(val)) fprintf(log, ",\"val_loss\":%.9g", val);
        if (!isnan(vr.contact_p)) fprintf(log, ",\"val_contact_p_l5\":%.6f", vr.contact_p);
        fprintf(log, "}\n");
        fflush(log);
        loss_ema = isnan(loss_ema) ? r.loss : 0.9 * loss_ema + 0.1 * r.loss;
        double elapsed = (pf_now_ms() - t_start) / 1e3, eta = elapsed / (double)(step - start) * (double)(cfg.steps - step);
        char etab[32];
        fmt_eta(eta, etab, sizeof etab);
        if (!opts->quiet && (tty || step % 10 == 0 || step == cfg.steps || !isnan(val))) {
            fprintf(stderr, "%sstep %lld/%d  loss %.4f (avg %.4f)  lr %.2e  |g| %.3f  %.0f ms/step  %.0f tok/s  ETA %s",
                    tty ? "\r" : "", (long long)step, cfg.steps, r.loss, loss_ema, lr, gnorm, ms, N / (ms / 1e3), etab);
            if (!isnan(val)) fprintf(stderr, "  val %.4f", val);
            if (!isnan(vr.contact_p)) fprintf(stderr, " P@L/5 %.3f", vr.contact_p);
            fprintf(stderr, tty && isnan(val) && step != cfg.steps ? "   " : "\n");
        }
        if ((cfg.ckpt_every > 0 && step % cfg.ckpt_every == 0) || step == cfg.steps || stop_requested) {
            char where[4200];
            if (pf_ckpt_save(opts->out_dir, M, &opt, step, where, sizeof where, err, sizeof err) != 0) {
                fprintf(stderr, "\npairfold: error: checkpoint failed: %s\n", err);
                rc = 1;
                break;
            }
            if (!opts->quiet) fprintf(stderr, "%scheckpoint: %s\n", tty ? "\n" : "", where);
        }
        if (stop_requested) {
            fprintf(stderr, "stopped by signal after step %lld; resume with --resume %s\n", (long long)step, opts->out_dir);
            rc = 130;
            break;
        }
    }
    if (next_e >= 0) pf_batch_free(&next);
    fclose(log);
    printf("done: %lld steps in %.1f s; log %s\n", (long long)done_steps, (pf_now_ms() - t_start) / 1e3, logp);
    pf_optim_free(&opt);
    pf_model_free(M);
    if (src->destroy) src->destroy(src);
    return rc;
}
