// pairfold prep: inputs -> units (prep_inputs.c) -> parsed on worker threads
// (or copied from the previous cache when their content hash is unchanged)
// -> one cache written in key order, so the bytes never depend on threads.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "../core/rng.h"
#include "../core/util.h"
#include "cache.h"
#include "data.h"
#include "entry.h"
#include "msa.h"
#include "prep_int.h"
#include "structure.h"
#include "textio.h"

#define PREP_SALT "pairfold-prep-1"

typedef struct {
    uint64_t hash, bytes;
    int reused, failed;
    char *msg;            // malloc'ed ("" none)
    uint8_t *rec;         // built here (malloc'ed)
    const uint8_t *old;   // or copied from the old cache
    size_t rec_bytes;
} uresult;

typedef struct {
    const pf_inputs *in;
    uresult *res;
    const pf_cache *old;  // NULL when none
    int max_msa_rows;
    atomic_int next;
} job;

static char *xstrdup(const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) pf_die("out of memory");
    return d;
}

static void append_msg(char **msg, const char *add) {
    size_t a = *msg ? strlen(*msg) : 0, b = strlen(add);
    if (a > 4000) return;
    char *m = malloc(a + b + 3);
    if (a) memcpy(m, *msg, a), memcpy(m + a, "; ", 2), memcpy(m + a + 2, add, b + 1);
    else memcpy(m, add, b + 1);
    free(*msg);
    *msg = m;
}

static int old_lookup(const pf_cache *c, const char *key) {
    if (!c) return -1;
    int64_t lo = 0, hi = (int64_t)c->h->n_inputs - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        int r = strcmp(c->strings + c->inputs[mid].key_off, key);
        if (r == 0) return (int)mid;
        if (r < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static void do_unit(job *J, int ui) {
    const pf_unit *u = &J->in->units[ui];
    uresult *R = &J->res[ui];
    char err[1024];
    unsigned char *sraw[2] = {0}, **mraw = calloc((size_t)u->n_msa + 1, sizeof(char *));
    size_t slen[2] = {0}, *mlen = calloc((size_t)u->n_msa + 1, sizeof(size_t));
    // content hash: every file read, the names that tie them together, and settings
    uint64_t h = pf_hash_str(PREP_SALT) ^ (uint64_t)J->max_msa_rows;
    h = pf_hash_bytes(h, u->name, strlen(u->name));
    if (u->cluster) h = pf_hash_bytes(h, u->cluster, strlen(u->cluster));
    uint64_t total = 0;
    for (int k = 0; k < u->n_files; k++) {
        h = pf_hash_bytes(h, u->fkey[k], strlen(u->fkey[k]) + 1);
        sraw[k] = pf_read_raw(u->path[k], &slen[k], err, sizeof err);
        if (!sraw[k]) {
            R->failed = 1;
            append_msg(&R->msg, err);
            continue;
        }
        h = pf_hash_bytes(h, sraw[k], slen[k]);
        total += slen[k];
    }
    for (int m = 0; m < u->n_msa; m++) {
        const pf_msa_cand *c = &u->msa[m];
        h = pf_hash_bytes(h, c->key, strlen(c->key) + 1);
        h = pf_hash_bytes(h, c->chain, strlen(c->chain) + 1) ^ (uint64_t)(c->file + 2);
        mraw[m] = pf_read_raw(c->path, &mlen[m], err, sizeof err);
        if (mraw[m]) h = pf_hash_bytes(h, mraw[m], mlen[m]), total += mlen[m];
    }
    R->hash = h;
    R->bytes = total;
    int oi = R->failed ? -1 : old_lookup(J->old, u->key);
    if (oi >= 0 && J->old->inputs[oi].hash == h && J->old->inputs[oi].bytes == total) {
        const pf_cache_input *in = &J->old->inputs[oi];
        R->reused = 1;
        R->failed = in->status == PF_INPUT_FAILED;
        free(R->msg);
        R->msg = xstrdup(J->old->strings + in->msg_off);
        if (!R->failed && in->entry != UINT32_MAX) R->old = pf_cache_record(J->old, in->entry, &R->rec_bytes);
    } else if (!R->failed) {
        pf_structure S[2];
        memset(S, 0, sizeof S);
        int nchain = 0;
        for (int k = 0; k < u->n_files && !R->failed; k++) {
            pf_text t;
            if (pf_text_from_bytes(sraw[k], slen[k], u->path[k], &t, err, sizeof err) != 0 ||
                (pf_parse_structure_text(t.data, t.len, u->path[k], &S[k], err, sizeof err) != 0 &&
                 (pf_text_free(&t), 1))) {
                R->failed = 1;
                append_msg(&R->msg, err);
                break;
            }
            pf_text_free(&t);
            nchain += S[k].n_chains;
        }
        if (!R->failed) {
            pf_msa *msa = calloc((size_t)u->n_msa + 1, sizeof(pf_msa));
            int *state = calloc((size_t)u->n_msa + 1, sizeof(int));  // 0 unread, 1 ok, -1 bad
            pf_chain_in *ci = calloc((size_t)nchain, sizeof(pf_chain_in));
            const pf_msa **ptrs = calloc((size_t)nchain * ((size_t)u->n_msa + 1), sizeof(pf_msa *));
            int n = 0;
            for (int k = 0; k < u->n_files; k++)
                for (int c = 0; c < S[k].n_chains; c++, n++) {
                    ci[n].chain = &S[k].chains[c];
                    ci[n].msas = ptrs + (size_t)n * (u->n_msa + 1);
                    for (int m = 0; m < u->n_msa; m++) {
                        const pf_msa_cand *mc = &u->msa[m];
                        if ((mc->file != k && mc->file != -1) || strcmp(mc->chain, S[k].chains[c].id)) continue;
                        if (state[m] == 0) {
                            pf_text t;
                            state[m] = -1;
                            if (!mraw[m]) snprintf(err, sizeof err, "%s: cannot read", mc->path);
                            else if (pf_text_from_bytes(mraw[m], mlen[m], mc->path, &t, err, sizeof err) == 0) {
                                if (pf_parse_msa_text(t.data, t.len, mc->path, &msa[m], err, sizeof err) == 0) state[m] = 1;
                                pf_text_free(&t);
                            }
                            if (state[m] < 0) append_msg(&R->msg, err);
                        }
                        if (state[m] == 1) ((const pf_msa **)ci[n].msas)[ci[n].n_msas++] = &msa[m];
                    }
                }
            uint64_t cluster;
            if (u->cluster) cluster = pf_hash_str(u->cluster);
            else {
                int best = 0;
                for (int c = 1; c < n; c++)
                    if (ci[c].chain->n > ci[best].chain->n) best = c;
                cluster = pf_hash_bytes(0x5EC, ci[best].chain->tok, (size_t)ci[best].chain->n);
            }
            pf_build_opts bo = {J->max_msa_rows};
            R->rec = pf_entry_build(u->name, cluster, ci, n, &bo, &R->rec_bytes);
            for (int m = 0; m < u->n_msa; m++) pf_msa_free(&msa[m]);
            free(msa);
            free(state);
            free(ci);
            free(ptrs);
        }
        for (int k = 0; k < u->n_files; k++) pf_structure_free(&S[k]);
    }
    if (!R->msg) R->msg = xstrdup("");
    for (int k = 0; k < 2; k++) free(sraw[k]);
    for (int m = 0; m < u->n_msa; m++) free(mraw[m]);
    free(mraw);
    free(mlen);
}

static void *worker(void *arg) {
    job *J = arg;
    for (;;) {
        int i = atomic_fetch_add(&J->next, 1);
        if (i >= J->in->n_units) break;
        do_unit(J, i);
    }
    return NULL;
}

int pf_prep(const pf_prep_opts *o, pf_prep_stats *st) {
    pf_prep_stats dummy;
    if (!st) st = &dummy;
    memset(st, 0, sizeof *st);
    FILE *rep = o->report ? o->report : stdout;
    double t0 = pf_now_ms();
    char err[1024];
    pf_inputs in;
    if (pf_inputs_collect(&in, o->inputs, o->n_inputs, o->manifests, o->n_manifests, err, sizeof err) != 0) {
        if (!o->quiet) fprintf(rep, "prep: error: %s\n", err);
        return -1;
    }
    pf_cache old, *oldp = NULL;
    FILE *probe = fopen(o->out, "rb");
    if (probe) {
        fclose(probe);
        if (pf_cache_open(&old, o->out, 1, err, sizeof err) == 0) oldp = &old;
        else if (!o->quiet) fprintf(rep, "prep: rebuilding: existing cache unusable (%s)\n", err);
    }
    job J;
    memset(&J, 0, sizeof J);
    J.in = &in;
    J.res = calloc((size_t)in.n_units + 1, sizeof(uresult));
    J.old = oldp;
    J.max_msa_rows = o->max_msa_rows > 0 ? o->max_msa_rows : 16384;
    atomic_init(&J.next, 0);
    int nt = o->threads < 1 ? 1 : o->threads;
    if (nt > in.n_units) nt = in.n_units > 0 ? in.n_units : 1;
    pthread_t *th = calloc((size_t)nt, sizeof(pthread_t));
    int started = 0;
    for (int t = 1; t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, &J) == 0) started++;
        else break;
    worker(&J);
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
    free(th);
    // assemble in key order
    pf_cache_item *items = calloc((size_t)in.n_units + 1, sizeof(pf_cache_item));
    for (int i = 0; i < in.n_units; i++) {
        uresult *R = &J.res[i];
        pf_cache_item *it = &items[i];
        it->key = in.units[i].key;
        it->msg = R->msg;
        it->hash = R->hash;
        it->bytes = R->bytes;
        it->failed = R->failed;
        it->rec = R->rec ? R->rec : R->old;
        it->rec_bytes = R->rec_bytes;
        st->parsed += !R->reused;
        st->reused += R->reused;
        st->failed += R->failed;
        if (!R->failed && it->rec) {
            pf_entry_view v;
            if (pf_entry_view_init(&v, it->rec, it->rec_bytes, err, sizeof err) == 0) {
                st->entries++;
                st->chains += (int)v.h->n_chains;
                st->residues += v.h->n_res;
                for (uint32_t k = 0; k < v.h->n_msa; k++) st->msas += v.msa[k].n_rows > 1;
            }
        }
    }
    st->inputs = in.n_units;
    st->skipped = in.skipped;
    st->unused_msas = in.unused_msas;
    if (oldp)
        for (uint64_t i = 0; i < oldp->h->n_inputs; i++) {
            const char *k = oldp->strings + oldp->inputs[i].key_off;
            int lo = 0, hi = in.n_units - 1, found = 0;  // units are sorted by key
            while (lo <= hi && !found) {
                int mid = (lo + hi) / 2, r = strcmp(in.units[mid].key, k);
                if (r == 0) found = 1;
                else if (r < 0) lo = mid + 1;
                else hi = mid - 1;
            }
            st->dropped += !found;
        }
    int rc = pf_cache_write(o->out, items, in.n_units, err, sizeof err);
    if (!o->quiet) {
        for (int i = 0; i < in.n_report; i++) fprintf(rep, "prep: %s\n", in.report[i]);
        for (int i = 0; i < in.n_units; i++) {
            const uresult *R = &J.res[i];
            if (R->failed) fprintf(rep, "prep: bad %s: %s%s\n", in.units[i].key, R->msg, R->reused ? " (unchanged)" : "");
            else if (R->msg[0]) fprintf(rep, "prep: warning %s: %s\n", in.units[i].key, R->msg);
        }
        if (rc != 0) fprintf(rep, "prep: error: %s\n", err);
    }
    if (rc == 0) {
        pf_cache chk;
        if (pf_cache_open(&chk, o->out, 0, err, sizeof err) == 0) {
            st->cache_bytes = chk.size;
            pf_cache_close(&chk);
        }
    }
    for (int i = 0; i < in.n_units; i++) free(J.res[i].msg), free(J.res[i].rec);
    free(J.res);
    free(items);
    if (oldp) pf_cache_close(oldp);
    st->seconds = (pf_now_ms() - t0) / 1000.0;
    if (!o->quiet && rc == 0)
        fprintf(rep,
                "prep: %d inputs (%d parsed, %d unchanged, %d bad, %d dropped, %d skipped), %d entries, %d chains, "
                "%lld residues, %d MSAs, %.2f s -> %s (%.1f MB)\n",
                st->inputs, st->parsed, st->reused, st->failed, st->dropped, st->skipped, st->entries, st->chains,
                (long long)st->residues, st->msas, st->seconds, o->out, st->cache_bytes / 1e6);
    pf_inputs_free(&in);
    return rc == 0 ? 0 : -1;
}

int pf_prep_run(const char *const *inputs, int n_inputs, const char *out_cache, int threads, int quiet) {
    pf_prep_opts o;
    memset(&o, 0, sizeof o);
    o.inputs = inputs;
    o.n_inputs = n_inputs;
    o.out = out_cache;
    o.threads = threads;
    o.quiet = quiet;
    return pf_prep(&o, NULL);
}
