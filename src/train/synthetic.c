#include "synthetic.h"
#include <math.h>
#include <string.h>
#include "../core/util.h"
#include "../core/rng.h"

#define N_TRAIN 32
#define N_VAL 4
#define MIN_LEN 40
#define MAX_RAND_LEN 90
#define MAX_LEN 16384  // synthetic_len's upper bound (config.c): crops past one GPU's (issues 12, 13)

typedef struct {
    int L;
    int32_t aa[MAX_LEN];
    double ca[MAX_LEN][3];
} protein;

typedef struct {
    pf_config cfg;
    protein prot[N_TRAIN + N_VAL];
} synth;

// Alphabets by secondary structure (indices into ARNDCQEGHILKMFPSTWYV).
static const char *alpha_helix = "AELKMQR";
static const char *alpha_strand = "VIYFTWC";
static const char *alpha_loop = "GPNDSH";

static int aa_index(char c) { return (int)(strchr(PF_AA_ORDER, c) - PF_AA_ORDER); }

// Place point d from c, b, a with bond length r, angle theta, dihedral phi (NeRF).
static void place(const double *a, const double *b, const double *c, double r, double theta, double phi, double *d) {
    double bc[3], n[3], ab[3], m[3];
    for (int k = 0; k < 3; k++) { bc[k] = c[k] - b[k]; ab[k] = b[k] - a[k]; }
    double lbc = sqrt(bc[0] * bc[0] + bc[1] * bc[1] + bc[2] * bc[2]);
    for (int k = 0; k < 3; k++) bc[k] /= lbc;
    n[0] = ab[1] * bc[2] - ab[2] * bc[1];
    n[1] = ab[2] * bc[0] - ab[0] * bc[2];
    n[2] = ab[0] * bc[1] - ab[1] * bc[0];
    double ln = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) n[k] /= ln;
    m[0] = n[1] * bc[2] - n[2] * bc[1];
    m[1] = n[2] * bc[0] - n[0] * bc[2];
    m[2] = n[0] * bc[1] - n[1] * bc[0];
    double d2[3] = {-r * cos(theta), r * sin(theta) * cos(phi), r * sin(theta) * sin(phi)};
    for (int k = 0; k < 3; k++) d[k] = c[k] + d2[0] * bc[k] + d2[1] * m[k] + d2[2] * n[k];
}

// len > 0: that many residues (long crops for benchmarks); else 40..90 at random.
static void make_protein(protein *p, uint64_t key, int len) {
    pf_rng r = pf_rng_make(key, 0);
    p->L = MIN_LEN + pf_rng_int(&r, MAX_RAND_LEN - MIN_LEN + 1);
    if (len > 0) p->L = len;
    // secondary structure segments
    int state[MAX_LEN];
    for (int i = 0; i < p->L;) {
        int s = pf_rng_int(&r, 3), len = s == 2 ? 3 + pf_rng_int(&r, 4) : 6 + pf_rng_int(&r, 10);
        for (int k = 0; k < len && i < p->L; k++) state[i++] = s;
    }
    for (int i = 0; i < p->L; i++) {
        const char *al = state[i] == 0 ? alpha_helix : state[i] == 1 ? alpha_strand : alpha_loop;
        p->aa[i] = aa_index(al[pf_rng_int(&r, (int)strlen(al))]);
    }
    // CA trace from virtual bond angles / dihedrals per state (helix ~ 91/50,
    // strand ~ 120/-170 degrees); loop angles depend on the residue type so
    // even loops follow the sequence.
    const double deg = M_PI / 180;
    double a[3] = {0, 0, 0}, b[3] = {3.8, 0, 0}, c[3] = {3.8 + 3.8 * cos(60 * deg), 3.8 * sin(60 * deg), 0};
    for (int i = 0; i < p->L; i++) {
        double *d = p->ca[i];
        if (i == 0) { memcpy(d, a, sizeof a); continue; }
        if (i == 1) { memcpy(d, b, sizeof b); continue; }
        if (i == 2) { memcpy(d, c, sizeof c); continue; }
        double th, ph;
        if (state[i] == 0) { th = 91 * deg; ph = 50 * deg; }
        else if (state[i] == 1) { th = 120 * deg; ph = -170 * deg; }
        else { th = (95 + 5 * (p->aa[i] % 6)) * deg; ph = (-120 + 47 * (p->aa[i] % 6)) * deg; }
        place(p->ca[i - 3], p->ca[i - 2], p->ca[i - 1], 3.8, th, ph, d);
    }
}

static void fill(const synth *sy, const protein *p, uint64_t key, pf_batch *out) {
    const pf_config *c = &sy->cfg;
    pf_rng r = pf_rng_make(key, 1);
    int N = PF_MIN(p->L, c->crop_size), start = p->L > N ? pf_rng_int(&r, p->L - N + 1) : 0;
    int S = c->msa_rows, E = c->extra_msa_rows > 0 ? c->extra_msa_rows : 0;
    pf_batch_alloc(out, N, S, E);
    for (int i = 0; i < N; i++) {
        out->aatype[i] = p->aa[start + i];
        out->residue_index[i] = start + i;
        out->seq_mask[i] = 1;
        out->pseudo_beta_mask[i] = 1;
        for (int k = 0; k < 3; k++) out->pseudo_beta[3 * i + k] = (real)p->ca[start + i][k];
    }
    // MSA: the query, then mutated homologues (15% substitutions, 5% gaps, some deletions)
    int32_t *tok = pf_malloc(sizeof(int32_t) * (size_t)S * N);
    real *del = pf_calloc((size_t)S * N, sizeof(real));
    for (int s = 0; s < S; s++)
        for (int i = 0; i < N; i++) {
            int t = p->aa[start + i];
            if (s > 0) {
                double u = pf_rng_uniform(&r);
                if (u < 0.05) t = PF_TOK_GAP;
                else if (u < 0.20) t = pf_rng_int(&r, 20);
                if (pf_rng_uniform(&r) < 0.03) del[(size_t)s * N + i] = 1 + pf_rng_int(&r, 4);
            }
            tok[(size_t)s * N + i] = t;
            out->msa_mask[(size_t)s * N + i] = 1;
        }
    int32_t *xtok = pf_malloc(sizeof(int32_t) * ((size_t)E * N + 1));
    for (int e = 0; e < E; e++)
        for (int i = 0; i < N; i++) {
            int t = p->aa[start + i];
            if (pf_rng_uniform(&r) < 0.25) t = pf_rng_int(&r, 21);
            real *f = out->extra_msa_feat + ((size_t)e * N + i) * PF_EXTRA_MSA_FEAT;
            pf_extra_msa_feat(f, t, 0);
            out->extra_msa_mask[(size_t)e * N + i] = 1;
            xtok[(size_t)e * N + i] = t;
        }
    pf_batch_fill_features(out, tok, del, xtok, NULL, E);
    pf_free(xtok);
    pf_free(tok);
    pf_free(del);
    out->crop_start = start;
}

static int synth_next(pf_batch_source *src, int64_t step, int rank, pf_batch *out) {
    synth *sy = src->impl;
    double t0 = pf_now_ms();
    uint64_t key = pf_hash3(sy->cfg.seed, (uint64_t)step, (uint64_t)rank);
    int k = (int)(pf_hash2(key, 7) % N_TRAIN);
    fill(sy, &sy->prot[k], key, out);
    snprintf(out->name, sizeof out->name, "synthetic_%02d", k);
    src->last_wait_ms = pf_now_ms() - t0;
    return 0;
}

static int synth_val(pf_batch_source *src, int i, pf_batch *out) {
    synth *sy = src->impl;
    fill(sy, &sy->prot[N_TRAIN + i % N_VAL], pf_hash2(0x7a1, (uint64_t)i), out);
    snprintf(out->name, sizeof out->name, "synthetic_val_%d", i % N_VAL);
    return 0;
}

static void synth_destroy(pf_batch_source *src) {
    pf_free(src->impl);
    pf_free(src);
}

pf_batch_source *pf_synthetic_source_create(const pf_config *cfg) {
    synth *sy = pf_calloc(1, sizeof *sy);
    sy->cfg = *cfg;
    // the protein set is fixed (independent of the run's seed): same data, any seed
    for (int k = 0; k < N_TRAIN + N_VAL; k++) make_protein(&sy->prot[k], pf_hash2(0x5157ull, (uint64_t)k), cfg->synthetic_len);
    pf_batch_source *src = pf_calloc(1, sizeof *src);
    src->name = "synthetic";
    src->impl = sy;
    src->next = synth_next;
    src->val = synth_val;
    src->n_val = cfg->n_val;  // the config's count (n_val = 0: none), cycling through the N_VAL proteins
    src->destroy = synth_destroy;
    return src;
}
