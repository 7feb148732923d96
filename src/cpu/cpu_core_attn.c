// cpu_core_attn.c: the attention core alone (modules.h, pf_core_attn_dims), the
// CPU reference of the C API's triangle attention in cuEquivariance's layout:
// q, k, v, o (B, N, H, L, D), so the (L, D) block of one (batch, row, head) is
// contiguous; bias (B, H, L, L); mask (B, N, L).
//
// One unit of work is a (batch, head) pair: it walks its N rows in order, so the
// bias gradient (a sum over rows) is one serial sum with one owner, and output
// and gradients are the same bits for any thread count. Nothing is saved: the
// backward recomputes the probabilities (lse is written for the caller only).
// Masking rule (modules.h): a masked key's logit is replaced by -1e9, so a fully
// masked row averages v uniformly and sends no gradient to q, k or the bias.
#include <math.h>
#include "cpu_ops.h"
#include "../core/util.h"

#define CA_EXP(x) ((real)exp((double)(x)))

size_t cpu_core_attn_ws(pf_backend *be, const pf_core_attn_dims *d) {
    (void)be;
    return sizeof(real) * (size_t)(d->B * d->H) * (size_t)(2 * d->L * d->L);  // P, dS per unit
}

// P (L, L) = softmax over keys of s Q K^T + bias (masked keys -1e9); lse (L), when
// given, receives each query's log-sum-exp of its logits.
static void ca_probs(const pf_core_attn_dims *d, const real *Q, const real *K, const real *bias, const real *mask,
                     real *P, float *lse) {
    const int64_t L = d->L;
    const int D = d->D;
    for (int64_t i = 0; i < L; i++) {
        real *row = P + i * L;
        const real *qi = Q + i * D;
        for (int64_t j = 0; j < L; j++) {
            const real *kj = K + j * D;
            real a = 0;
            for (int c = 0; c < D; c++) a += qi[c] * kj[c];
            row[j] = (real)d->scale * a + (bias ? bias[i * L + j] : 0);
            if (mask && mask[j] == 0) row[j] = -PF_MASK_INF;
        }
        real mx = row[0];
        for (int64_t j = 1; j < L; j++) mx = row[j] > mx ? row[j] : mx;
        real sum = 0;
        for (int64_t j = 0; j < L; j++) { row[j] = CA_EXP(row[j] - mx); sum += row[j]; }
        const real inv = 1 / sum;
        for (int64_t j = 0; j < L; j++) row[j] *= inv;
        if (lse) lse[i] = (float)(mx + log((double)sum));
    }
}

void cpu_core_attn_fwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                       const pf_act *v, const real *bias, const pf_act *mask, pf_act *o, float *lse, void *ws) {
    (void)be;
    const int64_t L = d->L, N = d->N, blk = L * d->D;
    const int H = d->H, D = d->D;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < d->B * H; u++) {
        const int64_t b = u / H, h = u % H;
        real *P = CPU_R(ws) + u * 2 * L * L;
        const real *bu = bias ? bias + u * L * L : NULL;
        for (int64_t n = 0; n < N; n++) {
            const int64_t off = ((b * N + n) * H + h) * blk;  // block (b, n, h): (L, D)
            const real *V = CPU_CR(v) + off;
            real *O = CPU_R(o) + off;
            ca_probs(d, CPU_CR(q) + off, CPU_CR(k) + off, bu, mask ? CPU_CR(mask) + (b * N + n) * L : NULL, P,
                     lse ? lse + ((b * N + n) * H + h) * L : NULL);
            for (int64_t i = 0; i < L; i++) {
                real *oi = O + i * D;
                for (int c = 0; c < D; c++) oi[c] = 0;
                for (int64_t j = 0; j < L; j++) {
                    const real pj = P[i * L + j];
                    for (int c = 0; c < D; c++) oi[c] += pj * V[j * D + c];
                }
            }
        }
    }
}

// One row's backward: dS = P * (dO V^T - rowsum(dO * o)), zero at masked keys;
// dq = s dS K, dk = s dS^T Q, dv = P^T dO; the bias gradient += dS.
static void ca_row_bwd(const pf_core_attn_dims *d, const real *Q, const real *K, const real *V, const real *mask,
                       const real *P, real *dS, const real *dO, real *dq, real *dk, real *dv, real *dbias) {
    const int64_t L = d->L;
    const int D = d->D;
    const real s = (real)d->scale;
    for (int64_t i = 0; i < L; i++) {
        const real *pr = P + i * L, *doi = dO + i * D;
        real *row = dS + i * L, dot = 0;
        for (int64_t j = 0; j < L; j++) {
            real a = 0;
            for (int c = 0; c < D; c++) a += doi[c] * V[j * D + c];
            row[j] = a;
            dot += pr[j] * a;
        }
        for (int64_t j = 0; j < L; j++) row[j] = (mask && mask[j] == 0) ? 0 : pr[j] * (row[j] - dot);
    }
    for (int64_t e = 0; e < L * D; e++) {
        if (dq) dq[e] = 0;
        if (dk) dk[e] = 0;
        if (dv) dv[e] = 0;
    }
    for (int64_t i = 0; i < L; i++) {
        const real *row = dS + i * L, *pr = P + i * L, *qi = Q + i * D, *doi = dO + i * D;
        for (int64_t j = 0; j < L; j++) {
            const real a = row[j];
            for (int c = 0; c < D; c++) {
                if (dq) dq[i * D + c] += s * a * K[j * D + c];
                if (dk) dk[j * D + c] += s * a * qi[c];
                if (dv) dv[j * D + c] += pr[j] * doi[c];
            }
            if (dbias) dbias[i * L + j] += a;
        }
    }
}

void cpu_core_attn_bwd(pf_backend *be, const pf_core_attn_dims *d, const pf_act *q, const pf_act *k,
                       const pf_act *v, const real *bias, const pf_act *mask, const pf_act *o, const float *lse,
                       const pf_act *d_o, pf_act *dq, pf_act *dk, pf_act *dv, real *d_bias, void *ws) {
    (void)be, (void)o, (void)lse;
    if (d_bias && !bias) pf_die("core_attn_bwd: d_bias without a bias");
    const int64_t L = d->L, N = d->N, blk = L * d->D;
    const int H = d->H;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < d->B * H; u++) {
        const int64_t b = u / H, h = u % H;
        real *P = CPU_R(ws) + u * 2 * L * L, *dS = P + L * L;
        const real *bu = bias ? bias + u * L * L : NULL;
        real *db = d_bias ? d_bias + u * L * L : NULL;
        if (db)
            for (int64_t e = 0; e < L * L; e++) db[e] = 0;
        for (int64_t n = 0; n < N; n++) {
            const int64_t off = ((b * N + n) * H + h) * blk;
            const real *mk = mask ? CPU_CR(mask) + (b * N + n) * L : NULL;
            ca_probs(d, CPU_CR(q) + off, CPU_CR(k) + off, bu, mk, P, NULL);
            ca_row_bwd(d, CPU_CR(q) + off, CPU_CR(k) + off, CPU_CR(v) + off, mk, P, dS, CPU_CR(d_o) + off,
                       dq ? CPU_R(dq) + off : NULL, dk ? CPU_R(dk) + off : NULL, dv ? CPU_R(dv) + off : NULL, db);
        }
    }
}
