// cu_dap_opm.cu: the outer product mean on one rank's columns of a
// column-sharded MSA (backend.h: opm_dap; the CPU reference is cpu_opm_dap.c),
// on cu_opm.cu's pieces. Rank r holds m[:, r n .. (r + 1) n) (S, n, c_m) and
// writes rows [r n, (r + 1) n) of the update (n, N, c_z): a, b of its columns;
// b and the MSA mask all-gathered (S, N, c), (S, N); the outer products of a
// block of its rows i straight into P' (bi, N, c2, c1) for linear_out (W_o in that
// column order), as the unsharded op does. Backward: da of its columns is local; db (S, N, c) is this
// rank's share for every column: reduce-scattered (all-to-all of column blocks,
// then a sum in rank order in fp32: the same bits for any NCCL algorithm).
//
// saved: m (S, n, c_m)
// ws: ml (S, n, c_m) | a, bl (S, n, c) | b (S, N, c) | mk (S, N) | norm (n, N) fp32 |
//     C, P (bi N c^2) | dpre (bi N, c_z) | da, dbl (S, n, c) | db (S, N, c) | dml (S, n, c_m) |
//     T1, T2 (S, N, c): the collectives' buffers | W_o^t (c_z, c^2) | dW_o^t (c_z, c^2) fp32
#include "cu_dap.cuh"
#include "cu_opm.cuh"

typedef struct {
    int64_t S, N, n, bi;  // MSA rows, all columns, this rank's columns, rows i per block
    int P, c, cm, cz;
} od_sz;
typedef struct { void *ml, *a, *bl, *b, *mk, *C, *P, *dpre, *da, *dbl, *db, *dml, *T1, *T2, *wt; float *norm, *dwt; } od_ws;

static od_sz od_sizes(const pf_opm_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("opm_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    od_sz s = {d->S, d->N, d->N / P, 0, P, d->c, d->c_m, d->c_z};
    s.bi = cu_opm_block(s.n, s.N, s.c);
    return s;
}

static size_t od_layout(cu_impl *c, const od_sz *s, void *ws, od_ws *w) {
    size_t e = cu_esz(c);
    const int64_t Sn = s->S * s->n, SN = s->S * s->N, blk = s->bi * s->N;
    cu_carver cv = {(char *)ws, 0};
    w->ml = cu_carve(&cv, (size_t)(Sn * s->cm) * e);
    w->a = cu_carve(&cv, (size_t)(Sn * s->c) * e);
    w->bl = cu_carve(&cv, (size_t)(Sn * s->c) * e);
    w->b = cu_carve(&cv, (size_t)(SN * s->c) * e);
    w->mk = cu_carve(&cv, (size_t)SN * e);
    w->norm = (float *)cu_carve(&cv, sizeof(float) * (size_t)(s->n * s->N));
    w->C = cu_carve(&cv, (size_t)(blk * s->c * s->c) * e);
    w->P = cu_carve(&cv, (size_t)(blk * s->c * s->c) * e);
    w->dpre = cu_carve(&cv, (size_t)(blk * s->cz) * e);
    w->da = cu_carve(&cv, (size_t)(Sn * s->c) * e);
    w->dbl = cu_carve(&cv, (size_t)(Sn * s->c) * e);
    w->db = cu_carve(&cv, (size_t)(SN * s->c) * e);
    w->dml = cu_carve(&cv, (size_t)(Sn * s->cm) * e);
    w->T1 = cu_carve(&cv, (size_t)(SN * s->c) * e);
    w->T2 = cu_carve(&cv, (size_t)(SN * s->c) * e);
    w->wt = cu_carve(&cv, (size_t)(s->cz * s->c * s->c) * e);
    w->dwt = (float *)cu_carve(&cv, sizeof(float) * (size_t)(s->cz * s->c * s->c));
    return cv.off;
}

pf_mem cu_opm_dap_mem(pf_backend *be, const pf_opm_dims *d, int P) {
    od_sz s = od_sizes(d, P);
    od_ws w;
    pf_mem m;
    m.ws = od_layout(CU(be), &s, NULL, &w);
    m.ws_fwd = m.ws;
    m.saved = (size_t)(s.S * s.n * s.cm) * cu_esz(CU(be));
    return m;
}

// ml = LN(m); a, b of the columns, masked; b and the mask gathered; norm (n, N).
static void od_prologue(cu_impl *c, const od_sz *s, const pf_opm_p *p, const void *m, const void *mask,
                        const od_ws *w, const pf_dap_comm *cm) {
    const int64_t Sn = s->S * s->n;
    size_t e = cu_esz(c);
    cu_ln_fwd(c, Sn, s->cm, &p->ln, m, w->ml);
    cu_linear_fwd(c, Sn, s->cm, s->c, &p->a, w->ml, w->a, 0);
    cu_linear_fwd(c, Sn, s->cm, s->c, &p->b, w->ml, w->bl, 0);
    cu_row_mask(c, w->a, w->a, mask, Sn, s->c);
    cu_row_mask(c, w->bl, w->bl, mask, Sn, s->c);
    cm->all_gather(cm, w->bl, w->T1, (size_t)(Sn * s->c) * e);
    cu_dap_cols(c, w->b, w->T1, s->S, s->n, s->P, s->c, 0);
    cm->all_gather(cm, mask, w->T1, (size_t)Sn * e);
    cu_dap_cols(c, w->mk, w->T1, s->S, s->n, s->P, 1, 0);
    cu_gemm(c, 1, 0, s->n, s->N, s->S, 1.f, mask, CU_ACT, s->n, w->mk, CU_ACT, s->N, 0.f, w->norm, CU_F32, s->N, 1, 0,
            0, 0, NULL);
    cu_opm_norm(c, w->norm, s->n * s->N, (float)s->S, 1);
}

// Rows i0 .. i0 + bi - 1 (local): P' (bi, N, c2, c1) of a[:, i-block] and b (cu_opm_outer_t).
static void od_outer_block(cu_impl *c, const od_sz *s, const od_ws *w, int64_t i0, int64_t bi) {
    cu_opm_outer_t(c, (char *)w->a + (size_t)(i0 * s->c) * cu_esz(c), s->n * s->c, w->b, s->S, bi, s->N, s->c, w->P);
}

void cu_opm_dap_fwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, const pf_act *m, const pf_act *mask,
                    pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    od_sz s = od_sizes(d, cm->size);
    if (!mask) pf_die("opm_dap: needs the MSA mask");
    od_ws w;
    od_layout(c, &s, ws, &w);
    size_t e = cu_esz(c);
    od_prologue(c, &s, p, m, mask, &w, cm);
    cu_opm_w_t(c, &p->o, s.cz, s.c, w.wt);
    for (int64_t i0 = 0; i0 < s.n; i0 += s.bi) {
        int64_t bi = s.bi < s.n - i0 ? s.bi : s.n - i0;
        od_outer_block(c, &s, &w, i0, bi);
        void *o = (char *)out + (size_t)(i0 * s.N * s.cz) * e;  // (bi, N, c_z)
        cu_opm_out_t(c, bi * s.N, s.cz, s.c, &p->o, w.P, w.wt, o);
        cu_opm_row_scale(c, o, o, w.norm + i0 * s.N, bi * s.N, s.cz);
    }
    if (saved) cu_copy_act(c, saved, m, s.S * s.n * s.cm);
}

// One block of rows: W_o's gradient (P' order, into dwt), dC, then da (its columns) and db (every column, added).
static void od_block_bwd(cu_impl *c, const od_sz *s, const pf_opm_p *p, pf_opm_p *g, const void *d_out,
                         const od_ws *w, int64_t i0, int64_t bi) {
    const int64_t ch = s->c, Nc = s->N * ch;
    size_t e = cu_esz(c);
    od_outer_block(c, s, w, i0, bi);
    cu_opm_row_scale(c, w->dpre, (const char *)d_out + (size_t)(i0 * s->N * s->cz) * e, w->norm + i0 * s->N,
                     bi * s->N, s->cz);
    cu_opm_out_t_dw(c, bi * s->N, s->cz, s->c, w->P, w->dpre, w->dwt, i0 == 0, &g->o);
    cu_linear_bwd_set(c, bi * s->N, (int)(ch * ch), s->cz, &p->o, NULL, NULL, w->dpre, w->P);  // dP over P'
    cu_opm_perm_to_c(c, w->C, w->P, bi, s->N, s->c);
    cu_gemm(c, 0, 1, s->S, bi * ch, Nc, 1.f, w->b, CU_ACT, Nc, w->C, CU_ACT, Nc, 0.f,
            (char *)w->da + (size_t)(i0 * ch) * e, CU_ACT, s->n * ch, 1, 0, 0, 0, NULL);
    cu_gemm(c, 0, 0, s->S, Nc, bi * ch, 1.f, (char *)w->a + (size_t)(i0 * ch) * e, CU_ACT, s->n * ch, w->C, CU_ACT,
            Nc, 1.f, w->db, CU_ACT, Nc, 1, 0, 0, 0, NULL);
}

void cu_opm_dap_bwd(pf_backend *be, const pf_opm_dims *d, const pf_opm_p *p, pf_opm_p *g, const pf_act *mask,
                    const void *saved, const pf_act *d_out, pf_act *d_m, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    od_sz s = od_sizes(d, cm->size);
    od_ws w;
    od_layout(c, &s, ws, &w);
    const int64_t Sn = s.S * s.n, blk = Sn * s.c;
    od_prologue(c, &s, p, saved, mask, &w, cm);
    cu_fill(c, w.db, 0.f, s.S * s.N * s.c);
    for (int64_t i0 = 0; i0 < s.n; i0 += s.bi)
        od_block_bwd(c, &s, p, g, d_out, &w, i0, s.bi < s.n - i0 ? s.bi : s.n - i0);
    if (s.n > 0) cu_opm_dw_t_add(c, w.dwt, s.cz, s.c, g->o.w);
    cu_dap_cols(c, w.db, w.T1, s.S, s.n, s.P, s.c, 1);  // T1 [q][S][n][c]: the columns of rank q
    cm->all_to_all(cm, w.T1, w.T2, (size_t)blk * cu_esz(c));
    cu_dap_sum_blocks(c, w.T2, s.P, blk, 1, w.dbl);
    cu_row_mask(c, w.da, w.da, mask, Sn, s.c);
    cu_row_mask(c, w.dbl, w.dbl, mask, Sn, s.c);
    cu_linear_bwd_set(c, Sn, s.cm, s.c, &p->a, &g->a, w.ml, w.da, w.dml);
    cu_linear_bwd(c, Sn, s.cm, s.c, &p->b, &g->b, w.ml, w.dbl, w.dml);
    cu_ln_bwd(c, Sn, s.cm, &p->ln, &g->ln, saved, w.dml, d_m);
}
