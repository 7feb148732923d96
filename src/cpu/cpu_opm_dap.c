// cpu_opm_dap.c: the outer product mean (AF2 Alg. 10; cpu_opm.c has the math)
// on one rank's columns of a column-sharded MSA (axial parallelism, backend.h:
// opm_dap). Rank r holds m[:, r n .. (r + 1) n) (S, n, c_m) and writes rows
// [r n, (r + 1) n) of the update (n, N, c_z):
//   a, b = (LN(m) W^T + bias) * mask on its columns        (S, n, c)
//   o_ij = sum_s a_si b_sj needs b of every column j: b and the mask are
//   all-gathered, (S, N, c) and (S, N)
// Backward: da of its columns is local; db_sj = sum_i a_si do_ij is this rank's
// share for every column j: reduce-scattered (all-to-all of column blocks, then
// a sum in rank order) back to the owner of column j.
//
// saved: m (S, n, c_m)
// ws:    ml (S, n, c_m) | a, bl (S, n, c) | b (S, N, c) | mask (S, N) | norm (n, N) |
//        C, P (bi*N*c*c each) | dpre (bi*N, c_z) | da, dbl (S, n, c) | db (S, N, c) |
//        dml (S, n, c_m) | T1, T2 (S*N*c each): collective buffers
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

#define OPM_EPS 1e-3
#define OPM_BLOCK_ELEMS ((int64_t)1 << 22)

typedef struct {
    int64_t S, N, n;  // MSA rows, all columns, this rank's columns
    int P, c, cm, cz;
    int64_t bi;       // rows i per block of o
} od_sz;

typedef struct {
    real *ml, *a, *bl, *b, *mask, *norm, *C, *P, *dpre, *da, *dbl, *db, *dml, *T1, *T2;
} od_ws;

static od_sz od_sizes(const pf_opm_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("opm_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    od_sz s = {.S = d->S, .N = d->N, .n = d->N / P, .P = P, .c = d->c, .cm = d->c_m, .cz = d->c_z};
    int64_t row = s.N * s.c * s.c;
    s.bi = PF_MAX(1, PF_MIN(s.n, row > 0 ? OPM_BLOCK_ELEMS / row : 1));
    return s;
}

static od_ws od_carve(const od_sz *s, void *ws) {
    const int64_t Sn = s->S * s->n, SN = s->S * s->N, blk = s->bi * s->N;
    od_ws w;
    real *p = ws;
    w.ml = p;   p += Sn * s->cm;
    w.a = p;    p += Sn * s->c;
    w.bl = p;   p += Sn * s->c;
    w.b = p;    p += SN * s->c;
    w.mask = p; p += SN;
    w.norm = p; p += s->n * s->N;
    w.C = p;    p += blk * s->c * s->c;
    w.P = p;    p += blk * s->c * s->c;
    w.dpre = p; p += blk * s->cz;
    w.da = p;   p += Sn * s->c;
    w.dbl = p;  p += Sn * s->c;
    w.db = p;   p += SN * s->c;
    w.dml = p;  p += Sn * s->cm;
    w.T1 = p;   p += SN * s->c;
    w.T2 = p;
    return w;
}

pf_mem cpu_opm_dap_mem(pf_backend *be, const pf_opm_dims *d, int P) {
    od_sz s = od_sizes(d, P);
    const int64_t Sn = s.S * s.n, SN = s.S * s.N, blk = s.bi * s.N;
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(Sn * s.cm);
    m.ws = sizeof(real) * (size_t)(2 * Sn * s.cm + 4 * Sn * s.c + 4 * SN * s.c + SN + s.n * s.N +
                                   2 * blk * s.c * s.c + blk * s.cz);
    m.ws_fwd = m.ws;
    return m;
}

// Every rank's (S, n, C) columns into (S, N, C): T1 receives [q][S][n][C].
static void od_gather_cols(const od_sz *s, const real *x, int C, real *full, real *T1, const pf_dap_comm *cm) {
    const int64_t blk = s->S * s->n * C;
    cm->all_gather(cm, x, T1, sizeof(real) * (size_t)blk);
    for (int q = 0; q < s->P; q++)
        for (int64_t r = 0; r < s->S; r++)
            memcpy(full + (r * s->N + q * s->n) * C, T1 + q * blk + r * s->n * C, sizeof(real) * (size_t)(s->n * C));
}

// ml = LN(m); a, b = linear(ml) * mask; b and the mask gathered; norm (n, N).
static void od_prologue(const od_sz *s, const pf_opm_p *p, const real *m, const real *mask, const od_ws *w,
                        const pf_dap_comm *cm) {
    const int64_t Sn = s->S * s->n;
    const int c = s->c;
    cpu_ln_fwd(Sn, s->cm, &p->ln, m, w->ml, NULL, NULL);
    cpu_linear_fwd(Sn, s->cm, c, &p->a, w->ml, w->a, 0);
    cpu_linear_fwd(Sn, s->cm, c, &p->b, w->ml, w->bl, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < Sn; q++)
        for (int k = 0; k < c; k++) {
            w->a[q * c + k] *= mask[q];
            w->bl[q * c + k] *= mask[q];
        }
    od_gather_cols(s, w->bl, c, w->b, w->T1, cm);
    od_gather_cols(s, mask, 1, w->mask, w->T1, cm);
    cpu_gemm(1, 0, s->n, s->N, s->S, 1, mask, s->n, w->mask, s->N, 0, w->norm, s->N);  // (n, N)
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < s->n * s->N; q++) w->norm[q] = (real)(1.0 / (OPM_EPS + (double)w->norm[q]));
}

// Rows i0 .. i0+bi-1 (local): C (bi*c, N*c) = a[:, i-block]^T b; P (bi, N, c*c) its permutation.
static void od_outer_block(const od_sz *s, const od_ws *w, int64_t i0, int64_t bi) {
    const int64_t c = s->c, Nc = s->N * c;
    cpu_gemm(1, 0, bi * c, Nc, s->S, 1, w->a + i0 * c, s->n * c, w->b, Nc, 0, w->C, Nc);
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < bi * s->N; ij++) {
        int64_t ii = ij / s->N, j = ij % s->N;
        for (int64_t c1 = 0; c1 < c; c1++)
            for (int64_t c2 = 0; c2 < c; c2++) w->P[ij * c * c + c1 * c + c2] = w->C[(ii * c + c1) * Nc + j * c + c2];
    }
}

void cpu_opm_dap_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m_v,
                     const pf_act *mask_v, pf_act *out_v, void *saved, void *ws, const pf_dap_comm *cm) {
    od_sz s = od_sizes(d, cm->size);
    const real *m = CPU_CR(m_v);        // (S, n, c_m)
    const real *mask = CPU_CR(mask_v);  // (S, n)
    real *out = CPU_R(out_v);           // (n, N, c_z)
    if (!mask) pf_die("opm_dap: needs the MSA mask");
    od_ws w = od_carve(&s, ws);
    od_prologue(&s, p, m, mask, &w, cm);
    for (int64_t i0 = 0; i0 < s.n; i0 += s.bi) {
        int64_t bi = PF_MIN(s.bi, s.n - i0);
        od_outer_block(&s, &w, i0, bi);
        real *o = out + i0 * s.N * s.cz;  // (bi, N, c_z)
        cpu_linear_fwd(bi * s.N, s.c * s.c, s.cz, &p->o, w.P, o, 0);
#pragma omp parallel for schedule(static)
        for (int64_t ij = 0; ij < bi * s.N; ij++)
            for (int k = 0; k < s.cz; k++) o[ij * s.cz + k] *= w.norm[i0 * s.N + ij];
    }
    if (saved) memcpy(saved, m, sizeof(real) * (size_t)(s.S * s.n * s.cm));
}

// One block of rows: d o -> W_o's gradient, then dC into C, then da (its columns), db (every column).
static void od_block_bwd(const od_sz *s, const pf_opm_p *p, pf_opm_p *g, const real *d_out, const od_ws *w,
                         int64_t i0, int64_t bi) {
    const int64_t c = s->c, Nc = s->N * c;
    const int cz = s->cz;
    od_outer_block(s, w, i0, bi);
    const real *dob = d_out + i0 * s->N * cz;
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < bi * s->N; ij++)
        for (int k = 0; k < cz; k++) w->dpre[ij * cz + k] = dob[ij * cz + k] * w->norm[i0 * s->N + ij];
    cpu_linear_bwd(bi * s->N, (int)(c * c), cz, &p->o, &g->o, w->P, w->dpre, NULL);
    memset(w->P, 0, sizeof(real) * (size_t)(bi * s->N * c * c));
    cpu_linear_bwd(bi * s->N, (int)(c * c), cz, &p->o, NULL, NULL, w->dpre, w->P);
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < bi * s->N; ij++) {
        int64_t ii = ij / s->N, j = ij % s->N;
        for (int64_t c1 = 0; c1 < c; c1++)
            for (int64_t c2 = 0; c2 < c; c2++) w->C[(ii * c + c1) * Nc + j * c + c2] = w->P[ij * c * c + c1 * c + c2];
    }
    cpu_gemm(0, 1, s->S, bi * c, Nc, 1, w->b, Nc, w->C, Nc, 0, w->da + i0 * c, s->n * c);
    cpu_gemm(0, 0, s->S, Nc, bi * c, 1, w->a + i0 * c, s->n * c, w->C, Nc, 1, w->db, Nc);
}

void cpu_opm_dap_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask_v,
                     const void *saved, const pf_act *d_out_v, pf_act *d_m_v, void *ws, const pf_dap_comm *cm) {
    od_sz s = od_sizes(d, cm->size);
    const real *m = saved;                // (S, n, c_m)
    const real *mask = CPU_CR(mask_v);    // (S, n)
    const int64_t Sn = s.S * s.n, c = s.c, blk = Sn * c;
    od_ws w = od_carve(&s, ws);
    od_prologue(&s, p, m, mask, &w, cm);
    memset(w.db, 0, sizeof(real) * (size_t)(s.S * s.N * c));
    for (int64_t i0 = 0; i0 < s.n; i0 += s.bi) od_block_bwd(&s, p, g, CPU_CR(d_out_v), &w, i0, PF_MIN(s.bi, s.n - i0));
    for (int q = 0; q < s.P; q++)  // T1 [q][S][n][c]: the columns of rank q
        for (int64_t r = 0; r < s.S; r++)
            memcpy(w.T1 + q * blk + r * s.n * c, w.db + (r * s.N + q * s.n) * c, sizeof(real) * (size_t)(s.n * c));
    cm->all_to_all(cm, w.T1, w.T2, sizeof(real) * (size_t)blk);
    memcpy(w.dbl, w.T2, sizeof(real) * (size_t)blk);
    for (int q = 1; q < s.P; q++) cpu_axpy(blk, 1, w.T2 + q * blk, w.dbl);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < Sn; q++)
        for (int64_t k = 0; k < c; k++) {
            w.da[q * c + k] *= mask[q];
            w.dbl[q * c + k] *= mask[q];
        }
    memset(w.dml, 0, sizeof(real) * (size_t)(Sn * s.cm));
    cpu_linear_bwd(Sn, s.cm, (int)c, &p->a, &g->a, w.ml, w.da, w.dml);
    cpu_linear_bwd(Sn, s.cm, (int)c, &p->b, &g->b, w.ml, w.dbl, w.dml);
    cpu_ln_bwd(Sn, s.cm, &p->ln, &g->ln, m, w.dml, d_m_v ? CPU_R(d_m_v) : NULL);
}

// Re-sharding of an MSA-shaped tensor (backend.h: dap_reshard) between columns
// (S, n, C) and rows (s, N, C), s = S / P, n = N / P. Columns to rows: block q
// of x is rows [q s, (q + 1) s) of this rank's columns, already contiguous;
// rank q places the block from rank r at columns [r n, (r + 1) n). Rows to
// columns: the inverse.
void cpu_dap_reshard(pf_backend *be, const pf_dap_comm *cm, int64_t S, int64_t N, int C, const pf_act *x_v,
                     pf_act *out_v, void *ws, int to_rows) {
    const int P = cm->size;
    if (S % P || N % P) pf_die("dap_reshard: %lld x %lld is not a multiple of P = %d", (long long)S, (long long)N, P);
    const int64_t s = S / P, n = N / P, blk = s * n * C;
    const real *x = CPU_CR(x_v);
    real *out = CPU_R(out_v), *snd = ws, *rcv = snd + (int64_t)P * blk;
    if (to_rows) {
        cm->all_to_all(cm, x, rcv, sizeof(real) * (size_t)blk);  // x (S, n, C) is [q][s][n][C]
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < s; r++)
            for (int q = 0; q < P; q++)
                memcpy(out + (r * N + (int64_t)q * n) * C, rcv + q * blk + r * n * C, sizeof(real) * (size_t)(n * C));
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < s; r++)  // snd[q][r][n][C] = x[r][q n ..][C]
            for (int q = 0; q < P; q++)
                memcpy(snd + q * blk + r * n * C, x + (r * N + (int64_t)q * n) * C, sizeof(real) * (size_t)(n * C));
        cm->all_to_all(cm, snd, out, sizeof(real) * (size_t)blk);  // out (S, n, C) is [q][s][n][C]
    }
}
