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
#include "dap_group.h"
#include "../registry/registry.h"
#include "rundir.h"
#include "step_watchdog.h"

// SIGINT / SIGTERM: finish the step in flight, write a checkpoint, stop. A second one stops at
// once (the default action: a step that never ends, as a hung GPU kernel, would otherwise
// hold the process; checkpoints are written by rename, so none is left half written).
static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) {
    static const char first[] =
        "\npairfold: stopping after the step in flight and its checkpoint; signal again to stop now\n";
    if (stop_requested) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_requested = 1;
    ssize_t w = write(2, first, sizeof first - 1);
    (void)w;
}

// Validation: the distogram loss, and the precision of the top L/5 long-range
// (|i - j| >= 24) predicted contacts, means over the held-out batches.
typedef struct {
    double loss, contact_p, lddt_ca;  // lddt_ca: structure module only
} val_result;

static val_result validate(pf_model *M, pf_batch_source *src) {
    val_result v = {NAN, NAN, NAN};
    if (!src->val || src->n_val <= 0) return v;
    double sum = 0, psum = 0, lsum = 0;
    int n = 0, np = 0, nl = 0;
    for (int i = 0; i < src->n_val; i++) {
        pf_batch b;
        if (src->val(src, i, &b) != 0) continue;
        pf_step_result er = pf_model_eval(M, &b);  // leaves the final pair representation in M->z
        sum += er.disto;
        if (!isnan(er.lddt_ca)) lsum += er.lddt_ca, nl++;  // batches with backbone frames only
        n++;
        float *contact = pf_malloc(sizeof(float) * (size_t)b.N * (size_t)b.N);
        pf_distogram_predict(M, b.N, NULL, NULL, contact);
        double p = pf_contact_precision(contact, &b, 24, 0);
        if (!isnan(p)) psum += p, np++;
        pf_free(contact);
        pf_batch_free(&b);
    }
    if (n) v.loss = sum / n;
    if (nl && M->cfg.structure_module) v.lddt_ca = lsum / nl;
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

// Example numbers: micro-batch k of a step on data-parallel group r of W is
// example ((step - 1) W + r) A + k + 1 (A = grad_accum). The number selects the
// data and the dropout masks, so a step is the same after a resume, and W groups
// with A examples each see the examples one process with grad_accum = W A would.
// A group is one rank, or with dap = P the P ranks sharing one structure
// (ranks r P .. r P + P - 1), which all take the same examples.
typedef struct { int rank, world; } data_group;
static int64_t example_of(int64_t step, int k, data_group G, int A) {
    return ((step - 1) * G.world + G.rank) * (int64_t)A + k + 1;
}

// One training run: what the set-up opens and the steps share.
typedef struct {
    pf_config cfg;
    const pf_train_opts *opts;
    pf_dist D;
    data_group G;     // this rank's data-parallel group (dap: D.world / dap groups of dap ranks)
    pf_dap_host dh;   // the dap group's collectives on the host (dap > 1)
    pf_dap_comm *dc;  // or the backend's own on the device (CUDA: NCCL), NULL if none
    int lead;         // rank 0: logs, validates, writes checkpoints
    int quiet, tty;   // no progress lines / progress rewritten in place on a terminal
    int lock;         // rank 0's lock on the run directory, -1 if none
    pf_backend *be;
    pf_batch_source *src;
    pf_model *M;
    pf_optim opt;
    int64_t start;    // the step of the checkpoint resumed from, 0 for a fresh run
    char logp[4200];  // the JSON log's path
    FILE *log;        // the JSON log (rank 0)
    double t_start, loss_ema;
    int64_t done_steps;
    int64_t last_example;  // this rank's last example of the run
    pf_batch next;         // the next example of this rank, fetched and staged during the current backward
    int64_t next_e;        // its number, -1 if none
    double next_wait;      // the data wait it took
    pf_step_watchdog *wd;  // stops the run if a step never ends (step_timeout_s); NULL if off
} train_run;

// Set-up failures on any rank stop every rank (a rank left waiting in a
// collective would hang): each set-up step is agreed on before the next.
// Returns 0 when every rank's ok is set; otherwise 2, the run's exit status.
static int agree(train_run *R, int ok) {
    double bad = ok ? 0 : 1;
    pf_dist_sum_doubles(&R->D, &bad, 1);
    if (bad > 0) {
        if (ok && R->D.world > 1) fprintf(stderr, "pairfold: rank %d: stopping: another rank failed to start\n", R->D.rank);
        pf_dist_finalize(&R->D);
        return 2;
    }
    return 0;
}

// The world sum the dap group's collectives are built from (dap_group.h).
static void dap_world_sum(void *ctx, real *x, int64_t n) {
    train_run *R = ctx;
    pf_dist_sum_reals(&R->D, R->be, x, n);
}

// dap = P: the world forms world / P data-parallel groups of P ranks.
static int dap_groups(train_run *R) {
    char err[256];
    const int P = R->cfg.dap;
    R->G = (data_group){R->D.rank / P, R->D.world / P};
    int bad = pf_dap_host_init(&R->dh, R->D.rank, R->D.world, P, dap_world_sum, R, err, sizeof err);
    if (!bad && P > 1 && R->G.world > 1 && R->cfg.recycles > 0) {  // each group's collectives must line up
        snprintf(err, sizeof err, "dap = %d with %d data-parallel groups needs recycles = 0 (the groups' examples "
                 "would run different numbers of recycling passes)", P, R->G.world);
        bad = 1;
    }
    if (bad) {
        if (R->lead) fprintf(stderr, "pairfold: error: configuration: %s\n", err);
        pf_dist_finalize(&R->D);
        return 2;
    }
    return 0;
}

// This rank's device backend, attached to the ranks' communicator.
static int open_backend(train_run *R) {
    char err[1024];
    R->be = pf_backend_open(R->cfg.device, R->D.local_rank, err, sizeof err);
    if (!R->be) fprintf(stderr, "pairfold: error: %s\n", err);
    if (agree(R, R->be != NULL) != 0) return 2;
    if (pf_dist_attach(&R->D, R->be, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: rank %d: %s\n", R->D.rank, err);
        pf_dist_finalize(&R->D);
        return 2;
    }
    // dap > 1 on a backend with device collectives: one communicator per dap group
    if (R->cfg.dap > 1 && R->D.world > 1 && R->be->dap_comm_open) {
        pf_coll_host host = pf_dist_host(&R->D);
        R->dc = R->be->dap_comm_open(R->be, &host, R->cfg.dap, err, sizeof err);
        if (!R->dc) fprintf(stderr, "pairfold: error: rank %d: dap groups: %s\n", R->D.rank, err);
        return agree(R, R->dc != NULL);
    }
    return 0;
}

// rank 0 owns the run directory: one process at a time, a fresh run only into an
// empty one (or with --force), no temp files left by a killed write
static int claim_rundir(train_run *R) {
    const pf_train_opts *opts = R->opts;
    char err[1024];
    int ok = 1;
    if (R->lead && (R->lock = pf_rundir_lock(opts->out_dir, err, sizeof err)) < 0) {
        fprintf(stderr, "pairfold: error: %s\n", err);
        ok = 0;
    }
    if (ok && R->lead && !opts->resume_dir && !pf_rundir_is_empty(opts->out_dir)) {
        if (!opts->force) {
            fprintf(stderr, "pairfold: error: run directory %s is not empty (a previous run?): continue it with --resume %s, "
                            "or replace it with --force\n", opts->out_dir, opts->out_dir);
            ok = 0;
        } else if (pf_rundir_clear(opts->out_dir, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: error: --force: %s\n", err);
            ok = 0;
        } else fprintf(stderr, "pairfold: --force: replacing the previous run in %s\n", opts->out_dir);
    }
    if (ok && R->lead) {
        int n = pf_rundir_remove_orphans(opts->out_dir);
        if (n) pf_warn("removed %d temp file%s left in %s by an interrupted write", n, n > 1 ? "s" : "", opts->out_dir);
    }
    return agree(R, ok);
}

// rank 0: the configuration on stdout and in <out>/config.json
static void write_config(const train_run *R) {
    char path[4200];
    char *cj = pf_config_to_json(&R->cfg);
    printf("pairfold train: configuration\n%s\n", cj);
    snprintf(path, sizeof path, "%s/config.json", R->opts->out_dir);
    if (pf_write_atomic(path, cj, strlen(cj)) != 0) pf_warn("cannot write %s: %s", path, strerror(errno));
    free(cj);
}

// The data source; rank 0 first: opening the bundled data may prepare the
// feature cache. Then the source is told which examples this rank will ask for.
static int open_data(train_run *R) {
    char err[1024];
    if (R->lead && !(R->src = pf_open_source(&R->cfg, err, sizeof err))) fprintf(stderr, "pairfold: error: %s\n", err);
    if (agree(R, !R->lead || R->src) != 0) return 2;
    if (!R->lead && !(R->src = pf_open_source(&R->cfg, err, sizeof err)))
        fprintf(stderr, "pairfold: error: rank %d: %s\n", R->D.rank, err);
    if (agree(R, R->src != NULL) != 0) return 2;
    if (R->src->schedule) R->src->schedule(R->src, R->G.world, R->G.rank, R->cfg.grad_accum);  // prefetch this rank's examples
    return 0;
}

// The model and its optimizer, loaded from the checkpoint when resuming.
static int create_model(train_run *R) {
    const pf_train_opts *opts = R->opts;
    char err[1024];
    R->M = pf_model_create(&R->cfg, R->be);
    pf_optim_init(&R->opt, &R->M->P);
    if (R->cfg.ema_decay > 0) pf_optim_enable_ema(&R->opt, R->cfg.ema_decay);
    R->start = 0;
    int ok = 1;
    if (opts->resume_dir && pf_ckpt_load(opts->resume_dir, R->M, &R->opt, &R->start, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: cannot resume: %s\n", err);
        ok = 0;
    }
    if (ok && pf_model_attach_dap(R->M, R->dc ? R->dc : &R->dh.c, err, sizeof err) != 0) {
        fprintf(stderr, "pairfold: error: rank %d: %s\n", R->D.rank, err);
        ok = 0;
    }
    if (agree(R, ok) != 0) return 2;
    if (opts->resume_dir && R->lead) printf("resumed from %s at step %lld\n", opts->resume_dir, (long long)R->start);
    return 0;
}

// rank 0: one line on what is trained, on what data, where
static void print_summary(const train_run *R) {
    const pf_model *M = R->M;
    long long n_params = 0;  // elements (P.total also counts the 16-element alignment padding)
    for (int i = 0; i < M->P.n; i++) n_params += M->P.t[i].numel;
    printf("model: %s trunk, %d parameter tensors, %lld parameters; data: %s; device: %s", pf_trunk_name(R->cfg.trunk),
           M->P.n, n_params, R->src->name, R->be->name);
    if (R->D.world > 1 && R->cfg.dap > 1)
        printf("; %d ranks (%d data-parallel groups x dap %d)", R->D.world, R->G.world, R->cfg.dap);
    else if (R->D.world > 1) printf("; %d ranks (data parallel)", R->D.world);
    printf("\n");
    fflush(stdout);
}

// rank 0's JSON log (--log, or <out>/train.jsonl); when resuming, it is appended
// to after dropping the lines of the steps after the checkpoint.
static int open_log(train_run *R) {
    const pf_train_opts *opts = R->opts;
    char err[1024];
    int ok = 1;
    if (opts->log_path) snprintf(R->logp, sizeof R->logp, "%s", opts->log_path);
    else snprintf(R->logp, sizeof R->logp, "%s/train.jsonl", opts->out_dir);
    if (R->lead && opts->resume_dir) {  // the steps after the checkpoint run again: drop their old lines
        int n = pf_log_truncate(R->logp, R->start, err, sizeof err);
        if (n < 0) fprintf(stderr, "pairfold: error: %s\n", err), ok = 0;
        else if (n > 0)
            printf("log %s: dropped %d line%s after step %lld (they run again)\n", R->logp, n, n > 1 ? "s" : "",
                   (long long)R->start);
    }
    if (ok && R->lead && !(R->log = fopen(R->logp, opts->resume_dir ? "a" : "w"))) {
        fprintf(stderr, "pairfold: error: cannot open log %s: %s\n", R->logp, strerror(errno));
        ok = 0;
    }
    return agree(R, ok);
}

// Everything a run needs, agreed on step by step over the ranks. Returns 0, or 2
// (the exit status) when some rank failed.
static int set_up(train_run *R) {
    if (open_backend(R) != 0 || claim_rundir(R) != 0) return 2;
    if (R->lead) write_config(R);
    if (open_data(R) != 0 || create_model(R) != 0) return 2;
    if (R->lead) print_summary(R);
    return open_log(R);
}

static void install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);  // both blocked in the handler: a second signal sees the first one's flag
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

// This rank's sums over a step's examples; one reduction over the ranks makes them
// the same on every rank.
enum { SUM_FAILED, SUM_STOP, SUM_LOSS, SUM_DISTO, SUM_MSA, SUM_FAPE, SUM_LDDT, SUM_SM_N, SUM_TOKENS, SUM_FLOPS, SUM_UPLOAD_MS, SUM_WAIT_MS, N_SUMS };

// Example e: the one fetched during the previous backward if it is e, else from
// the source now. Returns nonzero (and marks the step failed) if there is none.
static int take_example(train_run *R, int64_t step, int64_t e, pf_batch *b, double *sums) {
    if (R->next_e == e) {
        *b = R->next;
        sums[SUM_WAIT_MS] += R->next_wait;
        R->next_e = -1;
        return 0;
    }
    if (R->next_e >= 0) pf_batch_free(&R->next), R->next_e = -1;
    if (R->src->next(R->src, e, 0, b) != 0) {
        fprintf(stderr, "pairfold: error: the data source could not produce a batch for step %lld\n", (long long)step);
        sums[SUM_FAILED] = 1;
        return 1;
    }
    sums[SUM_WAIT_MS] += R->src->last_wait_ms;
    return 0;
}

// The backward of example e (micro-batch k of the step) is queued on the device:
// take this rank's next example from the source and pack it into the free staging
// slot now, so the device does not wait for it. (A failure here is reported when
// its turn comes and it is asked again.)
static void prefetch_next(train_run *R, int64_t step, int k, int64_t e) {
    const int A = R->cfg.grad_accum;
    int64_t ne = k + 1 < A ? e + 1 : example_of(step + 1, 0, R->G, A);
    if (e < R->last_example && !stop_requested && R->src->next(R->src, ne, 0, &R->next) == 0) {
        R->next_wait = R->src->last_wait_ms;
        R->next_e = ne;
        pf_model_stage(R->M, &R->next);
    }
}

// Forward and backward of this rank's grad_accum examples of a step, gradients
// accumulated, results added to sums. Returns the recycling iterations of the last.
static int run_examples(train_run *R, int64_t step, double *sums) {
    const int A = R->cfg.grad_accum;
    int cycles = 0;
    pf_params_zero_grad(&R->M->P);
    for (int k = 0; k < A; k++) {
        int64_t e = example_of(step, k, R->G, A);
        pf_batch b;
        if (take_example(R, step, e, &b, sums) != 0) break;
        pf_optim_example_begin(&R->opt, k);  // each example's gradient from zero, summed in example order
        pf_step_result rk = pf_model_train_step(R->M, &b, e);
        if (!isfinite(rk.loss)) {
            fprintf(stderr, "\npairfold: error: loss is %f at step %lld (%s); stopping without saving\n", rk.loss,
                    (long long)step, b.name);
            sums[SUM_FAILED] = 1;
            pf_batch_free(&b);
            break;
        }
        prefetch_next(R, step, k, e);
        pf_optim_example_end(&R->opt, k, A);
        sums[SUM_LOSS] += rk.loss / A;
        sums[SUM_DISTO] += rk.disto / A;
        sums[SUM_MSA] += rk.msa / A;
        if (!isnan(rk.fape)) {  // examples with backbone frames only (model.h)
            sums[SUM_FAPE] += rk.fape;
            sums[SUM_LDDT] += rk.lddt_ca;
            sums[SUM_SM_N] += 1;
        }
        sums[SUM_TOKENS] += b.N;
        sums[SUM_FLOPS] += rk.flops;
        sums[SUM_UPLOAD_MS] += rk.upload_ms;
        cycles = rk.cycles;
        pf_batch_free(&b);
    }
    return cycles;
}

// The gradients summed over the ranks and averaged over the step's examples, then
// the optimizer step. Returns nonzero if the gradient norm is not finite: the
// weights of this update are not to be trusted and nothing is saved.
static int update_weights(train_run *R, int64_t step, double *lr, double *gnorm) {
    const int A = R->cfg.grad_accum, W = R->G.world;
    // dap: each rank holds its share of its group's gradients (model.h), so the
    // world sum is the sum over the groups' examples
    pf_dist_sum_reals(&R->D, R->be, R->M->P.grad, R->M->P.total);
    if (A * W > 1) pf_params_scale_grad(&R->M->P, 1.0 / (A * W));  // the mean over the step's examples
    *lr = 0;
    *gnorm = pf_optim_step(&R->opt, &R->cfg, lr);
    if (!isfinite(*gnorm)) {
        if (R->lead) fprintf(stderr, "\npairfold: error: gradient norm is %g at step %lld; stopping without saving\n", *gnorm, (long long)step);
        return 1;
    }
    return 0;
}

// What a finished step reports, in the log and on the progress line.
typedef struct {
    int64_t step;
    pf_step_result r;  // means over the ranks (flops: the sum)
    int N;             // tokens of the step's examples, all ranks
    double lr, gnorm, ms, wait;
    val_result vr;     // nan when the step did not validate
} step_report;

// Validation at the first step (the baseline), every val_every steps and at the end.
static int validation_due(const train_run *R, int64_t step) {
    return (R->cfg.val_every > 0 && (step % R->cfg.val_every == 0 || step == R->start + 1)) || step == R->cfg.steps;
}

// rank 0: validate the averaged weights (the weights themselves without EMA)
static val_result validate_averaged(train_run *R) {
    pf_optim_swap_ema(&R->opt);
    val_result vr = validate(R->M, R->src);
    pf_optim_swap_ema(&R->opt);
    return vr;
}

// rank 0: the step's line in the JSON log
static void log_step(train_run *R, const step_report *s) {
    FILE *log = R->log;
    const pf_step_result *r = &s->r;
    int nonfinite = 0;
    fprintf(log, "{\"step\":%lld", (long long)s->step);
    nonfinite |= json_num(log, "loss", "%.17g", r->loss);
    nonfinite |= json_num(log, "lr", "%.9g", s->lr);
    nonfinite |= json_num(log, "grad_norm", "%.9g", s->gnorm);
    nonfinite |= json_num(log, "ms", "%.3f", s->ms);
    nonfinite |= json_num(log, "tokens_per_s", "%.2f", s->N / (s->ms / 1e3));
    nonfinite |= json_num(log, "data_wait_ms", "%.4f", s->wait);
    nonfinite |= json_num(log, "upload_ms", "%.4f", r->upload_ms);
    fprintf(log, ",\"n_res\":%d,\"cycles\":%d", s->N, r->cycles);
    nonfinite |= json_num(log, "tflops", "%.6f", 3 * r->flops / (s->ms * 1e9));
    nonfinite |= json_num(log, "disto_loss", "%.9g", r->disto);
    nonfinite |= json_num(log, "msa_loss", "%.9g", r->msa);
    if (R->M->cfg.structure_module && !isnan(r->fape)) {  // nan: no example of the step had backbone frames
        nonfinite |= json_num(log, "fape", "%.9g", r->fape);
        nonfinite |= json_num(log, "lddt_ca", "%.6f", r->lddt_ca);
    }
    if (!isnan(s->vr.loss)) nonfinite |= json_num(log, "val_loss", "%.9g", s->vr.loss);
    if (!isnan(s->vr.contact_p)) nonfinite |= json_num(log, "val_contact_p_l5", "%.6f", s->vr.contact_p);
    if (!isnan(s->vr.lddt_ca)) nonfinite |= json_num(log, "val_lddt_ca", "%.6f", s->vr.lddt_ca);
    if (nonfinite) fprintf(log, ",\"nonfinite\":true");  // some value above is null: it was nan or inf
    fprintf(log, "}\n");
    fflush(log);
}

// The progress line on stderr: rewritten in place on a terminal, else every 10
// steps, at the end and when validating.
static void print_progress(train_run *R, const step_report *s) {
    const int64_t step = s->step;
    const double val = s->vr.loss;
    R->loss_ema = isnan(R->loss_ema) ? s->r.loss : 0.9 * R->loss_ema + 0.1 * s->r.loss;
    double elapsed = (pf_now_ms() - R->t_start) / 1e3, eta = elapsed / (double)(step - R->start) * (double)(R->cfg.steps - step);
    char etab[32];
    fmt_eta(eta, etab, sizeof etab);
    if (!R->quiet && (R->tty || step % 10 == 0 || step == R->cfg.steps || !isnan(val))) {
        fprintf(stderr, "%sstep %lld/%d  loss %.4f (avg %.4f)  lr %.2e  |g| %.3f  %.0f ms/step  %.0f tok/s  ETA %s",
                R->tty ? "\r" : "", (long long)step, R->cfg.steps, s->r.loss, R->loss_ema, s->lr, s->gnorm, s->ms,
                s->N / (s->ms / 1e3), etab);
        if (!isnan(val)) fprintf(stderr, "  val %.4f", val);
        if (!isnan(s->vr.contact_p)) fprintf(stderr, " P@L/5 %.3f", s->vr.contact_p);
        if (!isnan(s->vr.lddt_ca)) fprintf(stderr, " lDDT-Ca %.3f", s->vr.lddt_ca);
        fprintf(stderr, R->tty && isnan(val) && step != R->cfg.steps ? "   " : "\n");
    }
}

// rank 0 writes the checkpoint of a step and prunes old ones; every rank learns
// whether that failed. Returns nonzero on failure.
static int save_checkpoint(train_run *R, int64_t step) {
    char where[4200], err[1024];
    double fail = 0;
    if (R->lead && pf_ckpt_save(R->opts->out_dir, R->M, &R->opt, step, where, sizeof where, err, sizeof err) != 0) {
        fprintf(stderr, "\npairfold: error: checkpoint failed: %s\n", err);
        fail = 1;
    } else if (R->lead) {
        pf_step_watchdog_checkpoint(R->wd, where);  // at once: a hang from here on names this checkpoint
    }
    pf_dist_sum_doubles(&R->D, &fail, 1);
    if (fail > 0) return 1;
    if (!R->quiet) fprintf(stderr, "%scheckpoint: %s\n", R->tty ? "\n" : "", where);
    if (R->lead) pf_rundir_prune(R->opts->out_dir, R->cfg.keep_checkpoints);
    return 0;
}

// One optimizer step: this rank's examples, the sums and gradients reduced over
// the ranks, the update; then the log and progress lines, validation and a
// checkpoint when due. Returns 0 to go on, else the run's exit status (1: a
// failure, 130: stopped by a signal after the step's checkpoint).
static int run_step(train_run *R, int64_t step) {
    const int W = R->D.world;
    double t0 = pf_now_ms();
    double sums[N_SUMS] = {0};
    int cycles = run_examples(R, step, sums);
    sums[SUM_STOP] = stop_requested;
    pf_dist_sum_doubles(&R->D, sums, N_SUMS);  // every rank takes the same decisions below
    if (sums[SUM_FAILED] > 0) return 1;
    int stop = sums[SUM_STOP] > 0;
    step_report s = {.step = step, .N = (int)(sums[SUM_TOKENS] / R->cfg.dap), .wait = sums[SUM_WAIT_MS] / W, .vr = {NAN, NAN, NAN}};
    s.r = (pf_step_result){.loss = sums[SUM_LOSS] / W, .disto = sums[SUM_DISTO] / W, .msa = sums[SUM_MSA] / W,
                           .fape = sums[SUM_FAPE] / sums[SUM_SM_N], .lddt_ca = sums[SUM_LDDT] / sums[SUM_SM_N],
                           .cycles = cycles, .flops = sums[SUM_FLOPS] / R->cfg.dap, .upload_ms = sums[SUM_UPLOAD_MS] / W};
    if (update_weights(R, step, &s.lr, &s.gnorm) != 0) return 1;
    R->done_steps++;
    R->be->sync(R->be);
    s.ms = pf_now_ms() - t0;
    // with dap every rank evaluates (the sharded trunk needs its whole group); rank 0 reports
    if ((R->lead || R->cfg.dap > 1) && validation_due(R, step)) s.vr = validate_averaged(R);
    if (R->lead) log_step(R, &s);
    print_progress(R, &s);
    if ((R->cfg.ckpt_every > 0 && step % R->cfg.ckpt_every == 0) || step == R->cfg.steps || stop)
        if (save_checkpoint(R, step) != 0) return 1;
    if (stop) {
        if (R->lead) fprintf(stderr, "stopped by signal after step %lld; resume with --resume %s\n", (long long)step, R->opts->out_dir);
        return 130;
    }
    return 0;
}

// Everything the set-up opened, in reverse order; any part may be missing (a
// set-up that stopped half way). The backend goes last: the model's memory and
// the collectives are its own. Safe to call twice.
static void release(train_run *R) {
    pf_step_watchdog_stop(R->wd);
    R->wd = NULL;
    if (R->next_e >= 0) pf_batch_free(&R->next), R->next_e = -1;
    if (R->log) fclose(R->log), R->log = NULL;
    if (R->M) pf_optim_free(&R->opt), pf_model_free(R->M), R->M = NULL;
    if (R->dc) R->be->dap_comm_close(R->be, R->dc), R->dc = NULL;
    if (R->src && R->src->destroy) R->src->destroy(R->src);
    R->src = NULL;
    pf_dap_host_free(&R->dh);
    pf_dist_finalize(&R->D);
    if (R->be && R->be->destroy) R->be->destroy(R->be);
    R->be = NULL;
    pf_rundir_unlock(R->lock);
    R->lock = -1;
}

// The end of a run, however it ended: rank 0's summary line (other ranks of a
// device run print their peak memory), everything released.
static void finish_run(train_run *R) {
    if (R->lead) {
        printf("done: %lld steps in %.1f s; log %s", (long long)R->done_steps, (pf_now_ms() - R->t_start) / 1e3, R->logp);
        if (R->src->schedule) printf("; batches not ready in the prefetch queue: %lld", (long long)R->src->misses);
        // the backend's peak (GPU: device memory held by pairfold's allocations)
        if (R->be && R->be->peak_bytes) printf("; peak %s memory %.2f GiB", R->be->name, (double)R->be->peak_bytes(R->be, 0) / (1u << 30));
        printf("\n");
    } else if (R->be && R->be->peak_bytes) {
        printf("rank %d: peak %s memory %.2f GiB\n", R->D.rank, R->be->name, (double)R->be->peak_bytes(R->be, 0) / (1u << 30));
    }
    fflush(stdout);
    release(R);
}

int pf_train_run(const pf_config *cfg_in, const pf_train_opts *opts) {
    train_run R;
    memset(&R, 0, sizeof R);
    R.cfg = *cfg_in;
    R.opts = opts;
    R.lock = -1;
    R.next_e = -1;
    R.loss_ema = NAN;
    char err[1024];
    if (pf_config_validate(&R.cfg, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    // lr_decay_steps 0: the cosine decay spans this run's steps. The number goes into
    // config.json, so a resume keeps the schedule the run started with, also when it
    // is given more --steps (stopping early and resuming changes nothing)
    if (!opts->resume_dir && R.cfg.lr_decay_steps == 0) R.cfg.lr_decay_steps = R.cfg.steps;
    if (pf_dist_init(&R.D, err, sizeof err) != 0) { fprintf(stderr, "pairfold: error: %s\n", err); return 2; }
    R.lead = R.D.rank == 0;
    if (dap_groups(&R) != 0 || set_up(&R) != 0) {
        release(&R);  // what the set-up opened before it stopped
        return 2;
    }

    R.quiet = opts->quiet || !R.lead;
    R.tty = isatty(2) && !R.quiet;
    install_signal_handlers();
    R.t_start = pf_now_ms();
    R.last_example = example_of(R.cfg.steps, R.cfg.grad_accum - 1, R.G, R.cfg.grad_accum);
    int rc = 0;
    // after the set-up: a rendezvous has its own timeout (PF_RENDEZVOUS_TIMEOUT)
    R.wd = pf_step_watchdog_start(R.cfg.step_timeout_s, opts->out_dir, R.lead);
    for (int64_t step = R.start + 1; step <= R.cfg.steps && rc == 0; step++) {
        double t0 = pf_now_ms();
        pf_step_watchdog_begin(R.wd, step);
        rc = run_step(&R, step);
        pf_step_watchdog_end(R.wd, (pf_now_ms() - t0) / 1e3);
    }
    finish_run(&R);
    return rc;
}
