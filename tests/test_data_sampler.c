// The training sampler: batches are a function of (seed, step, rank) only,
// crops never exceed the crop size, contiguous crops are per-chain windows,
// spatial crops are spatially contiguous (every selected residue is at least
// as close to the centre as every resolved residue left out), the prefetch
// queue restarts deterministically, and the features are well formed.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../src/data/data.h"
#include "../src/data/sampler.h"
#include "../src/data/structure.h"
#include "testlib.h"

static char tmp[256], cache[600];

static const char *data_dir(void) {
    const char *e = getenv("PF_DATA_DIR");
    return e && *e ? e : "../shared/data";
}

static int batch_equal(const pf_batch *a, const pf_batch *b) {
    if (a->N != b->N || a->S != b->S || a->E != b->E || strcmp(a->name, b->name) || a->crop_start != b->crop_start)
        return 0;
    size_t n = (size_t)a->N, s = (size_t)a->S, e = (size_t)a->E;
#define EQ(f, cnt) (memcmp(a->f, b->f, sizeof(*a->f) * (cnt)) == 0)
    return EQ(aatype, n) && EQ(residue_index, n) && EQ(chain_id, n) && EQ(entity_id, n) && EQ(sym_id, n) &&
           EQ(seq_mask, n) && EQ(target_feat, n * PF_TARGET_FEAT) && EQ(msa_feat, s * n * PF_MSA_FEAT) &&
           EQ(msa_mask, s * n) && EQ(bert_target, s * n) && EQ(bert_mask, s * n) &&
           EQ(extra_msa_feat, e * n * PF_EXTRA_MSA_FEAT) && EQ(extra_msa_mask, e * n) && EQ(pseudo_beta, n * 3) &&
           EQ(pseudo_beta_mask, n);
#undef EQ
}

static pf_sampler_cfg base_cfg(void) {
    pf_sampler_cfg c;
    pf_sampler_cfg_default(&c);
    c.cache = cache;
    c.crop_size = 48;
    c.msa_rows = 8;
    c.extra_msa_rows = 16;
    c.seed = 7;
    c.n_val = 2;
    c.n_workers = 0;
    c.prefetch = 3;
    return c;
}

static int make_cache(const char *dd) {
    static const char *files[] = {"structures/1PSM.cif.gz", "structures/2Q2K.cif.gz", "structures/1TII.pdb.gz",
                                  "structures/1AY7_l_b.pdb.gz", "structures/1AY7_r_b.pdb.gz", "structures/1UBI.pdb.gz",
                                  "structures/1GDR.pdb.gz", "structures/102M.cif.gz", "structures/1LZH.pdb.gz",
                                  "msas/1PSM_A/bfd_uniclust_hits.a3m.gz", "msas/1PSM_A/uniref90_hits.sto.gz",
                                  "msas/2Q2K_A/uniref90_hits.sto.gz", "msas/102M_A/non_pairing.a3m.gz", NULL};
    char cmd[2000];
    for (int i = 0; files[i]; i++) {
        snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s/in/%s)\" && cp %s/%s %s/in/%s", tmp, files[i], dd, files[i],
                 tmp, files[i]);
        if (system(cmd) != 0) return -1;
    }
    char in[600];
    snprintf(in, sizeof in, "%s/in", tmp);
    const char *inputs[] = {in};
    return pf_prep_run(inputs, 1, cache, 2, 1);
}

static void test_determinism(void) {
    pf_sampler_cfg c = base_cfg();
    pf_sampler s1, s2;
    char err[512];
    if (pf_sampler_open(&s1, &c, err, sizeof err) || pf_sampler_open(&s2, &c, err, sizeof err)) {
        tl_check(0, "sampler opens", "%s", err);
        return;
    }
    tl_check(s1.n_entries == 8 && s1.n_val == 2 && s1.n_train == 6, "sampler entries / held out", "%d %d %d",
             s1.n_entries, s1.n_val, s1.n_train);
    int same = 1, differ = 0;
    for (int64_t step = 0; step < 12; step++) {
        pf_batch a, b, d;
        pf_sampler_batch(&s1, step, 0, &a);
        pf_sampler_batch(&s2, step, 0, &b);  // another sampler: a resumed run
        pf_sampler_batch(&s1, step, 1, &d);  // another rank
        same &= batch_equal(&a, &b);
        differ += !batch_equal(&a, &d);
        pf_batch_free(&a);
        pf_batch_free(&b);
        pf_batch_free(&d);
    }
    tl_check(same, "same (seed, step) gives the same batch", NULL);
    tl_check(differ >= 10, "ranks see different batches", "%d of 12 differ", differ);
    pf_sampler_close(&s2);
    c.seed = 8;
    pf_sampler_open(&s2, &c, err, sizeof err);
    int seed_differ = 0;
    for (int64_t step = 0; step < 12; step++) {
        pf_batch a, b;
        pf_sampler_batch(&s1, step, 0, &a);
        pf_sampler_batch(&s2, step, 0, &b);
        seed_differ += !batch_equal(&a, &b);
        pf_batch_free(&a);
        pf_batch_free(&b);
    }
    tl_check(seed_differ >= 10, "another seed gives other batches", "%d of 12", seed_differ);
    // validation batches: fixed, independent of the training seed, never trained on
    int val_same = 1;
    for (int i = 0; i < s1.n_val; i++) {
        pf_batch a, b;
        int r1 = pf_sampler_val(&s1, i, &a), r2 = pf_sampler_val(&s2, i, &b);
        val_same &= r1 == 0 && r2 == 0 && batch_equal(&a, &b);
        if (!r1) pf_batch_free(&a);
        if (!r2) pf_batch_free(&b);
    }
    tl_check(val_same, "validation batches fixed across seeds", NULL);
    // val_crops K: K fixed crops per held-out entry; crop 0 is the one-crop batch
    pf_sampler_cfg c3 = base_cfg();
    c3.val_crops = 3;
    pf_sampler s3;
    if (pf_sampler_open(&s3, &c3, err, sizeof err) == 0) {
        int n3 = pf_sampler_n_val(&s3), first = 1, other = 0, entry = 1;
        for (int i = 0; i < s1.n_val; i++) {
            pf_batch one, k0, k1;
            pf_sampler_val(&s1, i, &one);
            pf_sampler_val(&s3, 3 * i, &k0);
            pf_sampler_val(&s3, 3 * i + 1, &k1);
            first &= batch_equal(&one, &k0);
            other += !batch_equal(&k0, &k1);
            entry &= !strcmp(k0.name, k1.name);
            pf_batch_free(&one), pf_batch_free(&k0), pf_batch_free(&k1);
        }
        pf_batch past;
        tl_check(n3 == 3 * s1.n_val && pf_sampler_n_val(&s1) == s1.n_val && first && entry && other >= 1 &&
                     pf_sampler_val(&s3, n3, &past) == -1,
                 "val_crops 3: 3 crops per held-out entry, the first one as with 1", "n %d, first %d, entry %d, other %d",
                 n3, first, entry, other);
        pf_sampler_close(&s3);
    }
    int leak = 0, seen[64] = {0};
    for (int64_t step = 0; step < 3000; step++) {
        int e = pf_sampler_pick(&s1, step, 0);
        seen[e]++;
        for (int i = 0; i < s1.n_val; i++) leak += e == s1.val[i];
    }
    int all = 1;
    for (int k = 0; k < s1.n_train; k++) all &= seen[s1.train[k]] > 0;
    tl_check(leak == 0 && all, "training never picks validation entries, picks every other", "leak %d", leak);
    pf_sampler_close(&s1);
    pf_sampler_close(&s2);
}

static int chain_of(const pf_entry_view *v, int i) {
    for (uint32_t c = 0; c < v->h->n_chains; c++)
        if (i >= (int)v->chains[c].start && i < (int)(v->chains[c].start + v->chains[c].n)) return (int)c;
    return -1;
}

static double d2(const pf_entry_view *v, int i, int j) {
    const float *a = v->xyz + ((size_t)i * PF_NUM_BB + PF_AT_CA) * 3, *b = v->xyz + ((size_t)j * PF_NUM_BB + PF_AT_CA) * 3;
    double s = 0;
    for (int k = 0; k < 3; k++) s += (double)(a[k] - b[k]) * (a[k] - b[k]);
    return s;
}

static void test_crops(void) {
    pf_sampler_cfg c = base_cfg();
    pf_sampler s;
    char err[512];
    if (pf_sampler_open(&s, &c, err, sizeof err)) return;
    int contiguous_ok = 1, spatial_ok = 1, bound_ok = 1, tested_spatial = 0, interface_centre = 1, iface_tested = 0;
    for (int e = 0; e < s.n_entries; e++) {
        pf_entry_view v;
        pf_cache_entry(&s.cache, e, &v, NULL, 0);
        int n = (int)v.h->n_res, nres = 0;
        for (int i = 0; i < n; i++) nres += v.resolved[i] != 0;
        int *sel = malloc((size_t)n * sizeof(int));
        uint8_t *in = malloc((size_t)n);
        for (int trial = 0; trial < 20; trial++) {
            for (int crop = 16; crop <= 64; crop += 48) {
                pf_rng r = pf_rng_make(pf_hash2(e, trial), crop);
                int m = pf_crop_contiguous(&v, crop, &r, sel);
                bound_ok &= m == (n < crop ? n : crop);
                // each chain contributes one window of consecutive residues
                for (int k = 1; k < m; k++) {
                    contiguous_ok &= sel[k] > sel[k - 1];
                    if (chain_of(&v, sel[k]) == chain_of(&v, sel[k - 1])) contiguous_ok &= sel[k] == sel[k - 1] + 1;
                }
                if (n <= crop) continue;
                int centre;
                m = pf_crop_spatial(&v, crop, &r, sel, &centre);
                tested_spatial++;
                bound_ok &= m == (nres < crop ? nres : crop);
                memset(in, 0, (size_t)n);
                double dmax = 0, dmin_out = 1e30;
                for (int k = 0; k < m; k++) {
                    in[sel[k]] = 1;
                    spatial_ok &= v.resolved[sel[k]] != 0 && (k == 0 || sel[k] > sel[k - 1]);
                    double d = d2(&v, centre, sel[k]);
                    if (d > dmax) dmax = d;
                }
                for (int i = 0; i < n; i++)
                    if (v.resolved[i] && !in[i] && d2(&v, centre, i) < dmin_out) dmin_out = d2(&v, centre, i);
                spatial_ok &= in[centre] && dmax <= dmin_out;
                if (v.h->n_chains > 1) {
                    int hit = 0;
                    for (int j = 0; j < n && !hit; j++)
                        hit = v.resolved[j] && chain_of(&v, j) != chain_of(&v, centre) && d2(&v, centre, j) < 225.0;
                    interface_centre &= hit;
                    iface_tested++;
                }
            }
        }
        free(sel);
        free(in);
    }
    tl_check(bound_ok, "crops never exceed the crop size (and fill it)", NULL);
    tl_check(contiguous_ok, "contiguous crops: one window per chain", NULL);
    tl_check(spatial_ok && tested_spatial > 50, "spatial crops: nearest resolved residues to the centre", "%d crops",
             tested_spatial);
    tl_check(interface_centre && iface_tested > 0, "spatial crops of complexes centre on an interface residue", "%d",
             iface_tested);
    // through the batch path: N <= crop for many steps
    int nmax = 0, ok = 1;
    for (int64_t step = 0; step < 150; step++) {
        pf_batch b;
        if (pf_sampler_batch(&s, step, 0, &b) != 0) { ok = 0; break; }
        if (b.N > nmax) nmax = b.N;
        ok &= b.N >= 1 && b.N <= c.crop_size && b.S >= 1 && b.S <= c.msa_rows && b.E <= c.extra_msa_rows;
        pf_batch_free(&b);
    }
    tl_check(ok && nmax == c.crop_size, "batches: 1 <= N <= crop, S <= msa_rows, E <= extra", "max N %d", nmax);
    pf_sampler_close(&s);
}

static void test_features(void) {
    pf_sampler_cfg c = base_cfg();
    pf_sampler s;
    char err[512];
    if (pf_sampler_open(&s, &c, err, sizeof err)) return;
    double masked = 0, cells = 0;
    int ok_row0 = 1, ok_onehot = 1, ok_extra = 1, ok_ids = 1, ok_pb = 1, ok_target = 1, msa_seen = 0;
    for (int64_t step = 0; step < 80; step++) {
        pf_batch b;
        pf_sampler_batch(&s, step, 0, &b);
        int N = b.N;
        msa_seen += b.S > 1;
        for (int i = 0; i < N; i++) {
            ok_ids &= b.aatype[i] >= 0 && b.aatype[i] <= 20 && b.seq_mask[i] == 1 && b.chain_id[i] >= 0 &&
                      b.entity_id[i] >= 0 && b.entity_id[i] <= b.chain_id[i];
            if (i > 0 && b.chain_id[i] == b.chain_id[i - 1]) ok_ids &= b.residue_index[i] > b.residue_index[i - 1];
            ok_pb &= b.pseudo_beta_mask[i] == 0 || b.pseudo_beta_mask[i] == 1;
            ok_target &= b.target_feat[(size_t)i * PF_TARGET_FEAT + b.aatype[i]] == 1;
        }
        for (int r = 0; r < b.S; r++)
            for (int i = 0; i < N; i++) {
                size_t o = (size_t)r * N + i;
                if (!b.msa_mask[o]) continue;
                const real *f = b.msa_feat + o * PF_MSA_FEAT;
                double sum = 0;
                int arg = 0;
                for (int t = 0; t < 23; t++) sum += f[t], arg = f[t] > 0.5 ? t : arg;
                ok_onehot &= fabs(sum - 1) < 1e-6;
                cells++;
                masked += b.bert_mask[o];
                if (r == 0 && !b.bert_mask[o]) ok_row0 &= arg == b.aatype[i];
                if (r == 0) ok_row0 &= b.bert_target[o] == b.aatype[i];
                if (!b.bert_mask[o]) ok_row0 &= arg == b.bert_target[o];
            }
        for (int r = 0; r < b.E; r++)
            for (int i = 0; i < N; i++) {
                size_t o = (size_t)r * N + i;
                const real *f = b.extra_msa_feat + o * PF_EXTRA_MSA_FEAT;
                double sum = 0;
                for (int t = 0; t < 23; t++) sum += f[t];
                ok_extra &= b.extra_msa_mask[o] == 1 && fabs(sum - 1) < 1e-6 && (f[23] == 0) == (f[24] == 0);
            }
        pf_batch_free(&b);
    }
    double rate = masked / cells;
    tl_check(ok_ids, "ids: tokens, chain/entity ids, residue index ascending per chain", NULL);
    tl_check(ok_target && ok_pb, "target_feat one-hot of aatype, pseudo-beta mask", NULL);
    tl_check(ok_onehot && ok_row0, "msa_feat one-hot; unmasked cells keep their token; row 0 is the sequence", NULL);
    tl_check(rate > 0.12 && rate < 0.18, "BERT mask rate near 0.15", "%.4f over %.0f cells", rate, cells);
    tl_check(ok_extra && msa_seen > 10, "extra MSA one-hot with deletion features", "%d batches with MSAs", msa_seen);
    pf_sampler_close(&s);
}

static void test_queue(void) {
    pf_sampler_cfg c = base_cfg();
    pf_sampler ref;
    char err[512] = "";
    if (pf_sampler_open(&ref, &c, err, sizeof err)) return;
    c.n_workers = 2;
    c.prefetch = 3;
    pf_batch_source *src = pf_cache_source_create(&c, err, sizeof err);
    tl_check(src != NULL && src->n_val == 2, "cache source created", "%s", err);
    if (!src) return;
    // steps in order, then a resume at an earlier step, a jump, and another rank
    int64_t steps[] = {0, 1, 2, 3, 4, 5, 3, 4, 100, 101, 7, 8};
    int ranks[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1};
    int ok = 1;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        pf_batch a, b;
        int rc = src->next(src, steps[k], ranks[k], &a);
        pf_sampler_batch(&ref, steps[k], ranks[k], &b);
        int eq = rc == 0 && batch_equal(&a, &b);
        if (!eq) printf("  queue mismatch at step %lld rank %d\n", (long long)steps[k], ranks[k]);
        ok &= eq && src->last_wait_ms >= 0;
        pf_batch_free(&a);
        pf_batch_free(&b);
    }
    tl_check(ok, "prefetch queue: in order, resume, jump and rank change match the direct batches", NULL);
    // a trainer's schedule (rank 1 of 2, 2 examples per step): its steps come from the
    // queue, ready ahead; a step off the schedule is made directly
    src->schedule(src, 2, 1, 2);
    int64_t sched[] = {3, 4, 7, 5, 8, 11, 12, 15};  // 5 belongs to rank 0
    int ok2 = 1, fast = 1;
    int64_t misses0 = src->misses;
    for (size_t k = 0; k < sizeof sched / sizeof sched[0]; k++) {
        if (k == 5) usleep(1000 * 1000);  // the workers fill the queue with 11, 12, 15
        pf_batch a, b;
        int rc = src->next(src, sched[k], 0, &a);
        pf_sampler_batch(&ref, sched[k], 0, &b);
        ok2 &= rc == 0 && batch_equal(&a, &b);
        if (k >= 5) fast &= src->last_wait_ms < 50;
        pf_batch_free(&a);
        pf_batch_free(&b);
    }
    tl_check(ok2, "schedule (rank 1 of 2, accum 2): batches match the direct ones", NULL);
    tl_check(fast && src->misses - misses0 == 2, "schedule: the rank's steps come from the queue (2 misses: the switch, step 5)",
             "misses %lld, last wait %.1f ms", (long long)(src->misses - misses0), src->last_wait_ms);
    pf_batch v1, v2;
    int r1 = src->val(src, 1, &v1), r2 = pf_sampler_val(&ref, 1, &v2);
    tl_check(r1 == 0 && r2 == 0 && batch_equal(&v1, &v2), "source val() is the sampler's", NULL);
    if (!r1) pf_batch_free(&v1);
    if (!r2) pf_batch_free(&v2);
    src->destroy(src);
    // destroy while workers are busy ahead
    src = pf_cache_source_create(&c, err, sizeof err);
    pf_batch a;
    if (src && src->next(src, 0, 0, &a) == 0) pf_batch_free(&a);
    if (src) src->destroy(src);
    tl_check(src != NULL, "source destroyed with work in flight", NULL);
    pf_sampler_close(&ref);
    // a missing or corrupt cache gives a message
    c.cache = "/nonexistent/cache.pfc";
    src = pf_cache_source_create(&c, err, sizeof err);
    tl_check(src == NULL && strstr(err, "/nonexistent/cache.pfc"), "missing cache: message", "%s", err);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/pf_test_sampler_%d", (int)getpid());
    snprintf(cache, sizeof cache, "%s/c.pfc", tmp);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", tmp, tmp);
    if (system(cmd) != 0) return 2;
    const char *dd = data_dir();
    char probe[600];
    snprintf(probe, sizeof probe, "%s/manifest_chains.tsv", dd);
    if (access(probe, R_OK) != 0) {
        printf("skip: %s not found (sampler tests need ../shared/data beside the repository)\n", dd);
    } else if (make_cache(dd) != 0) {
        tl_check(0, "prep of the sampler test set", NULL);
    } else {
        test_determinism();
        test_crops();
        test_features();
        test_queue();
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0) return 2;
    return tl_finish();
}
