#include "sampler.h"
#include "atom14.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "residue.h"
#include "textio.h"

void pf_sampler_cfg_default(pf_sampler_cfg *c) {
    memset(c, 0, sizeof *c);
    c->crop_size = 256;
    c->msa_rows = 128;
    c->extra_msa_rows = 1024;
    c->seed = 0;
    c->n_val = 4;
    c->val_crops = 1;
    c->n_workers = 2;
    c->prefetch = 4;
    c->spatial_crop_prob = 0.5;
    c->bert_mask_prob = 0.15;
    c->pad_msa = 0;
    c->weighting = 2;
}

typedef struct { uint64_t h; int i; } hidx;
static int cmp_hidx(const void *a, const void *b) {
    const hidx *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->i - y->i;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int pf_sampler_open(pf_sampler *s, const pf_sampler_cfg *cfg, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    if (cfg->crop_size < 1 || cfg->msa_rows < 1 || cfg->extra_msa_rows < 0 || cfg->n_val < 0) {
        pf_errf(err, errlen, "sampler", 0, "bad configuration (crop_size, msa_rows >= 1; extra_msa_rows, n_val >= 0)");
        return -1;
    }
    if (pf_cache_open(&s->cache, cfg->cache, 1, err, errlen) != 0) return -1;
    int n = (int)s->cache.h->n_entries;
    for (int i = 0; i < n; i++) {
        pf_entry_view v;
        char e2[256];
        if (pf_cache_entry(&s->cache, i, &v, e2, sizeof e2) != 0) {
            pf_errf(err, errlen, cfg->cache, 0, "entry %d: %s", i, e2);
            pf_cache_close(&s->cache);
            return -1;
        }
    }
    if (n < 1 || (cfg->n_val > 0 && n < 2)) {
        pf_errf(err, errlen, cfg->cache, 0, "%d entries: too few to train%s", n, cfg->n_val ? " and validate" : "");
        pf_cache_close(&s->cache);
        return -1;
    }
    s->n_entries = n;
    // validation: the n_val entries with the smallest hash of their name (seed independent)
    int nv = PF_MIN(cfg->n_val, n - 1);
    hidx *hs = malloc((size_t)n * sizeof(hidx));
    for (int i = 0; i < n; i++) {
        pf_entry_view v;
        pf_cache_entry(&s->cache, i, &v, NULL, 0);
        hs[i].h = pf_hash_str(v.h->name);
        hs[i].i = i;
    }
    qsort(hs, (size_t)n, sizeof(hidx), cmp_hidx);
    uint8_t *is_val = calloc((size_t)n, 1);
    s->val = malloc((size_t)(nv > 0 ? nv : 1) * sizeof(int));
    for (int k = 0; k < nv; k++) s->val[k] = hs[k].i, is_val[hs[k].i] = 1;
    s->n_val = nv;
    free(hs);
    s->train = malloc((size_t)n * sizeof(int));
    s->cum_w = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        if (!is_val[i]) s->train[s->n_train++] = i;
    // weights: AF2 length factor clamp(n, 256, 512) / 512, divided by the cluster's size
    uint64_t *keys = malloc((size_t)(s->n_train > 0 ? s->n_train : 1) * sizeof(uint64_t));
    for (int k = 0; k < s->n_train; k++) {
        pf_entry_view v;
        pf_cache_entry(&s->cache, s->train[k], &v, NULL, 0);
        keys[k] = v.h->cluster;
    }
    uint64_t *sorted = malloc((size_t)(s->n_train > 0 ? s->n_train : 1) * sizeof(uint64_t));
    memcpy(sorted, keys, (size_t)s->n_train * sizeof(uint64_t));
    qsort(sorted, (size_t)s->n_train, sizeof(uint64_t), cmp_u64);
    double acc = 0;
    for (int k = 0; k < s->n_train; k++) {
        pf_entry_view v;
        pf_cache_entry(&s->cache, s->train[k], &v, NULL, 0);
        double w = 1;
        if (cfg->weighting >= 1) w = PF_MIN(PF_MAX((double)v.h->n_res, 256.0), 512.0) / 512.0;
        if (cfg->weighting >= 2) {
            // members of this cluster: the run of equal keys in the sorted copy
            int lo = 0, hi = s->n_train;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (sorted[mid] < keys[k]) lo = mid + 1;
                else hi = mid;
            }
            int end = lo;
            while (end < s->n_train && sorted[end] == keys[k]) end++;
            w /= (end - lo);
        }
        acc += w;
        s->cum_w[k] = acc;
    }
    free(keys);
    free(sorted);
    free(is_val);
    return 0;
}

void pf_sampler_close(pf_sampler *s) {
    pf_cache_close(&s->cache);
    free(s->train);
    free(s->val);
    free(s->cum_w);
    memset(s, 0, sizeof *s);
}

static uint64_t step_key(const pf_sampler *s, int64_t step, int rank) {
    return pf_hash3(s->cfg.seed ^ 0xDA7A5A3B1E000000ull, (uint64_t)step, (uint64_t)rank);
}

int pf_sampler_pick(const pf_sampler *s, int64_t step, int rank) {
    pf_rng r = pf_rng_make(step_key(s, step, rank), 0);
    double u = pf_rng_uniform(&r) * s->cum_w[s->n_train - 1];
    int lo = 0, hi = s->n_train - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->cum_w[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return s->train[lo];
}

int pf_crop_contiguous(const pf_entry_view *v, int crop, pf_rng *r, int *sel) {
    int n = (int)v->h->n_res, nc = (int)v->h->n_chains;
    if (n <= crop) {
        for (int i = 0; i < n; i++) sel[i] = i;
        return n;
    }
    int *perm = malloc((size_t)nc * sizeof(int));
    for (int c = 0; c < nc; c++) perm[c] = c;
    for (int c = nc - 1; c > 0; c--) {
        int j = pf_rng_int(r, c + 1), t = perm[c];
        perm[c] = perm[j], perm[j] = t;
    }
    uint8_t *take = calloc((size_t)n, 1);
    int added = 0, remaining = n;
    for (int k = 0; k < nc; k++) {
        const pf_rec_chain *ch = &v->chains[perm[k]];
        int nk = (int)ch->n;
        remaining -= nk;
        int hi = PF_MIN(crop - added, nk), lo = PF_MIN(nk, PF_MAX(0, crop - (added + remaining)));
        int size = lo + pf_rng_int(r, hi - lo + 1);
        int start = pf_rng_int(r, nk - size + 1);
        for (int i = 0; i < size; i++) take[ch->start + start + i] = 1;
        added += size;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (take[i]) sel[m++] = i;
    free(take);
    free(perm);
    return m;
}

typedef struct { double d; int i; } didx;
static int cmp_didx(const void *a, const void *b) {
    const didx *x = a, *y = b;
    if (x->d != y->d) return x->d < y->d ? -1 : 1;
    return x->i - y->i;
}
static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static double ca_dist2(const pf_entry_view *v, int i, int j) {
    const float *a = v->xyz + ((size_t)i * PF_NUM_BB + PF_AT_CA) * 3, *b = v->xyz + ((size_t)j * PF_NUM_BB + PF_AT_CA) * 3;
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

int pf_crop_spatial(const pf_entry_view *v, int crop, pf_rng *r, int *sel, int *center) {
    int n = (int)v->h->n_res, nc = (int)v->h->n_chains;
    int *chain_of = malloc((size_t)n * sizeof(int)), *cand = malloc((size_t)n * sizeof(int));
    for (int c = 0; c < nc; c++)
        for (uint32_t i = 0; i < v->chains[c].n; i++) chain_of[v->chains[c].start + i] = c;
    int nres = 0, nif = 0;
    for (int i = 0; i < n; i++) nres += v->resolved[i] != 0;
    if (nres == 0) {
        free(chain_of);
        free(cand);
        *center = -1;
        return pf_crop_contiguous(v, crop, r, sel);
    }
    if (nc > 1)
        for (int i = 0; i < n; i++) {
            if (!v->resolved[i]) continue;
            int hit = 0;
            for (int j = 0; j < n && !hit; j++)
                hit = v->resolved[j] && chain_of[j] != chain_of[i] && ca_dist2(v, i, j) < 15.0 * 15.0;
            if (hit) cand[nif++] = i;
        }
    if (nif == 0)
        for (int i = 0; i < n; i++)
            if (v->resolved[i]) cand[nif++] = i;
    int c0 = cand[pf_rng_int(r, nif)];
    *center = c0;
    didx *d = malloc((size_t)nres * sizeof(didx));
    int m = 0;
    for (int i = 0; i < n; i++)
        if (v->resolved[i]) d[m].d = ca_dist2(v, c0, i), d[m].i = i, m++;
    qsort(d, (size_t)m, sizeof(didx), cmp_didx);
    int k = PF_MIN(crop, m);
    for (int i = 0; i < k; i++) sel[i] = d[i].i;
    qsort(sel, (size_t)k, sizeof(int), cmp_int);
    free(d);
    free(chain_of);
    free(cand);
    return k;
}
// The cropped residues of an entry, in the batch's order.
typedef struct {
    int N;
    const int *sel;       // (N,) the residues in the entry, ascending
    int *cofs, *pos;      // (N,) per selected residue: chain, position in the chain
    int *asym, *ent;      // (n_chains,) chain and entity ids renumbered in crop order, -1 if not cropped
    uint8_t *block_used;  // (n_msa,) 1 for the MSA blocks of the cropped chains
} crop_map;

// per selected residue: chain, position in chain, ids renumbered in crop order
static void crop_map_make(const pf_entry_view *v, const int *sel, int N, crop_map *cm) {
    int nc = (int)v->h->n_chains;
    cm->N = N;
    cm->sel = sel;
    cm->cofs = malloc((size_t)N * sizeof(int)), cm->pos = malloc((size_t)N * sizeof(int));
    cm->asym = malloc((size_t)nc * sizeof(int)), cm->ent = malloc((size_t)nc * sizeof(int));
    for (int c = 0; c < nc; c++) cm->asym[c] = cm->ent[c] = -1;
    int n_asym = 0, n_ent = 0;
    cm->block_used = calloc(v->h->n_msa, 1);
    for (int k = 0, c = 0; k < N; k++) {
        while (sel[k] >= (int)(v->chains[c].start + v->chains[c].n)) c++;
        cm->cofs[k] = c;
        cm->pos[k] = sel[k] - (int)v->chains[c].start;
        if (cm->asym[c] < 0) {
            cm->asym[c] = n_asym++;
            int en = (int)v->chains[c].entity, found = -1;
            for (int q = 0; q < nc; q++)
                if (cm->asym[q] >= 0 && q != c && (int)v->chains[q].entity == en) found = cm->ent[q];
            cm->ent[c] = found >= 0 ? found : n_ent++;
        }
        cm->block_used[v->chains[c].msa] = 1;
    }
}

static void crop_map_free(crop_map *cm) {
    free(cm->block_used);
    free(cm->asym);
    free(cm->ent);
    free(cm->cofs);
    free(cm->pos);
}

// MSA pool: non-query rows of the blocks of the cropped chains that have a
// residue (not a gap) in the crop, as (block << 32) | row; *P is their number.
static int64_t *msa_pool(const pf_entry_view *v, const crop_map *cm, int64_t *P) {
    int64_t pool_cap = 0;
    for (uint32_t b = 0; b < v->h->n_msa; b++)
        if (cm->block_used[b]) pool_cap += v->msa[b].n_rows - 1;
    int64_t *pool = malloc((size_t)(pool_cap + 1) * sizeof(int64_t)), n = 0;
    for (uint32_t b = 0; b < v->h->n_msa; b++) {
        if (!cm->block_used[b]) continue;
        const uint8_t *tok = pf_view_msa_tok(v, (int)b);
        uint32_t L = v->msa[b].L;
        for (uint32_t r = 1; r < v->msa[b].n_rows; r++) {
            int any = 0;
            for (int k = 0; k < cm->N && !any; k++)
                any = v->chains[cm->cofs[k]].msa == b && tok[(size_t)r * L + cm->pos[k]] != PF_TOK_GAP;
            if (any) pool[n++] = ((int64_t)b << 32) | r;
        }
    }
    *P = n;
    return pool;
}

// Per residue features: type, index, chain/entity/symmetry ids, pseudo-beta (CA for glycine)
static void fill_residues(pf_batch *b, const pf_entry_view *v, const crop_map *cm) {
    for (int k = 0; k < cm->N; k++) {
        int i = cm->sel[k], c = cm->cofs[k];
        b->aatype[k] = v->aatype[i];
        b->residue_index[k] = v->residue_index[i];
        b->chain_id[k] = cm->asym[c];
        b->entity_id[k] = cm->ent[c];
        b->sym_id[k] = (int32_t)v->chains[c].sym;
        b->seq_mask[k] = 1;
        int gly = v->aatype[i] == 7;
        int at = gly ? PF_AT_CA : PF_AT_CB;
        if (v->atom_mask[i] & (1u << at)) {
            const float *x = v->xyz + ((size_t)i * PF_NUM_BB + at) * 3;
            for (int d = 0; d < 3; d++) b->pseudo_beta[(size_t)k * 3 + d] = x[d];
            b->pseudo_beta_mask[k] = 1;
        }
        // the backbone atoms, for the structure module's frames and torsions
        b->backbone_mask[k] = v->atom_mask[i];
        _Static_assert(PF_NUM_BB * 3 == 15, "batch.h backbone_xyz holds 15 numbers per residue");
        for (int a = 0; a < 15; a++) b->backbone_xyz[(size_t)k * 15 + a] = v->xyz[(size_t)i * PF_NUM_BB * 3 + a];
        // every heavy atom (records written before the atom section have none: mask 0)
        _Static_assert(PF_MAX_RES_ATOMS * 3 == 42, "batch.h atom14_xyz holds 42 numbers per residue");
        b->atom14_mask[k] = v->atom14_mask ? v->atom14_mask[i] : 0;
        for (int a = 0; v->atom14_xyz && a < 42; a++) b->atom14_xyz[(size_t)k * 42 + a] = v->atom14_xyz[(size_t)i * 42 + a];
    }
}

// cluster rows: the query, then the first S - 1 rows of the shuffled pool (gap
// rows past its end); tokens into msa and deletions into del, (S, N) each
static void fill_cluster_rows(pf_batch *b, const pf_entry_view *v, const crop_map *cm, const int64_t *pool, int64_t P,
                              int S, int32_t *msa, real *del) {
    const int N = cm->N;
    for (int r = 0; r < S; r++) {
        int real_row = r == 0 || r - 1 < P;
        if (!real_row) {
            for (int k = 0; k < N; k++) msa[(size_t)r * N + k] = PF_TOK_GAP;
            continue;
        }
        for (int k = 0; k < N; k++) {
            size_t o = (size_t)r * N + k;
            b->msa_mask[o] = 1;
            if (r == 0) {
                msa[o] = b->aatype[k];
                continue;
            }
            int blk = (int)(pool[r - 1] >> 32), row = (int)(pool[r - 1] & 0xffffffff);
            const pf_rec_chain *ch = &v->chains[cm->cofs[k]];
            if ((int)ch->msa != blk) {
                msa[o] = PF_TOK_GAP;
                continue;
            }
            size_t cell = (size_t)row * v->msa[blk].L + cm->pos[k];
            int t = pf_view_msa_tok(v, blk)[cell];
            msa[o] = t < PF_NUM_TOK ? t : PF_TOK_UNK;
            del[o] = pf_view_msa_del(v, blk)[cell];
        }
    }
}

// BERT corruption of the cluster rows (AF2 make_masked_msa): the original tokens
// become the targets, a bert_mask_prob share of the cells is replaced
static void corrupt_cluster_rows(pf_batch *b, const pf_entry_view *v, const crop_map *cm, int S, double mask_prob,
                                 pf_rng *rb, int32_t *msa) {
    const int N = cm->N;
    for (int r = 0; r < S; r++)
        for (int k = 0; k < N; k++) {
            size_t o = (size_t)r * N + k;
            if (!b->msa_mask[o]) continue;
            b->bert_target[o] = msa[o];
            if (pf_rng_uniform(rb) >= mask_prob) {
                pf_rng_uniform(rb);  // keep the stream aligned: two draws per cell
                continue;
            }
            // replacement distribution: 0.1 uniform over the 20 amino acids,
            // 0.1 the column profile, 0.1 the same token, 0.7 the mask token
            const pf_rec_chain *ch = &v->chains[cm->cofs[k]];
            const float *prof = pf_view_msa_profile(v, (int)ch->msa) + (size_t)cm->pos[k] * 23;
            double p[PF_NUM_TOK] = {0};
            for (int t = 0; t < 20; t++) p[t] += 0.1 / 20;
            for (int t = 0; t < 22; t++) p[t] += 0.1 * prof[t];
            p[msa[o]] += 0.1;
            p[PF_TOK_MASK] += 0.7;
            double tot = 0;
            for (int t = 0; t < PF_NUM_TOK; t++) tot += p[t];
            double u = pf_rng_uniform(rb) * tot, acc = 0;
            int pick = PF_TOK_MASK;
            for (int t = 0; t < PF_NUM_TOK; t++) {
                acc += p[t];
                if (u < acc) { pick = t; break; }
            }
            msa[o] = pick;
            b->bert_mask[o] = 1;
        }
}

// extra MSA: the next E rows of the shuffled pool, uncorrupted; their tokens
// (xtok) and deletions (xdel), (E, N) each, also join the clusters' profiles
// (pf_batch_fill_features)
static void fill_extra_rows(pf_batch *b, const pf_entry_view *v, const crop_map *cm, const int64_t *pool, int64_t P,
                            int S, int E, int32_t *xtok, real *xdel) {
    const int N = cm->N;
    for (int r = 0; r < E; r++) {
        int64_t pi = (int64_t)(S - 1) + r;
        if (pi >= P) break;
        int blk = (int)(pool[pi] >> 32), row = (int)(pool[pi] & 0xffffffff);
        for (int k = 0; k < N; k++) {
            size_t o = (size_t)r * N + k;
            real *f = b->extra_msa_feat + o * PF_EXTRA_MSA_FEAT;
            b->extra_msa_mask[o] = 1;
            const pf_rec_chain *ch = &v->chains[cm->cofs[k]];
            if ((int)ch->msa != blk) {
                f[PF_TOK_GAP] = 1;
                xtok[o] = PF_TOK_GAP;
                continue;
            }
            size_t cell = (size_t)row * v->msa[blk].L + cm->pos[k];
            int t = pf_view_msa_tok(v, blk)[cell];
            double d = pf_view_msa_del(v, blk)[cell];
            pf_extra_msa_feat(f, t, d);
            xtok[o] = t < PF_NUM_TOK ? t : PF_TOK_UNK;
            xdel[o] = (real)d;
        }
    }
}

// A training example from entry e: a crop (contiguous, or spatial around an
// interface), an MSA sample and its BERT corruption; key seeds the three random
// streams (crop, MSA sample, corruption), so the same key gives the same batch.
int pf_sampler_make(const pf_sampler *s, int e, uint64_t key, pf_batch *out) {
    const pf_sampler_cfg *cfg = &s->cfg;
    pf_entry_view v;
    char err[256];
    if (pf_cache_entry(&s->cache, e, &v, err, sizeof err) != 0) return -1;
    int n = (int)v.h->n_res;
    pf_rng rc = pf_rng_make(key, 1), rm = pf_rng_make(key, 2), rb = pf_rng_make(key, 3);
    int *sel = malloc((size_t)n * sizeof(int)), center = -1;
    int spatial = n > cfg->crop_size && pf_rng_uniform(&rc) < cfg->spatial_crop_prob;
    int N = spatial ? pf_crop_spatial(&v, cfg->crop_size, &rc, sel, &center) : pf_crop_contiguous(&v, cfg->crop_size, &rc, sel);
    crop_map cm;
    crop_map_make(&v, sel, N, &cm);
    int64_t P;
    int64_t *pool = msa_pool(&v, &cm, &P);
    // S cluster rows (the query and S - 1 of the pool), E extra rows after them;
    // pad_msa fills missing rows with gaps so every batch has the same shape
    int S = cfg->pad_msa ? cfg->msa_rows : (int)PF_MIN((int64_t)cfg->msa_rows, 1 + P);
    int64_t avail = P - (S - 1) > 0 ? P - (S - 1) : 0;
    int E = cfg->pad_msa ? cfg->extra_msa_rows : (int)PF_MIN((int64_t)cfg->extra_msa_rows, avail);
    int64_t want = PF_MIN(P, (int64_t)(S - 1) + E);
    for (int64_t i = 0; i < want; i++) {  // partial Fisher-Yates: first `want` of a random order
        int64_t j = i + (int64_t)(pf_rng_u64(&rm) % (uint64_t)(P - i));
        int64_t t = pool[i];
        pool[i] = pool[j], pool[j] = t;
    }
    pf_batch_alloc(out, N, S, E);
    pf_batch *b = out;
    snprintf(b->name, sizeof b->name, "%s", v.h->name);
    b->crop_start = spatial ? -1 : (N > 0 ? sel[0] : 0);
    fill_residues(b, &v, &cm);
    int32_t *msa = calloc((size_t)S * N + 1, sizeof(int32_t));
    real *del = calloc((size_t)S * N + 1, sizeof(real));
    fill_cluster_rows(b, &v, &cm, pool, P, S, msa, del);
    corrupt_cluster_rows(b, &v, &cm, S, cfg->bert_mask_prob, &rb, msa);
    int32_t *xtok = calloc((size_t)E * N + 1, sizeof(int32_t));
    real *xdel = calloc((size_t)E * N + 1, sizeof(real));
    fill_extra_rows(b, &v, &cm, pool, P, S, E, xtok, xdel);
    pf_batch_fill_features(b, msa, del, xtok, xdel, E);
    free(xtok);
    free(xdel);
    free(msa);
    free(del);
    free(pool);
    crop_map_free(&cm);
    free(sel);
    return 0;
}

int pf_sampler_batch(const pf_sampler *s, int64_t step, int rank, pf_batch *out) {
    int e = pf_sampler_pick(s, step, rank);
    return pf_sampler_make(s, e, pf_hash2(step_key(s, step, rank), 0xBA7C4), out);
}

int pf_sampler_n_val(const pf_sampler *s) { return s->n_val * (s->cfg.val_crops > 1 ? s->cfg.val_crops : 1); }

int pf_sampler_val(const pf_sampler *s, int i, pf_batch *out) {
    const int K = s->cfg.val_crops > 1 ? s->cfg.val_crops : 1, e = i / K, k = i % K;
    if (i < 0 || e >= s->n_val) return -1;
    // fixed streams, independent of the training seed, so val losses compare across
    // runs; crop 0 of entry e has the stream of a one-crop validation
    const uint64_t key = pf_hash2(0x7A1DA7Eull, (uint64_t)e);
    return pf_sampler_make(s, s->val[e], k == 0 ? key : pf_hash2(key, (uint64_t)k), out);
}
