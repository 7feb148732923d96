// model_dap_heads.c: the model's z-sized tensors as this rank's rows (dap > 1,
// pf_model_dap_zrows): z, z_prev, d z and the z-sized scratch hold rows
// i0 .. i0 + n - 1 of the padded (Np, Np, c_z) pair tensor in the executor's
// layout (n, Np, c_z) (dap.h), pad entries zero. Here: the pads, the rows of the
// (N, N) inputs, and the distogram head and loss on rows.
//
// Distogram (modules.h: logits_ij = A_ij + A_ji + b, A = z W^T): A of the rank's
// rows, A^T's rows by one dap_transpose, logits = A^T + (z W^T + b) (a second
// projection accumulated: there is no broadcast of a parameter vector over
// activations); the masked cross-entropy of the rank's rows by xent, its sum
// combined over the group in rank order (the same bits on every rank). The mask
// is pb_i pb_j (stage.c), so every rank knows the group's mask sum from the
// batch. Backward: G = d loss / d logits of the rank's rows, d A = G + G^T (a
// second transpose), d z += d A W; d W += d A^T z and d b += sum G are this
// rank's shares (summed over the group with the sharded blocks' gradients).
#include "model_dap_int.h"
#include "../core/util.h"
#include "structure_rows.h"

#define DISTO_EPS 1e-6  // as the one-process head (cpu_heads.c, cu_heads.cu)
#define XENT_EPS 1e-8   // xent's own (backend.h)

// The AF3 trunk with every block that touches z sharded (the MSA module too, or
// none), and no structure module unless the backend runs it on z's rows
// (structure_rows.h; inference only: training refuses a structure module with
// dap > 1). Otherwise the model's z stays whole on every rank.
int pf_model_dap_zrows_possible(const pf_model *M) {
    const pf_config *c = &M->cfg;
    return M->dap && c->trunk == PF_TRUNK_PAIRFORMER && pf_model_dap_first(M) == 0 &&
           (!c->structure_module || pf_structure_rows_possible(M->be));
}

const pf_dap_comm *pf_model_dap_comm(const pf_model *M) { return &M->dap->c; }

int64_t pf_model_dap_z_gathers(const pf_model *M) { return M->dap ? M->dap->z_gathers : 0; }

int pf_model_dap_zrows(const pf_model *M) { return M->dap && M->dap->zrows; }

void pf_model_dap_rows_of(const pf_model *M, int64_t N, int64_t *i0, int64_t *n, int64_t *Np) {
    const int P = M->dap->c.size;
    *n = pf_dap_rows(N, P);
    *Np = *n * P;
    *i0 = (int64_t)M->dap->c.rank * *n;
}

// Rows of the rank that hold tokens (the others are pads).
static int64_t valid_rows(int64_t N, int64_t i0, int64_t n) { return PF_MAX(0, PF_MIN(n, N - i0)); }

void pf_model_dap_zero_pads(pf_model *M, int64_t N, pf_act *x, int C) {
    pf_backend *be = M->be;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    const int64_t v = valid_rows(N, i0, n);
    if (Np > N)
        for (int64_t il = 0; il < v; il++) be->zero(be, pf_act_at(be, x, (il * Np + N) * C), pf_act_size(be, (Np - N) * C));
    if (v < n) be->zero(be, pf_act_at(be, x, v * Np * C), pf_act_size(be, (n - v) * Np * C));
}

// The rank's rows of an (N, N) input of `elem` bytes an entry into out (n, Np), pads 0.
static void pair_rows(pf_model *M, int64_t N, const void *x, size_t elem, void *out) {
    pf_backend *be = M->be;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    be->zero(be, out, elem * (size_t)(n * Np));
    for (int64_t il = 0; il < valid_rows(N, i0, n); il++)
        be->copy(be, (char *)out + elem * (size_t)(il * Np), (const char *)x + elem * (size_t)((i0 + il) * N),
                 elem * (size_t)N);
}

// The sum over the group of one double per rank, in rank order (the same bits on every rank).
static double group_sum(pf_model *M, double x) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int P = D->c.size;
    if (!D->lsum) D->lsum = be->alloc(be, sizeof(double) * (size_t)P);
    be->upload(be, D->lsum + D->c.rank, &x, sizeof x);
    D->c.all_gather(&D->c, D->lsum + D->c.rank, D->lsum, sizeof(double));
    double *h = pf_malloc(sizeof(double) * (size_t)P), s = 0;
    be->download(be, h, D->lsum, sizeof(double) * (size_t)P);
    for (int q = 0; q < P; q++) s += h[q];
    pf_free(h);
    return s;
}

// The backward of the rows head: G (the rank's rows of d loss / d logits) in tmp_b.
static void disto_rows_bwd(pf_model *M, int64_t R, int64_t Np) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, nb = M->cfg.n_bins;
    be->dap_transpose(be, &D->c, Np, nb, M->tmp_b, M->tmp_a, D->ws);
    be->add(be, M->tmp_a, M->tmp_b, R * nb);  // d A = G + G^T
    pf_linear_p gw = {M->g.disto.w, NULL};
    be->linear_bwd(be, R, cz, nb, &M->p.disto, &gw, M->z, M->tmp_a, M->dz);
    if (!M->g.disto.b) return;
    // d b = sum G (not d A): a Linear's backward with dy = G, its weight gradient to scratch
    if (!D->dw_scratch) D->dw_scratch = be->alloc(be, sizeof(real) * (size_t)nb * (size_t)cz);
    pf_linear_p gb = {D->dw_scratch, M->g.disto.b};
    be->linear_bwd(be, R, cz, nb, &M->p.disto, &gb, M->z, M->tmp_b, NULL);
}

// The logits of the rank's R = n Np rows into tmp_b: A (n, Np, n_bins) = z W^T in tmp_a, A^T's
// rows by one dap_transpose, then z W^T + b accumulated (the loss's and the prediction's).
static void logits_rows(pf_model *M, int64_t R, int64_t Np) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int cz = M->cfg.c_z, nb = M->cfg.n_bins;
    pf_linear_p head = {M->p.disto.w, NULL};
    be->linear_fwd(be, R, cz, nb, &head, M->z, M->tmp_a, 0);
    be->dap_transpose(be, &D->c, Np, nb, M->tmp_a, M->tmp_b, D->ws);
    be->linear_fwd(be, R, cz, nb, &M->p.disto, M->z, M->tmp_b, 1);
}

double pf_model_dap_disto(pf_model *M, int64_t N, const real *pb_mask, double scale, int training) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int nb = M->cfg.n_bins;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    const int64_t R = n * Np;
    pair_rows(M, N, M->in[PF_IN_DISTO_TARGET], sizeof(int32_t), D->dtgt);
    pair_rows(M, N, M->in[PF_IN_DISTO_MASK], pf_act_size(be, 1), D->dmask);
    // mask_ij = pb_i pb_j: the group's sum and this rank's (exact for 0 / 1 masks)
    double all = 0, mine = 0;
    for (int64_t j = 0; j < N; j++) all += pb_mask[j];
    for (int64_t il = 0; il < valid_rows(N, i0, n); il++) mine += pb_mask[i0 + il];
    const double msum = all * all, wr = mine * all;
    logits_rows(M, R, Np);
    // xent divides by its own weight sum: undone, and the group's applied
    const double own = XENT_EPS + wr;
    double lr = be->xent(be, R, nb, M->tmp_b, D->dtgt, D->dmask, scale * own / (DISTO_EPS + msum),
                         training ? M->tmp_b : NULL) * own;
    if (training) disto_rows_bwd(M, R, Np);
    return group_sum(M, lr) / (DISTO_EPS + msum);
}

void pf_model_dap_disto_rows(pf_model *M, int64_t N, int64_t rows_max, void (*row)(void *ctx, int64_t i, const real *l),
                             void *ctx) {
    pf_model_dap *D = M->dap;
    pf_backend *be = M->be;
    const int nb = M->cfg.n_bins;
    int64_t i0, n, Np;
    pf_model_dap_rows_of(M, N, &i0, &n, &Np);
    logits_rows(M, n * Np, Np);
    // rows per gather: what the scratch holds (P blocks of k rows), and at most rows_max so that a
    // caller keeping the rows (predict's rank 0) gets them in pieces of its own bound
    const int64_t rowlen = Np * nb;
    const int64_t kr = PF_MAX(1, PF_MIN(PF_MIN(n, D->bcap / (D->c.size * rowlen)), rows_max > 0 ? rows_max : n));
    real *h = row ? pf_malloc(sizeof(real) * (size_t)(N * nb)) : NULL;
    for (int64_t r0 = 0; r0 < n; r0 += kr) {
        const int64_t k = PF_MIN(kr, n - r0);  // the same on every rank: one collective each
        D->c.all_gather(&D->c, pf_act_at(be, M->tmp_b, r0 * rowlen), D->delta, pf_act_size(be, k * rowlen));
        if (!row) continue;
        for (int q = 0; q < D->c.size; q++)
            for (int64_t t = 0; t < k; t++) {
                const int64_t i = q * n + r0 + t;  // block q holds rows r0 .. r0 + k - 1 of rank q
                if (i >= N) continue;
                be->act_to_real(be, h, pf_act_at(be, D->delta, (q * k + t) * rowlen), N * nb);
                row(ctx, i, h);
            }
    }
    pf_free(h);
}
