// structure_rows.c: the structure module's prediction on a dap rank's rows of z
// (structure_rows.h). The module loop is cpu_sm_fwd's (cpu_sm_fwd_ipa) with IPA
// supplied here: the backend's ipa_fwd_rows on this rank's rows, then one
// all-gather of the rows' update. Everything after IPA in a layer is per residue
// and cheap (N x c_s), so every rank repeats it on all N residues: the same
// values everywhere, no further collective.
#include "structure_rows.h"
#include <string.h>
#include "../core/util.h"
#include "../cpu/cpu_structure.h"
#include "../cpu/cpu_prim.h"

// The PAE logits gathered per collective: at most this many bytes of them on
// the host (the distogram writer's bound, 256 MiB), at least one row of each rank.
#define ROWS_PAE_BYTES ((int64_t)256 << 20)

int pf_structure_rows_possible(const pf_backend *be) { return be->ipa_fwd_rows && !be->device_memory; }

typedef struct {
    pf_structure_head *h;
    pf_backend *be;
    const pf_sm_rows *r;
    int64_t N, v;          // residues; this rank's rows that hold residues
    const real *zln, *mask;  // LN_z of the rank's rows (v, N, c_z)
    real *upd, *all;       // (n, c_s) this rank's update; (Np, c_s) the group's
} rows_ipa;

// IPA of one layer: the rank's rows, gathered (pad rows 0, dropped).
static void ipa_by_rows(void *ctx, const real *s_in, const real *R_in, const real *t_in, real *out) {
    rows_ipa *k = ctx;
    const int cs = k->h->d.ipa.c_s;
    const int64_t n = k->r->n;
    if (k->v > 0)
        k->be->ipa_fwd_rows(k->be, &k->h->d.ipa, &k->h->p.ipa, k->r->i0, k->v, (const pf_act *)s_in,
                            (const pf_act *)k->zln, R_in, t_in, (const pf_act *)k->mask, (pf_act *)k->upd);
    memset(k->upd + k->v * cs, 0, sizeof(real) * (size_t)((n - k->v) * cs));
    k->r->c->all_gather(k->r->c, k->upd, k->all, sizeof(real) * (size_t)(n * cs));
    memcpy(out, k->all, sizeof(real) * (size_t)(k->N * cs));
}

// The PAE head on the rank's rows (raw z, one Linear per pair), gathered k rows
// of every rank at a time; every rank forms the expected error and the pTM terms
// of each row (one collective per block, the same count on every rank).
static double pae_by_rows(pf_structure_head *h, const pf_sm_rows *r, int64_t N, int64_t v, const real *z,
                          const real *mask, real *pae) {
    const int nb = h->ad.n_bins, cz = h->ad.c_z, P = r->c->size;
    const int64_t n = r->n, row = N * nb;
    const int64_t kr = PF_MAX(1, PF_MIN(n, ROWS_PAE_BYTES / ((int64_t)sizeof(real) * P * row)));
    // the block's own rows only (k rows of logits, not all n: 12.8 GB per rank at 20,000 / 8)
    real *lg = pf_malloc(sizeof(real) * (size_t)(kr * row)), *buf = pf_malloc(sizeof(real) * (size_t)(P * kr * row));
    real *ctr = pf_malloc(sizeof(real) * (size_t)nb);
    double *per = pf_malloc(sizeof(double) * (size_t)(N + 1)), nres, d0;
    pf_pae_ptm_setup(&h->ad, mask, ctr, &nres, &d0);
    for (int64_t r0 = 0; r0 < n; r0 += kr) {
        const int64_t k = PF_MIN(kr, n - r0);
        for (int64_t t = 0; t < k; t++) {  // z's row stride is Np: one row of N pairs at a time; pad rows 0
            if (r0 + t < v) cpu_linear_fwd(N, cz, nb, &h->pae, z + (r0 + t) * r->Np * cz, lg + t * row, 0);
            else memset(lg + t * row, 0, sizeof(real) * (size_t)row);
        }
        r->c->all_gather(r->c, lg, buf, sizeof(real) * (size_t)(k * row));
        for (int q = 0; q < P; q++)
            for (int64_t t = 0; t < k; t++) {
                const int64_t i = q * n + r0 + t;  // block q: rows r0 .. r0 + k - 1 of rank q
                if (i < N) per[i] = pf_pae_ptm_row(&h->ad, ctr, nres, d0, buf + (q * k + t) * row, mask,
                                                   pae ? pae + i * N : NULL);
            }
    }
    const double ptm = pf_pae_ptm_best(N, per, mask);
    real *bufs[] = {lg, buf, ctr};
    for (size_t b = 0; b < sizeof bufs / sizeof *bufs; b++) pf_free(bufs[b]);
    pf_free(per);
    return ptm;
}

void pf_structure_head_predict_rows(pf_structure_head *h, pf_backend *be, const pf_sm_rows *r, int64_t N,
                                    const pf_act *s, const pf_act *z_rows, const real *seq_mask,
                                    pf_structure_pred *out) {
    if (!pf_structure_rows_possible(be)) pf_die("structure module on z's rows: backend %s cannot", be->name);
    h->d.ipa.N = h->pd.N = h->ad.N = N;
    const int64_t L = h->d.n_layers, cs = h->d.ipa.c_s, cz = h->d.ipa.c_z, n = r->n;
    const int64_t v = PF_MAX(0, PF_MIN(n, N - r->i0));
    const real *z = (const real *)z_rows;
    real *zln = pf_malloc(sizeof(real) * (size_t)(v * N * cz + 1));
    for (int64_t il = 0; il < v; il++)  // LN_z per pair, rows compacted to (v, N, c_z) (no pad columns)
        cpu_ln_fwd(N, (int)cz, &h->p.ln_z, z + il * r->Np * cz, zln + il * N * cz, NULL, NULL);
    real *R = pf_malloc(sizeof(real) * (size_t)(L * N * 9 + 1)), *t = pf_malloc(sizeof(real) * (size_t)(L * N * 3 + 1));
    real *sf = pf_malloc(sizeof(real) * (size_t)(N * cs + 1));
    real *ang = pf_malloc(sizeof(real) * (size_t)(L * N * 2 * PF_NUM_TORSIONS + 1));
    real *upd = pf_malloc(sizeof(real) * (size_t)(n * cs + 1)), *all = pf_malloc(sizeof(real) * (size_t)(r->Np * cs + 1));
    rows_ipa k = {h, be, r, N, v, zln, seq_mask, upd, all};
    cpu_sm_fwd_ipa(&h->d, &h->p, (const real *)s, ipa_by_rows, &k, R, t, sf, h->d.c_resnet > 0 ? ang : NULL);
    pf_structure_fill_frames(h, N, R, t, ang, sf, out);
    out->ptm = pae_by_rows(h, r, N, v, z, seq_mask, out->pae);
    real *bufs[] = {zln, R, t, sf, ang, upd, all};
    for (size_t b = 0; b < sizeof bufs / sizeof *bufs; b++) pf_free(bufs[b]);
}
