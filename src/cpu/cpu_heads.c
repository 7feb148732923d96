// cpu_heads.c: relative position encoding (the pair input embedding) and the
// distogram head with its loss, on the CPU.
//
// relpos is a one-hot encoding followed by a Linear, so it is computed as a
// gather-add of weight columns: the (N, N, F) one-hot is never formed.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

// ---------------------------------------------------------------------------
// Relative position features
// ---------------------------------------------------------------------------

// AF3 feature layout (139): [onehot(d_res) 66 | onehot(d_tok) 66 | same_entity | onehot(d_chain) 6]
#define RP_BINS (2 * PF_RELPOS_MAX + 2)  // 66: 65 clipped offsets + "other chain / residue"
#define RP_TOK_OFF RP_BINS
#define RP_ENT_OFF (2 * RP_BINS)
#define RP_CHAIN_OFF (2 * RP_BINS + 1)
#define RP_SMAX 2  // AF3 s_max: chain offsets clipped to [-2, 2]

static inline int clampi(int64_t v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }
static inline int32_t at_or0(const int32_t *a, int64_t i) { return a ? a[i] : 0; }

// Indices of the active (value 1) features of pair (i, j); returns their count
// (1 for AF2, 3 or 4 for AF3). chain, entity, sym may be NULL (all zero).
static int relpos_feats(const pf_relpos_dims *d, const int32_t *res, const int32_t *chain,
                        const int32_t *entity, const int32_t *sym, int64_t i, int64_t j, int f[4]) {
    int same_chain = at_or0(chain, i) == at_or0(chain, j);
    int64_t dr = (int64_t)res[i] - res[j];
    if (!d->af3) {
        // AF2 Alg. 4/5 (OpenFold): clip(r_i - r_j, -32, 32) + 32; other chains -> bin 65
        f[0] = same_chain ? clampi(dr + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1;
        return 1;
    }
    // AF3 Alg. 3 with one token per residue: the token index is the position.
    int same_res = same_chain && res[i] == res[j];
    int n = 0;
    f[n++] = same_chain ? clampi(dr + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1;
    f[n++] = RP_TOK_OFF + (same_res ? clampi(i - j + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1);
    if (at_or0(entity, i) == at_or0(entity, j)) f[n++] = RP_ENT_OFF;
    f[n++] = RP_CHAIN_OFF + (!same_chain ? clampi((int64_t)at_or0(sym, i) - at_or0(sym, j) + RP_SMAX, 0, 2 * RP_SMAX)
                                         : 2 * RP_SMAX + 1);
    return n;
}

static int relpos_nfeat(const pf_relpos_dims *d) { return d->af3 ? PF_RELPOS_AF3_FEATS : PF_RELPOS_AF2_FEATS; }

void cpu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, pf_act *out_v) {
    real *out = CPU_R(out_v);  // (rows, ld, c_z): rows i0 .. of the (N, N, c_z) encoding
    const int64_t N = d->N, R = pf_relpos_nrows(d), ld = pf_relpos_ld(d), i0 = d->i0;
    const int cz = d->c_z, F = relpos_nfeat(d);
    // Transposed weight (F, c_z) so that each gathered column is contiguous.
    real *wt = pf_malloc(sizeof(real) * (size_t)F * (size_t)cz);
    for (int c = 0; c < cz; c++)
        for (int k = 0; k < F; k++) wt[(int64_t)k * cz + c] = p->w[(int64_t)c * F + k];
#pragma omp parallel for schedule(static)
    for (int64_t il = 0; il < R; il++) {
        for (int64_t j = 0; j < N; j++) {
            int f[4];
            int nf = relpos_feats(d, res_idx, chain, entity, sym, i0 + il, j, f);
            real *o = out + (il * ld + j) * cz;
            // One sum per channel, then one add, so out += (W f + b) as a unit.
            for (int c = 0; c < cz; c++) {
                real s = p->b ? p->b[c] : 0;
                for (int t = 0; t < nf; t++) s += wt[(int64_t)f[t] * cz + c];
                o[c] += s;
            }
        }
    }
    pf_free(wt);
}

// Channels per parallel task in the backward: 16 floats = one cache line of d_out.
#define RP_CBLK 16

void cpu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, const pf_act *d_out_v) {
    const real *dout = CPU_CR(d_out_v);  // (rows, ld, c_z) as in the forward
    const int64_t N = d->N, R = pf_relpos_nrows(d), ld = pf_relpos_ld(d), i0 = d->i0;
    const int cz = d->c_z, F = relpos_nfeat(d);
    const int nblk = (cz + RP_CBLK - 1) / RP_CBLK;
    // Sums are formed in scratch, (i, j) in order, and then added once, so
    // every gradient element has one fixed reduction order (any thread count).
    // Double scratch: each entry sums up to N^2 terms.
    double *gw = pf_calloc((size_t)F * (size_t)cz, sizeof(double));  // (c_z, F)
    double *gb = pf_calloc((size_t)cz, sizeof(double));              // (c_z)
#pragma omp parallel for schedule(static)
    for (int blk = 0; blk < nblk; blk++) {
        int c0 = blk * RP_CBLK, c1 = PF_MIN(cz, c0 + RP_CBLK);
        for (int64_t il = 0; il < R; il++)
            for (int64_t j = 0; j < N; j++) {
                int f[4];
                int nf = relpos_feats(d, res_idx, chain, entity, sym, i0 + il, j, f);
                const real *dr = dout + (il * ld + j) * cz;
                for (int c = c0; c < c1; c++) {
                    for (int t = 0; t < nf; t++) gw[(int64_t)c * F + f[t]] += dr[c];
                    gb[c] += dr[c];
                }
            }
    }
    for (int64_t k = 0; k < (int64_t)F * cz; k++) g->w[k] += (real)gw[k];
    if (g->b)
        for (int c = 0; c < cz; c++) g->b[c] += (real)gb[c];
    pf_free(gw);
    pf_free(gb);
}

// ---------------------------------------------------------------------------
// Distogram head and loss
// ---------------------------------------------------------------------------
// With A = z W^T (N, N, n_bins), logits_ij = A_ij + A_ji + b, which is symmetric
// in (i, j); so no symmetrised copy of z is needed.

#define DISTO_EPS 1e-6

// A (N*N, n_bins) = z W^T, no bias.
static real *disto_proj(const pf_disto_dims *d, const pf_linear_p *p, const real *z) {
    int64_t NN = d->N * d->N;
    real *A = pf_malloc(sizeof(real) * (size_t)NN * (size_t)d->n_bins);
    pf_linear_p nob = {p->w, NULL};
    cpu_linear_fwd(NN, d->c_z, d->n_bins, &nob, z, A, 0);
    return A;
}

static void check_targets(const pf_disto_dims *d, const int32_t *target) {
    int64_t NN = d->N * d->N;
    for (int64_t k = 0; k < NN; k++)
        if (target[k] < 0 || target[k] >= d->n_bins)
            pf_die("distogram target %d at pair %lld outside [0, %d)", (int)target[k], (long long)k, d->n_bins);
}

double cpu_disto_fwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                     const pf_act *z_v, const int32_t *target, const pf_act *mask_v) {
    const real *z = CPU_CR(z_v);          // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);    // (N, N) or NULL (all pairs)
    const int64_t N = d->N;
    const int nb = d->n_bins;
    check_targets(d, target);
    real *A = disto_proj(d, p, z);        // (N, N, n_bins)
    double *row_loss = pf_calloc((size_t)(N > 0 ? N : 1), sizeof(double));  // (N)
    double *row_mask = pf_calloc((size_t)(N > 0 ? N : 1), sizeof(double));  // (N)
    // logits are symmetric: each pair {i, j} is evaluated once, by row min(i, j)
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < N; i++) {
        double li = 0, mi = 0;
        for (int64_t j = 0; j < N; j++) mi += mask ? (double)mask[i * N + j] : 1.0;
        for (int64_t j = i; j < N; j++) {
            double mij = mask ? (double)mask[i * N + j] : 1.0, mji = mask ? (double)mask[j * N + i] : 1.0;
            if (i == j) mji = 0;
            if (mij == 0 && mji == 0) continue;
            const real *aij = A + (i * N + j) * nb, *aji = A + (j * N + i) * nb;
            double mx = -INFINITY, se = 0;
            for (int k = 0; k < nb; k++) mx = fmax(mx, (double)aij[k] + aji[k] + (p->b ? p->b[k] : 0));
            for (int k = 0; k < nb; k++) se += exp((double)aij[k] + aji[k] + (p->b ? p->b[k] : 0) - mx);
            double lse = mx + log(se);
            int tij = target[i * N + j], tji = target[j * N + i];
            // -log softmax_t = lse - logit_t
            if (mij != 0) li += mij * (lse - ((double)aij[tij] + aji[tij] + (p->b ? p->b[tij] : 0)));
            if (mji != 0) li += mji * (lse - ((double)aij[tji] + aji[tji] + (p->b ? p->b[tji] : 0)));
        }
        row_loss[i] = li;
        row_mask[i] = mi;
    }
    double loss = 0, msum = 0;
    for (int64_t i = 0; i < N; i++) { loss += row_loss[i]; msum += row_mask[i]; }
    pf_free(row_loss);
    pf_free(row_mask);
    pf_free(A);
    return loss / (DISTO_EPS + msum);
}

void cpu_disto_bwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                   pf_linear_p *g, const pf_act *z_v, const int32_t *target,
                   const pf_act *mask_v, double scale, pf_act *dz_v) {
    const real *z = CPU_CR(z_v);          // (N, N, c_z)
    const real *mask = CPU_CR(mask_v);    // (N, N) or NULL
    const int64_t N = d->N, NN = N * N;
    const int nb = d->n_bins, cz = d->c_z;
    check_targets(d, target);
    double msum = 0;
    for (int64_t k = 0; k < NN; k++) msum += mask ? (double)mask[k] : 1.0;
    const double coef = scale / (DISTO_EPS + msum);
    // G_ij = d loss / d logits_ij = coef * m_ij * (softmax - onehot(t_ij)). Since
    // logits_ij = A_ij + A_ji + b, d loss / d A_ij = G_ij + G_ji =: Gs_ij (symmetric),
    // built in place over A: the pair {i, j} is handled by row min(i, j) only.
    real *Gs = disto_proj(d, p, z);       // (N, N, n_bins): A, then Gs
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < N; i++) {
        for (int64_t j = i; j < N; j++) {
            real *aij = Gs + (i * N + j) * nb, *aji = Gs + (j * N + i) * nb;
            double mij = mask ? (double)mask[i * N + j] : 1.0, mji = mask ? (double)mask[j * N + i] : 1.0;
            int tij = target[i * N + j], tji = target[j * N + i];
            if (mij == 0 && (i == j || mji == 0)) {  // a padded pair: no gradient
                for (int k = 0; k < nb; k++) aij[k] = aji[k] = 0;
                continue;
            }
            double mx = -INFINITY, se = 0;
            for (int k = 0; k < nb; k++) {
                double l = (double)aij[k] + aji[k] + (p->b ? p->b[k] : 0);
                if (l > mx) mx = l;
            }
            // aij[k] is read for the last time here: it keeps exp(logit_k - max)
            for (int k = 0; k < nb; k++) {
                double e = exp((double)aij[k] + aji[k] + (p->b ? p->b[k] : 0) - mx);
                aij[k] = (real)e;
                se += e;
            }
            for (int k = 0; k < nb; k++) {
                double pk = (double)aij[k] / se;
                double gij = coef * mij * (pk - (k == tij));
                double gs = i == j ? 2 * gij : gij + coef * mji * (pk - (k == tji));
                aij[k] = (real)gs;
                if (i != j) aji[k] = (real)gs;
            }
        }
    }
    // a Linear's backward with dy = Gs: dW += sum_ij G_ij^T (z_ij + z_ji) = Gs^T z, dz += Gs W;
    // db = sum_ij G_ij = sum_ij Gs_ij / 2 (summed in double)
    pf_linear_p gw = {g ? g->w : NULL, NULL};
    cpu_linear_bwd(NN, cz, nb, p, g ? &gw : NULL, z, Gs, dz_v ? CPU_R(dz_v) : NULL);
    if (g && g->b) {
#pragma omp parallel for schedule(static)
        for (int k = 0; k < nb; k++) {
            double s = 0;
            for (int64_t q = 0; q < NN; q++) s += Gs[q * nb + k];
            g->b[k] += (real)(s / 2);
        }
    }
    pf_free(Gs);
}

// ---------------------------------------------------------------------------
// Weighted softmax cross-entropy (the masked-MSA loss). Row losses are summed
// in row order: deterministic for any thread count.
double cpu_xent(pf_backend *be, int64_t M, int C, const pf_act *logits_v, const int32_t *target,
                const pf_act *weight_v, double scale, pf_act *dlogits_v) {
    (void)be;
    const real *l = CPU_CR(logits_v), *w = weight_v ? CPU_CR(weight_v) : NULL;
    real *d = dlogits_v ? CPU_R(dlogits_v) : NULL;
    double wsum = 0;
    for (int64_t m = 0; m < M; m++) wsum += w ? (double)w[m] : 1.0;
    for (int64_t m = 0; m < M; m++)
        if (target[m] < 0 || target[m] >= C) pf_die("xent: target %d of row %lld outside [0, %d)", target[m], (long long)m, C);
    double coef = scale / (1e-8 + wsum);
    double *rl = pf_malloc(sizeof(double) * (size_t)(M > 0 ? M : 1));
#pragma omp parallel for schedule(static)
    for (int64_t m = 0; m < M; m++) {
        const real *row = l + m * C;
        double mx = -INFINITY, se = 0, wm = w ? (double)w[m] : 1.0;
        for (int c = 0; c < C; c++) mx = row[c] > mx ? row[c] : mx;
        for (int c = 0; c < C; c++) se += exp(row[c] - mx);
        double lse = mx + log(se), lt = row[target[m]];
        rl[m] = wm == 0 ? 0 : wm * (lse - lt);
        if (d)  // row[c] is read before d[c] is written, so d may alias l
            for (int c = 0; c < C; c++) {
                double p = exp(row[c] - lse);
                d[m * C + c] = (real)(coef * wm * (p - (c == target[m])));
            }
    }
    double ls = 0;
    for (int64_t m = 0; m < M; m++) ls += rl[m];
    pf_free(rl);
    return ls / (1e-8 + wsum);
}
