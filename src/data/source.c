// The cache batch source: a pf_sampler behind worker threads and a bounded
// prefetch queue of the next `prefetch` steps.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "data.h"
#include "sampler.h"
#include "textio.h"

typedef struct {
    int64_t step;
    int ready, rc;
    pf_batch b;
} slot;

typedef struct {
    pf_sampler s;
    int depth, n_workers;
    pthread_t *th;
    int n_threads;
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_ready;
    slot *slots;   // (depth) slot of step t is t % depth
    int64_t head;  // the step next() is expected to ask for
    int64_t claim; // next step a worker will produce
    int rank;
    int sw, sr, sa;  // schedule: world, rank, accum (see batch.h); head / claim count positions t in it
    uint64_t gen;  // bumped on restart; stale results are dropped
    int stop;
} impl;

// Position t of the schedule <-> step number; -1 for a step outside it.
static int64_t step_at(const impl *m, int64_t t) { return ((t / m->sa) * m->sw + m->sr) * m->sa + t % m->sa + 1; }
static int64_t pos_of(const impl *m, int64_t step) {
    int64_t x = step - 1, s = x / m->sa, k = x % m->sa;
    if (step < 1 || s % m->sw != m->sr) return -1;
    return (s / m->sw) * m->sa + k;
}

static void clear_slots(impl *m) {
    for (int i = 0; i < m->depth; i++)
        if (m->slots[i].ready) pf_batch_free(&m->slots[i].b), m->slots[i].ready = 0;
}

static void *worker(void *arg) {
    impl *m = arg;
    pthread_mutex_lock(&m->mu);
    while (!m->stop) {
        if (m->claim >= m->head + m->depth) {
            pthread_cond_wait(&m->cv_work, &m->mu);
            continue;
        }
        int64_t t = m->claim++, step = step_at(m, t);
        int rank = m->rank;
        uint64_t gen = m->gen;
        pthread_mutex_unlock(&m->mu);
        pf_batch b;
        int rc = pf_sampler_batch(&m->s, step, rank, &b);
        pthread_mutex_lock(&m->mu);
        if (gen == m->gen && t >= m->head && t < m->head + m->depth) {
            slot *sl = &m->slots[t % m->depth];
            if (sl->ready) pf_batch_free(&sl->b);
            sl->step = step;
            sl->b = b;
            sl->rc = rc;
            sl->ready = 1;
            pthread_cond_broadcast(&m->cv_ready);
        } else if (rc == 0) {
            pf_batch_free(&b);
        }
    }
    pthread_mutex_unlock(&m->mu);
    return NULL;
}

static int src_next(pf_batch_source *src, int64_t step, int rank, pf_batch *out) {
    impl *m = src->impl;
    double t0 = pf_now_ms();
    int rc;
    if (m->n_threads == 0) {
        rc = pf_sampler_batch(&m->s, step, rank, out);
        src->last_wait_ms = pf_now_ms() - t0;
        return rc;
    }
    int64_t t = pos_of(m, step);
    if (t < 0) {  // not on the schedule: made here, the queue left alone
        src->misses++;
        pthread_mutex_unlock(&m->mu);
        rc = pf_sampler_batch(&m->s, step, rank, out);
        src->last_wait_ms = pf_now_ms() - t0;
        return rc;
    }
    if (t != m->head || rank != m->rank) {  // resume or jump: restart production at t
        src->misses++;
        m->gen++;
        clear_slots(m);
        m->head = m->claim = t;
        m->rank = rank;
        pthread_cond_broadcast(&m->cv_work);
    }
    slot *sl = &m->slots[t % m->depth];
    while (!(sl->ready && sl->step == step)) pthread_cond_wait(&m->cv_ready, &m->mu);
    *out = sl->b;
    rc = sl->rc;
    sl->ready = 0;
    m->head = t + 1;
    pthread_cond_broadcast(&m->cv_work);
    pthread_mutex_unlock(&m->mu);
    src->last_wait_ms = pf_now_ms() - t0;
    return rc;
}

static void src_schedule(pf_batch_source *src, int world, int rank, int accum) {
    impl *m = src->impl;
    world = world > 0 ? world : 1;
    rank = rank >= 0 && rank < world ? rank : 0;
    accum = accum > 0 ? accum : 1;
    pthread_mutex_lock(&m->mu);
    if (world == m->sw && rank == m->sr && accum == m->sa) {  // unchanged: keep what is queued
        pthread_mutex_unlock(&m->mu);
        return;
    }
    m->sw = world, m->sr = rank, m->sa = accum;
    m->gen++;  // whatever was produced belongs to the old schedule
    clear_slots(m);
    m->head = m->claim = 0;
    pthread_cond_broadcast(&m->cv_work);
    pthread_mutex_unlock(&m->mu);
}

static int src_val(pf_batch_source *src, int i, pf_batch *out) {
    impl *m = src->impl;
    return pf_sampler_val(&m->s, i, out);
}

static void src_destroy(pf_batch_source *src) {
    if (!src) return;
    impl *m = src->impl;
    pthread_mutex_lock(&m->mu);
    m->stop = 1;
    pthread_cond_broadcast(&m->cv_work);
    pthread_mutex_unlock(&m->mu);
    for (int t = 0; t < m->n_threads; t++) pthread_join(m->th[t], NULL);
    clear_slots(m);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->cv_work);
    pthread_cond_destroy(&m->cv_ready);
    pf_sampler_close(&m->s);
    free(m->slots);
    free(m->th);
    free(m);
    free(src);
}

pf_batch_source *pf_cache_source_create(const pf_sampler_cfg *cfg, char *err, size_t errlen) {
    impl *m = calloc(1, sizeof *m);
    if (pf_sampler_open(&m->s, cfg, err, errlen) != 0) {
        free(m);
        return NULL;
    }
    m->n_workers = cfg->n_workers < 0 ? 0 : cfg->n_workers;
    m->depth = cfg->prefetch < 1 ? 1 : cfg->prefetch;
    m->slots = calloc((size_t)m->depth, sizeof(slot));
    m->th = calloc((size_t)(m->n_workers > 0 ? m->n_workers : 1), sizeof(pthread_t));
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->cv_work, NULL);
    pthread_cond_init(&m->cv_ready, NULL);
    m->sw = m->sa = 1;       // schedule 1, 2, 3, ... until the trainer says otherwise
    m->head = m->claim = 0;  // most runs start at step 1, rank 0: begin at once
    for (int t = 0; t < m->n_workers; t++) {
        if (pthread_create(&m->th[t], NULL, worker, m) != 0) break;
        m->n_threads++;
    }
    pf_batch_source *src = calloc(1, sizeof *src);
    src->name = "cache";
    src->impl = m;
    src->next = src_next;
    src->n_val = pf_sampler_n_val(&m->s);
    src->val = src_val;
    src->destroy = src_destroy;
    src->schedule = src_schedule;
    src->last_wait_ms = 0;
    return src;
}
