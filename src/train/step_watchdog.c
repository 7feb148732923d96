// step_watchdog.c: a thread that watches the training loop's steps. A step that runs past
// the limit (step_timeout_s) stops the process with exit status PF_WATCHDOG_EXIT and a
// message naming the step, its time, the limit and the checkpoint to resume from. Session
// 26's hung step (a GPU kernel spinning for ever) held its process until killed from
// outside; on a cluster that is a lost allocation with no word of why.
//
// The main thread only takes the mutex for a few stores between steps, never while it
// waits on the device, so the watcher can always read the state. Nothing is saved on
// the way out: the stuck thread may hold the model half-updated; the last checkpoint is
// the consistent state.
#include "step_watchdog.h"
#include "../core/util.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pf_step_watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake;  // the watcher's nap (CLOCK_MONOTONIC), cut short by pf_step_watchdog_stop
    double fixed_s;      // > 0: the limit; 0: automatic
    double slowest_s;    // the slowest completed step
    int64_t step;        // the step in flight (-1: between steps)
    double began_ms;     // when it started (pf_now_ms)
    int quit;
    int writes_ckpt;     // rank 0: the checkpoints are this process's
    char run_dir[1024];
    char ckpt[1024];     // the newest checkpoint written ("" before the first)
};

static double limit_locked(const pf_step_watchdog *w) {
    if (w->fixed_s > 0) return w->fixed_s;
    double a = PF_WATCHDOG_FACTOR * w->slowest_s;
    return a > PF_WATCHDOG_MIN_S ? a : PF_WATCHDOG_MIN_S;
}

// The message, then out: _exit, since the stuck thread holds what exit() would flush or free.
static void hung(pf_step_watchdog *w, int64_t step, double ran_s, double limit_s) {
    char msg[3072];
    char why[160];
    if (w->fixed_s > 0) snprintf(why, sizeof why, "step_timeout_s = %g", w->fixed_s);
    else snprintf(why, sizeof why, "step_timeout_s = 0: %g x the slowest step so far, at least %g s", PF_WATCHDOG_FACTOR,
                  PF_WATCHDOG_MIN_S);
    char then[2200];
    if (w->ckpt[0]) snprintf(then, sizeof then, "The last checkpoint is %s; continue with --resume %s", w->ckpt, w->run_dir);
    else if (w->writes_ckpt) snprintf(then, sizeof then, "No checkpoint was written yet.");
    else snprintf(then, sizeof then, "Rank 0 writes the checkpoints: %s/latest names the last one.", w->run_dir);
    int n = snprintf(msg, sizeof msg,
                     "\npairfold: error: step %lld has run for %.2f s, past the step time limit of %.2f s (%s): stopped "
                     "as hung (exit %d): a kernel, collective or wait that never returned. %s\n",
                     (long long)step, ran_s, limit_s, why, PF_WATCHDOG_EXIT, then);
    if (n > 0) {
        ssize_t r = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
        (void)r;
    }
    _exit(PF_WATCHDOG_EXIT);
}

// Naps on the condition variable with the mutex released (the main thread's stores go through), so that
// stop wakes it at once: a sleep left every run's exit waiting up to a nap (1 s) for the join.
static void *watch(void *arg) {
    pf_step_watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        double lim = limit_locked(w), ran = w->step >= 0 ? (pf_now_ms() - w->began_ms) / 1e3 : 0;
        if (w->step >= 0 && ran > lim) hung(w, w->step, ran, lim);  // does not return
        // a tenth of the limit, between 10 ms (the tests' tiny limits) and 1 s
        double nap = lim / 10 < 0.01 ? 0.01 : lim / 10 > 1 ? 1 : lim / 10;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        long ns = ts.tv_nsec + (long)(nap * 1e9);
        ts.tv_sec += ns / 1000000000L;
        ts.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&w->wake, &w->mu, &ts);  // a timeout, stop's signal or a spurious wake: look again
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

pf_step_watchdog *pf_step_watchdog_start(double limit_s, const char *run_dir, int writes_ckpt) {
    if (limit_s < 0) return NULL;
    pf_step_watchdog *w = pf_malloc(sizeof *w);
    memset(w, 0, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    w->fixed_s = limit_s;
    w->step = -1;
    w->writes_ckpt = writes_ckpt;
    snprintf(w->run_dir, sizeof w->run_dir, "%s", run_dir ? run_dir : "");
    if (pthread_create(&w->thread, NULL, watch, w) != 0) pf_die("step_timeout_s: cannot start the watchdog thread");
    return w;
}

void pf_step_watchdog_begin(pf_step_watchdog *w, int64_t step) {
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->step = step;
    w->began_ms = pf_now_ms();
    pthread_mutex_unlock(&w->mu);
}

void pf_step_watchdog_end(pf_step_watchdog *w, double step_s) {
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->step = -1;
    if (step_s > w->slowest_s) w->slowest_s = step_s;
    pthread_mutex_unlock(&w->mu);
}

void pf_step_watchdog_checkpoint(pf_step_watchdog *w, const char *ckpt) {
    if (!w || !ckpt) return;
    pthread_mutex_lock(&w->mu);
    snprintf(w->ckpt, sizeof w->ckpt, "%s", ckpt);
    pthread_mutex_unlock(&w->mu);
}

void pf_step_watchdog_stop(pf_step_watchdog *w) {
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mu);
    pf_free(w);
}
