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
#include "../optim/optim.h"
#include "../format/checkpoint.h"
#include "dist.h"
#include "../registry/registry.h"
#include "rundir.h"

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

// ,"key":value in the JSON log; JSON has no nan or inf, so those are written as
// null. Returns 1 for such a value.
static int json_num(FILE *f, const char *key, const char *fmt, double v) {
    fprintf(f, ",\"%s\":", key);
    if (!isfinite(v)) {
        fputs("null", f);
        return 1;
    }
    fprintf(f, fmt, v);
    return 0;
}

static void fmt_eta(double s, char *buf, size_t n) {
    if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
    else snprintf(buf, n, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

// Example numbers: micro-batch k of a step on rank r of W is example
// ((step - 1) W + r) A + k + 1 (A = grad_accum). The number selects the data and
// the dropout masks, so a step is the same after a resume, and W ranks with A
// examples each see the examples one process with grad_accum = W A would.
static int64_t example_of(int64_t step, int k, const pf_dist *D, int A) {
    return ((step - 1) * D->world + D->rank) * (int64_t)A + k + 1;
}

int pf_train_run(const pf_config *cfg_in, const pf_train_opts *opts) {
    pf_config cfg = *cfg_in;
    char err[1024];
    if (pf_config_validate(&cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    pf_dist D;
    if (pf_dist_init(&D, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    const int lead = D.rank == 0;  // logs, validates, writes checkpoints
    // Set-up failures on any rank stop every rank (a rank left waiting in a
    // collective would hang): each step below is agreed on before the next.
#define AGREE(ok)                                                                 \
    do {                                                                          \
        double bad_ = (ok) ? 0 : 1;                                               \
        pf_dist_sum_doubles(&D, &bad_, 1);                                        \
        if (bad_ > 0) {                                                           \
            if ((ok) && D.world > 1) fprintf(stderr, "pairfold: rank %d: stopping: another rank failed to start\n", D.rank); \
            pf_dist_finalize(&D);                                                 \
            return 2;                                                             \
        }                                                                         \
    } while (0)
    pf_backend *be = pf_backend_open(cfg.device, D.local_rank, err, sizeof err);
    if (!be) fprintf(stderr, "pairfold: error: %s\n", err);
    AGREE(be != NULL);
    if (pf_dist_attach(&D, be, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: rank %d: %s\n", D.rank, err);
        pf_dist_finalize(&D);
        return 2;
    }
    int ok = 1, lock = -1;
    // rank 0 owns the run directory: one process at a time, a fresh run only into an
    // empty one (or with --force), no temp files left by a killed write
    if (lead && (lock = pf_rundir_lock(opts->out_dir, err, sizeof err)) < 0) {
        fprintf(stderr, "pairfold: error: %s\n", err);
        ok = 0;
    }
    if (ok && lead && !opts->resume_dir && !pf_rundir_is_empty(opts->out_dir)) {
        if (!opts->force) {
            fprintf(stderr, "pairfold: error: run directory %s is not empty (a previous run?): continue it with --resume %s, "
                            "or replace it with --force\n", opts->out_dir, opts->out_dir);
            ok = 0;
        } else if (pf_rundir_clear(opts->out_dir, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: error: --force: %s\n", err);
            ok = 0;
        } else fprintf(stderr, "pairfold: --force: replacing the previous run in %s\n", opts->out_dir);
    }
    if (ok && lead) {
        int n = pf_rundir_remove_orphans(opts->out_dir);
        if (n) pf_warn("removed %d temp file%s left in %s by an interrupted write", n, n > 1 ? "s" : "", opts->out_dir);
    }
    AGREE(ok);
    char path[4200];
    if (lead) {
        char *cj = pf_config_to_json(&cfg);
        printf("pairfold train: configuration\n%s\n", cj);
        snprintf(path, sizeof path, "%s/config.json", opts->out_dir);
        if (pf_write_atomic(path, cj, strlen(cj)) != 0) pf_warn("cannot write %s: %s", path, strerror(errno));
        free(cj);
    }

    // rank 0 first: opening the bundled data may prepare the feature cache
    pf_batch_source *src = NULL;
    if (lead && !(src = pf_open_source(&cfg, err, sizeof err))) fprintf(stderr, "pairfold: error: %s\n", err);
    AGREE(!lead || src);
    if (!lead && !(src = pf_open_source(&cfg, err, sizeof err))) fprintf(stderr, "pairfold: error: rank %d: %s\n", D.rank, err);
    AGREE(src != NULL);
    if (src->schedule) src->schedule(src, D.world, D.rank, cfg.grad_accum);  // prefetch this rank's examples
    pf_model *M = pf_model_create(&cfg, be);
    pf_optim opt;
    pf_optim_init(&opt, &M->P);
    if (cfg.ema_decay > 0) pf_optim_enable_ema(&opt, cfg.ema_decay);
    int64_t start = 0;
    if (opts->resume_dir && pf_ckpt_load(opts->resume_dir, M, &opt, &start, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: cannot resume: %s\n", err);
        ok = 0;
    }
    AGREE(ok);
    if (opts->resume_dir && lead) printf("resumed from %s at step %lld\n", opts->resume_dir, (long long)start);
    if (lead) {
        long long n_params = 0;  // elements (P.total also counts the 16-element alignment padding)
        for (int i = 0; i < M->P.n; i++) n_params += M->P.t[i].numel;
        printf("model: %s trunk, %d parameter tensors, %lld parameters; data: %s; device: %s", pf_trunk_name(cfg.trunk),
               M->P.n, n_params, src->name, be->name);
        if (D.world > 1) printf("; %d ranks (data parallel)", D.world);
        printf("\n");
        fflush(stdout);
    }

    char logp[4200];
    if (opts->log_path) snprintf(logp, sizeof logp, "%s", opts->log_path);
    else snprintf(logp, sizeof logp, "%s/train.jsonl", opts->out_dir);
    FILE *log = NULL;
    if (lead && opts->resume_dir) {  // the steps after the checkpoint run again: drop their old lines
        int n = pf_log_truncate(logp, start, err, sizeof err);
        if (n < 0) fprintf(stderr, "pairfold: error: %s\n", err), ok = 0;
        else if (n > 0) printf("log %s: dropped %d line%s after step %lld (they run again)\n", logp, n, n > 1 ? "s" : "", (long long)start);
    }
    if (ok && lead && !(log = fopen(logp, opts->resume_dir ? "a" : "w"))) {
        fprintf(stderr, "pairfold: error: cannot open log %s: %s\n", logp, strerror(errno));
        ok = 0;
    }
    AGREE(ok);
#undef AGREE

    const int quiet = opts->quiet || !lead, tty = isatty(2) && !quiet;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double t_start = pf_now_ms(), loss_ema = NAN;
    int rc = 0;
    int64_t done_steps = 0;
    const int A = cfg.grad_accum;
    const int64_t last_example = example_of(cfg.steps, A - 1, &D, A);
    pf_batch next;        // the next example of this rank, fetched and staged during the current backward
    int64_t next_e = -1;  // its number, -1 if none
    double next_wait = 0;
    for (int64_t step = start + 1; step <= cfg.steps; step++) {
        double t0 = pf_now_ms();
        // this rank's sums; then one reduction over the ranks:
        // failed, stop, loss, disto, msa, tokens, flops, upload ms, data wait ms
        double agg[9] = {0};
        int cycles = 0;
        pf_params_zero_grad(&M->P);
        for (int k = 0; k < A; k++) {
            int64_t e = example_of(step, k, &D, A);
            pf_batch b;
            if (next_e == e) {
                b = next;
                agg[8] += next_wait;
                next_e = -1;
            } else {
                if (next_e >= 0) pf_batch_free(&next), next_e = -1;
                if (src->next(src, e, 0, &b) != 0) {
                    fprintf(stderr, "pairfold: error: the data source could not produce a batch for step %lld\n", (long long)step);
                    agg[0] = 1;
                    break;
                }
                agg[8] += src->last_wait_ms;
            }
            pf_optim_example_begin(&opt, k);
            pf_step_result rk = pf_model_train_step(M, &b, e);
            if (!isfinite(rk.loss)) {
                fprintf(stderr, "\npairfold: error: loss is %f at step %lld (%s); stopping without saving\n", rk.loss,
                        (long long)step, b.name);
                agg[0] = 1;
                pf_batch_free(&b);
                break;
            }
            // The backward is queued on the device: take this rank's next example from the
            // source and pack it into the free staging slot now, so the device does not
            // wait for it. (A failure here is reported when its turn comes and it is asked again.)
            int64_t ne = k + 1 < A ? e + 1 : example_of(step + 1, 0, &D, A);
            if (e < last_example && !stop_requested && src->next(src, ne, 0, &next) == 0) {
                next_wait = src->last_wait_ms;
                next_e = ne;
                pf_model_stage(M, &next);
            }
            pf_optim_example_end(&opt, k, A);
            agg[2] += rk.loss / A;
            agg[3] += rk.disto / A;
            agg[4] += rk.msa / A;
            agg[5] += b.N;
            agg[6] += rk.flops;
            agg[7] += rk.upload_ms;
            cycles = rk.cycles;
            pf_batch_free(&b);
        }
        agg[1] = stop_requested;
        pf_dist_sum_doubles(&D, agg, 9);  // every rank takes the same decisions below
        if (agg[0] > 0) {
            rc = 1;
            break;
        }
        int stop = agg[1] > 0;
        pf_step_result r = {.loss = agg[2] / D.world, .disto = agg[3] / D.world, .msa = agg[4] / D.world,
                            .cycles = cycles, .flops = agg[6], .upload_ms = agg[7] / D.world};
        int N = (int)agg[5];
        double wait = agg[8] / D.world;
        pf_dist_sum_reals(&D, be, M->P.grad, M->P.total);
        if (A * D.world > 1) pf_params_scale_grad(&M->P, 1.0 / (A * D.world));  // the mean over the step's examples
        double lr = 0, gnorm = pf_optim_step(&opt, &cfg, &lr);
        if (!isfinite(gnorm)) {  // the weights of this update are not to be trusted: nothing is saved
            if (lead) fprintf(stderr, "\npairfold: error: gradient norm is %g at step %lld; stopping without saving\n", gnorm, (long long)step);
            rc = 1;
            break;
        }
        done_steps++;
        be->sync(be);
        double ms = pf_now_ms() - t0;
        val_result vr = {NAN, NAN};
        // validation at the first step (the baseline), every val_every steps and at the end
        if (lead && ((cfg.val_every > 0 && (step % cfg.val_every == 0 || step == start + 1)) || step == cfg.steps)) {
            pf_optim_swap_ema(&opt);  // validate the averaged weights (no-op without EMA)
            vr = validate(M, src);
            pf_optim_swap_ema(&opt);
        }
        double val = vr.loss;
        if (lead) {
            int nonfinite = 0;
            fprintf(log, "{\"step\":%lld", (long long)step);
            nonfinite |= json_num(log, "loss", "%.17g", r.loss);
            nonfinite |= json_num(log, "lr", "%.9g", lr);
            nonfinite |= json_num(log, "grad_norm", "%.9g", gnorm);
            nonfinite |= json_num(log, "ms", "%.3f", ms);
            nonfinite |= json_num(log, "tokens_per_s", "%.2f", N / (ms / 1e3));
            nonfinite |= json_num(log, "data_wait_ms", "%.4f", wait);
            nonfinite |= json_num(log, "upload_ms", "%.4f", r.upload_ms);
            fprintf(log, ",\"n_res\":%d,\"cycles\":%d", N, r.cycles);
            nonfinite |= json_num(log, "tflops", "%.6f", 3 * r.flops / (ms * 1e9));
            nonfinite |= json_num(log, "disto_loss", "%.9g", r.disto);
            nonfinite |= json_num(log, "msa_loss", "%.9g", r.msa);
            if (!isnan(val)) nonfinite |= json_num(log, "val_loss", "%.9g", val);
            if (!isnan(vr.contact_p)) nonfinite |= json_num(log, "val_contact_p_l5", "%.6f", vr.contact_p);
            if (nonfinite) fprintf(log, ",\"nonfinite\":true");  // some value above is null: it was nan or inf
            fprintf(log, "}\n");
            fflush(log);
        }
        loss_ema = isnan(loss_ema) ? r.loss : 0.9 * loss_ema + 0.1 * r.loss;
        double elapsed = (pf_now_ms() - t_start) / 1e3, eta = elapsed / (double)(step - start) * (double)(cfg.steps - step);
        char etab[32];
        fmt_eta(eta, etab, sizeof etab);
        if (!quiet && (tty || step % 10 == 0 || step == cfg.steps || !isnan(val))) {
            fprintf(stderr, "%sstep %lld/%d  loss %.4f (avg %.4f)  lr %.2e  |g| %.3f  %.0f ms/step  %.0f tok/s  ETA %s",
                    tty ? "\r" : "", (long long)step, cfg.steps, r.loss, loss_ema, lr, gnorm, ms, N / (ms / 1e3), etab);
            if (!isnan(val)) fprintf(stderr, "  val %.4f", val);
            if (!isnan(vr.contact_p)) fprintf(stderr, " P@L/5 %.3f", vr.contact_p);
            fprintf(stderr, tty && isnan(val) && step != cfg.steps ? "   " : "\n");
        }
        if ((cfg.ckpt_every > 0 && step % cfg.ckpt_every == 0) || step == cfg.steps || stop) {
            char where[4200];
            double fail = 0;
            if (lead && pf_ckpt_save(opts->out_dir, M, &opt, step, where, sizeof where, err, sizeof err) != 0) {
                fprintf(stderr, "\npairfold: error: checkpoint failed: %s\n", err);
                fail = 1;
            }
            pf_dist_sum_doubles(&D, &fail, 1);
            if (fail > 0) {
                rc = 1;
                break;
            }
            if (!quiet) fprintf(stderr, "%scheckpoint: %s\n", tty ? "\n" : "", where);
            if (lead) pf_rundir_prune(opts->out_dir, cfg.keep_checkpoints);
        }
        if (stop) {
            if (lead) fprintf(stderr, "stopped by signal after step %lld; resume with --resume %s\n", (long long)step, opts->out_dir);
            rc = 130;
            break;
        }
    }
    if (next_e >= 0) pf_batch_free(&next);
    if (log) fclose(log);
    if (lead) {
        printf("done: %lld steps in %.1f s; log %s", (long long)done_steps, (pf_now_ms() - t_start) / 1e3, logp);
        if (src->schedule) printf("; batches not ready in the prefetch queue: %lld", (long long)src->misses);
        printf("\n");
    }
    pf_optim_free(&opt);
    pf_model_free(M);
    if (src->destroy) src->destroy(src);
    pf_dist_finalize(&D);
    pf_rundir_unlock(lock);
    return rc;
}
