// cpu_trimul_dap.c: the outgoing triangle multiplicative update (AF2 Alg. 11,
// AF3 Alg. 12) on one rank's rows of a row-sharded pair tensor (axial
// parallelism, FastFold's DAP; backend.h: trimul_dap). The math is
// cpu_trimul.c's; only the rows differ. With n = N / P rows [r n, (r + 1) n):
//   zl = LN_in(z)                                             (n, N, c_z)
//   a, b = mask * sigmoid(zl W_g^T) * (zl W_p^T)                (n, N, c) each
//   x_ij = sum_k a_ik b_jk needs b for every j: b is all-gathered (N, N, c)
//   out = sigmoid(zl W_g^T) * (LN_out(x) W_z^T)                (n, N, c_z)
// Backward: da_ik = sum_j dx_ij b_jk (local, with the gathered b); db_jk =
// sum_i dx_ij a_ik is this rank's share for every j: reduce-scattered (an
// all-to-all of the row blocks, then a sum in rank order) back to the owner of
// row j. The incoming update is this op on the transposed tensor with a and b
// swapped (src/model/dap.c).
//
// saved: z (n, N, c_z) | x (n, N, c)
// ws:    zl, y, gate, dzl (n*N*c_z each) | e[0] .. e[4] (n*N*c each) |
//        Bf, T1, T2 (N*N*c each): b channel-major (c, N, N), collective buffers
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    int64_t N, n, nN;  // full width, this rank's rows, n * N
    int P, c, cz;
} td_sz;

typedef struct {
    real *zl, *y, *gate, *dzl;  // (n*N, c_z)
    real *e[5];                 // (n*N*c)
    real *Bf, *T1, *T2;         // (N*N*c)
} td_ws;

static td_sz td_sizes(const pf_trimul_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("trimul_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    if (d->incoming) pf_die("trimul_dap: outgoing only (the incoming update runs on the transposed tensor)");
    td_sz s = {.N = d->N, .n = d->N / P, .P = P, .c = d->c, .cz = d->c_z};
    s.nN = s.n * s.N;
    return s;
}

static td_ws td_carve(const td_sz *s, void *ws) {
    td_ws w;
    real *p = ws;
    w.zl = p;   p += s->nN * s->cz;
    w.y = p;    p += s->nN * s->cz;
    w.gate = p; p += s->nN * s->cz;
    w.dzl = p;  p += s->nN * s->cz;
    for (int k = 0; k < 5; k++) { w.e[k] = p; p += s->nN * s->c; }
    w.Bf = p; p += s->N * s->N * s->c;
    w.T1 = p; p += s->N * s->N * s->c;
    w.T2 = p;
    return w;
}

pf_mem cpu_trimul_dap_mem(pf_backend *be, const pf_trimul_dims *d, int P) {
    td_sz s = td_sizes(d, P);
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(s.nN * (s.cz + s.c));
    m.ws = sizeof(real) * (size_t)(4 * s.nN * s.cz + 5 * s.nN * s.c + 3 * s.N * s.N * s.c);
    m.ws_fwd = m.ws;
    return m;
}

// One side, channel-major: S[ch, q] = mask_q * sigmoid(zl W_g^T)[q, ch] * (zl W_p^T)[q, ch], S (c, n*N).
// tp, tg (n*N, c) scratch.
static void td_side(const td_sz *s, const pf_linear_p *lp, const pf_linear_p *lg, const real *zl,
                    const real *mask, real *tp, real *tg, real *S) {
    const int64_t nN = s->nN, c = s->c;
    cpu_linear_fwd(nN, s->cz, s->c, lp, zl, tp, 0);
    cpu_linear_fwd(nN, s->cz, s->c, lg, zl, tg, 0);
#pragma omp parallel for schedule(static)
    for (int64_t ch = 0; ch < c; ch++)
        for (int64_t q = 0; q < nN; q++)
            S[ch * nN + q] = (mask ? mask[q] : 1) * cpu_sigmoid(tg[q * c + ch]) * tp[q * c + ch];
}

// Bl (c, n, N) of every rank -> Bf (c, N, N), channel-major as the GEMMs want it.
static void td_gather_b(const td_sz *s, const real *Bl, const td_ws *w, const pf_dap_comm *cm) {
    cm->all_gather(cm, Bl, w->T1, sizeof(real) * (size_t)(s->c * s->nN));  // T1 [q][c][n][N]
    for (int q = 0; q < s->P; q++)
        for (int64_t ch = 0; ch < s->c; ch++)
            memcpy(w->Bf + ch * s->N * s->N + q * s->nN, w->T1 + ((int64_t)q * s->c + ch) * s->nN,
                   sizeof(real) * (size_t)s->nN);
}

void cpu_trimul_dap_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z_v,
                        const pf_act *mask_v, pf_act *out_v, void *saved, void *ws, const pf_dap_comm *cm) {
    td_sz s = td_sizes(d, cm->size);
    const real *z = CPU_CR(z_v);        // (n, N, c_z)
    const real *mask = CPU_CR(mask_v);  // (n, N) or NULL
    real *out = CPU_R(out_v);           // (n, N, c_z)
    const int64_t nN = s.nN, N = s.N, n = s.n, c = s.c;
    const int cz = s.cz;
    td_ws w = td_carve(&s, ws);
    real *A = w.e[2], *Bl = w.e[3], *X = w.e[0];     // (c, n, N)
    real *x = saved ? (real *)saved + nN * cz : w.e[1];  // (n, N, c)

    cpu_ln_fwd(nN, cz, &p->ln_in, z, w.zl, NULL, NULL);
    td_side(&s, &p->a_p, &p->a_g, w.zl, mask, w.e[0], w.e[1], A);
    td_side(&s, &p->b_p, &p->b_g, w.zl, mask, w.e[0], w.e[1], Bl);
    td_gather_b(&s, Bl, &w, cm);
    for (int64_t ch = 0; ch < c; ch++)  // X_c (n, N) = A_c (n, N) B_c^T
        cpu_gemm(0, 1, n, N, N, 1, A + ch * nN, N, w.Bf + ch * N * N, N, 0, X + ch * nN, N);
    cpu_transpose01(c, nN, 1, X, x);  // (c, n*N) -> (n*N, c)

    real *xl = A;  // (n, N, c)
    cpu_ln_fwd(nN, (int)c, &p->ln_out, x, xl, NULL, NULL);
    cpu_linear_fwd(nN, (int)c, cz, &p->z, xl, out, 0);
    cpu_linear_fwd(nN, cz, cz, &p->g, w.zl, w.gate, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < nN * cz; q++) out[q] *= cpu_sigmoid(w.gate[q]);
    if (saved) memcpy(saved, z, sizeof(real) * (size_t)(nN * cz));
}

// One side's parameter and input gradients from dS (c, n*N); tp, tg scratch (n*N, c).
static void td_side_bwd(const td_sz *s, const pf_linear_p *lp, const pf_linear_p *lg, pf_linear_p *gp,
                        pf_linear_p *gg, const real *mask, const real *dS, const td_ws *w, real *tp, real *tg) {
    const int64_t nN = s->nN, c = s->c;
    cpu_linear_fwd(nN, s->cz, s->c, lp, w->zl, tp, 0);
    cpu_linear_fwd(nN, s->cz, s->c, lg, w->zl, tg, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < nN; q++)
        for (int64_t ch = 0; ch < c; ch++) {
            real ds = dS[ch * nN + q] * (mask ? mask[q] : 1);
            real sg = cpu_sigmoid(tg[q * c + ch]), vp = tp[q * c + ch];
            tp[q * c + ch] = ds * sg;
            tg[q * c + ch] = ds * vp * sg * (1 - sg);
        }
    cpu_linear_bwd(nN, s->cz, (int)c, lp, gp, w->zl, tp, w->dzl);
    cpu_linear_bwd(nN, s->cz, (int)c, lg, gg, w->zl, tg, w->dzl);
}

// Output gate, projection and LN_out backward: dX (c, n*N) into e[1]; e[0] scratch.
static void td_out_bwd(const td_sz *s, const pf_trimul_p *p, pf_trimul_p *g, const real *x,
                       const real *d_out, const td_ws *w) {
    const int64_t nN = s->nN, c = s->c;
    const int cz = s->cz;
    real **e = (real **)w->e;
    cpu_ln_fwd(nN, (int)c, &p->ln_out, x, e[0], NULL, NULL);  // xl
    cpu_linear_fwd(nN, (int)c, cz, &p->z, e[0], w->y, 0);
    cpu_linear_fwd(nN, cz, cz, &p->g, w->zl, w->gate, 0);
#pragma omp parallel for schedule(static)
    for (int64_t q = 0; q < nN * cz; q++) {
        real sg = cpu_sigmoid(w->gate[q]);
        w->y[q] = d_out[q] * w->y[q] * sg * (1 - sg);  // d gate (pre-sigmoid)
        w->gate[q] = d_out[q] * sg;                    // d y
    }
    memset(w->dzl, 0, sizeof(real) * (size_t)(nN * cz));
    cpu_linear_bwd(nN, cz, cz, &p->g, &g->g, w->zl, w->y, w->dzl);
    memset(e[1], 0, sizeof(real) * (size_t)(nN * c));
    cpu_linear_bwd(nN, (int)c, cz, &p->z, &g->z, e[0], w->gate, e[1]);  // d xl
    memset(e[0], 0, sizeof(real) * (size_t)(nN * c));
    cpu_ln_bwd(nN, (int)c, &p->ln_out, &g->ln_out, x, e[1], e[0]);     // dx (n*N, c)
    cpu_transpose01(nN, c, 1, e[0], e[1]);                              // dX (c, n*N)
}

// dB (c, N, N) summed over the group, this rank's rows kept: dBl (c, n, N).
static void td_reduce_scatter_b(const td_sz *s, const td_ws *w, real *dBl, const pf_dap_comm *cm) {
    const int64_t blk = s->c * s->nN;
    for (int q = 0; q < s->P; q++)  // T1 [q][c][n][N]: the rows of rank q
        for (int64_t ch = 0; ch < s->c; ch++)
            memcpy(w->T1 + q * blk + ch * s->nN, w->Bf + ch * s->N * s->N + q * s->nN,
                   sizeof(real) * (size_t)s->nN);
    cm->all_to_all(cm, w->T1, w->T2, sizeof(real) * (size_t)blk);
    memcpy(dBl, w->T2, sizeof(real) * (size_t)blk);
    for (int q = 1; q < s->P; q++) cpu_axpy(blk, 1, w->T2 + q * blk, dBl);
}

void cpu_trimul_dap_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                        const pf_act *mask_v, const void *saved, const pf_act *d_out_v, pf_act *d_z_v,
                        void *ws, const pf_dap_comm *cm) {
    td_sz s = td_sizes(d, cm->size);
    const int64_t nN = s.nN, N = s.N, n = s.n, c = s.c;
    const real *z = saved;              // (n, N, c_z)
    const real *x = z + nN * s.cz;      // (n, N, c)
    const real *mask = CPU_CR(mask_v);  // (n, N) or NULL
    td_ws w = td_carve(&s, ws);
    real **e = w.e;

    cpu_ln_fwd(nN, s.cz, &p->ln_in, z, w.zl, NULL, NULL);
    td_out_bwd(&s, p, g, x, CPU_CR(d_out_v), &w);
    real *dX = e[1], *A = e[3], *Bl = e[4], *dA = e[0], *dBl = e[2];  // (c, n, N) each
    td_side(&s, &p->a_p, &p->a_g, w.zl, mask, e[0], e[2], A);
    td_side(&s, &p->b_p, &p->b_g, w.zl, mask, e[0], e[2], Bl);
    td_gather_b(&s, Bl, &w, cm);
    for (int64_t ch = 0; ch < c; ch++) {  // X = A B^T: dA = dX B, dB = dX^T A (Bf then holds dB)
        const real *Ac = A + ch * nN, *dXc = dX + ch * nN;
        cpu_gemm(0, 0, n, N, N, 1, dXc, N, w.Bf + ch * N * N, N, 0, dA + ch * nN, N);
        cpu_gemm(1, 0, N, N, n, 1, dXc, N, Ac, N, 0, w.Bf + ch * N * N, N);
    }
    td_reduce_scatter_b(&s, &w, dBl, cm);
    td_side_bwd(&s, &p->a_p, &p->a_g, &g->a_p, &g->a_g, mask, dA, &w, e[3], e[4]);
    td_side_bwd(&s, &p->b_p, &p->b_g, &g->b_p, &g->b_g, mask, dBl, &w, e[3], e[4]);
    cpu_ln_bwd(nN, s.cz, &p->ln_in, &g->ln_in, z, w.dzl, d_z_v ? CPU_R(d_z_v) : NULL);
}

// The all-to-all transpose (backend.h: dap_transpose). Block q of the send
// buffer is x's columns [q n, (q + 1) n) transposed, (n, n, C); rank q places
// the block from rank r at columns [r n, (r + 1) n) of its rows.
void cpu_dap_transpose(pf_backend *be, const pf_dap_comm *cm, int64_t N, int C, const pf_act *x_v, pf_act *out_v,
                       void *ws) {
    const int P = cm->size;
    if (N % P) pf_die("dap_transpose: N = %lld is not a multiple of P = %d", (long long)N, P);
    const int64_t n = N / P, blk = n * n * C;
    const real *x = CPU_CR(x_v);  // (n, N, C)
    real *out = CPU_R(out_v);     // (n, N, C)
    real *snd = ws, *rcv = snd + (int64_t)P * blk;
#pragma omp parallel for schedule(static)
    for (int64_t qj = 0; qj < P * n; qj++) {  // send[q][j][i] = x[i][q n + j]
        const int64_t q = qj / n, j = qj % n;
        for (int64_t i = 0; i < n; i++)
            memcpy(snd + q * blk + (j * n + i) * C, x + (i * N + q * n + j) * C, sizeof(real) * (size_t)C);
    }
    cm->all_to_all(cm, snd, rcv, sizeof(real) * (size_t)blk);
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; j++)  // out[j][r n + i] = rcv[r][j][i]
        for (int r = 0; r < P; r++)
            memcpy(out + (j * N + (int64_t)r * n) * C, rcv + r * blk + j * n * C, sizeof(real) * (size_t)(n * C));
}
